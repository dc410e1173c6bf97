"""The wizard game's hint (RULES.md §9, "Hints"): the heuristic bot's move for the player to act
and why, in a sentence; only from what that seat may see; the same (action, words) shape as the
other games' hints, served by the web's workers and shown by the terminal app."""

from __future__ import annotations

import asyncio
import re

from tests.games.wizard.helpers import params, ready, sq
from tests.games.wizard.test_bots_play_on import _lone_hero_beside_the_door

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.presentation import presentation
from playtable.games.wizard.bots import HeuristicAgent
from playtable.games.wizard.game import GAME
from playtable.web.server.bots.bots import hint as worker_hint

WHY = re.compile(r"^(?P<action>[A-Za-z0-9 _']+)\. Why: (?P<why>\S.{20,}[.!])$")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b|\bhero\d")
"""An id where a player should read a name (`health_potion`, `hero2`)."""


def test_the_hint_is_the_bots_move_and_says_why() -> None:
    st = _lone_hero_beside_the_door()
    found = presentation(st).hint()
    assert found is not None
    action, text = found
    assert str(action) == str(HeuristicAgent().choose(st, Chance(1))) == "move E"
    assert text.startswith("move E. Why: the tower door is open: head for its entrance, c4;")
    assert re.search(r"a fight the heroes win about \d+% of the time", text)


def test_the_wizards_hint_names_the_kill() -> None:
    st = ready(3)
    st.hand, st.mana = ["fireball.1", "fireball.2", "goblin.1"], 6
    st.hero(1).pos, st.hero(1).hp = sq("b2"), 2
    found = presentation(st).hint()
    assert found is not None
    assert found[1] == ("play Fireball. Why: the Fireballs you can pay for this turn kill a hero: "
                        "you win by killing every hero.")
    st.apply(found[0])
    target = presentation(st).hint()
    assert target is not None and str(target[0]) == "target b2"
    assert target[1] == "target b2. Why: Hero 1 has 2 hit points left: your Fireballs finish him."


def test_every_decision_of_a_game_has_a_legal_hint_with_a_reason() -> None:
    for players, seed in ((3, 4), (4, 5)):
        st = GAME.new_state(params(players), seed)
        bots = [make_agent(GAME, "heuristic") for _ in range(players)]
        rng = Chance(seed)
        kinds = set()
        while not st.is_terminal:
            found = presentation(st).hint()
            assert found is not None
            action, text = found
            assert action in st.legal_actions()
            match = WHY.match(text)
            assert match and not SNAKE.search(text), text
            assert match["action"].split()[0] == str(action).split()[0]
            kinds.add(st.decision["kind"])
            st.apply(bots[st.current_player].choose(st, rng))
        assert {"main", "place", "commit", "keep"} <= kinds
        assert presentation(st).hint() is None


def test_a_heros_hint_tells_nothing_hidden_from_him() -> None:
    """The hero's hint is the same on every determinization for his seat: neither the action
    nor the words can tell what a face-down token is or where a key lies."""
    st = GAME.new_state(params(4), 12)
    bots = [make_agent(GAME, "heuristic") for _ in range(4)]
    rng = Chance(3)
    checked = 0
    while not st.is_terminal and checked < 60:
        seat = st.current_player
        if seat != 0:
            mine = presentation(st).hint()
            for k in range(2):
                other = st.determinize(seat, Chance(100 * checked + k))
                assert presentation(other).hint() == mine
            checked += 1
        st.apply(bots[seat].choose(st, rng))
    assert checked >= 20


def test_the_web_workers_serve_the_wizards_hint() -> None:
    st = _lone_hero_beside_the_door()
    found = worker_hint("wizard", st.to_json())
    assert found is not None and found[0] == "move E" and "Why: the tower door is open" in found[1]


def test_the_terminal_shows_the_hint_in_its_log() -> None:
    from textual.widgets import OptionList

    from playtable.tui.wizard import WizardApp

    async def go() -> None:
        app = WizardApp(params(3), seed=9, seats={0: "heuristic", 2: "heuristic"})
        async with app.run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            assert app.viewer == 1 and app.state.decision["kind"] == "start"
            await pilot.press("h")
            assert app.log_lines[-1].startswith("Hint: start ")
            assert "Why: this corner is the nearest to the tower's entrance" in app.log_lines[-1]
            options = app.query_one("#actions", OptionList)
            assert options.highlighted is not None
            chosen = options.get_option_at_index(options.highlighted).id
            assert app.log_lines[-1].startswith(f"Hint: {chosen}.")

    asyncio.run(go())


def test_a_placed_monster_beside_a_key_says_it_guards_it() -> None:
    """The wizard's own hint may name his hidden keys (only he is shown it)."""
    st = ready(3)
    st.hand, st.mana = ["orc.1"], 2
    for h in st.heroes:
        h.pos = sq("c1")
    st.apply_text("play orc")
    found = presentation(st).hint()
    assert found is not None and str(found[0]).startswith("place m2 ")
    assert "key" in found[1]
