"""`playtable claims GAME`: a game's design claims (`Game.claims()`, `core/claims.py`), each
beside a measured value and its 95 % interval.

The lab's part is game-independent: it makes the agent that plays (`new_player`, seeded per deal
as the runner seeds its agents), supplies the statistics (`Estimates`: Wilson intervals, normal
intervals of means, and shares of turns or bricks with a game-clustered interval, since the
events of one game are not independent draws: the ratio estimator's delta-method variance over
games), and turns the claims into rows. What a game claims and what to count in its games is the
game's own (the troll's: `games/troll/claims.py`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from playtable.agents import make_agent
from playtable.core.claims import Claim, ClusterSums, DesignClaims, Move, Player
from playtable.core.errors import BadParameter
from playtable.core.registry import game_ids, get_game
from playtable.lab.runner import agent_rng
from playtable.lab.stats import Z95, wilson


def _sums(pairs: Sequence[Sequence[float]] | ClusterSums, width: int) -> ClusterSums:
    return pairs if isinstance(pairs, ClusterSums) else ClusterSums.of(pairs, width)


def clustered(pairs: Sequence[tuple[float, float]] | ClusterSums,
              share: bool = True) -> tuple[float, float, float]:
    """The ratio sum(a) / sum(n) of per-game pairs (a, n) with its 95 % interval, the games as
    clusters (delta method: var = G/(G-1) * sum((a - p n)^2) / N^2); a `share` is kept in
    [0, 1], a mean per item is not. The pairs may be given as their running sums."""
    sums = _sums(pairs, 2)
    a_total, total = Fraction(sums.totals[0]), Fraction(sums.totals[1])
    if total <= 0:
        return 0.0, 0.0, 1.0
    ratio = a_total / total
    g = sums.games
    var = Fraction(g, max(1, g - 1)) * sums.square_sum((Fraction(1), -ratio)) / total**2
    half = Z95 * math.sqrt(var)
    p = float(ratio)
    if not share:
        return p, p - half, p + half
    return p, max(0.0, p - half), min(1.0, p + half)


def clustered_diff(
        pairs: Sequence[tuple[float, float, float, float]] | ClusterSums) -> tuple[float, float, float]:
    """p1 - p2 for per-game (a, n, b, m), p1 = sum(a)/sum(n) and p2 = sum(b)/sum(m), with its
    game-clustered 95 % interval (delta method: the variance of (a - p1 n)/N - (b - p2 m)/M
    summed over games); the tuples may be given as their running sums."""
    sums = _sums(pairs, 4)
    a_all, n_all, b_all, m_all = (Fraction(x) for x in sums.totals)
    if n_all <= 0 or m_all <= 0:
        return 0.0, -1.0, 1.0
    p1, p2 = a_all / n_all, b_all / m_all
    g = sums.games
    weights = (1 / n_all, -p1 / n_all, -1 / m_all, p2 / m_all)
    var = Fraction(g, max(1, g - 1)) * sums.square_sum(weights)
    half = Z95 * math.sqrt(var)
    diff = float(p1) - float(p2)
    return diff, diff - half, diff + half


def mean_interval(values: Sequence[float] | ClusterSums) -> tuple[float, float, float]:
    """The mean of independent values (or their running sums) with its normal 95 % interval."""
    sums = _sums([(v,) for v in values] if not isinstance(values, ClusterSums) else values, 1)
    g = sums.games
    if not g:
        return math.nan, math.nan, math.nan
    total = Fraction(sums.totals[0])
    mean = total / g
    var = (Fraction(sums.products[0][0]) - total * mean) / (g - 1) if g > 1 else Fraction(0)
    half = Z95 * math.sqrt(var) / math.sqrt(g)
    return float(mean), float(mean) - half, float(mean) + half


class LabEstimates:
    """The lab's statistics, as `core.claims.Estimates` a game's claims ask for."""

    def wilson(self, successes: float, n: int) -> tuple[float, float]:
        return wilson(successes, n)

    def mean_interval(self, values: ClusterSums) -> tuple[float, float, float]:
        return mean_interval(values)

    def clustered(self, pairs: ClusterSums, share: bool = True) -> tuple[float, float, float]:
        return clustered(pairs, share)

    def clustered_diff(self, pairs: ClusterSums) -> tuple[float, float, float]:
        return clustered_diff(pairs)


def games_with_claims() -> list[str]:
    """The registered games that state design claims, in registry order."""
    return [g for g in game_ids() if get_game(g).claims() is not None]


def design_claims(game_id: str) -> DesignClaims:
    """The claims of a registered game; BadParameter names the games that have some."""
    found = get_game(game_id).claims() if game_id in game_ids() else None
    if found is None:
        having = games_with_claims()
        raise BadParameter(f"claims are measured for the {' and '.join(having)} game"
                           f"{'s' if len(having) > 1 else ''} only, not '{game_id}'")
    return found


def measure_claims(game_id: str, games: int = 1000, seed: int = 0, agent: str = "heuristic",
                   on_game: Callable[[str, bool], None] | None = None) -> list[Claim]:
    """Every claim of the game, measured on `games` seeds from `seed` with `agent` playing;
    `on_game(run, won)` hears of every game played (a progress bar)."""
    game = get_game(game_id)

    def new_player() -> Player:
        chooser = make_agent(game, agent)

        def player(state: Any, deal: int) -> Move:
            return functools.partial(chooser.choose, state, agent_rng(deal, 0))
        return player

    return design_claims(game_id).measure(games, seed, agent, new_player, LabEstimates(), on_game)


def claims_rows(claims: list[Claim]) -> list[dict[str, Any]]:
    return [vars(c) for c in claims]
