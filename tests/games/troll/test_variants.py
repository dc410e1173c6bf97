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


# -- Test #7's setup ideas (seed 000 §8.1, appendix "Test #7"; RULES.md Variants, I21) -------------
def test_row_roll_puts_the_troll_in_the_rolled_row() -> None:
    """Test #7: "start the game with one roll of the die to determine the troll's row ... and then
    the second roll of the die to decide the card to stand on. (The first roll would be 1-3 =
    bottom, 4-6 = top)". The colour card is still drawn (§6.1)."""
    params = resolve_params(TrollParams, GAME.variants, "row-roll", [])
    for row_roll, slot in ((3, 4), (4, 6 + 4)):
        state = GAME.new_state(params, 1, {"d6": [row_roll, 5]})
        assert state.troll == slot and len(state.played[0]) == 1
        data = state.setup_events[0].data
        assert (data["row_roll"], data["roll"]) == (row_roll, 5)
    rows = {GAME.new_state(params, s).troll // 6 for s in range(40)}
    assert rows == {0, 1}


def test_same_start_always_starts_on_lower_3() -> None:
    """Test #7: "Or even have the troll always start on the same brick?" (the seed names no
    brick; I21: lower 3), and no roll places it."""
    params = resolve_params(TrollParams, GAME.variants, "same-start", [])
    assert {GAME.new_state(params, s).troll for s in range(20)} == {2}
    state = GAME.new_state(params, 4, {"d6": [6]})
    assert state.setup_events[0].data["roll"] is None
    assert state.chance.rigged.get("d6") in ([], None)  # the 6 went to the first awakening


def test_black_lower_fixes_the_colours_without_a_colour_card() -> None:
    """Test #7: "Then just tell the player to put black cards in the bottom flight stack and red in
    the top": no first card sets the colours (§6.1's job done), so the deck keeps it (I21)."""
    params = resolve_params(TrollParams, GAME.variants, "black-lower", [])
    default = GAME.new_state(None, 7)
    for s in range(20):
        state = GAME.new_state(params, s)
        assert not state.lower_red and state.setup_events[0].data["lower_colour"] == "black"
        played = [c for row in state.played for c in row]
        assert all((13 <= c < 39) == (c in state.played[1]) for c in played)  # red ones go up
    assert len(state.deck) + len(state.set_aside) + len(played) == 28  # 28 awakenings
    assert len(default.deck) + len(default.played[0]) + len(default.played[1]) - 1 == 27


def test_test7_variants_are_described_and_bounded() -> None:
    """Each Test #7 variant has its one line; the new fields declare their bounds."""
    for name in ("row-roll", "same-start", "black-lower"):
        assert name in GAME.variants and GAME.variant_descriptions[name]
    with pytest.raises(BadParameter, match="start_position"):
        resolve_params(TrollParams, GAME.variants, None, ["start_position=7"])
