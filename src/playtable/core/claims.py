"""Design claims: what a game's design document says its rules will do, set beside what
simulation measures (`playtable claims GAME`).

The contract between a game that states claims and the lab that measures them. The game knows
what its design promised and what to count in its own games (a troll's claims read its bridge;
`games/troll/claims.py`); the lab knows how to run games with a chosen agent and how to turn
counts into estimates with intervals (`lab/claims.py`, `lab/stats.py`). So the game words and
counts, and asks the lab for every number that carries an interval (`Estimates`); the lab hands
the game its players (`new_player`) and never reads a game's own rules. A game offers its claims
through `Game.claims()` (None: the game states none).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol


@dataclass
class Claim:
    """One claim: the design's words beside the measured value, its 95 % interval, the number of
    observations it rests on and a verdict in words ("consistent", "higher"...; may be empty)."""

    claim: str
    seed_says: str
    measured: str
    interval: str
    n: int
    verdict: str = ""


class ClusterSums:
    """Per-game tuples of counts (a game's hits and cases...) kept as running sums: the games,
    each component's total and the total of every product of two components. A ratio's
    game-clustered interval needs nothing more (its variance is a quadratic form in them), so a
    claim measured on 10**12 games holds a few numbers, not a tuple a game."""

    def __init__(self, width: int) -> None:
        self.games = 0
        self.totals: list[float] = [0] * width
        self.products: list[list[float]] = [[0] * width for _ in range(width)]

    @classmethod
    def of(cls, rows: Sequence[Sequence[float]], width: int) -> ClusterSums:
        sums = cls(width)
        for row in rows:
            sums.add(*row)
        return sums

    def add(self, *values: float) -> None:
        """One game's tuple."""
        self.games += 1
        for i, x in enumerate(values):
            self.totals[i] += x
            row = self.products[i]
            for j, y in enumerate(values):
                row[j] += x * y

    def square_sum(self, weights: Sequence[Fraction]) -> Fraction:
        """The sum over games of (w · game's tuple)², exactly (integer counts stay integers)."""
        return sum((w * v * Fraction(self.products[i][j]) for i, w in enumerate(weights)
                    for j, v in enumerate(weights)), Fraction(0))


Move = Callable[[], Any]
"""The next action the agent picks in the state it was given (called once per decision)."""
Player = Callable[[Any, int], Move]
"""`player(state, seed)`: the agent's moves in the game of `state`, dealt with `seed` (the lab
seeds the agent's own randomness from it, as its runner does)."""


class Estimates(Protocol):
    """The statistics a game's claims are measured with; the lab supplies them."""

    def wilson(self, successes: float, n: int) -> tuple[float, float]:
        """The 95 % Wilson interval of a share `successes / n`."""
        ...

    def mean_interval(self, values: ClusterSums) -> tuple[float, float, float]:
        """The mean of independent values (one-component sums) with its normal 95 % interval:
        (mean, low, high)."""
        ...

    def clustered(self, pairs: ClusterSums, share: bool = True) -> tuple[float, float, float]:
        """sum(a) / sum(n) of per-game pairs (a, n), the games as clusters: (ratio, low, high)."""
        ...

    def clustered_diff(self, pairs: ClusterSums) -> tuple[float, float, float]:
        """p1 - p2 of per-game (a, n, b, m), p1 = sum(a)/sum(n), p2 = sum(b)/sum(m), the games as
        clusters: (difference, low, high)."""
        ...


class DesignClaims(ABC):
    """A game's claims, measured on `games` seeds from `seed` under each of its `runs`."""

    title: str
    """What the claims are, for a table's title ("troll design claims (seed 000 §4.2)")."""
    runs: Sequence[str]
    """The named rule sets the claims play `games` games of each, in order (a progress bar counts
    `games * len(runs)` games and names the run being played)."""

    @abstractmethod
    def measure(self, games: int, seed: int, agent: str, new_player: Callable[[], Player],
                estimates: Estimates,
                on_game: Callable[[str, bool], None] | None = None) -> list[Claim]:
        """Every claim, in a stable order; `agent` names the agent for the claims' words,
        `new_player()` makes it afresh (once per run), and `on_game(run, won)` hears of every
        game played."""
