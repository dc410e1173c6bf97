"""The end screen in a real browser: three people at a finished wizard game see what
was hidden and the game's story, and vote for the most evil player (seed 003, 8 Nov
"Preparation") by clicking, each once; the tally shows on every page when all have voted. A
Rotator player takes moves back with the Undo button, then sees the end screen. The wizard
game is played to its end over the socket (a test client), so the browser time goes to what a
person does at the end. Screenshots go to the test's temporary directory."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.web.browser_support import click_action, create_table, new_page, table_state, wait_connected
from tests.web.server_process import ServerProcess
from tests.web.wire_client import Client, join_query

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.registry import get_game


def _finish_over_the_socket(server: ServerProcess, created: dict[str, Any], seats: int) -> None:
    clients = [Client(server.ws_url, created["table_id"], join_query(created, s)) for s in range(seats)]
    try:
        states = [c.greet()[1] for c in clients]
        rng = random.Random(3)
        for _ in range(500):  # bounded: a one-round game is a dozen actions
            if states[0]["terminal"]:
                return
            mover = states[0]["current_player"]
            clients[mover].send({"type": "act", "action": rng.choice(states[mover]["legal"])["action"],
                                 "step": states[mover]["step"]})
            states = [c.recv_type("state") for c in clients]
        raise AssertionError("the game did not end")
    finally:
        for c in clients:
            c.close()


def _at_the_tower_door() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A hero's view at his move, standing on the tower's entrance square with the door open."""
    state = get_game("wizard").new_state(seed=3)
    agent, rng = make_agent(get_game("wizard"), "random"), Chance(1)
    while state.decision.get("kind") != "commit":
        state.apply(agent.choose(state, rng))
    hero = state.hero(state.current_player)
    hero.pos, hero.keys = state.entrance_square(), 2
    assert state.door_open()
    return (state.observation(hero.seat),
            [{"action": str(a), "warning": None} for a in state.legal_actions()])


def test_a_finished_wizard_game_reveals_its_secrets_and_its_people_vote(
        web_server: ServerProcess, chromium: Any, tmp_path: Path) -> None:
    created = create_table(web_server.url, game="wizard", seed=44, players=3, params={"max_rounds": 1})
    _finish_over_the_socket(web_server, created, 3)
    sizes = [(1280, 800), (390, 844), (1280, 800)]
    pages = []
    for seat, (width, height) in enumerate(sizes):
        page = new_page(chromium, width, height, touch=width < 600)
        page.goto(web_server.url + created["seats"][seat]["join_url"])
        wait_connected(page)
        pages.append(page)
    for page in pages:
        end = page.locator(".end-screen")
        end.locator(".vote-box").wait_for()
        assert "The wizard's hand" in end.locator(".end-revealed").inner_text()
        assert end.locator(".vote-choices button").count() == 2  # never oneself
    # The vote's buttons name the seats as the game does, never by their ids (`hero2`).
    assert pages[0].locator(".vote-choices button").all_inner_texts() == ["Hero 1", "Hero 2"]
    assert pages[1].locator(".vote-choices button").all_inner_texts() == ["the wizard", "Hero 2"]
    pages[0].screenshot(path=str(tmp_path / "wizard-end-1280.png"))
    pages[1].screenshot(path=str(tmp_path / "wizard-end-390.png"), full_page=True)
    end = pages[0].locator(".end-screen")
    end.locator("summary", has_text="The game's story").click()
    assert end.locator(".end-tallies tbody tr").count() == 3
    pages[0].screenshot(path=str(tmp_path / "wizard-story-1280.png"))
    # Alice (the wizard) and hero 2 vote for hero 1; hero 1 for the wizard.
    for page, choice in ((pages[0], "1"), (pages[2], "1"), (pages[1], "0")):
        page.locator(f'.vote-choices button[data-vote="{choice}"]').click()
        page.locator(".vote-box", has_text="You voted for").or_(page.locator(".vote-result")).wait_for()
    for page in pages:
        result = page.locator(".vote-result")
        result.wait_for()
        assert "The most evil player is Hero 1" in result.inner_text()
    pages[0].screenshot(path=str(tmp_path / "wizard-vote-1280.png"))
    # The wizard's words: the rage says how many tiles, verbs agree, lists read as English.
    words = pages[0].evaluate("""async () => {
        const wizard = await import('/static/js/games/wizard.js');
        const story = await import('/static/js/end_story.js');
        return [wizard.status({ round: 4, decision: { kind: 'rage', seat: 0, left: 3 }, keys_found: 2,
                                keys_needed: 2, rage: true }),
                wizard.status({ round: 4, decision: { kind: 'boost', seat: 1 }, keys_found: 0,
                                keys_needed: 2 }),
                story.andList(['Alice', 'Bob', 'Carol'])];
    }""")
    assert "The wizard rages: tears 3 more tiles out" in words[0]
    assert "Hero 1 prepares for the fight" in words[1]
    assert words[2] == "Alice, Bob and Carol"
    # A hero on the entrance square with the door open: the move into the tower is named so.
    observation, legal = _at_the_tower_door()
    labels = pages[0].evaluate("""async ([observation, legal]) => {
        const wizard = await import('/static/js/games/wizard.js');
        const board = wizard.createBoard(document.createElement('div'),
            { offer: () => {}, seatNames: () => [], who: (s) => `seat ${s}` });
        board.render({ observation, legal, events: [], step: 1, terminal: false, hinted: null,
                       animate: false, yourTurn: true, waitingFor: [], role: 'player' });
        return legal.map((e) => wizard.label(e.action));
    }""", [observation, legal])
    assert "Enter the wizard's tower (move north)" in labels and "Move east" in labels
    # The same hero in a fight, holding one combat bonus or two (wizard RULES.md section 8, 21).
    seat = observation["seat"]
    for hand, expected in ((["battle_cry"], "Play Battle Cry, then fight (your last bonus)"),
                           (["battle_cry", "battle_cry"], "Play Battle Cry in this fight")):
        fight = {**observation, "decision": {"kind": "boost", "seat": seat},
                 "heroes": [{**h, "hand": hand} if h["seat"] == seat else h for h in observation["heroes"]]}
        fight_legal = [{"action": "boost battle_cry", "warning": None}, {"action": "fight", "warning": None}]
        said = pages[0].evaluate("""async ([observation, legal]) => {
            const wizard = await import('/static/js/games/wizard.js');
            wizard.createBoard(document.createElement('div'), { offer: () => {}, seatNames: () => [] })
              .render({ observation, legal, events: [], step: 1, terminal: false, hinted: null,
                        animate: false, yourTurn: true, waitingFor: [], role: 'player' });
            return [wizard.label('boost battle_cry'), wizard.status(observation)];
        }""", [fight, fight_legal])
        assert said[0] == expected and "prepares for the fight" in said[1]
    for page in pages:
        assert not page.script_errors and not page.foreign_requests


def test_rotator_moves_are_taken_back_then_the_end_tells_the_story(
        web_server: ServerProcess, chromium: Any, tmp_path: Path) -> None:
    created = create_table(web_server.url, game="rotator", variant="easy", seed=2, seats=[{"kind": "human"}])
    page = new_page(chromium)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    first = table_state(page)["observation"]
    for _ in range(2):
        click_action(page, table_state(page)["legal"][0]["action"])
    for step in (1, 0):
        page.get_by_role("button", name="Undo (u)").click()
        page.wait_for_function(f"window.playtable.state.step === {step}")
    assert table_state(page)["observation"] == first
    assert page.locator(".log-list > li").count() == 1  # only the setup is left in the log
    rng = random.Random(5)
    for _ in range(200):
        state = table_state(page)
        if state["terminal"]:
            break
        click_action(page, rng.choice(state["legal"])["action"], prefer_board=False)
    end = page.locator(".end-screen")
    assert "Nothing was hidden" in end.locator(".end-details").inner_text()
    assert not page.get_by_role("button", name="Undo (u)").is_visible()
    page.screenshot(path=str(tmp_path / "rotator-end-1280.png"))
    assert not page.script_errors and not page.foreign_requests


_PLACE_END_SCREEN = """async ([above]) => {
    const parts = await import('/static/js/frame_parts.js');
    document.body.replaceChildren();
    const spacer = document.createElement('div');
    spacer.style.height = `${above}px`;
    const details = document.createElement('div');
    details.style.height = '1500px';  // the story under the buttons: taller than the screen
    const panel = parts.endScreen({ title: 'You win!', text: 'Federation wins the war.', won: true,
        details, replayUrl: '/', onRematch: () => {}, onClose: () => {} });
    document.body.append(spacer, panel);
    window.scrollTo(0, 0);
    window.placedEndScreen = panel;
    const buttons = panel.querySelector('.buttons').getBoundingClientRect();
    return [panel.getBoundingClientRect().top, buttons.bottom, innerHeight];
}"""
_SHOWN = """() => {
    const top = window.placedEndScreen.getBoundingClientRect().top;
    const bottom = window.placedEndScreen.querySelector('.buttons').getBoundingClientRect().bottom;
    return [top, bottom, scrollY];
}"""


def test_an_end_screen_comes_into_view_with_its_buttons(web_server: ServerProcess, chromium: Any) -> None:
    """`frame_parts.bringIntoView` on a phone (390x844): an end screen whose title shows but whose
    buttons are below the fold is scrolled just until its buttons show, its title still in view;
    one wholly below the fold comes up to the window's top; one that shows whole stays put."""
    page = new_page(chromium, 390, 844, touch=True)
    page.emulate_media(reduced_motion="reduce")  # the page scrolls at once, not smoothly
    page.goto(web_server.url + "/")
    for above, moves in ((844 - 170, True), (844 + 400, True), (40, False)):
        top, bottom, height = page.evaluate(_PLACE_END_SCREEN, [above])
        assert (0 <= top < height and bottom > height) == (above == 844 - 170), (above, top, bottom)
        page.evaluate("window.placedEndScreen && import('/static/js/frame_parts.js')"
                      ".then((parts) => parts.bringIntoView(window.placedEndScreen))")
        if moves:
            page.wait_for_function(f"(() => {{ const [t, b] = ({_SHOWN})(); "
                                   f"return t >= 0 && b <= innerHeight; }})()")
            top, bottom, scrolled = page.evaluate(_SHOWN)
            assert top >= 0 and bottom <= height and scrolled > 0, (above, top, bottom, scrolled)
            if above == 844 - 170:  # just enough for the buttons: the title stays well down
                assert top > 100 and bottom > height - 40, (top, bottom)
        else:
            page.wait_for_timeout(300)
            assert page.evaluate(_SHOWN)[2] == 0
    assert not page.script_errors and not page.foreign_requests
