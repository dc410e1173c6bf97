"""Statistics for playtests: Wilson intervals, paired differences on common seeds, and Wald's SPRT.

* Win rates get the Wilson score interval (Wilson 1927; recommended over the Wald interval by
  Brown, Cai & DasGupta, Stat. Sci. 2001): 0 of 100 gives [0, 3.7 %].
* Two variants played on the same seeds (common random numbers) are analysed as pairs: the mean
  per-seed difference with a normal interval on the paired differences, and the discordant
  counts (seeds where only one variant won) with an exact two-sided sign (McNemar) test
  (`scipy.stats.binomtest`).
* The sequential probability ratio test (Wald 1945) answers "is B better than A" with the fewest
  games on average: on the discordant seeds, H0 says B wins half of them, H1 says B wins p1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (successes may be fractional, e.g. draws as
    halves). n = 0 gives (0, 1)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan)
    mean = sum(values) / n
    if n < 2:
        return (mean, 0.0)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, math.sqrt(var))


def quantile(values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (numpy's default), NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def binom_two_sided(k: int, n: int) -> float:
    """Exact two-sided sign-test p-value for k successes in n trials at p = 1/2.

    SciPy's `binomtest` works in floating point with the binomial's own distribution
    functions, so it holds for any n (the sum of exact binomial coefficients divided by
    2**n that stood here overflowed a float from n = 1,024 on)."""
    if n == 0:
        return 1.0
    from scipy.stats import binomtest  # the lab extra; imported here so wilson() needs no SciPy

    return float(min(1.0, binomtest(k, n, 0.5, alternative="two-sided").pvalue))


@dataclass(frozen=True)
class Paired:
    """B minus A on common seeds."""

    n: int
    mean_a: float
    mean_b: float
    diff: float
    low: float
    high: float
    b_only: int
    """Seeds where B did better than A (B won, A did not)."""
    a_only: int
    """Seeds where A did better than B."""
    p_value: float
    """Exact two-sided sign test on the discordant seeds (McNemar's exact test for wins)."""

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def guarded_half_width(self) -> float:
        """A half-width that cannot be fooled by a run of agreeing seeds, for per-seed results
        in [0, 1]: the variance of a difference is at most the share of discordant seeds, taken
        at its Wilson upper bound (no discordant seed in n still gives about 3.8 / n)."""
        if self.n == 0:
            return math.inf
        share_high = wilson(self.b_only + self.a_only, self.n)[1]
        return max(self.half_width, Z95 * math.sqrt(share_high / self.n))


def paired(a: Sequence[float], b: Sequence[float], z: float = Z95) -> Paired:
    """Compare per-seed results `b[i]` against `a[i]` (same seeds, same order)."""
    if len(a) != len(b):
        raise ValueError("paired results need the same seeds on both sides")
    n = len(a)
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean, sd = mean_sd(diffs)
    if n == 0:
        return Paired(0, math.nan, math.nan, math.nan, -1.0, 1.0, 0, 0, 1.0)
    half = z * sd / math.sqrt(n) if n > 1 else math.inf
    b_only = sum(1 for d in diffs if d > 0)
    a_only = sum(1 for d in diffs if d < 0)
    return Paired(
        n=n,
        mean_a=sum(a) / n,
        mean_b=sum(b) / n,
        diff=mean,
        low=mean - half,
        high=mean + half,
        b_only=b_only,
        a_only=a_only,
        p_value=binom_two_sided(b_only, b_only + a_only),
    )


def paired_counts(counts: Mapping[tuple[float, float], int], z: float = Z95) -> Paired:
    """`paired` of seeds given as counts: how many seeds had each pair (a, b) of results. The
    same numbers up to the rounding of the variance's sum (the report's pairs of a million
    seeds, without a list of them)."""
    n = sum(counts.values())
    if n == 0:
        return Paired(0, math.nan, math.nan, math.nan, -1.0, 1.0, 0, 0, 1.0)
    mean = sum(c * (b - a) for (a, b), c in counts.items()) / n
    sd = (math.sqrt(sum(c * ((b - a) - mean) ** 2 for (a, b), c in counts.items()) / (n - 1))
          if n > 1 else 0.0)
    half = z * sd / math.sqrt(n) if n > 1 else math.inf
    b_only = sum(c for (a, b), c in counts.items() if b - a > 0)
    a_only = sum(c for (a, b), c in counts.items() if b - a < 0)
    return Paired(
        n=n,
        mean_a=sum(c * a for (a, _), c in counts.items()) / n,
        mean_b=sum(c * b for (_, b), c in counts.items()) / n,
        diff=mean,
        low=mean - half,
        high=mean + half,
        b_only=b_only,
        a_only=a_only,
        p_value=binom_two_sided(b_only, b_only + a_only),
    )


class Sprt:
    """Wald's SPRT for a Bernoulli rate: H0 p = p0 against H1 p = p1 (p1 > p0), error rates
    alpha (accepting H1 wrongly) and beta (accepting H0 wrongly). Feed outcomes with `add`;
    `decision` is "H1", "H0" or None while undecided."""

    def __init__(self, p0: float, p1: float, alpha: float = 0.05, beta: float = 0.05) -> None:
        if not 0 < p0 < p1 < 1:
            raise ValueError("the SPRT needs 0 < p0 < p1 < 1")
        if not (0 < alpha < 1 and 0 < beta < 1):
            raise ValueError("alpha and beta must lie in (0, 1)")
        self.p0, self.p1, self.alpha, self.beta = p0, p1, alpha, beta
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)
        self._win = math.log(p1 / p0)
        self._loss = math.log((1 - p1) / (1 - p0))
        self.llr = 0.0
        self.n = 0
        self.wins = 0
        self.decision: str | None = None

    def add(self, success: bool) -> str | None:
        if self.decision is None:
            self.n += 1
            self.wins += int(success)
            self.llr += self._win if success else self._loss
            if self.llr >= self.upper:
                self.decision = "H1"
            elif self.llr <= self.lower:
                self.decision = "H0"
        return self.decision


# -- how far an answer can still move ----------------------------------------------------------------
Z80 = 0.8416212335729143
"""The normal quantile for 80 % power, the usual design target (Cohen 1988)."""


def games_for_half_width(rate: float, half_width: float, z: float = Z95) -> int:
    """The fewest games after which a rate of `rate` has a Wilson interval no wider than
    ±half_width: the interval the lab prints, so a rate of 0 or 1 seen so far is not taken for
    certainty (the normal approximation z² p (1 - p) / h² would say one game)."""
    if not half_width > 0:
        raise ValueError("the half-width must be positive")
    p = rate if math.isfinite(rate) else 0.5

    def wide(n: int) -> bool:
        low, high = wilson(p * n, n, z)
        return (high - low) / 2 > half_width

    high = 1
    while wide(high):  # the half-width shrinks with n: double, then halve the gap
        high *= 2
    low = high // 2
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if wide(mid) else (low, mid)
    return high


def rate_reach(successes: float, n: int, tolerance: float = 0.01) -> dict[str, float]:
    """A rate's answer with how far it can still move: the rate, its Wilson interval, the
    interval's half-width, and the games that would narrow it to ±tolerance."""
    low, high = wilson(successes, n)
    rate = successes / n if n else math.nan
    return {"rate": rate, "low": low, "high": high, "half_width": (high - low) / 2,
            "tolerance": tolerance, "games_for_tolerance": games_for_half_width(rate, tolerance)}


def reach_text(reach: Mapping[str, float]) -> str:
    """'±2.1 pp; ±1 pp needs about 9,200 games' (or 'within ±1 pp' once it is)."""
    half, tol = 100 * reach["half_width"], 100 * reach["tolerance"]
    if reach["half_width"] <= reach["tolerance"]:
        return f"±{half:.1f} pp, within the ±{tol:g} pp asked"
    return f"±{half:.1f} pp; ±{tol:g} pp needs about {reach['games_for_tolerance']:,} games"


def paired_games_to_separate(discordant_share: float, diff: float, z: float = Z95,
                             z_power: float = Z80) -> int:
    """Seeds a paired comparison needs to tell a difference `diff` from none at 5 % with 80 %
    power, for results in [0, 1] whose seeds disagree at `discordant_share` (Connor 1987,
    McNemar's test: n = (z √ψ + z_β √(ψ - d²))² / d²). ψ is at least |d|, since a difference
    needs at least that many seeds that disagree."""
    d = abs(diff)
    if not d > 0 or not math.isfinite(d):
        return 0
    psi = min(1.0, max(discordant_share, d))
    return math.ceil((z * math.sqrt(psi) + z_power * math.sqrt(max(psi - d * d, 0.0))) ** 2 / (d * d))


def separation(p: Paired, smallest: float = 0.05) -> str:
    """'' when the paired interval excludes 0; otherwise that the sample is too small to
    separate the two, with the seeds that would: for the difference seen, or for `smallest`
    (the smallest difference worth finding) when the one seen is smaller."""
    found = seeds_to_separate(p, smallest)
    if found is None:
        return ""
    target, need = found
    return (f"too small to separate: {p.n:,} seeds; a {100 * target:.1f} pp difference needs about "
            f"{need:,} (5 % level, 80 % power)")


def seeds_to_separate(p: Paired, smallest: float = 0.05) -> tuple[float, int] | None:
    """None when the paired interval excludes 0 (or there is no seed); otherwise the difference
    aimed at (the one seen, or `smallest` when it is smaller) and the seeds that would separate
    it (`paired_games_to_separate`, the discordant share taken from the seeds seen)."""
    if p.n == 0 or p.low > 0 or p.high < 0:
        return None
    share = (p.b_only + p.a_only) / p.n
    target = max(abs(p.diff), smallest) if math.isfinite(p.diff) else smallest
    return target, paired_games_to_separate(share if share > 0 else target, target)


def rates_games_to_separate(rate_a: float, rate_b: float, z: float = Z95, z_power: float = Z80) -> int:
    """Games per arm that two independent rates need to be told apart at 5 % with 80 % power
    (Fleiss's formula for two proportions, without continuity correction)."""
    d = abs(rate_a - rate_b)
    if not d > 0 or not math.isfinite(d):
        return 0
    mean = (rate_a + rate_b) / 2
    spread = (z * math.sqrt(2 * mean * (1 - mean))
              + z_power * math.sqrt(rate_a * (1 - rate_a) + rate_b * (1 - rate_b)))
    return math.ceil(spread * spread / (d * d))
