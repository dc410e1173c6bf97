"""A Rotator game won in a real browser by following the solver's hints.

Each turn the player, on a phone-sized touch screen, asks for a hint (the `h` key or the
button), finds the hinted square or drill depth marked on the board, and taps it there; the
game ends on the win screen. The
board is an `easy` one (seed 2: won in 6 actions), so the test takes seconds.
"""

from __future__ import annotations

from typing import Any

from tests.web.browser_support import (
    click_action,
    create_table,
    new_page,
    step_of,
    table_state,
    wait_connected,
)
from tests.web.server_process import ServerProcess


def test_rotator_is_won_by_following_the_hints(web_server: ServerProcess, chromium: Any) -> None:
    created = create_table(web_server.url, game="rotator", variant="easy", seed=2, seats=[{"kind": "human"}])
    page = new_page(chromium, 390, 844, touch=True)  # a phone: the board is tapped
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    # The labels name squares the way the engine does: columns A-J, rows 1-20.
    labels = page.locator(".rotator-board text.label").all_text_contents()
    assert {"A", "J", "1", "20"} <= set(labels)

    for _ in range(30):
        if table_state(page)["terminal"]:
            break
        step = step_of(page)
        if _ % 2:
            page.keyboard.press("h")
        else:
            page.get_by_role("button", name="Hint (h)").tap()
        page.wait_for_function(f"window.playtable.hinted !== null && window.playtable.state.step === {step}")
        hinted = page.evaluate("window.playtable.hinted")
        assert page.locator(".hint-text").inner_text().startswith("Hint:")
        spot = page.locator(".rotator-board .offered.hinted")
        assert spot.count() == 1, f"the hinted action {hinted!r} is marked on the board"
        assert hinted in (spot.get_attribute("data-actions") or "").split("|")
        if hinted.startswith("start "):
            assert spot.get_attribute("data-cell") == hinted.split()[1]
        click_action(page, hinted, tap=True)
    state = table_state(page)
    assert state["terminal"] and state["result"]["returns"] == [1.0]
    end = page.locator(".end-screen")
    assert end.locator("h2").inner_text() == "You win!"
    assert "you win" in end.locator(".end-reason").inner_text()
    assert not page.script_errors and not page.foreign_requests


def test_rotator_undo_and_rules_panel(web_server: ServerProcess, chromium: Any) -> None:
    created = create_table(web_server.url, game="rotator", variant="easy", seed=2, seats=[{"kind": "human"}])
    page = new_page(chromium)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    before = table_state(page)["observation"]
    click_action(page, table_state(page)["legal"][0]["action"])
    assert table_state(page)["can_undo"]
    page.keyboard.press("u")
    page.wait_for_function("window.playtable.state.step === 0")
    assert table_state(page)["observation"] == before
    # The rules panel renders the game's player rules from markdown.
    page.keyboard.press("?")
    panel = page.locator("#rules")
    panel.locator("h3", has_text="The board").wait_for()
    assert panel.locator("li").count() > 5 and panel.locator("strong").count() > 3
    page.keyboard.press("Escape")
    assert panel.is_hidden()
    assert not page.script_errors and not page.foreign_requests
