"""The fitted leaves of the troll's search bots (`games/troll/learned.py`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from tests.games.troll.helpers import held_twins, position

from playtable.games.troll.learned import (
    DISTILLED_WEIGHTS,
    DRAW_FEATURES,
    DRAWS_WEIGHTS,
    FEATURES,
    RISK_FEATURES,
    ROW_FEATURES,
    ROWS_WEIGHTS,
    distilled_chance,
    draw_features,
    draws_chance,
    next_awakening_risks,
    row_features,
    rows_chance,
)
from playtable.games.troll.rules import TrollState

# Lower row red, one single brick a position but two at 6, the brick at 5 awake; the troll at
# lower 1; one red card set aside, so the next awakening is in the lower row for certain.
LOWER = ["2C", "3C", "4C", "5C", "6C", "7C 8C"]
FULL_UPPER = ["2S 3S 4S", "5S 6S", "7S", "8S", "9S 10S", "JS QS KS"]


def risks(upper: list[str], carried: tuple[str, ...] = ()) -> dict[str, float]:
    state = position(LOWER, upper, troll="lower 1", awake=("6C", *carried), set_aside=("5H",),
                     deck=("2D", "3D", "4D", "5D", "6D"), carried=carried)
    state.hold_next_turn = True
    return dict(zip(RISK_FEATURES, next_awakening_risks(state), strict=True))


def test_the_next_awakenings_risks_follow_the_die_and_the_troll_s_reach() -> None:
    """Seed 000 §7.1 "Brick awakening phase": a set-aside card goes to its colour's row, the die
    names the position; an awake brick hit again flies away ("double awakening"). Die 1 is the
    troll's own brick (its factor is `survival`'s), 2 is a step away (stomped next turn), 3, 4
    and 6 are out of reach, 5 is awake already; 3, 4 and 5 hold one card, so their slot would
    empty. With the upper row whole, no slot of the lower row is a cut."""
    r = risks(FULL_UPPER)
    assert r["next_double"] == pytest.approx(1 / 6)
    assert r["next_in_reach"] == pytest.approx(1 / 6)
    assert r["next_out_of_reach"] == pytest.approx(3 / 6)
    assert r["next_hole"] == pytest.approx(3 / 6)
    assert r["next_cut_hole"] == 0.0
    assert r["next_out_x_deck"] == pytest.approx(3 / 6 * 5 / 10)


def test_a_club_reaches_two_steps_and_a_lone_row_makes_every_hole_a_collapse() -> None:
    """§7.1 "Troll action phase": a club beats an awake brick next to the troll, so a brick two
    steps away is within reach; with no upper row, losing any lower slot collapses the bridge
    (§7.1 "Brick flight phase")."""
    with_club = risks(FULL_UPPER, carried=("KC",))
    assert with_club["next_in_reach"] == pytest.approx(2 / 6)
    assert with_club["next_out_of_reach"] == pytest.approx(2 / 6)
    lone = risks(["", "", "", "", "", ""])
    assert lone["next_cut_hole"] == pytest.approx(lone["next_hole"]) == pytest.approx(3 / 6)


def test_the_distilled_leaf_is_a_probability_read_from_what_the_player_sees() -> None:
    assert len(DISTILLED_WEIGHTS) == len(FEATURES) + len(RISK_FEATURES)
    for held, twin in held_twins():
        assert 0.0 < distilled_chance(held) < 1.0
        assert next_awakening_risks(twin) == next_awakening_risks(held)
        assert distilled_chance(twin) == distilled_chance(held)


def named_inputs(upper: list[str], names: Sequence[str],
                 inputs: Callable[[TrollState], Sequence[float]]) -> dict[str, float]:
    """A leaf's named inputs on LOWER and `upper`, held before the next awakening (5H set
    aside, five diamonds in the deck)."""
    state = position(LOWER, upper, troll="lower 1", awake=("6C",), set_aside=("5H",),
                     deck=("2D", "3D", "4D", "5D", "6D"))
    state.hold_next_turn = True
    return dict(zip(names, inputs(state), strict=True))


def thinner_row(upper: list[str]) -> dict[str, float]:
    return named_inputs(upper, ROW_FEATURES, row_features)


def test_the_rows_inputs_describe_the_thinner_row() -> None:
    """Seed 000 §7.1 "No brick there...": a card naming an empty row awakens nothing, so a bare
    row halves the awakenings to come (the single-row strategy of §5.3's playtest). The
    lower row holds 7 bricks in 6 slots; the upper one 1 in 1, then none; the deck 5 cards."""
    one = thinner_row(["", "", "", "", "", "KS"])
    assert one == pytest.approx({"thin_row": 0.1, "row_empty": 0.0, "thin_row_slots": 1.0,
                                 "row_empty_x_deck": 0.0, "thin_row_x_deck": 0.05,
                                 "thin_row_slots_le2": 1.0})
    bare = thinner_row(["", "", "", "", "", ""])
    assert bare == pytest.approx({"thin_row": 0.0, "row_empty": 1.0, "thin_row_slots": 0.0,
                                  "row_empty_x_deck": 0.5, "thin_row_x_deck": 0.0,
                                  "thin_row_slots_le2": 1.0})
    # The lower row becomes the thinner one when the upper row is the fuller.
    full = thinner_row(["2S 3S 4S", "5S 6S", "7S", "8S", "9S 10S", "JS QS KS"])
    assert full["thin_row"] == pytest.approx(0.7) and full["thin_row_slots"] == 6.0


def test_the_rows_leaf_prefers_a_bare_row_and_reads_only_what_the_player_sees() -> None:
    """The fitted weights favour thinning a row (the thinner row's bricks weigh against the
    win), and the leaf is a probability that two positions differing only in hidden cards share."""
    assert len(ROWS_WEIGHTS) == len(FEATURES) + len(ROW_FEATURES) + len(RISK_FEATURES)
    assert ROWS_WEIGHTS[len(FEATURES) + ROW_FEATURES.index("thin_row")] < 0
    for held, twin in held_twins():
        assert 0.0 < rows_chance(held) < 1.0
        assert row_features(twin) == row_features(held)
        assert rows_chance(twin) == rows_chance(held)


def rows_against_draws(upper: list[str]) -> dict[str, float]:
    return named_inputs(upper, DRAW_FEATURES, draw_features)


def test_the_draws_inputs_weigh_each_row_against_the_cards_that_will_name_it() -> None:
    """Seed 000 §7.1 "Brick awakening phase": a card's colour names its row, the set-aside 5H the
    lower (red) one; the deck's 5 cards are red with the unseen pool's odds (26 red of the 51
    cards unseen here, only 6C having been seen). "No brick there...": a card naming a bare row
    awakens nothing, so those cards are dead draws; a row's cards fall on its occupied slots."""
    to_lower, to_upper = 5 * 26 / 51 + 1, 5 * 25 / 51
    bare = rows_against_draws(["", "", "", "", "", ""])
    assert bare == pytest.approx({"thick_row": 0.7, "thick_row_slots": 6.0,
                                  "thin_row_draws": to_upper / 10, "dead_draws": to_upper / 10,
                                  "thin_row_pressure": 0.0, "thick_row_pressure": to_lower / 6 / 10,
                                  "troll_in_thin_row": 0.0, "thin_row_awake": 0.0})
    one = rows_against_draws(["", "", "", "", "", "KS"])
    assert one["dead_draws"] == 0.0 and one["thin_row_pressure"] == pytest.approx(to_upper / 10)
    # With the upper row the fuller, the lower row (the troll's, with its awake 6C) is the thinner.
    full = rows_against_draws(FULL_UPPER)
    assert full["thick_row"] == pytest.approx(1.2) and full["thin_row_draws"] == pytest.approx(to_lower / 10)
    assert full["troll_in_thin_row"] == 1.0 and full["thin_row_awake"] == 1.0


def test_the_draws_leaf_is_a_probability_read_from_what_the_player_sees() -> None:
    assert len(DRAWS_WEIGHTS) == len(FEATURES) + len(ROW_FEATURES) + len(RISK_FEATURES) + len(DRAW_FEATURES)
    for held, twin in held_twins():
        assert 0.0 < draws_chance(held) < 1.0
        assert draw_features(twin) == draw_features(held)
        assert draws_chance(twin) == draws_chance(held)
