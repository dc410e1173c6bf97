"""The Wizard's Labyrinth in a real browser: three browser contexts (the wizard and
two heroes, each with its own join link) play a whole game to its end against each other
through the pages, every action clicked where a person would (on the board's squares and the
cards when offered there, else in the action list); a hero closes the tab mid-turn and comes
back to the same position; the table chat; a game with bots in two seats is played to its end by one person.
Screenshots of every seat go to the test's temporary directory (`--basetemp` to keep them).
"""

from __future__ import annotations

import random
from pathlib import Path
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

ROUNDS = 2  # a short game: the round limit ends it in a draw unless a side wins first


def _wait_step(pages: list[Any], step: int) -> None:
    for page in pages:
        page.wait_for_function(f"window.playtable.state && window.playtable.state.step >= {step}")


def _mover(pages: dict[int, Any]) -> int | None:
    for seat, page in pages.items():
        if table_state(page)["your_turn"]:
            return seat
    return None


def _play_to_the_end(pages: dict[int, Any], rng: random.Random, shots: Path | None = None,
                     reopen: tuple[Any, str] | None = None) -> dict[str, Any]:
    """Clicks random legal actions on whichever page may act until the game is over. `reopen`
    (browser, join link of seat 1): hero 1 closes the tab once, mid-turn, and opens it again."""
    shot_kinds: set[str] = set()
    reopened = False
    for _ in range(2000):  # bounded: a 2-round game is a few hundred actions at most
        state = table_state(pages[0])
        if state["terminal"]:
            return state
        mover = _mover(pages)
        if mover is None:  # a bot is thinking, or the pages have not caught up yet
            pages[0].wait_for_timeout(50)
            continue
        page = pages[mover]
        mine = table_state(page)
        kind = mine["observation"]["decision"].get("kind", "")
        if shots is not None and kind not in shot_kinds:
            shot_kinds.add(kind)
            for seat, p in pages.items():
                p.screenshot(path=str(shots / f"wizard-{kind}-seat{seat}.png"))
        if reopen and not reopened and kind == "commit" and mover != 1 and 1 in pages:
            # Hero 1 closes the tab mid-turn (before choosing a move) and comes back.
            reopened = True
            before = table_state(pages[1])
            pages[1].context.close()
            pages[1] = new_page(reopen[0])
            pages[1].goto(reopen[1])
            wait_connected(pages[1])
            pages[1].wait_for_function(f"window.playtable.state.step === {before['step']}")
            again = table_state(pages[1])
            assert again["observation"] == before["observation"]
            assert again["waiting_for"] == before["waiting_for"]
            continue
        action = rng.choice(mine["legal"])["action"]
        click_action(page, action)
        _wait_step(list(pages.values()), step_of(page))
    raise AssertionError("the game did not end")


def test_three_people_play_a_wizard_game_to_its_end(web_server: ServerProcess, chromium: Any,
                                                    tmp_path: Path) -> None:
    created = create_table(web_server.url, game="wizard", seed=2024, players=3,
                           params={"max_rounds": ROUNDS})
    pages: dict[int, Any] = {}
    for seat in range(3):
        pages[seat] = new_page(chromium)
        pages[seat].goto(web_server.url + created["seats"][seat]["join_url"])
        wait_connected(pages[seat])
    for seat, page in pages.items():
        page.locator(".wz-grid").wait_for()
        assert page.locator(".seat-badge").inner_text().endswith(("the wizard", f"Hero {seat}"))
    # Table chat: hero 1 writes, the wizard and hero 2 read it.
    pages[1].get_by_label("Chat message").fill("Shall we go for the north-east corner?")
    pages[1].get_by_role("button", name="Send").click()
    for page in pages.values():
        page.locator(".chat-list li", has_text="north-east corner").wait_for()
    # No internal ids on screen: every card, tile and item by its name.
    wizard_text = pages[0].locator(".board-host").inner_text()
    assert "_" not in wizard_text, wizard_text
    end = _play_to_the_end(pages, random.Random(7), shots=tmp_path,
                           reopen=(chromium, web_server.url + created["seats"][1]["join_url"]))
    assert end["result"]["text"]
    for seat, page in pages.items():
        page.locator(".end-screen").wait_for()
        if "draw" in end["result"]["text"]:  # the round limit: no seat wins
            assert page.locator(".end-screen h2").inner_text() == "A draw"
        assert not page.script_errors, (seat, page.script_errors)
        # The log never shows an id (`long_sword`) and a hero's log never names another's move.
        log = page.locator(".log-panel").inner_text()
        assert "_" not in log, log
        page.screenshot(path=str(tmp_path / f"wizard-end-seat{seat}.png"))


def test_a_hero_plays_with_bots_in_the_other_seats(web_server: ServerProcess, chromium: Any) -> None:
    created = create_table(web_server.url, game="wizard", seed=77, players=3,
                           params={"max_rounds": ROUNDS},
                           seats=[{"kind": "bot", "agent": "heuristic"}, {"kind": "human"},
                                  {"kind": "bot", "agent": "random"}])
    page = new_page(chromium)
    page.goto(web_server.url + created["seats"][1]["join_url"])
    wait_connected(page)
    end = _play_to_the_end({1: page, 0: page}, random.Random(3))
    assert end["terminal"] and end["result"]["text"]
    assert not page.script_errors


def test_hot_seat_passes_the_device_between_seats(web_server: ServerProcess, chromium: Any,
                                                  tmp_path: Path) -> None:
    """One screen for all three seats: between two seats' turns the page covers the board with
    a "pass the device" screen, and shows the next seat's own view only once they say so."""
    created = create_table(web_server.url, game="wizard", seed=31, players=3,
                           params={"max_rounds": 1})
    pairs = ",".join(f"{s['seat']}.{s['join_url'].split('token=')[1]}" for s in created["seats"])
    page = new_page(chromium)
    page.goto(f"{web_server.url}{created['seats'][0]['join_url']}&hot={pairs}")
    wait_connected(page)
    rng = random.Random(5)
    passes = 0
    for _ in range(2000):  # bounded: a one-round game is well under a few hundred actions
        cover = page.locator(".pass-device")
        if cover.count():
            assert "Pass the device to" in cover.inner_text()
            if passes == 0:
                page.screenshot(path=str(tmp_path / "wizard-hotseat-pass.png"))
            passes += 1
            seat_before = page.evaluate("window.playtable.seat")
            cover.get_by_role("button").click()
            page.wait_for_function(f"window.playtable.seat !== {seat_before} && window.playtable.state "
                                   "&& window.playtable.state.your_turn")
            continue
        state = table_state(page)
        if state["terminal"]:
            break
        if not state["your_turn"]:
            page.wait_for_timeout(50)
            continue
        click_action(page, rng.choice(state["legal"])["action"])
    else:
        raise AssertionError("the hot-seat game did not end")
    assert passes >= 3
    assert not page.script_errors
