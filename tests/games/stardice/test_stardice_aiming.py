"""The aiming bot (stardice/aiming.py) on constructed tables: it finds the throw that closes a
formation (It. 5: a closed shape of n dice scores far more than a string) where throws drawn at
random rarely do, and the hint says why in words."""

from __future__ import annotations

from playtable.core.chance import Chance
from playtable.core.registry import get_game
from playtable.games.stardice.aiming import AimingThrower, candidates
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.physics import Piece

WORLDS = 12


def table_with(dice: dict[str, tuple[float, float]], seed: int = 1) -> StarDiceState:
    """A battle under way, Federation to throw, with `dice` (id: position) lying settled on
    the table, each showing 5, taken from their owners' hands."""
    state = get_game("stardice").new_state(None, seed)
    assert isinstance(state, StarDiceState)
    state.phase, state.to_move = "throw", 0
    for die, (x, y) in dice.items():
        kind = die.split(".")[1].rstrip("abc")
        state.table[die] = Piece(die, kind, x, y)
        state.values[die] = 5
        state.hands[0 if die.startswith("F.") else 1].remove(die)
    state._finish_frames(0.0)  # the table settles: the formation engine connects what it sees
    return state


def closes(state: StarDiceState, action: object, die: str, world: int) -> bool:
    """Does `action`, in the sampled world `world`, leave `die` in a closed formation?"""
    copy = state.determinize(0, Chance(1000 + world))
    copy.apply(action)
    return any(die in f for f in copy.engine.formations())


STRING = {"F.d20a": (0.30, 0.30), "F.d12a": (0.45, 0.33), "F.d8a": (0.58, 0.40), "K.d20a": (0.80, 0.60)}


def test_it_closes_a_string_into_a_formation_that_random_throws_rarely_close() -> None:
    state = table_with(STRING)
    layout = state.engine.layout()
    assert layout.strings == (("F.d20a", "F.d12a", "F.d8a"),) and not layout.formations
    chosen = AimingThrower().choose(state, Chance(7))
    aimed = sum(closes(state, chosen, "F.d20a", w) for w in range(WORLDS))
    drawn = state.fresh_throws(Chance(3), WORLDS)
    by_chance = sum(closes(state, a, "F.d20a", w) for w, a in enumerate(drawn))
    assert aimed >= WORLDS - 2, aimed
    assert by_chance <= WORLDS // 3, by_chance


def test_it_makes_a_triangle_from_two_loose_dice() -> None:
    state = table_with({"F.d20a": (0.40, 0.30), "F.d20b": (0.62, 0.30), "K.d8a": (0.85, 0.65)})
    assert not state.engine.layout().formations
    chosen = AimingThrower().choose(state, Chance(11))
    aimed = sum(closes(state, chosen, "F.d20a", w) for w in range(WORLDS))
    assert aimed >= WORLDS // 2, aimed
    goals = {aim.goal for aim in candidates(state, Chance(1), 36, 0)}
    assert "triangle" in goals


def test_it_aims_to_knock_the_opponents_formation() -> None:
    klingon = {"K.d20a": (0.40, 0.40), "K.d12a": (0.55, 0.40), "K.d8a": (0.47, 0.52)}
    state = table_with(klingon)
    assert state.engine.layout().formations
    knocks = {aim.at for aim in candidates(state, Chance(1), 64, 0) if aim.goal == "knock"}
    assert knocks == {("K.d20a",), ("K.d12a",), ("K.d8a",)}
    # with no shape of its own to make, it knocks theirs, and says so
    action, text = state.hint() or (None, "")
    assert " at their d" in text and "knock" in text, text
    assert state.is_legal(action) is None


def test_the_hint_says_which_die_where_and_what_it_closes() -> None:
    state = table_with(STRING)
    found = state.hint()
    assert found is not None
    action, text = found
    assert state.is_legal(action) is None
    assert "to close a formation of 4 worth 6" in text, text
    assert text.startswith(("Roll the ", "Slide the ")) and "towards (" in text
    assert "simulated throws" in text and "your lead goes from +1 to" in text
    assert state.hint() == found  # the same position, the same hint


def test_the_call_and_a_quiet_table_get_a_hint_too() -> None:
    state = get_game("stardice").new_state(None, 4)
    assert state.phase == "call"
    action, text = state.hint() or (None, "")
    assert str(action).startswith("call ") and "by chance" in text
    state.apply(action)
    action, text = state.hint() or (None, "")
    assert str(action).startswith("roll borg") and "Borg die" in text
