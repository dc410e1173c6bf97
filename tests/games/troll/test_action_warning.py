"""Warnings before a fatal troll action (RULES.md "Warnings before a fatal action"): the bridge
collapses after the flight phase (§7.1 "Brick flight phase": "If the bridge is not connected,
the bridge collapses"), or the troll ends its turn on an awake brick that a second awakening
would fly away with (§7.1 "Winning": "The bridge wins if ... the troll is standing on an
awakened brick that gets a second awakening")."""

from __future__ import annotations

from tests.games.troll.helpers import FULL_LOWER, FULL_UPPER, position

from playtable.core.chance import Chance
from playtable.games.troll.fatal import action_warning, double_awakening_chance
from playtable.games.troll.rules import TrollState

GAP_LOWER = ["2C 3C 4C", "5C 6C", "7H", "8C", "9C 10C", "JC QC KC"]
GAP_UPPER = ["2S 3S 4S", "5S 6S", "", "8S", "9S 10S", "JS QS KS"]


def _warn(state: TrollState, text: str) -> str | None:
    warning = action_warning(state, state.parse_action(text))
    assert state.action_warning(state.parse_action(text)) == warning  # the protocol's way in
    return warning


def _loses_now(state: TrollState, text: str) -> bool:
    after = state.clone()
    after.hold_next_turn = True
    after.apply(after.parse_action(text))
    return after.outcome == "loss"


def test_7_1_flight_collapse_is_warned_exactly_when_the_turn_loses() -> None:
    """The only brick at position 3 is awake and flees, leaving a gap across both rows."""
    state = position(GAP_LOWER, GAP_UPPER, troll="lower 2", actions_left=1, awake=("7H",),
                     deck=("2D", "3D"))
    for action in state.legal_actions():
        warning = action_warning(state, action)
        assert (warning is not None and "collapses" in warning) == _loses_now(state, str(action))
    assert "collapses" in (_warn(state, "move up") or "")
    assert "collapses" not in (_warn(state, "move right") or "")  # standing on it holds it


def test_7_1_ending_the_turn_on_an_awake_brick_is_warned_with_its_odds() -> None:
    state = position(GAP_LOWER, GAP_UPPER, troll="lower 2", actions_left=1, awake=("7H",),
                     deck=("2D", "3D"))
    warning = _warn(state, "move right")
    assert warning is not None and "flies away with the troll" in warning and "lower 3" in warning


def test_7_1_a_set_aside_card_of_the_other_row_cannot_hit_the_troll() -> None:
    """§7.1 "Brick awakening phase": a set-aside card goes to the stack of its colour, so a black
    card (upper row, lower row red) never awakens the troll's lower brick: no warning."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 2", actions_left=1, awake=("7C",),
                     set_aside=("AS",), deck=("2D",))
    assert _warn(state, "move right") is None
    red = position(FULL_LOWER, FULL_UPPER, troll="lower 2", actions_left=1, awake=("7C",),
                   set_aside=("2H",), deck=("2D",))
    after = red.clone()
    after.hold_next_turn = True
    after.apply(after.parse_action("move right"))
    assert abs(double_awakening_chance(after) - 1 / 6) < 1e-12


def test_no_warning_for_a_first_action_or_a_safe_turn_end() -> None:
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 2", deck=("2D",))
    assert all(action_warning(state, a) is None for a in state.legal_actions())
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 2", actions_left=1, deck=("2D",))
    assert all(action_warning(state, a) is None for a in state.legal_actions())


def test_the_warning_changes_nothing_and_never_peeks() -> None:
    """The same words on every determinization: the deck order and dice play no part."""
    state = position(GAP_LOWER, GAP_UPPER, troll="lower 2", actions_left=1, awake=("7H",),
                     deck=("2D", "3D", "4H", "AD"))
    before = state.to_json()
    words = [action_warning(state, a) for a in state.legal_actions()]
    assert state.to_json() == before
    for seed in range(5):
        other = state.determinize(0, Chance(seed))
        assert isinstance(other, TrollState)
        assert [action_warning(other, a) for a in other.legal_actions()] == words
