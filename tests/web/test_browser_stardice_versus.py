"""Star Dice between two people: each in their own browser (two browser
contexts, their own storage, their own seat token) playing a battle against each other with
mouse drags to the frozen end screen, each page its own seat's (its welcome, its observation's
seat, actions only on its own turn) and both animating every throw's streamed motion, their
own and the other player's; and on one screen taking turns (the hot seat). The players choose
"Fast" under "Throws"; apart, the table rolls fast only once both have (until then the first
page says the throws are shown as thrown, as the other asked).
"""

from __future__ import annotations

import random
import re
from typing import Any

from tests.web.browser_support import click_action, create_table, new_page, table_state, wait_connected
from tests.web.server_process import ServerProcess
from tests.web.test_browser_stardice import _check_end_screen, _drag_throw, choose_pace

# Records, on the page, every step whose streamed frames started an animation on the canvas.
WATCH_STREAM = """() => {
  window.__animated = [];
  const board = window.playtable.board;
  const canvas = document.querySelector('.stardice-canvas');
  const original = board.onStream.bind(board);
  board.onStream = (message) => {
    const before = canvas.dataset.firstFrameAt;
    original(message);
    if (canvas.dataset.firstFrameAt !== before) window.__animated.push(message.step);
  };
}"""


def _throw_or_call(page: Any, rng: random.Random) -> None:
    state = table_state(page)
    calls = [e["action"] for e in state["legal"] if e["action"].startswith("call ")]
    if calls:
        click_action(page, calls[-1])
        return
    _drag_throw(page, rng)
    page.wait_for_function(f"window.playtable.state.step > {state['step']} || "
                           "document.querySelector('.stardice-note').textContent !== ''")
    assert page.locator(".stardice-note").inner_text() == ""


def test_two_people_in_their_own_browsers_play_a_battle(web_server: ServerProcess, chromium: Any) -> None:
    created = create_table(web_server.url, game="stardice", variant="battle", seed=21,
                           seats=[{"kind": "human"}, {"kind": "human"}])
    pages = []
    for seat in (0, 1):
        page = new_page(chromium, 1100, 820)  # each its own context: its own storage and token
        page.goto(web_server.url + created["seats"][seat]["join_url"])
        wait_connected(page)
        page.evaluate(WATCH_STREAM)
        pages.append(page)
    assert pages[0].context is not pages[1].context
    choose_pace(pages[0], "Fast")
    rngs = [random.Random(1), random.Random(2)]
    throws: list[int] = []  # the step each throw made
    news: list[str] = []  # what the pages announced under the table after each action
    for _ in range(300):  # bounded: 14 dice, the Borg roll, the call, a few re-throws
        states = [table_state(p) for p in pages]
        if all(s["terminal"] for s in states) and states[0]["step"] == states[1]["step"]:
            break
        for seat, state in enumerate(states):
            assert state["observation"]["seat"] == seat, "each page holds its own seat's view"
            other = states[1 - seat]
            if state["step"] == other["step"] and not state["terminal"]:
                assert state["your_turn"] != other["your_turn"], "one seat at a time"
            if not state["your_turn"]:
                assert state["legal"] == [], "no actions offered on the other seat's turn"
        mover = next((i for i, s in enumerate(states) if s["your_turn"] and not s["terminal"]), None)
        if mover is None or pages[mover].evaluate("window.playtable.pending"):
            pages[0].wait_for_timeout(50)
            continue
        before = states[mover]["step"]
        calling = any(e["action"].startswith("call ") for e in states[mover]["legal"])
        _throw_or_call(pages[mover], rngs[mover])
        if not calling:
            throws.append(before + 1)
            if len(throws) == 1:  # seat 1 has not asked for fast throws: as thrown, and said so
                pages[0].locator(".stardice-pace-note", has_text="as thrown here").wait_for()
                choose_pace(pages[1], "Fast")
        news.append(pages[mover].locator(".stardice-news").inner_text())
    for seat, page in enumerate(pages):
        welcome_seat = page.evaluate("window.playtable.seat")
        assert welcome_seat == seat and page.evaluate("window.playtable.role") == "player"
        state = table_state(page)
        _check_end_screen(page, state)
        assert state["observation"]["seat"] == seat
        animated = set(page.evaluate("window.__animated"))
        assert set(throws) <= animated, f"seat {seat} animated every throw of both players"
        assert page.locator(".stardice-canvas").get_attribute("data-pace") == "fast"
        assert page.locator(".stardice-pace-note").inner_text() == ""
    assert len(throws) >= 14
    # each page words the call and the Borg's verdict from its own seat ("You call odd.",
    # "Klingon calls even.", "...: you go first.")
    assert any(re.search(r"\b(You call|Federation calls|Klingon calls) (odd|even)\.", n) for n in news), news
    first = r"its face has \d+ dots?, an (odd|even) number: (you go|Federation goes|Klingon goes) first\."
    assert any(re.search(first, n) for n in news), news
    mine = [table_state(p)["result"]["returns"] for p in pages]
    assert mine[0] == mine[1]


def test_two_people_on_one_screen_take_turns(web_server: ServerProcess, chromium: Any) -> None:
    """The hot seat ("two players on one screen taking turns"): one page holds both
    seats' tokens; after each turn the "pass the device" cover hides the table until the other
    player says it is them, and the battle is played so to its frozen end screen."""
    created = create_table(web_server.url, game="stardice", variant="battle", seed=3,
                           seats=[{"kind": "human"}, {"kind": "human"}])
    tokens = [seat["join_url"].split("token=")[1] for seat in created["seats"]]
    page = new_page(chromium, 1280, 820)
    page.goto(web_server.url + created["seats"][0]["join_url"] + f"&hot=0.{tokens[0]},1.{tokens[1]}")
    wait_connected(page)
    choose_pace(page, "Fast")
    rng = random.Random(4)
    seats_played: set[int] = set()
    passes = 0
    for _ in range(300):  # bounded: 14 dice, the Borg roll, the call, re-throws, a pass each
        if page.locator(".pass-device").count():
            page.locator(".pass-device button").click()
            passes += 1
            page.wait_for_function("window.playtable.state && window.playtable.state.your_turn")
            continue
        state = table_state(page)
        if state["terminal"]:
            break
        if not state["your_turn"] or page.evaluate("window.playtable.pending"):
            page.wait_for_timeout(50)
            continue
        seats_played.add(page.evaluate("window.playtable.seat"))
        _throw_or_call(page, rng)
    state = table_state(page)
    _check_end_screen(page, state)
    assert seats_played == {0, 1} and passes >= 14
    assert page.locator(".stardice-canvas").get_attribute("data-pace") == "fast"
