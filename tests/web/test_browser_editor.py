"""The Rotator board editor in a real browser (seed 004 "Getting Started": "choose the
location of ten Control Nodes on the game grid, five on each half"): a person comes from the
lobby, places the nodes with the mouse and the keyboard, sees the server's verdict change from
illegal to legal, winnable and how hard, saves the board as a text file, and plays it; on a phone
a board pasted in as text is read back onto the grid."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from tests.web.browser_support import click_action, new_page, table_state, wait_connected
from tests.web.server_process import ServerProcess

from playtable.games.rotator.board import SAMPLES_DIR

NODES = ["B2", "H4", "D5", "B9", "H9", "F12", "B14", "H15", "F18", "B19"]
"""The nodes of the shipped sample 'medium' (won on turn 9 at best: a 'medium' board)."""
WAIT_SECONDS = 15.0
SHOTS = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", "")) if os.environ.get("PLAYTABLE_SCREENSHOTS") else None


def wait_verdict(page: Any, condition: str) -> dict[str, Any]:
    """The server's verdict on the board, once one for which `condition` holds has arrived
    (`v` is the verdict). Polled with `evaluate`, which the server's CSP allows (Playwright's
    `wait_for_function` compiles code in the page, which it forbids: test_browser_csp.py)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        answer: dict[str, Any] | None = page.evaluate(
            "(() => { const v = window.playtableEditor && window.playtableEditor.verdict;"
            f" return v && ({condition}) ? v : null; }})()")
        if answer:
            return answer
        time.sleep(0.05)
    raise AssertionError(f"no verdict with {condition} within {WAIT_SECONDS} s")


def test_a_board_is_made_in_the_editor_and_played(web_server: ServerProcess, chromium: Any) -> None:
    page = new_page(chromium, 1280, 800)
    page.goto(web_server.url + "/")
    page.locator('[data-game="rotator"] a', has_text="Make your own board").click()
    page.wait_for_url("**/rotator/editor")
    cell = page.locator(".editor-grid .cell")
    assert cell.count() == 200
    # A node on the top row breaks the edge rule, and the server says which node.
    page.locator('[data-cell="B1"]').click()
    seen = wait_verdict(page, "v.nodes.length === 1")
    assert any(p.startswith("edge: node B1") for p in seen["problems"])
    assert "faulty" in (page.locator('[data-cell="B1"]').get_attribute("class") or "")
    page.locator('[data-cell="B1"]').click()  # taken away again
    # Nine nodes by mouse, the last by keyboard: from B19, the arrows to F18, then Enter.
    for name in NODES:
        if name != "F18":
            page.locator(f'[data-cell="{name}"]').click()
    page.locator('[data-cell="B19"]').focus()
    for key in ["ArrowUp", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight"]:
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    assert page.locator('[data-cell="F18"]').get_attribute("aria-pressed") == "true"
    done = wait_verdict(page, "v.legal")
    assert done["winnable"] and done["level"] == "medium" and done["turns"] == 9
    status = page.locator(".editor-verdict")
    assert "winnable: medium" in status.inner_text() and "good" in (status.get_attribute("class") or "")
    assert sorted(done["nodes"]) == sorted(NODES)
    if SHOTS:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / "editor-desktop.png"))
    # The board as text is the sample's board (the server draws the same land from the nodes).
    page.locator("summary", has_text="The board as text").click()
    text = page.locator("#board-text").input_value()
    assert [line for line in text.splitlines() if not line.startswith(";")] == \
        ["".join("@" if c == "@" else "." for c in row) for row in done["board"]]
    with page.expect_download() as saved:
        page.get_by_role("button", name="Save as a file").click()
    assert Path(saved.value.path()).read_text(encoding="utf-8") == text

    page.get_by_role("button", name="Play this board").click()
    wait_connected(page)
    assert table_state(page)["observation"]["board"] == done["board"]  # the table plays this board
    for move in done["moves"][:3]:  # the solver's best line, on the real table
        click_action(page, move)
    state = table_state(page)
    assert state["step"] == 3 and not state["terminal"]
    assert not page.script_errors and not page.foreign_requests


def test_a_board_file_is_read_onto_the_grid_on_a_phone(web_server: ServerProcess, chromium: Any) -> None:
    page = new_page(chromium, 390, 844, touch=True, strict_csp=True)  # under the server's real CSP
    page.goto(web_server.url + "/rotator/editor")
    page.locator("summary", has_text="The board as text").tap()
    # The sample's own file, opened (row numbers, header and land: as it ships).
    page.locator("#board-file").set_input_files(str(SAMPLES_DIR / "medium.txt"))
    done = wait_verdict(page, "v.legal")
    assert done["level"] == "medium"
    assert page.locator(".editor-grid .cell.node").count() == 10
    # Or one of the shipped samples (seed: "you can choose from one of the example boards").
    page.locator('[data-sample="hard"]').tap()
    assert wait_verdict(page, "v.legal && v.level === 'hard'")["winnable"]
    if SHOTS:
        page.locator("summary", has_text="The board as text").tap()
        page.locator('[data-cell="E11"]').scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "editor-phone.png"))
    assert not page.script_errors and not page.foreign_requests
