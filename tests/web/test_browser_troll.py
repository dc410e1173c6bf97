"""A newcomer plays Angry Troll in a real browser ("Tests (real browser)").

The home page, the create form (plus-one offered as "easier", seed 13), the join link, then a
whole game played by clicking, on the bridge itself where the action has a spot there and in
the action list otherwise, through undo, to the end screen that says why the game ended; then
the replay viewer of the finished table and a rematch. The player takes a fatal action when
one is offered (after checking that its warning dialog can be cancelled), else the first legal
one: with seed 13 the game ends after about 10 actions, so the test takes seconds.
"""

from __future__ import annotations

from typing import Any

from tests.web.browser_support import click_action, new_page, step_of, table_state, wait_connected
from tests.web.server_process import ServerProcess

SEED = 13




def create_troll_table(page: Any, url: str) -> None:
    page.goto(url + "/")
    page.locator('[data-game="troll"] button', has_text="New table").click()
    variant = page.locator("#variant")
    # The designer's default rules are the hardest: newcomers are pointed at the easier ones.
    # Each variant shows a name a player understands; its id only behind "more".
    easier = variant.locator('optgroup[label="Easier: for a first game"]')
    assert easier.locator('option[value="plus-one"]').inner_text() == "Sturdier bridge"
    assert easier.locator('option[value="tutorial"]').inner_text() == "Learning bridge"
    assert variant.input_value() == "plus-one"
    assert variant.locator('option[value=""]').inner_text() == "Standard rules (hardest)"
    variant.select_option("plus-one")
    description = page.locator("#variant-description")
    assert "Easier" in description.inner_text() and not description.locator("code").is_visible()
    description.locator("summary", has_text="more").click()
    assert description.locator("code").inner_text() == "plus-one"
    page.locator("#seed").fill(str(SEED))
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*")  # the troll's table is its creator's alone: it starts at their seat
    wait_connected(page)
    # The lobby remembers the new table under "Yours", with its join link.
    page.go_back()
    row = page.locator(".table-list tbody tr", has_text="Sturdier bridge")  # plus-one, by its name
    row.get_by_role("link", name="Join").click()
    wait_connected(page)


def test_newcomer_plays_a_whole_troll_game_by_clicking(web_server: ServerProcess, chromium: Any) -> None:
    page = new_page(chromium)
    create_troll_table(page, web_server.url)
    assert page.locator(".turn-indicator").inner_text() == "Your turn"
    assert page.locator(".troll-board .stack").count() == 12

    # Undo: the troll's first action of a turn can be taken back (no card drawn, no die rolled).
    start = table_state(page)["observation"]
    click_action(page, table_state(page)["legal"][0]["action"])
    assert step_of(page) == 1
    page.get_by_role("button", name="Undo (u)").click()
    page.wait_for_function("window.playtable.state.step === 0")
    assert table_state(page)["observation"] == start
    # Keys: the troll's moves are the arrow keys.
    first = table_state(page)["legal"][0]["action"]
    if first.startswith("move "):
        arrow = {"left": "ArrowLeft", "right": "ArrowRight", "up": "ArrowUp", "down": "ArrowDown"}
        page.keyboard.press(arrow[first.split()[1]])
        page.wait_for_function("window.playtable.state.step === 1")
        assert table_state(page)["last_action"] == first

    on_board = 0
    warned = 0
    while not table_state(page)["terminal"]:
        legal = table_state(page)["legal"]
        # A fatal action (one the server sends with a warning) is taken when there is one: the
        # game ends sooner, and the confirmation dialog is exercised.
        entry = next((e for e in legal if e["warning"]), legal[0])
        action = entry["action"]
        offered = page.locator(".board-host [data-actions]").evaluate_all(
            "(els) => els.flatMap((e) => e.dataset.actions.split('|'))")
        on_board += action in offered
        if entry["warning"] and not warned:
            check_warning_dialog(page, action, entry["warning"])
        warned += bool(entry["warning"])
        click_action(page, action)
        assert step_of(page) < 200, "the game should have ended long ago"
    assert on_board > 0, "some actions must have been played on the bridge itself"

    end = page.locator(".end-screen")
    end.wait_for()
    state = table_state(page)
    assert end.locator("h2").inner_text() in ("You win!", "You lose")
    assert end.locator(".end-reason").inner_text() == state["result"]["text"]
    assert page.locator(".log-list > li").count() == state["step"] + 1
    assert not page.script_errors and not page.foreign_requests
    end_url = page.url

    # The finished table's replay: every step, backwards and forwards; downloads are open.
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_function("window.playtableReplay !== undefined")
    last = state["step"]
    assert page.locator(".replay-step").inner_text() == f"Step 0 of {last}"
    page.keyboard.press("End")
    assert page.locator(".replay-step").inner_text() == f"Step {last} of {last}"
    page.keyboard.press("ArrowLeft")
    assert page.locator(".replay-step").inner_text() == f"Step {last - 1} of {last}"
    page.get_by_role("button", name="Step forward").click()
    assert page.locator(".replay-step").inner_text() == f"Step {last} of {last}"
    # Event by event: Shift+arrows walk through the events, across steps.
    page.keyboard.press("Home")
    setup_events = page.locator(".log-list > li").first.locator("ul > li").count()
    page.keyboard.press("Shift+ArrowRight")
    assert page.locator(".replay-step").inner_text() == f"Step 0 of {last} · event 1 of {setup_events}"
    assert page.locator(".log-list li.current-event").count() == 1
    for _ in range(setup_events):
        page.keyboard.press("Shift+ArrowRight")
    assert page.locator(".replay-step").inner_text().startswith(f"Step 1 of {last} · event 1 of ")
    page.keyboard.press("Shift+ArrowLeft")
    last_setup_event = f"event {setup_events} of {setup_events}"
    assert page.locator(".replay-step").inner_text() == f"Step 0 of {last} · {last_setup_event}"
    page.keyboard.press("End")
    assert page.get_by_role("button", name="The record (replays the whole game)").is_enabled()
    with page.expect_download() as download:
        page.get_by_role("button", name="The position at this step").click()
    assert download.value.suggested_filename.endswith(f"-step{last}.json")
    assert not page.script_errors and not page.foreign_requests

    # Rematch: same rules, a new deal; the player keeps their seat link's token.
    page.goto(end_url)
    page.locator(".end-screen").wait_for()
    page.get_by_role("button", name="Rematch (n)").click()
    page.wait_for_url(lambda url: url != end_url and "/t/" in url)
    wait_connected(page)
    assert page.evaluate("window.playtable.role") == "player"
    assert table_state(page)["step"] == 0 and table_state(page)["your_turn"]
    assert page.url.split("token=")[1] == end_url.split("token=")[1]
    assert not page.script_errors and not page.foreign_requests


def check_warning_dialog(page: Any, action: str, warning: str) -> None:
    """Clicking a fatal action asks first; Cancel leaves the game as it was."""
    before = step_of(page)
    page.locator(f'.action-list button[data-action="{action}"]').click()
    dialog = page.locator("dialog.confirm[open]")
    dialog.wait_for()
    assert dialog.locator(".warning-text").inner_text() == warning
    dialog.get_by_role("button", name="Cancel").click()
    dialog.wait_for(state="detached")
    assert step_of(page) == before

