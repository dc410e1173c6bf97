"""Star Dice's one-player modes in a real browser: Objective 2 (seed 002, Second
Iteration: the red set is rolled onto the table at setup, the player throws every white die and
must outscore it) is played to its end by mouse drags, and the page speaks of white and red,
never of rounds; the First Iteration's solo game says it is played for the highest score, at
phone size too; a best-of-five war (It. 7) counts battles won, not points to 50. Screenshots:
stardice-objective2-end.png, stardice-solo-phone.png, stardice-best-of.png."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from tests.web.browser_support import create_table, new_page, table_state, wait_connected
from tests.web.server_process import ServerProcess
from tests.web.test_browser_stardice import _drag_throw


def _play_out(page: Any, rng: random.Random) -> dict[str, Any]:
    for _ in range(60):  # bounded: six dice and a few re-throws
        state = table_state(page)
        if state["observation"]["phase"] == "over":
            return state
        if not state["your_turn"] or page.evaluate("window.playtable.pending"):
            page.wait_for_timeout(50)
            continue
        _drag_throw(page, rng)
        page.wait_for_function(f"window.playtable.state.step > {state['step']}")
    raise AssertionError("the game did not end")


def test_objective2_and_solo_read_as_their_own_games(web_server: ServerProcess, chromium: Any,
                                                     tmp_path: Path) -> None:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    created = create_table(web_server.url, game="stardice", variant="objective2", seed=4,
                           seats=[{"kind": "human"}])
    page = new_page(chromium, 1280, 800)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    obs = table_state(page)["observation"]
    red = [pc for pc in obs["table"] if pc["id"].startswith("K.")]
    assert red and obs["mode"] == "objective2"
    status = page.locator(".board-status").inner_text()
    assert status.startswith("White 0 · red ") and "Round" not in status
    assert "Beat the red dice's" in page.locator(".stardice-prompt").inner_text()
    final = _play_out(page, random.Random(5))
    white, red_points = final["observation"]["score"]["points"]
    prompt = page.locator(".stardice-prompt").inner_text()
    assert f"white {white}, red {red_points}" in prompt
    assert ("you beat the red dice" in prompt) == (white > red_points)
    assert f"White {white} · red {red_points}" in page.locator(".stardice-points").inner_text()
    page.screenshot(path=str(shots / "stardice-objective2-end.png"))
    assert not page.script_errors and not page.foreign_requests

    created = create_table(web_server.url, game="stardice", variant="solo_iteration1", seed=2,
                           seats=[{"kind": "human"}])
    phone = new_page(chromium, 390, 844, touch=True)
    phone.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(phone)
    assert phone.locator(".board-status").inner_text() == "0 points now"
    assert phone.locator(".stardice-prompt").inner_text().startswith("Throw for the highest score")
    assert len(phone.locator(".stardice-fleet").all()) == 1
    phone.screenshot(path=str(shots / "stardice-solo-phone.png"))
    assert not phone.script_errors and not phone.foreign_requests

    created = create_table(web_server.url, game="stardice", variant="best_of_iter7", seed=3,
                           seats=[{"kind": "human"}, {"kind": "bot", "agent": "random-thrower"}])
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    status = page.locator(".board-status").inner_text()
    assert status == "Battle 1 · battles won: Federation 0, Klingon 0 · best of 5", status
    assert "the first to win 3 of 5 wins the war" in page.locator(".stardice-war").inner_text()
    page.screenshot(path=str(shots / "stardice-best-of.png"))
    assert not page.script_errors and not page.foreign_requests
