"""Seats in a real browser: a second browser context with the watch link sees the
public view only and cannot act; a third with a wrong token is refused and only watches; and
the server is killed with SIGKILL in the middle of a game and restarted on the same port and
database: the player's page reconnects by itself and the game goes on from the same position.
"""

from __future__ import annotations

from typing import Any

import httpx2
from tests.web.browser_support import (
    click_action,
    create_table,
    new_page,
    step_of,
    table_state,
    wait_connected,
)
from tests.web.server_process import ServerProcess

TROLL = {"game": "troll", "variant": "plus-one", "seed": 13, "seats": [{"kind": "human"}]}




def first_action(page: Any) -> str:
    action: str = table_state(page)["legal"][0]["action"]
    return action


def test_watcher_sees_public_view_wrong_token_is_refused(web_server: ServerProcess, chromium: Any) -> None:
    created = create_table(web_server.url, **TROLL)
    player = new_page(chromium)
    player.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(player)

    watcher = new_page(chromium)  # a second browser context: its own storage and cookies
    watcher.goto(web_server.url + created["watch_url"])
    wait_connected(watcher)
    intruder = new_page(chromium)
    intruder.goto(web_server.url + created["watch_url"] + "?seat=0&token=not-the-token")
    wait_connected(intruder)

    click_action(player, first_action(player))
    for page in (watcher, intruder):
        page.wait_for_function("window.playtable.state.step === 1")
        state = table_state(page)
        assert page.evaluate("window.playtable.role") == "watcher"
        assert state["your_turn"] is False and state["legal"] == [] and state["can_undo"] is False
        assert page.locator(".action-list button").count() == 0
        assert page.locator(".board-host .offered").count() == 0
        assert page.get_by_role("button", name="Undo (u)").is_hidden()
        assert page.get_by_role("button", name="Hint (h)").is_hidden()
        assert "You are watching" in page.locator(".waiting").inner_text()
        # The spectator's view never holds more than the player's (troll: exactly the same).
        assert state["observation"] == table_state(player)["observation"]
    assert intruder.locator(".banner").is_visible()
    assert "refused" in intruder.locator(".banner").inner_text()
    assert watcher.locator(".banner").is_hidden()
    assert watcher.locator(".seat-badge").inner_text() == "Watching"

    # Trying anyway (keys, or a hand-made message) changes nothing.
    watcher.keyboard.press("ArrowRight")
    watcher.evaluate("window.playtable.connection.send({type: 'act', action: 'move right', step: 1})")
    watcher.locator(".hint-text", has_text="watching").wait_for()
    assert step_of(player) == 1 and step_of(watcher) == 1

    # The replay of a running table: stepped through, but nothing downloads before the end,
    # and the page says the server's own reason.
    watcher.goto(web_server.url + created["watch_url"] + "/replay")
    watcher.wait_for_function("window.playtableReplay !== undefined")
    assert watcher.locator(".replay-step").inner_text() == "Step 0 of 1"
    assert watcher.get_by_role("button", name="The record (replays the whole game)").is_disabled()
    assert watcher.get_by_role("button", name="The position at this step").is_disabled()
    refusal = httpx2.get(web_server.url + f"/api/tables/{created['table_id']}/record").json()["error"]
    watcher.locator(".replay-downloads .note", has_text=refusal).wait_for()
    for page in (player, watcher, intruder):
        assert not page.script_errors


def test_page_reconnects_after_sigkill_and_play_goes_on(web_server: ServerProcess, chromium: Any) -> None:
    created = create_table(web_server.url, **TROLL)
    page = new_page(chromium)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    for _ in range(3):
        click_action(page, first_action(page))
    before = table_state(page)
    log_before = page.locator(".log-list > li").count()

    web_server.kill()  # SIGKILL: no shutdown code runs
    page.wait_for_function("!window.playtable.connection.isOpen")
    page.locator('.conn[data-status="waiting"], .conn[data-status="connecting"]').wait_for()
    web_server.restart()  # same port, same database
    page.wait_for_function("window.playtable.connection.isOpen && window.playtable.state")
    page.locator('.conn[data-status="open"]').wait_for()

    after = table_state(page)
    assert after["step"] == before["step"] == 3
    assert after["observation"] == before["observation"]
    assert after["legal"] == before["legal"]
    assert page.locator(".log-list > li").count() == log_before
    click_action(page, first_action(page))
    assert step_of(page) == 4
    assert not page.script_errors


def test_listed_actions_play_on_the_star_dice_table(web_server: ServerProcess, chromium: Any) -> None:
    """Star Dice has its own page (a canvas; until then it was this test's plain
    outline, js/games/plain.js, now only the fallback for a game without a module): the frame
    still lists its actions (the call, sampled throws, fouls) and plays them from the list."""
    created = create_table(web_server.url, game="stardice")
    page = new_page(chromium)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    assert page.locator(".stardice-canvas").count() == 1
    if table_state(page)["your_turn"]:
        click_action(page, first_action(page))
        assert step_of(page) == 1
    assert not page.script_errors
