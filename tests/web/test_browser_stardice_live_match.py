"""The match on the live page, as players keep it (the real table; It. 3 "Wish that
the game could keep track of the score"): `playtable stardice table --dice sample` in a real
browser, `TuioSim` throwing at it over loopback UDP. The players start a war, press the call,
enter the Borg die's face and each ship's face from the panel beside the table, see whose turn it
is (FR Battle 1-2), and when the Borg die is knocked off the table rule who forfeits (FR Other
rules): the battle is scored into the war. Screenshots at 1280x800 and 390x844 go to
`$PLAYTABLE_SCREENSHOTS`, else the test's temporary directory."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path
from typing import Any

from tests.web.browser_support import new_page
from tests.web.live_support import OPERATOR, live_server
from tests.web.live_support import send as send_stream

from playtable.tableinput.sim import TuioSim


def send(port: int, frames: list[tuple[float, bytes]], speed: float = 10.0) -> None:
    """A throw's datagrams, `speed` times faster than the dice moved."""
    send_stream(port, [(t / speed, data) for t, data in frames])


def match(page: Any) -> dict[str, Any]:
    view: dict[str, Any] = page.evaluate("window.playtableLive.match")
    return view


def enter_faces(page: Any, faces: dict[str, int]) -> None:
    """Each face the panel asks for: its button opens the die's picker, a tap on the face."""
    for die, value in faces.items():
        button = page.locator(f".live-missing [data-die='{die}']")
        if button.count():
            button.click()
            page.click(f".live-picker button[data-value='{value}']")
            page.locator(f".live-missing [data-die='{die}']").wait_for(state="detached")


def test_players_keep_a_battle_on_the_live_page(chromium: Any, tmp_path: Path) -> None:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    sim = TuioSim(seed=2, battles=1)
    with live_server(tmp_path, dice="sample") as server:
        page = new_page(chromium, 1280, 800)
        page.goto(server.url + f"/live/main#control={OPERATOR}")
        page.wait_for_function("window.playtableLive.controls")
        page.click("[data-act=start]")
        page.wait_for_function("window.playtableLive.match?.phase === 'call'")
        assert "the Klingon rolls the Borg die" in page.inner_text(".live-prompt")
        steps = sim.steps()
        ships = 0
        for step in steps:
            if step.kind == "call":
                page.click(f"[data-act=call-{step.parity}]")
                page.wait_for_function("window.playtableLive.match.phase === 'borg'")
                continue
            send(server.tuio_port, step.frames)
            if step.die == "borg":
                page.locator(".live-missing [data-die='borg']").wait_for()
            else:
                page.wait_for_function(f"!window.playtableLive.match.hands[{step.seat}]"
                                       f".includes('{step.die}')")
                ships += 1
            enter_faces(page, {d: v for d, v in step.faces.items() if d in match(page)["missing"]})
            # the Borg die decides once it lies still with its face in
            page.wait_for_function("window.playtableLive.match.phase === 'throw'"
                                   " && !window.playtableLive.match.missing.length")
            view = match(page)
            name = ("Federation", "Klingon")[view["to_move"]]
            assert page.inner_text(".live-prompt") == f"The {name}'s turn: warp in a ship."
            if ships == 4:
                break
        page.screenshot(path=str(shots / "stardice-live-match.png"))
        # the Borg die is knocked off: the players rule that the Klingon hit it off
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for _ in range(4):
                sock.sendto(sim.lift("borg"), ("127.0.0.1", server.tuio_port))
                time.sleep(0.15)
        page.click("[data-act=forfeit-borg-1]")
        page.wait_for_function("window.playtableLive.match.battle === 2")
        view = match(page)
        assert view["forfeits"] == [1] and view["war"][1] == 0 and view["war"] == view["battle_points"][0]
        assert page.inner_text(".live-last strong") == f"Battle 1: Federation {view['war'][0]} · Klingon 0"
        page.screenshot(path=str(shots / "stardice-live-match-scored.png"))
        phone = new_page(chromium, 390, 844, touch=True)
        phone.goto(server.url + "/live/main")  # a watcher's page: no control link
        phone.wait_for_function("window.playtableLive.match?.battle === 2")
        # the watcher's page shows the match but no button to confirm it; the table's screen does
        assert phone.locator(".live-match button").count() > 0
        assert not phone.locator(".live-match button").first.is_visible()
        assert page.locator(".live-match button").first.is_visible()
        phone.screenshot(path=str(shots / "stardice-live-match-phone.png"), full_page=True)
        assert page.script_errors == [] and phone.script_errors == []
