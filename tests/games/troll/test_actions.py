"""The troll action phase (seed 000 §6.2, §7.1 "Troll action phase", "Exceptions to the rules")."""

from __future__ import annotations

import pytest
from tests.games.troll.helpers import FULL_LOWER, FULL_UPPER, is_awake, kinds, position, texts, top

from playtable.core.errors import IllegalAction


def test_troll_moves_one_step_up_down_left_right_onto_bricks() -> None:
    """§7.1 Movement: one space up, down, left or right; always standing on a brick (I19)."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 3")
    moves = [a for a in texts(state.legal_actions()) if a.startswith("move")]
    assert moves == ["move left", "move right", "move up"]
    lower = ["2C 3C 4C", "", "7C", "8C", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="lower 3")
    assert "move left" not in texts(state.legal_actions())  # empty position


def test_troll_cannot_step_on_the_same_brick_twice_including_its_start() -> None:
    """§7.1 Movement "cannot move onto the same brick twice in one turn"; I1: the start counts."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 3")
    state.apply(state.parse_action("move left"))
    assert "move right" not in texts(state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply(state.parse_action("move right"))


def test_the_troll_must_take_two_actions_before_bricks_flee() -> None:
    """§4.1 "the troll must take both"; §6.2 order of phases."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 3", awake=("10C",), deck=("2H",), d6=(1,))
    events = state.apply(state.parse_action("move left"))
    assert state.actions_left == 1 and "fled_step" not in kinds(events)
    assert is_awake(state, "lower", 5)
    events = state.apply(state.parse_action("move up"))
    assert "fled_step" in kinds(events) and state.actions_left == 2


def test_stomp_makes_the_awake_brick_under_the_troll_dormant() -> None:
    """§7.1 Stomping: only on an awake brick the troll stands on."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 2", awake=("6C",))
    assert "stomp" in texts(state.legal_actions())
    state.apply(state.parse_action("stomp"))
    assert not is_awake(state, "lower", 2)
    assert "stomp" not in texts(state.legal_actions())


def test_pick_up_an_adjacent_awake_brick_but_never_a_heart_nor_the_one_underfoot() -> None:
    """§7.1 Picking up a brick: next to (not standing on), not a heart, one card at a time."""
    lower = ["2C 3C 4C", "5C 6C", "7H", "8C", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="lower 2", awake=("6C", "4C", "7H"))
    legal = texts(state.legal_actions())
    assert "pick left" in legal and "pick right" not in legal  # 7H is a heart
    state.apply(state.parse_action("pick left"))
    assert texts(state.legal_actions()).count("pick left") == 0
    assert state.carried and top(state, "lower", 1) == "3C"


def test_a_club_beats_an_adjacent_awake_brick_and_is_set_aside() -> None:
    """§7.1 Use a brick, Clubs: next to (not on) the target; the card is then set aside."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 3", awake=("6C", "8C", "5D"),
                     carried=("5D",))
    assert not any(a.startswith("club") for a in texts(state.legal_actions()))  # a diamond is no club
    state = position(FULL_LOWER, ["2S 3S 4S", "5S 6S", "7S", "8S", "9S 10S", "JS QS"],
                     troll="lower 3", awake=("6C", "KS"), carried=("KS",))
    assert "club left" not in texts(state.legal_actions())  # a spade is no club
    lower = ["2C 3C 4C", "5C 6C", "7C", "8C", "9C 10C", "JC QC"]
    state = position(lower, FULL_UPPER, troll="lower 3", awake=("6C", "KC"), carried=("KC",))
    assert "club left" in texts(state.legal_actions())
    state.apply(state.parse_action("club left"))
    assert not is_awake(state, "lower", 2) and state.carried == []
    assert [c % 13 + 1 for c in state.set_aside] == [13]


def test_the_club_is_kept_and_blocks_every_pick_up() -> None:
    """§7.1 Exceptions "THE CLUB (ace of clubs)": used repeatedly, never set aside, and no other
    brick can be picked up."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 3", awake=("6C", "8C", "AC"),
                     carried=("AC",))
    legal = texts(state.legal_actions())
    assert "club left" in legal and not any(a.startswith("pick") for a in legal)
    state.apply(state.parse_action("club left"))
    state.apply(state.parse_action("club right"))
    assert state.carried == [0] and 0 not in state.set_aside


def test_a_diamond_hits_the_first_awake_brick_in_its_direction_without_lobbing() -> None:
    """§7.1 Diamonds: thrown up, down, left or right at the first awake brick in that direction
    (§4.1 "no lobbing the brick over another awakened brick"); I10."""
    lower = ["2C 3C 4C", "5C 6C", "7C", "", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="lower 1", awake=("7C", "10C", "2D"), carried=("2D",))
    assert "throw right" in texts(state.legal_actions())
    assert "throw up" not in texts(state.legal_actions())  # nothing awake above: no target
    state.apply(state.parse_action("throw right"))
    assert not is_awake(state, "lower", 3) and is_awake(state, "lower", 5)
    state = position(lower, FULL_UPPER, troll="lower 1", awake=("10C", "2D"), carried=("2D",))
    state.apply(state.parse_action("throw right"))  # over a dormant brick and an empty slot
    assert not is_awake(state, "lower", 5)


def test_a_spade_shovels_an_adjacent_awake_brick_into_the_trolls_hands_dormant() -> None:
    """§7.1 Spade: flip the awakened brick face down and place it on the troll; the spade is
    set aside."""
    upper = ["2S 3S 4S", "5S 6S", "7S", "8S", "9S 10S", "JS QS"]
    state = position(FULL_LOWER, upper, troll="lower 3", awake=("8C", "KS"), carried=("KS",))
    state.apply(state.parse_action("shovel right"))
    assert top(state, "lower", 4) is None  # the single brick of lower 4 is in the troll's hands
    assert len(state.carried) == 1 and state.carried[0] not in state.face_up
    assert [c % 13 + 1 for c in state.set_aside] == [13]


def test_laying_down_a_dormant_brick_next_to_the_troll() -> None:
    """§7.1 Laying down a brick: up, down, left or right of the troll, in an original bridge
    position; empty or on a stack, never on an awake brick (I9)."""
    lower = ["2C 3C 4C", "5C 6C", "7C", "", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="lower 3", awake=("7S",), carried=("8C",))
    legal = texts(state.legal_actions())
    assert {"lay lower 2", "lay lower 4"} <= set(legal)
    assert "lay upper 3" not in legal  # 7S is awake there
    assert "lay lower 6" not in legal  # not next to the troll
    state.apply(state.parse_action("lay lower 4"))
    assert top(state, "lower", 4) == "8C" and not state.carried


def test_a_heart_cannot_be_used_and_wait_is_offered_only_when_nothing_is_legal() -> None:
    """§7.1: hearts have no use; I2: `wait` only when the troll can do nothing else."""
    lower = ["2C 3C 4C", "", "7C", "", "9C 10C", "JC QC KC"]
    upper = ["2S 3S 4S", "5S 6S", "", "8S", "9S 10S", "JS QS KS"]
    state = position(lower, upper, troll="lower 3", awake=("KH",), carried=("KH",))
    assert texts(state.legal_actions()) == ["wait"]
    state.apply(state.parse_action("wait"))
    assert state.actions_left == 1


def test_an_illegal_or_malformed_action_raises_and_changes_nothing() -> None:
    """Protocol: an illegal action raises a clear error and leaves the state unchanged."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 3")
    before = state.to_json()
    with pytest.raises(IllegalAction, match="not legal"):
        state.apply(state.parse_action("stomp"))
    with pytest.raises(IllegalAction, match="not a troll action"):
        state.parse_action("fly away")
    assert state.to_json() == before
