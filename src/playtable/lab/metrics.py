"""Summaries of result rows, with game-analysis metrics in the manner of Ludii and TAG.

* win rate of seat 0 (the troll, or the first player) with a Wilson 95 % interval; for games of
  several seats, each seat's win rate, draws, **balance** (Ludii: 1 minus the largest gap
  between two seats' win rates) and **first-player advantage** (seat 0's win rate minus the
  mean of all seats', i.e. minus 1/players when exactly one seat wins each game; in team games
  such as the wizard's, every seat of the winning side counts as a winner);
* **completion**: the share of games that reached an end (not stopped by the step limit or by
  an error);
* **duration**: actions per game (mean, standard deviation, quartiles), and the game's own
  `turns` metric when it reports one;
* **branching**: legal actions per decision (mean and maximum), and decisions per turn when the
  game reports `turns`;
* the returns, the mean of each numeric game metric, and the mean count of each event kind.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from playtable.lab.stats import wilson


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and not math.isnan(value):
        return float(value)
    return None


def distribution(values: Sequence[float]) -> dict[str, float]:
    return Histogram.of(values).distribution()


class Histogram:
    """Values with their counts: exact mean, sd, min, quartiles and max in memory bounded by the
    number of distinct values (game lengths, turns and scores are whole numbers)."""

    def __init__(self) -> None:
        self.counts: Counter[float] = Counter()

    @classmethod
    def of(cls, values: Iterable[float]) -> Histogram:
        h = cls()
        h.counts.update(values)
        return h

    def add(self, value: float | None) -> None:
        if value is not None:
            self.counts[value] += 1

    def quantile(self, q: float) -> float:
        """Linear-interpolation quantile (numpy's default), as `stats.quantile` on the values."""
        n = sum(self.counts.values())
        if n == 0:
            return math.nan
        pos = (n - 1) * q
        lo = math.floor(pos)
        hi = min(lo + 1, n - 1)
        low_value = high_value = math.nan
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if math.isnan(low_value) and seen > lo:
                low_value = value
            if seen > hi:
                high_value = value
                break
        return low_value + (high_value - low_value) * (pos - lo)

    def distribution(self) -> dict[str, float]:
        n = sum(self.counts.values())
        if n == 0:
            mean = sd = math.nan
        else:
            mean = sum(v * c for v, c in self.counts.items()) / n
            sd = (
                math.sqrt(sum(c * (v - mean) ** 2 for v, c in self.counts.items()) / (n - 1))
                if n > 1
                else 0.0
            )
        return {
            "mean": mean,
            "sd": sd,
            "min": min(self.counts) if n else math.nan,
            "q1": self.quantile(0.25),
            "median": self.quantile(0.5),
            "q3": self.quantile(0.75),
            "max": max(self.counts) if n else math.nan,
        }


def metric_values(rows: Sequence[dict[str, Any]]) -> dict[str, list[float]]:
    """Numeric (and boolean, as 0/1) game metrics by name."""
    out: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        for key, value in _metric_numbers(row):
            out[key].append(value)
    return dict(out)


def _metric_numbers(row: dict[str, Any]) -> Iterator[tuple[str, float]]:
    for key, value in (row.get("metrics") or {}).items():
        if isinstance(value, bool):
            yield key, 1.0 if value else 0.0
        elif isinstance(value, int | float) and not math.isnan(value):
            yield key, float(value)


class RunningSummary:
    """`summarize` fed chunk by chunk: a run of any number of games keeps counts, sums and
    histograms, never its rows."""

    def __init__(self) -> None:
        self.n = self.completed = self.errors = self.wins = self.draws = 0
        self.players = 1
        self.seat_wins: Counter[int] = Counter()
        self.seat_names: list[str] | None = None
        self.length = Histogram()
        self.return_0 = Histogram()
        self.score = Histogram()
        self.turns = Histogram()
        self.branching_sum = 0.0
        self.branching_n = 0
        self.branching_max = -math.inf
        self.metric_sums: dict[str, list[float]] = {}
        self.per_turn_sum = 0.0
        self.per_turn_n = 0
        self.events: Counter[str] = Counter()

    def add(self, rows: Iterable[dict[str, Any]]) -> RunningSummary:
        for r in rows:
            self._add(r)
        return self

    def merge(self, other: RunningSummary) -> RunningSummary:
        """Add the games another summary counted (a worker's chunk): the same result as adding
        its rows here (sums up to rounding), chunks taken in order."""
        self.n += other.n
        self.players = max(self.players, other.players)
        self.completed += other.completed
        self.errors += other.errors
        self.wins += other.wins
        self.draws += other.draws
        self.seat_wins.update(other.seat_wins)
        if self.seat_names is None:
            self.seat_names = other.seat_names
        for mine, theirs in ((self.length, other.length), (self.return_0, other.return_0),
                             (self.score, other.score), (self.turns, other.turns)):
            mine.counts.update(theirs.counts)
        self.branching_sum += other.branching_sum
        self.branching_n += other.branching_n
        self.branching_max = max(self.branching_max, other.branching_max)
        for key, (total, count) in other.metric_sums.items():
            mine_total = self.metric_sums.setdefault(key, [0.0, 0.0])
            mine_total[0] += total
            mine_total[1] += count
        self.per_turn_sum += other.per_turn_sum
        self.per_turn_n += other.per_turn_n
        self.events.update(other.events)
        return self

    def _add(self, r: dict[str, Any]) -> None:
        self.n += 1
        self.players = max(self.players, int(r.get("players") or 1))
        self.completed += bool(r.get("completed"))
        self.errors += bool(r.get("error"))
        self.wins += bool(r.get("win"))
        self.draws += bool(r.get("draw"))
        winners = r.get("winners")
        if winners is None:  # files written before the column existed
            w = r.get("winner")
            winners = [w] if isinstance(w, int) and w >= 0 else []
        self.seat_wins.update(w for w in winners if isinstance(w, int) and w >= 0)
        if self.seat_names is None and r.get("seat_names"):
            self.seat_names = list(r["seat_names"])
        self.length.add(_number(r.get("length")))
        self.return_0.add(_number(r.get("return_0")))
        mean = _number(r.get("branching_mean"))
        if mean is not None:
            self.branching_sum += mean
            self.branching_n += 1
        top = _number(r.get("branching_max"))
        if top is not None:
            self.branching_max = max(self.branching_max, top)
        for key, value in _metric_numbers(r):
            total = self.metric_sums.setdefault(key, [0.0, 0.0])
            total[0] += value
            total[1] += 1
            if key == "score":
                self.score.add(value)
            elif key == "turns":
                self.turns.add(value)
        turns = (r.get("metrics") or {}).get("turns")
        if turns:
            self.per_turn_sum += float(r["length"]) / float(turns)
            self.per_turn_n += 1
        self.events.update(r.get("events") or {})

    def result(self) -> dict[str, Any]:
        """Everything the CLI prints and the report tabulates for the rows added so far."""
        n, players = self.n, self.players
        low, high = wilson(self.wins, n)
        summary: dict[str, Any] = {
            "games": n,
            "players": players,
            "completion": self.completed / n if n else math.nan,
            "errors": self.errors,
            "win_rate": self.wins / n if n else math.nan,
            "win_low": low,
            "win_high": high,
            "wins": self.wins,
            "length": self.length.distribution(),
            "return_0": self.return_0.distribution(),
            "branching_mean": self.branching_sum / self.branching_n if self.branching_n else math.nan,
            "branching_max": self.branching_max if self.branching_max > -math.inf else math.nan,
        }
        if players > 1:
            seat_wins = [self.seat_wins.get(seat, 0) for seat in range(players)]
            rates = [w / n if n else math.nan for w in seat_wins]
            summary["seat_win_rates"] = rates
            summary["seat_win_intervals"] = [wilson(w, n) for w in seat_wins]
            summary["draw_rate"] = self.draws / n if n else math.nan
            summary["balance"] = 1 - (max(rates) - min(rates)) if n else math.nan
            summary["first_player_advantage"] = rates[0] - sum(rates) / players if n else math.nan
            names = self.seat_names
            summary["seat_names"] = names if names else [f"seat {i}" for i in range(players)]
        summary["metrics"] = {k: total / count for k, (total, count) in self.metric_sums.items()}
        if "score" in self.metric_sums:
            summary["score"] = self.score.distribution()
        if "turns" in self.metric_sums:
            summary["turns"] = self.turns.distribution()
            summary["decisions_per_turn"] = (
                self.per_turn_sum / self.per_turn_n if self.per_turn_n else math.nan
            )
        summary["events_per_game"] = {k: v / n for k, v in sorted(self.events.items())} if n else {}
        return summary


def summarize(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Everything the CLI prints and the report tabulates for one group of rows."""
    return RunningSummary().add(rows).result()


def survival(rows: Sequence[dict[str, Any]], key: str = "turns") -> tuple[list[int], list[float]]:
    """The share of games not yet lost after each turn (`metrics[key]`, else the length): wins
    and unfinished games never count as lost. Returns (turns, share) from turn 0."""
    losses: list[int] = []
    for r in rows:
        if r.get("win") or r.get("draw") or not r.get("completed"):
            continue
        when = (r.get("metrics") or {}).get(key, r.get("length"))
        if isinstance(when, int | float) and not isinstance(when, bool):
            losses.append(int(when))
    n = len(rows)
    if n == 0:
        return [0], [1.0]
    last = max(losses, default=0)
    by_turn: dict[int, int] = defaultdict(int)
    for t in losses:
        by_turn[t] += 1
    turns = list(range(last + 1))
    alive = n
    share = []
    for t in turns:
        alive -= by_turn.get(t, 0)
        share.append(alive / n)
    return turns, share
