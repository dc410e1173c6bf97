"""Words a person understands, and one status that follows a proposal, in a real browser under
the server's strict Content-Security-Policy (desktop 1280x800 and phone 390x844):

- a variant switched mid-game: the asker's page says once, under the header, whom it waits for
  (the Star Dice menu's "Starting..." does not stay beside its button), the other person's
  "Agree" / "Keep playing" prompt is still there after a reload, and "Keep playing" ends the
  asker's wait;
- seats read as the game names them ("Hero 1", "Your turn (Hero 2 too)"), never `hero1`;
- the wizard page says what its grey tiles and the rage are;
- a single battle's story says so in words, never raw counters;
- a solitaire table has no table chat;
- the lobby carries nothing for operators (the TUIO words are on /operator).

Waits are Playwright locators and bounded polls of `page.evaluate` (`browser_support.poll`),
which the policy allows (`wait_for_function` would be an eval it refuses). Screenshots go to
$PLAYTABLE_SCREENSHOTS.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import httpx2
from tests.web.browser_support import create_table, new_page, poll
from tests.web.server_process import ServerProcess

DESKTOP = (1280, 800)
PHONE = (390, 844)


def _open(chromium: Any, url: str, size: tuple[int, int] = DESKTOP) -> Any:
    page = new_page(chromium, *size, touch=size == PHONE, strict_csp=True)
    page.goto(url)
    _connected(page)
    return page


def _connected(page: Any) -> None:
    poll(page, "window.playtable && window.playtable.state && window.playtable.connection.isOpen")


def _shot(page: Any, tmp_path: Path, name: str) -> None:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    page.screenshot(path=str(shots / f"words-{name}.png"))


def _clean(*pages: Any) -> None:
    for page in pages:
        assert not page.script_errors and not page.foreign_requests


def test_a_variant_switch_is_one_status_that_a_reload_keeps(web_server: ServerProcess, chromium: Any,
                                                            tmp_path: Path) -> None:
    created = create_table(web_server.url, game="stardice", variant="battle", seed=12)
    alice = _open(chromium, web_server.url + created["seats"][0]["join_url"])
    bob = _open(chromium, web_server.url + created["seats"][1]["join_url"], PHONE)
    status, prompt = alice.locator(".proposal-status"), bob.locator(".proposal-status")
    assert status.is_hidden() and prompt.is_hidden()

    alice.locator(".stardice-menu-button").click()
    alice.locator('.stardice-variant[data-variant="iteration4"]').click()
    alice.locator(".stardice-start").click()
    status.get_by_text("waiting for Klingon to agree").wait_for()
    assert "Version 4" in status.inner_text()
    # One status: the menu's "Starting ..." does not stay beside its button to contradict it.
    assert alice.locator(".stardice-menu-panel").is_hidden()
    assert alice.locator(".stardice-menu-note").inner_text() == ""
    assert alice.locator(".hint-text").inner_text() == ""
    # ... and it is in sight where Alice is, though the menu's button sits below the table.
    top, bottom = alice.evaluate("(() => { const r = document.querySelector('.proposal-status')"
                                 ".getBoundingClientRect(); return [r.top, r.bottom]; })()")
    assert alice.evaluate("window.scrollY") > 0 and top >= 0 and bottom <= DESKTOP[1]
    _shot(alice, tmp_path, "proposal-asker")

    prompt.get_by_role("button", name="Agree").wait_for()
    assert prompt.inner_text().startswith("Federation asks to leave this game for a new game of Version 4")
    bob.reload()  # a come-back-later page: the open proposal comes with the welcome
    _connected(bob)
    prompt.get_by_role("button", name="Keep playing").wait_for()
    _shot(bob, tmp_path, "proposal-after-reload-phone")
    prompt.get_by_role("button", name="Keep playing").click()
    status.get_by_text("Klingon wants to keep playing: the game goes on.").wait_for()
    prompt.get_by_text("You kept playing").wait_for()
    alice.reload()
    _connected(alice)
    assert status.is_hidden()  # nothing left open
    _clean(alice, bob)


def test_seats_and_the_wizard_board_read_as_the_game_names_them(web_server: ServerProcess, chromium: Any,
                                                                tmp_path: Path) -> None:
    created = create_table(web_server.url, game="wizard", players=3, seed=5,
                           seats=[{"kind": "bot", "agent": "random"}, {"kind": "human"}, {"kind": "human"}])
    hero1 = _open(chromium, web_server.url + created["seats"][1]["join_url"])
    hero2 = _open(chromium, web_server.url + created["seats"][2]["join_url"], PHONE)
    assert hero1.locator(".seat-badge").inner_text() == "You play Hero 1"
    assert hero2.locator(".seat-badge").inner_text() == "You play Hero 2"
    legend = hero1.locator(".wz-legend").inner_text()
    assert "torn out in the wizard's rage" in legend and "face down" in legend
    # Play hero 1's decisions (the start corner) until both heroes choose their moves together.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = hero1.evaluate("window.playtable.state")
        if state["your_turn"] and 2 in state["waiting_for"]:
            break
        if state["your_turn"] and not hero1.evaluate("window.playtable.pending"):
            hero1.evaluate("(a) => window.playtable.act(a)", state["legal"][0]["action"])
        time.sleep(0.1)
    else:
        raise AssertionError("the heroes never chose their moves together")
    turn = hero1.locator(".turn-indicator")
    poll(hero1, "document.querySelector('.turn-indicator').textContent.includes('too')")
    assert turn.inner_text() == "Your turn (Hero 2 too)"
    text = hero1.locator("body").inner_text()
    assert "hero1" not in text and "hero2" not in text and "RAGE" not in text
    _shot(hero1, tmp_path, "wizard-hero")
    _clean(hero1, hero2)


def test_a_single_battle_story_is_told_in_words(web_server: ServerProcess, chromium: Any,
                                                tmp_path: Path) -> None:
    created = create_table(web_server.url, game="stardice", variant="battle", seed=4,
                           seats=[{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}])
    page = _open(chromium, web_server.url + created["watch_url"])
    poll(page, "window.playtable.state.terminal", 240)
    page.locator(".end-screen summary", has_text="The game's story").first.wait_for()
    figures = page.locator(".end-figures").inner_text()
    assert figures.startswith("A single battle: Federation "), figures
    assert "war federation" not in figures and "forfeits 0" not in figures
    _shot(page, tmp_path, "single-battle-story")
    _clean(page)


def test_a_solitaire_table_has_no_chat_and_a_shared_one_has(web_server: ServerProcess, chromium: Any,
                                                             tmp_path: Path) -> None:
    solo = create_table(web_server.url, game="troll", seed=3)
    page = _open(chromium, web_server.url + solo["seats"][0]["join_url"], PHONE)
    assert page.locator(".chat-panel").is_hidden()
    assert "Table chat" not in page.locator("body").inner_text()
    _shot(page, tmp_path, "solitaire-phone")
    shared = create_table(web_server.url, game="stardice", variant="battle", seed=4)
    other = _open(chromium, web_server.url + shared["seats"][0]["join_url"])
    assert other.locator(".chat-panel h2").inner_text() == "Table chat"
    assert other.locator(".chat-form").is_visible()
    _clean(page, other)


def test_the_lobby_keeps_the_operators_words_on_the_operators_page(web_server: ServerProcess, chromium: Any,
                                                                    tmp_path: Path) -> None:
    assert httpx2.get(web_server.url + "/api/live", timeout=10).json()["tables"] == []
    for size in (DESKTOP, PHONE):
        lobby = new_page(chromium, *size, strict_csp=True)
        lobby.goto(web_server.url + "/")
        lobby.get_by_role("button", name="New table").first.wait_for()
        lobby.wait_for_load_state("networkidle")
        assert lobby.locator("#live-tables").is_hidden()
        assert "TUIO" not in lobby.locator("body").inner_text()
        _clean(lobby)
    _shot(lobby, tmp_path, "lobby-phone")
    operator = new_page(chromium, *DESKTOP, strict_csp=True)
    operator.goto(web_server.url + "/operator")
    assert "TUIO" in operator.locator("body").inner_text()
    _clean(operator)
