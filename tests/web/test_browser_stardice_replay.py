"""The Star Dice replay viewer keeps its step controls with the board and offers nothing live
("The replay viewer", docs/web-pages.md): a finished war of three battles (random throwers, seed
101) opened at 1280x800 under the server's real Content-Security-Policy. The step controls sit
in the row under the table, in the window without scrolling, above the scoring; stepping through
the whole game from the keyboard never scrolls them away, never shows a "Next battle" button,
and each scored battle shows its own scoring at the step that scored it; no throwing keys' help.
"""

from __future__ import annotations

import time
from typing import Any

import httpx2
from tests.web.browser_support import WAIT_MS, create_table, new_page
from tests.web.server_process import ServerProcess

BOX = "(el) => el.getBoundingClientRect().toJSON()"


def _finished(url: str, table_id: str) -> dict[str, Any]:
    """The table once its bots have played it to the end (bounded: seed 101's war is three
    battles of random throws)."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        table: dict[str, Any] = httpx2.get(f"{url}/api/tables/{table_id}", timeout=WAIT_MS / 1000).json()
        if table["status"] == "finished":
            return table
        time.sleep(0.5)
    raise AssertionError("the bots' war did not finish")


def test_the_replay_steps_with_the_board_in_view(web_server: ServerProcess, chromium: Any) -> None:
    created = create_table(web_server.url, game="stardice", seed=101,
                           seats=[{"kind": "bot", "agent": "random-thrower"}] * 2)
    _finished(web_server.url, created["table_id"])
    page = new_page(chromium, 1280, 800, strict_csp=True)
    page.goto(f"{web_server.url}/t/{created['table_id']}/replay")
    page.locator(".log-list li").first.wait_for()
    page.locator(".stardice-canvas").wait_for()
    controls = page.locator(".replay-controls")
    with_board = controls.evaluate("(el) => Boolean(el.closest('.stardice-board'))")
    assert with_board, "the controls are with the board"
    assert page.locator(".stardice-keys").count() == 0, "no throwing keys' help in a replay"
    steps = int(page.evaluate("window.playtableReplay.steps.length"))
    scored = 0
    page.locator(".replay-controls button[aria-label='First step']").click()
    for index in range(steps):
        box = controls.evaluate(BOX)
        assert box["top"] >= 0 and box["bottom"] <= 800, (index, box)
        assert box["bottom"] <= page.locator(".stardice-score").evaluate(BOX)["top"]
        assert not page.locator(".stardice-next").is_visible(), f"a live Next battle at step {index}"
        title = page.locator(".stardice-score h3").inner_text()
        if title.startswith("Battle") and title.endswith("scoring"):
            scored += 1
        page.keyboard.press("ArrowRight")  # the viewer shows the next step as the key is handled
    assert scored == 2, "the two battles before the last show their own scoring at the step that scored them"
    assert page.locator(".stardice-score h3").inner_text() == "Final scoring"
    assert not page.script_errors and not page.foreign_requests
    page.context.close()
