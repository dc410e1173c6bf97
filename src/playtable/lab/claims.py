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
from typing import Any

from playtable.agents import make_agent
from playtable.core.claims import Claim, DesignClaims, Move, Player
from playtable.core.errors import BadParameter
from playtable.core.registry import game_ids, get_game
from playtable.lab.runner import agent_rng
from playtable.lab.stats import Z95, mean_sd, wilson


def clustered(pairs: list[tuple[float, float]], share: bool = True) -> tuple[float, float, float]:
    """The ratio sum(a) / sum(n) of per-game pairs (a, n) with its 95 % interval, the games as
    clusters (delta method: var = G/(G-1) * sum((a - p n)^2) / N^2); a `share` is kept in
    [0, 1], a mean per item is not."""
    total = sum(n for _, n in pairs)
    if total <= 0:
        return 0.0, 0.0, 1.0
    p = sum(a for a, _ in pairs) / total
    g = len(pairs)
    var = g / max(1, g - 1) * sum((a - p * n) ** 2 for a, n in pairs) / total**2
    half = Z95 * math.sqrt(var)
    if not share:
        return p, p - half, p + half
    return p, max(0.0, p - half), min(1.0, p + half)


def clustered_diff(pairs: list[tuple[float, float, float, float]]) -> tuple[float, float, float]:
    """p1 - p2 for per-game (a, n, b, m), p1 = sum(a)/sum(n) and p2 = sum(b)/sum(m), with its
    game-clustered 95 % interval (delta method)."""
    n_all, m_all = sum(x[1] for x in pairs), sum(x[3] for x in pairs)
    if n_all <= 0 or m_all <= 0:
        return 0.0, -1.0, 1.0
    p1 = sum(x[0] for x in pairs) / n_all
    p2 = sum(x[2] for x in pairs) / m_all
    g = len(pairs)
    var = g / max(1, g - 1) * sum(((a - p1 * n) / n_all - (b - p2 * m) / m_all) ** 2
                                  for a, n, b, m in pairs)
    half = Z95 * math.sqrt(var)
    return p1 - p2, p1 - p2 - half, p1 - p2 + half


class LabEstimates:
    """The lab's statistics, as `core.claims.Estimates` a game's claims ask for."""

    def wilson(self, successes: float, n: int) -> tuple[float, float]:
        return wilson(successes, n)

    def mean_interval(self, values: Sequence[float]) -> tuple[float, float, float]:
        mean, sd = mean_sd(values)
        half = Z95 * sd / math.sqrt(max(1, len(values)))
        return mean, mean - half, mean + half

    def clustered(self, pairs: list[tuple[float, float]],
                  share: bool = True) -> tuple[float, float, float]:
        return clustered(pairs, share)

    def clustered_diff(
            self, pairs: list[tuple[float, float, float, float]]) -> tuple[float, float, float]:
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
