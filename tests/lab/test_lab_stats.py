"""Wilson intervals, paired differences and the SPRT (see ../shared/research/anchors-ai.md §4)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playtable.lab.stats import Sprt, binom_two_sided, mean_sd, paired, quantile, wilson


def test_wilson_matches_the_published_examples() -> None:
    low, high = wilson(0, 100)
    assert low == 0.0 and high == pytest.approx(0.037, abs=5e-4)
    low, high = wilson(3700, 10_000)
    assert low == pytest.approx(0.3605, abs=5e-4) and high == pytest.approx(0.3796, abs=5e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@settings(deadline=None, max_examples=200)
@given(st.integers(min_value=1, max_value=5000), st.floats(min_value=0, max_value=1))
def test_wilson_contains_the_estimate_and_stays_in_bounds(n: int, share: float) -> None:
    k = round(share * n)
    low, high = wilson(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_paired_difference_counts_discordant_seeds() -> None:
    a = [1, 0, 0, 1, 0, 0, 1, 0]
    b = [1, 1, 1, 1, 0, 1, 0, 0]
    d = paired(a, b)
    assert d.n == 8 and d.b_only == 3 and d.a_only == 1
    assert d.diff == pytest.approx(0.25)
    assert d.low < d.diff < d.high
    assert d.p_value == pytest.approx(binom_two_sided(3, 4))
    with pytest.raises(ValueError):
        paired([1.0], [1.0, 0.0])


def test_identical_results_give_a_zero_width_interval() -> None:
    d = paired([1, 0, 1], [1, 0, 1])
    assert d.diff == 0 and d.half_width == 0 and d.p_value == 1.0


def test_sign_test_is_exact() -> None:
    assert binom_two_sided(0, 5) == pytest.approx(2 / 32)
    assert binom_two_sided(5, 10) == 1.0


def test_sprt_bounds_and_decisions() -> None:
    sprt = Sprt(0.5, 0.6)
    assert sprt.lower == pytest.approx(-2.944, abs=1e-3) and sprt.upper == pytest.approx(2.944, abs=1e-3)
    for _ in range(200):
        if sprt.add(True):
            break
    assert sprt.decision == "H1" and sprt.n < 200
    sprt = Sprt(0.5, 0.6)
    for i in range(2000):
        if sprt.add(i % 3 == 0):  # a rate of 1/3: clearly not 0.6
            break
    assert sprt.decision == "H0"
    with pytest.raises(ValueError):
        Sprt(0.6, 0.5)


def test_sprt_errors_are_near_their_nominal_rates() -> None:
    """Simulated with a seeded stream: under H0 (p = 0.5) it rarely accepts H1."""
    from playtable.core.chance import Chance

    rng = Chance(1)
    wrong = 0
    for _ in range(200):
        sprt = Sprt(0.5, 0.65)
        while sprt.decision is None:
            sprt.add(rng.random() < 0.5)
        wrong += sprt.decision == "H1"
    assert wrong / 200 < 0.1


def test_small_helpers() -> None:
    assert mean_sd([1.0, 3.0]) == (2.0, math.sqrt(2))
    assert math.isnan(mean_sd([])[0])
    assert quantile([1, 2, 3, 4], 0.5) == 2.5


def test_guarded_width_does_not_trust_a_run_of_agreeing_seeds() -> None:
    """Two variants that agreed on 200 seeds are not known to +/- 0: at most ~3.8/200."""
    d = paired([0.0] * 200, [0.0] * 200)
    assert d.half_width == 0
    assert 0.015 < d.guarded_half_width < 0.03
    busy = paired([1.0, 0.0] * 100, [0.0, 1.0] * 100)
    assert busy.guarded_half_width == pytest.approx(busy.half_width, rel=0.2)


def test_a_rate_says_how_many_games_would_narrow_it_to_a_tolerance() -> None:
    from playtable.lab.stats import games_for_half_width, rate_reach, reach_text

    reach = rate_reach(768, 2000, tolerance=0.01)
    assert 0.02 < reach["half_width"] < 0.022
    need = reach["games_for_tolerance"]
    low, high = wilson(0.384 * need, need)
    assert abs((high - low) / 2 - 0.01) < 0.0002  # the count it names does narrow it to ±1 pp
    assert reach_text(reach) == f"±2.1 pp; ±1 pp needs about {need:,} games"
    assert "within the ±5 pp asked" in reach_text(rate_reach(768, 2000, tolerance=0.05))
    # 0 or all of n is not certainty: the Wilson interval of 0 of 189 games is [0, 2.0 %]
    assert games_for_half_width(0.0, 0.01) == games_for_half_width(1.0, 0.01) == 189
    assert wilson(0, 189)[1] <= 0.02 < wilson(0, 188)[1]


def test_power_calculations_give_the_textbook_sample_sizes() -> None:
    from playtable.lab.stats import paired_games_to_separate, rates_games_to_separate

    # Fleiss (1981) without continuity correction: 50 % against 55 % needs 1,565 games per arm.
    assert rates_games_to_separate(0.50, 0.55) == 1565
    # Connor (1987): discordant share 0.3, difference 0.1 -> (1.96 √0.3 + 0.84 √0.29)² / 0.01.
    assert paired_games_to_separate(0.3, 0.1) == 234
    assert paired_games_to_separate(0.3, 0.0) == 0


def test_an_interval_over_zero_says_it_is_too_small_to_separate_and_how_many_would() -> None:
    from playtable.lab.stats import separation

    tied = paired([0, 1, 0, 1, 1, 0] * 10, [1, 1, 0, 0, 1, 0] * 10)
    text = separation(tied)
    assert text.startswith("too small to separate: 60 seeds; a 5.0 pp difference needs about ")
    assert int(text.split("about ")[1].split(" ")[0].replace(",", "")) > 60
    assert separation(paired([0] * 50, [1] * 50)) == ""
