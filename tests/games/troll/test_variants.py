"""Variants: seed 000 §4.1 "Destructive variations" and the Day-5 draft rules (seed 001 §4.1)."""

from __future__ import annotations

import pytest
from tests.games.troll.helpers import FULL_LOWER, FULL_UPPER, kinds, position, texts, top

from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params
from playtable.games.troll.game import GAME
from playtable.games.troll.params import TrollParams


def _new(variant: str | None = None, *assignments: str, seed: int = 5):  # type: ignore[no-untyped-def]
    return GAME.new_state(resolve_params(TrollParams, GAME.variants, variant, assignments), seed)


def test_more_bricks_per_slot_and_extra_end_bricks() -> None:
    """§4.1: "Adding more cards to the end slots makes the game slightly easier. Adding one card to
    every slot makes the game much easier"."""
    assert [len(s) for s in _new("plus-one").stacks[:6]] == [4, 3, 2, 2, 3, 4]
    assert [len(s) for s in _new("tutorial").stacks[:6]] == [5, 4, 3, 3, 4, 5]
    assert [len(s) for s in _new("easier-ends").stacks[:6]] == [4, 2, 1, 1, 2, 4]
    assert [len(s) for s in _new(None, "heights=3,2,2,2,2,3").stacks[6:]] == [3, 2, 2, 2, 2, 3]


def test_impossible_bridges_are_rejected_with_a_clear_message() -> None:
    with pytest.raises(BadParameter, match="no deck"):
        resolve_params(TrollParams, GAME.variants, None, ["extra_per_slot=3"])
    with pytest.raises(BadParameter, match="6 numbers"):
        resolve_params(TrollParams, GAME.variants, None, ["heights=3,2,1"])
    with pytest.raises(BadParameter, match="unknown parameter"):
        resolve_params(TrollParams, GAME.variants, None, ["bricks=3"])


def test_one_card_given_to_the_troll_at_the_start() -> None:
    """§4.1: "One card could be given to the troll from the awakening deck" (I12)."""
    state = GAME.new_state(resolve_params(TrollParams, GAME.variants, "troll-card"), 9,
                           {"deck": ["QS", "7H"]})
    assert state.carried == [3 * 13 + 11] and state.carried[0] in state.face_up
    assert state.played[0][0] == 2 * 13 + 6  # 7H sets the colour after the gift
    assert kinds(state.setup_events)[0] == "given"


def test_reusable_ace_of_diamonds() -> None:
    """§4.1: "The aces of diamonds could also be considered infinitely reusable like THE CLUB"."""
    lower = ["2C 3C 4C", "5C 6C", "7C", "8C", "9C 10C", "JC QC KC"]
    for reusable, kept in ((True, True), (False, False)):
        state = position(lower, FULL_UPPER, troll="lower 1", awake=("7C", "AD"), carried=("AD",),
                         params={"reusable_ace_of_diamonds": reusable})
        state.apply(state.parse_action("throw right"))
        assert bool(state.carried) is kept


def test_club_from_start_and_both_toys() -> None:
    """§4.1: THE CLUB given at the start; "the ace of diamonds could be made infinitely reusable
    and given to the troll along with THE CLUB at the start"."""
    state = _new("club-start")
    assert state.carried == [0] and all(0 not in s for s in state.stacks)
    assert not any(a.startswith("pick") for a in texts(state.legal_actions()))
    state = _new("toys")
    assert sorted(state.carried) == [0, 13] and state.params.reusable_ace_of_diamonds


def test_draft_unsupported_dormant_bricks_fall() -> None:
    """Seed 001 §4.1 (draft D1): a dormant brick away from the ends touching fewer than two other
    bricks falls off the bridge and is set aside; a troll standing on it falls too (I18)."""
    lower = ["2C 3C 4C", "5C 6C", "7C", "8C", "9C 10C", "JC QC KC"]
    upper = ["2S 3S 4S", "", "7S", "", "9S 10S", "JS QS KS"]  # upper 3 touches only lower 3
    state = position(lower, upper, troll="lower 1", actions_left=1, deck=("2D",), d6=(6,),
                     params={"rules": "draft"})
    events = state.apply(state.parse_action("move right"))
    assert "fell" in kinds(events) and top(state, "upper", 3) is None
    assert not state.is_terminal  # the lower row still joins the banks
    final = position(lower, upper, troll="lower 1", actions_left=1, deck=("2D",), d6=(6,))
    assert "fell" not in kinds(final.apply(final.parse_action("move right")))
    trapped = position(lower, upper, troll="upper 3", actions_left=1, deck=("2D",), d6=(6,),
                       params={"rules": "draft"}, visited=("lower 3",))
    assert texts(trapped.legal_actions()) == ["wait"]
    trapped.apply(trapped.parse_action("wait"))
    assert trapped.outcome == "loss" and trapped.end_reason == "fell"


def test_draft_lay_down_anywhere_touching_two_bricks() -> None:
    """Seed 001 §4.1 (draft D2): "lay that dormant brick down into any spot where the brick will
    be touching at least two other bricks"."""
    lower = ["2C 3C 4C", "5C 6C", "7C", "", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="lower 1", carried=("8C",), params={"rules": "draft"})
    assert "lay lower 4" in texts(state.legal_actions())
    final = position(lower, FULL_UPPER, troll="lower 1", carried=("8C",))
    assert "lay lower 4" not in texts(final.legal_actions())


def test_draft_spade_may_awaken_an_adjacent_dormant_brick() -> None:
    """Seed 001 §4.1 (draft D3): "spade-shaped bricks can be used to awaken a dormant brick next
    to the troll"."""
    upper = ["2S 3S 4S", "5S 6S", "7S", "8S", "9S 10S", "JS QS"]
    state = position(FULL_LOWER, upper, troll="lower 3", carried=("KS",), awake=("KS",),
                     params={"rules": "draft"})
    assert "wake left" in texts(state.legal_actions())
    events = state.apply(state.parse_action("wake left"))
    assert "awakened" in kinds(events)
    final = position(FULL_LOWER, upper, troll="lower 3", carried=("KS",), awake=("KS",))
    assert "wake left" not in texts(final.legal_actions())


def test_draft_diamond_thrown_off_the_bridge() -> None:
    """Seed 001 §4.1 (draft D4): "Diamond-shaped bricks can also be throw off the bridge to hit no
    awakened bricks"."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 3", carried=("2D",), awake=("2D",),
                     params={"rules": "draft"})
    assert "throw left" in texts(state.legal_actions())
    events = state.apply(state.parse_action("throw down"))
    assert events[-1].data == {"slot": None}
    final = position(FULL_LOWER, FULL_UPPER, troll="lower 3", carried=("2D",), awake=("2D",))
    assert "throw left" not in texts(final.legal_actions())
