"""The wizard game's bots play on (RULES.md §9, "Playing on"): a hero does not wait when waiting
buys nothing, a lone hero still goes for the tower, the wizard finishes a hero his Fireballs can
kill, spends mana that would be lost and never strands a hero where the game could only end in a
draw; and bot heroes and a bot wizard end the game beside a person who dies early."""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.wizard.helpers import params, put, ready, sq, to_heroes

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.games.wizard import board
from playtable.games.wizard.bots import HeuristicAgent
from playtable.games.wizard.game import GAME
from playtable.games.wizard.state import WizardState


def _lone_hero_beside_the_door() -> WizardState:
    """Hero 2 is dead; hero 1 (2 hit points, both keys: the door is open) stands on an empty
    turned tile next to the entrance square (c4), where three face-down tokens lie."""
    st = ready(3)
    dead = st.hero(2)
    dead.hp, dead.alive = 0, False
    h = st.hero(1)
    h.pos, h.hp, h.keys = sq("b4"), 2, 2
    st.keys_found = 2
    for name in ("b4", "a4", "b3", "b5", "c4"):
        st.cells[sq(name)].flipped = True
    put(st, "c4", "blank", "m1", "blank")
    to_heroes(st)
    assert st.decision == {"kind": "commit", "seat": 1} and st.door_open()
    return st


def test_a_lone_hurt_hero_steps_to_the_door_rather_than_wait() -> None:
    """Waiting on b4 buys nothing (the wizard adds tokens every round, the hero never heals), so
    the last living hero steps onto the guarded entrance: before, he stood still for good."""
    st = _lone_hero_beside_the_door()
    assert str(HeuristicAgent().choose(st, Chance(1))) == "move E"


def test_a_hero_at_the_open_door_still_waits_for_the_party() -> None:
    """The one wait that buys something: at the open door, for the rest of the party to storm
    the tower together (one fight, best die)."""
    st = ready(4)
    entrance = st.entrance_square()
    for h in st.heroes:
        h.keys = 1
    first = st.hero(1)
    first.pos = entrance
    for other, where in ((2, "a1"), (3, "a1")):
        st.hero(other).pos = sq(where, st.size)
    put(st, board.name(st.tower), "m5", "m5", up=True)
    to_heroes(st)
    assert st.decision == {"kind": "commit", "seat": 1} and st.door_open()
    assert str(HeuristicAgent().choose(st, Chance(1))) == "stay"


def _wizard_to_play(hand: list[str], mana: int) -> WizardState:
    """The wizard's main decision with `hand` and `mana`; hero 1 at 2 hit points on b2, hero 2
    at full health with a key on c4 beside the entrance."""
    st = ready(3)
    st.hand, st.mana = list(hand), mana
    weak, strong = st.hero(1), st.hero(2)
    weak.pos, weak.hp = sq("b2"), 2
    strong.pos, strong.keys = sq("c4"), 1
    return st


def test_the_wizard_finishes_a_hero_his_fireballs_can_kill() -> None:
    """Two payable Fireballs kill the hero at 2 hit points: the wizard plays them at him (before,
    he placed a goblin and kept them for a group or a hero at 1 hit point)."""
    st = _wizard_to_play(["fireball.1", "fireball.2", "goblin.1"], 6)
    bot = HeuristicAgent()
    assert str(bot.choose(st, Chance(1))) == "play fireball"
    st.apply(bot.choose(st, Chance(1)))
    assert str(bot.choose(st, Chance(1))) == "target b2"


def test_one_payable_fireball_leaves_a_hero_at_two_hit_points_alone() -> None:
    st = _wizard_to_play(["fireball.1", "fireball.2", "goblin.1"], 3)
    assert str(HeuristicAgent().choose(st, Chance(1))) == "play goblin"


def test_mana_that_no_token_can_use_goes_on_a_fireball() -> None:
    """With no monster or trap to pay for, unspent mana is lost (8 Nov), so it burns a hero."""
    st = _wizard_to_play(["fireball.1"], 3)
    st.hero(1).hp = 10
    assert str(HeuristicAgent().choose(st, Chance(1))) == "play fireball"


def test_the_wizard_never_switches_a_hero_onto_a_tile_cut_off_from_the_tower() -> None:
    """a1 with a level-4 monster on top, cut off by the rage (a2 and b1 torn out): a hero who
    won his fight there could never leave, and nothing could reach him. The wizard keeps his
    Switcheroo (before, he sent a hero there and the game ran on to the round cap)."""
    st = ready(3)
    for gone in ("a2", "b1"):
        st.cells[sq(gone)].removed = True
    for h in st.heroes:
        h.pos = sq("d4")
    put(st, "a1", "blank", "m4")
    st.hand, st.mana = ["switcheroo.1"], 2
    assert str(HeuristicAgent().choose(st, Chance(1))) == "end"
    put(st, "e4", "blank", "m2")
    assert str(HeuristicAgent().choose(st, Chance(1))) == "play switcheroo"


class RashPerson:
    """A scripted person on a hero seat: walks onto the tile with the most tokens, takes the
    first choice everywhere else; he dies early."""

    name = "rash"

    def choose(self, state: Any, rng: Chance) -> Any:
        legal = state.legal_actions()
        if state.decision["kind"] != "commit":
            return legal[0]
        here = state.hero(int(state.decision["seat"])).pos

        def tokens(a: Any) -> int:
            return len(state.cells[board.step(here, a.args[0])].tokens) if a.verb == "move" else -1

        return max(legal, key=tokens)


@pytest.mark.parametrize(("players", "seed"), [(3, 27), (3, 30), (3, 275), (4, 56), (4, 115),
                                               (4, 197)])
def test_bots_end_the_game_after_a_person_beside_them_dies(players: int, seed: int) -> None:
    """A person on hero 1 who dies early, bot heroes beside him and a bot wizard: the bots play
    the game to a winner. On these seeds the bots before this change drew at the round cap."""
    st = GAME.new_state(params(players), seed)
    seats: list[Any] = [make_agent(GAME, "heuristic"), RashPerson()]
    seats += [make_agent(GAME, "heuristic") for _ in range(players - 2)]
    rng = Chance(seed)
    person_died = None
    while not st.is_terminal:
        st.apply(seats[st.current_player].choose(st, rng))
        if person_died is None and not st.hero(1).alive:
            person_died = st.round
    assert person_died is not None and person_died <= 20
    assert st.winner in ("heroes", "wizard") and st.round < st.params.max_rounds
