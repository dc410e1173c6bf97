"""Brick flight (seed 000 §7.1 "Brick flight phase"), the collapse check (§6.2), and the end of
the game (§6.3, §7.1 "Winning")."""

from __future__ import annotations

from tests.games.troll.helpers import FULL_LOWER, FULL_UPPER, is_awake, kinds, position, top


def test_awake_bricks_step_towards_the_closest_bank() -> None:
    """§7.1 Brick flight: one step left or right towards the closest bank (I6: 1-3 left, 4-6 right)."""
    state = position(FULL_LOWER, FULL_UPPER, troll="upper 1", actions_left=1, awake=("6C", "10C"),
                     deck=("2D", "3D"), d6=(3,))
    state.apply(state.parse_action("move right"))
    assert top(state, "lower", 1) == "6C" and top(state, "lower", 6) == "10C"


def test_a_brick_stepping_off_position_1_or_6_has_fled_and_is_set_aside() -> None:
    """§7.1: bricks beyond positions 1-6 reach the bank and are set aside; several may flee in
    one turn, at both ends (Test #7's question)."""
    state = position(FULL_LOWER, FULL_UPPER, troll="upper 3", actions_left=1, awake=("4C", "KC"),
                     deck=("2D", "3D"), d6=(3, 3, 3))
    events = state.apply(state.parse_action("move right"))
    fled = [e.data["bank"] for e in events if e.kind == "fled"]
    assert sorted(fled) == ["left", "right"]
    assert top(state, "lower", 1) == "3C" and top(state, "lower", 6) == "QC"
    assert state.stats["fled"] == 2


def test_the_troll_blocks_a_bank_in_its_own_row_only() -> None:
    """§7.1 "towards the closest bank not blocked by the troll" (I6)."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 2", actions_left=1, awake=("7C",),
                     deck=("2D",), d6=(6,), visited=("lower 1",))
    state.apply(state.parse_action("move up"))  # now on upper 2: the lower row is free
    assert top(state, "lower", 2) == "7C"  # went left, its closest bank
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 2", actions_left=1, awake=("7C",),
                     deck=("2D",), d6=(6,), visited=("upper 2",))
    state.apply(state.parse_action("move left"))  # on lower 1, between 7C and the left bank
    assert top(state, "lower", 4) == "7C"  # blocked: it goes right instead


def test_bricks_under_or_carried_by_the_troll_do_not_flee() -> None:
    """§7.1: "Bricks that the troll is standing on or carrying cannot flee"."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 1", actions_left=1, awake=("6C", "2D"),
                     carried=("2D",), deck=("3D",), d6=(4,), visited=("lower 2",))
    state.apply(state.parse_action("move up"))
    assert top(state, "lower", 2) == "5C"  # 6C fled left onto lower 1
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 3", actions_left=1, awake=("6C", "7C"),
                     deck=("3D",), d6=(4,), visited=("lower 2", "lower 4", "upper 3"))
    state.apply(state.parse_action("pick left"))
    assert is_awake(state, "lower", 3)  # 7C stayed under the troll
    assert state.carried and state.carried[0] in state.face_up


def test_fleeing_bricks_cross_empty_positions_and_the_nearest_to_the_bank_moves_first() -> None:
    """§7.1 "Bricks can move into empty spaces"; I4: the brick nearest the bank moves first, so
    a brick steps onto the stack its neighbour just left."""
    lower = ["2C 3C 4C", "5C 6C", "", "8C", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="upper 6", actions_left=1, awake=("4C", "6C"),
                     deck=("2D",), d6=(4,), visited=("upper 5",))
    state.apply(state.parse_action("move down"))
    assert top(state, "lower", 1) == "6C" and top(state, "lower", 2) == "5C"
    lower = ["2C 3C 4C", "5C", "6C", "8C", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="upper 6", actions_left=1, awake=("6C",),
                     deck=("2D",), d6=(4,), visited=("upper 5",))
    state.apply(state.parse_action("move down"))
    assert top(state, "lower", 3) is None and top(state, "lower", 2) == "6C"


def test_the_bridge_collapses_when_the_banks_are_no_longer_connected() -> None:
    """§6.2, §7.1: "If the bridge is not connected, the bridge collapses"."""
    lower = ["2C 3C 4C", "5C 6C", "", "8C", "9C 10C", "JC QC KC"]
    upper = ["2S 3S 4S", "5S 6S", "7C", "8S", "9S 10S", "JS QS KS"]
    state = position(lower, upper, troll="lower 1", actions_left=1, awake=("7C",), deck=("2D",), d6=(1,))
    events = state.apply(state.parse_action("move right"))
    # 7C (upper 3) flees left onto upper 2: column 3 is now empty in both rows.
    assert kinds(events)[-1] == "lost" and state.end_reason == "collapse"
    assert "connect" in events[-1].text


def test_the_bridge_collapses_when_both_end_slots_at_one_bank_are_empty() -> None:
    """§6.2: "if all the bricks on one side of the river bank (positions 1 or 6) are empty"."""
    lower = ["4C", "5C 6C", "7C", "8C", "9C 10C", "JC QC KC"]
    upper = ["", "5S 6S", "7S", "8S", "9S 10S", "JS QS KS"]
    state = position(lower, upper, troll="upper 3", actions_left=1, awake=("4C",), deck=("2D",), d6=(1,))
    events = state.apply(state.parse_action("move right"))
    assert state.end_reason == "collapse" and "left bank" in events[-1].text


def test_collapse_is_checked_only_after_the_flight_phase() -> None:
    """§6.2 "After all awakened bricks have moved, the bridge is evaluated" (I7): a gap can be
    mended by laying a brick within the turn."""
    lower = ["2C 3C 4C", "5C 6C", "", "8C", "9C 10C", "JC QC KC"]
    upper = ["2S 3S 4S", "5S 6S", "", "8S", "9S 10S", "JS QS KS"]
    state = position(lower, upper, troll="lower 2", actions_left=1, carried=("7C",), deck=("2D",), d6=(6,))
    state.apply(state.parse_action("lay lower 3"))
    assert not state.is_terminal and top(state, "lower", 3) == "7C"


def test_win_when_the_deck_is_spent_and_every_brick_is_dormant_perfect_if_no_gaps() -> None:
    """§6.3, §7.1 Winning: deck empty, all bricks dormant, bridge standing; perfect with no gap."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 2", actions_left=1, awake=("6C",))
    events = state.apply(state.parse_action("stomp"))
    assert state.outcome == "win" and state.perfect and state.score == 0
    assert state.returns() == [1.0] and kinds(events)[-1] == "won"
    lower = ["2C 3C 4C", "5C 6C", "", "8C", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="lower 2", actions_left=1, awake=("6C",))
    state.apply(state.parse_action("stomp"))
    assert state.outcome == "win" and not state.perfect


def test_set_aside_cards_do_not_delay_the_win() -> None:
    """§7.1 "Winning" names three conditions (deck empty, every brick on the bridge dormant,
    bridge standing) and I8 adds none: a card waiting in the set-aside pile does not stop it."""
    lower = ["2C 3C 4C", "5C 6C", "7C", "8C", "9C 10C", "JC QC"]
    state = position(lower, FULL_UPPER, troll="lower 3", actions_left=1, awake=("8C", "KC"),
                     carried=("KC",), d6=(2,))
    state.apply(state.parse_action("club right"))
    assert state.outcome == "win" and state.score == 0


def test_variant_owed_awakenings_waits_for_the_set_aside_pile() -> None:
    """I8, variant `owed-awakenings`: the earlier reading of §7.1 "The deck of awakening is
    empty... you still have to continue playing", where set-aside cards are awakenings still
    owed, so the game goes on and the club set aside awakens a brick of its row."""
    lower = ["2C 3C 4C", "5C 6C", "7C", "8C", "9C 10C", "JC QC"]
    state = position(lower, FULL_UPPER, troll="lower 3", actions_left=1, awake=("8C", "KC"),
                     carried=("KC",), d6=(2,), params={"win_waits_for_set_aside": True})
    state.apply(state.parse_action("club right"))
    assert not state.is_terminal and is_awake(state, "upper", 2)  # KC is black: upper row


def test_a_carried_card_does_not_matter_for_the_win() -> None:
    """I8 (Test #6's question): the card on the troll is not on the bridge."""
    lower = ["2C 3C 4C", "5C 6C", "7C", "8C", "9C 10C", "JC QC"]
    state = position(lower, FULL_UPPER, troll="lower 2", actions_left=1, awake=("6C", "KC"),
                     carried=("KC",))
    state.apply(state.parse_action("stomp"))
    assert state.outcome == "win"


def test_score_is_the_cards_left_in_the_deck_of_awakening() -> None:
    """§7.1 "Your score for the game is the number of cards left in the deck of awakening" (I14)."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 1", actions_left=1, awake=("6C",),
                     deck=("2H", "3H", "4H"), d6=(2,))
    state.apply(state.parse_action("move right"))
    assert state.outcome == "loss" and state.score == 2 and state.metrics()["score"] == 2
