"""Setup (seed 000 §6.1, §7.1 "Building the Magic Bridge") and the brick awakening phase
(§7.1 "Brick awakening phase", "Exceptions to the rules")."""

from __future__ import annotations

from tests.games.troll.helpers import FULL_LOWER, FULL_UPPER, is_awake, kinds, position, top

from playtable.core.params import resolve_params
from playtable.games.troll.game import GAME
from playtable.games.troll.params import TrollParams


def test_bridge_is_two_rows_of_3_2_1_1_2_3_and_the_rest_is_the_deck() -> None:
    """§6.1 / §7.1: two rows of 3, 2, 1, 1, 2, 3 cards; the rest is the deck of awakening."""
    state = GAME.new_state(seed=11)
    heights = [len(s) for s in state.stacks]
    assert heights == [3, 2, 1, 1, 2, 3] * 2
    # 52 - 24 bricks = 28; the colour card and turn 1's card have left the deck.
    assert len(state.deck) == 26
    assert len(state.played[0]) + len(state.played[1]) == 2


def test_first_card_sets_lower_colour_and_places_troll_without_awakening() -> None:
    """§6.1, §7.1 and I16: the first card starts the lower stack and sets its colour; the die
    places the troll on the lower row; the first awakening is turn 1's own card."""
    state = GAME.new_state(seed=3, rigged={"deck": ["7H", "2C"], "d6": [4, 3]})
    assert state.lower_red is True
    assert state.played[0][0] == 6 + 26  # 7H
    assert state.troll == 3  # lower 4
    assert state.stats["awakenings"] == 1
    # 2C is black, so it goes to the upper stack and the roll 3 awakens upper 3.
    assert is_awake(state, "upper", 3)
    assert kinds(state.setup_events)[:3] == ["setup", "turn", "card_played"]


def test_minimum_awakenings_per_difficulty_match_section_4_1() -> None:
    """§4.1: 27 minimum awakenings by default, 15 with one more brick per slot, 3 with two."""
    for variant, expected in ((None, 27), ("plus-one", 15), ("tutorial", 3)):
        params = resolve_params(TrollParams, GAME.variants, variant)
        state = GAME.new_state(params, seed=1)
        assert len(state.deck) + 1 == expected  # turn 1 has drawn one already


def test_card_colour_names_the_row_and_die_names_the_position() -> None:
    """§7.1 Brick awakening phase: the stack of the card's colour names the row, the die the brick."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 1", actions_left=1, deck=("5H",), d6=(5,))
    events = state.apply(state.parse_action("move right"))
    assert "awakened" in kinds(events)
    assert is_awake(state, "lower", 5) and top(state, "lower", 5) == "10C"
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 1", actions_left=1, deck=("AS",), d6=(5,))
    state.apply(state.parse_action("move right"))
    assert is_awake(state, "upper", 5) and not is_awake(state, "lower", 5)


def test_set_aside_cards_are_played_back_one_at_a_time_in_order_before_the_deck() -> None:
    """§7.1 and I3: cards set aside are played back first-in first-out, each with a die; the
    deck is not touched while any wait."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 1", actions_left=1,
                     set_aside=("2H", "AS"), deck=("5D",), d6=(2, 4))
    events = state.apply(state.parse_action("move right"))
    played = [e.data["card"] for e in events if e.kind == "card_played"]
    assert [p % 13 + 1 for p in played] == [2, 1]
    assert is_awake(state, "lower", 2) and is_awake(state, "upper", 4)
    assert len(state.deck) == 1


def test_awake_brick_awakened_again_flies_away_and_waits_for_the_next_phase() -> None:
    """§7.1 Brick awakening phase: "If the card was already face up, the card flies away and is
    immediately set aside for use in the next brick awakening phase" (I3)."""
    state = position(FULL_LOWER, FULL_UPPER, troll="upper 1", actions_left=1,
                     set_aside=("2H", "3H"), deck=("4H",), d6=(5, 5))  # a deck card: no win yet (I8)
    events = state.apply(state.parse_action("move right"))
    assert kinds(events).count("awakened") == 1 and "flew_away" in kinds(events)
    assert top(state, "lower", 5) == "9C"  # 10C flew away
    assert [c % 13 + 1 for c in state.set_aside] == [10]  # waits for the next phase
    assert not state.is_terminal


def test_troll_on_a_brick_that_flies_away_loses() -> None:
    """§6.3, §7.1 Winning: the troll standing on a brick that is awakened twice flies away too."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 1", actions_left=1, awake=("6C",),
                     deck=("2H",), d6=(2,))
    events = state.apply(state.parse_action("move right"))  # onto awake 6C; it cannot flee
    assert kinds(events)[-2:] == ["flew_away", "lost"]
    assert state.is_terminal and state.end_reason == "double_awakening"
    assert state.returns() == [0.0]


def test_dormant_brick_under_the_troll_still_awakens() -> None:
    """§7.1 "Dormant bricks the troll is standing on will still awaken as usual" (I17)."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 1", actions_left=1, deck=("2H",), d6=(2,))
    state.apply(state.parse_action("move right"))
    assert state.troll == 1 and is_awake(state, "lower", 2) and not state.is_terminal


def test_empty_position_awakens_the_next_brick_towards_the_nearer_bank() -> None:
    """§7.1 Exceptions "No brick there..." and I13."""
    lower = ["2C 3C 4C", "", "7C", "8C", "", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="upper 1", actions_left=1, deck=("2H", "3H"), d6=(2,))
    state.apply(state.parse_action("move right"))
    assert is_awake(state, "lower", 1)  # position 2 empty: towards the left bank
    state = position(lower, FULL_UPPER, troll="upper 1", actions_left=1, deck=("2H",), d6=(5,))
    state.apply(state.parse_action("move right"))
    assert is_awake(state, "lower", 6)  # position 5 empty: towards the right bank


def test_empty_position_with_no_brick_towards_the_bank_looks_the_other_way() -> None:
    """§7.1 Exceptions: "If no bricks are in that direction, the next card in the opposite
    direction is awakened"."""
    lower = ["", "", "7C", "8C", "9C 10C", "JC QC KC"]
    state = position(lower, FULL_UPPER, troll="upper 3", actions_left=1, deck=("2H",), d6=(1,))
    state.apply(state.parse_action("move right"))
    assert is_awake(state, "lower", 3)


def test_empty_row_awakens_nothing_and_the_turn_goes_on() -> None:
    """§7.1 Exceptions: "If no bricks exist in that row, no brick is awakened, and the troll
    action phase and the brick flight phase still happen" (Test #6's question)."""
    state = position([""] * 6, FULL_UPPER, troll="upper 1", actions_left=1, deck=("2H", "3H"), d6=(4,))
    events = state.apply(state.parse_action("move right"))
    assert "no_brick" in kinds(events) and not state.is_terminal
    assert state.actions_left == 2


def test_empty_deck_and_nothing_set_aside_skips_the_awakening() -> None:
    """§7.1 Exceptions "The deck of awakening is empty...": with no card to play, the awakening
    phase is skipped and the troll action and flight phases still happen."""
    state = position(FULL_LOWER, FULL_UPPER, troll="lower 2", actions_left=1, awake=("6C", "4C"),
                     visited=("lower 3", "upper 2"))
    events = state.apply(state.parse_action("pick left"))  # 6C stays awake under the troll
    assert "no_awakening" in kinds(events) and not state.is_terminal
    assert state.actions_left == 2 and state.turn == 2
