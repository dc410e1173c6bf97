"""Warnings before a fatal troll action (RULES.md "Warnings before a fatal action"): the bridge
collapses after the flight phase (§7.1 "Brick flight phase": "If the bridge is not connected,
the bridge collapses"), or the troll ends its turn on an awake brick that a second awakening
would fly away with (§7.1 "Winning": "The bridge wins if ... the troll is standing on an
awakened brick that gets a second awakening")."""

from __future__ import annotations

import pytest
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


def test_the_warnings_of_every_variant_change_nothing_and_match_a_whole_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The warning tries each action on the search's lighter copy (`clone(within_turn)`, which
    shares the deck, the dice and the seen cards): over random games of every variant, at each
    turn's last action, the state is left exactly as it was, and every warning is the one a
    whole copy gives (`_loses_now`'s way)."""
    import random

    from playtable.core.params import resolve_params
    from playtable.games.troll.game import GAME
    from playtable.games.troll.params import TrollParams

    lighter = TrollState.clone
    rng = random.Random(7)
    checked = 0
    for variant in GAME.variants:
        params = resolve_params(TrollParams, GAME.variants, variant)
        for seed in range(3):
            state = GAME.new_state(params, seed)
            while not state.is_terminal and state.turn < 60:
                if state.actions_left == 1:
                    before = state.to_json()
                    words = [state.action_warning(a) for a in state.legal_actions()]
                    assert state.to_json() == before, variant
                    with monkeypatch.context() as whole_copies:  # every copy whole
                        whole_copies.setattr(TrollState, "clone", lambda s, within_turn=False: lighter(s))
                        assert [action_warning(state, a) for a in state.legal_actions()] == words, variant
                    checked += len(words)
                state.apply(rng.choice(state.legal_actions()))
    assert checked > 1000


def test_a_draft_wake_warned_about_reveals_nothing_of_the_real_state() -> None:
    """The draft's spade wakes a dormant brick mid-turn (I18, seed 000 §4.1), turning a card up:
    a warning that tried it on a copy sharing the seen cards would have shown it in the real
    position. Random play seldom reaches it, so here it is built."""
    lower = ["2C 3C 4C", "5C 6C", "7C", "8C", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="lower 3", carried=("AS",), awake=("AS",),
                     params={"rules": "draft"}, actions_left=1, deck=("2D", "3D"))
    wakes = [a for a in state.legal_actions() if str(a).startswith("wake")]
    assert wakes
    before = state.to_json()
    for action in state.legal_actions():
        state.action_warning(action)
    assert state.to_json() == before
