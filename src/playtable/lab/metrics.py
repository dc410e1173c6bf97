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
* the returns, the mean of each numeric game metric, and the mean count of each event kind;
* **game quality** (`quality.py`: Browne's and Ludii's lead changes, drama and decisiveness, from
  the game's value of each position), each as a mean per game with a 95 % interval, and the
  **spread of the duration** (standard deviation with its interval, coefficient of variation).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from playtable.lab.quality import COLUMNS as QUALITY_COLUMNS
from playtable.lab.stats import Z95, wilson


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

    def spread(self) -> dict[str, float]:
        """The mean with its 95 % interval, the standard deviation with its 95 % interval and
        the coefficient of variation (sd / mean). The sd's interval is the large-sample one that
        holds for any distribution (the variance of the sample variance from the fourth central
        moment, carried to the sd by the delta method), not the chi-square one, which assumes
        normal values: game lengths are skewed."""
        n = sum(self.counts.values())
        nan = math.nan
        if n == 0:
            return {"games": 0, "mean": nan, "low": nan, "high": nan, "sd": nan, "sd_low": nan,
                    "sd_high": nan, "cv": nan}
        mean = sum(v * c for v, c in self.counts.items()) / n
        m2 = sum(c * (v - mean) ** 2 for v, c in self.counts.items())
        m4 = sum(c * (v - mean) ** 4 for v, c in self.counts.items()) / n
        var = m2 / (n - 1) if n > 1 else 0.0
        sd = math.sqrt(var)
        half = Z95 * sd / math.sqrt(n) if n > 1 else nan
        sd_half = nan
        if n > 3 and sd > 0:
            var_of_var = max(0.0, (m4 - var * var * (n - 3) / (n - 1)) / n)
            sd_half = Z95 * math.sqrt(var_of_var) / (2 * sd)
        return {"games": n, "mean": mean, "low": mean - half, "high": mean + half, "sd": sd,
                "sd_low": max(0.0, sd - sd_half), "sd_high": sd + sd_half,
                "cv": sd / mean if mean else nan}


class Moments:
    """Count, sum and sum of squared deviations of numbers added one by one (Welford) or merged
    (Chan et al.), for a mean with its 95 % interval without keeping the numbers. The mean is
    the plain sum over the count (a mean of 0s and 1s is then exact whatever the order, as SQL's
    `sum` gives it); the squared deviations are kept the stable way, about a running mean."""

    def __init__(self, n: int = 0, total: float = 0.0, m2: float = 0.0) -> None:
        self.n, self.total, self.m2 = n, total, m2
        self._mean = total / n if n else 0.0

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        delta = value - self._mean
        self._mean += delta / self.n
        self.m2 += delta * (value - self._mean)

    def merge(self, other: Moments) -> None:
        if not other.n:
            return
        if not self.n:
            self.n, self.total, self.m2, self._mean = other.n, other.total, other.m2, other._mean
            return
        n = self.n + other.n
        delta = other._mean - self._mean
        self._mean += delta * other.n / n
        self.m2 += other.m2 + delta * delta * self.n * other.n / n
        self.total += other.total
        self.n = n

    def result(self) -> dict[str, float]:
        """games, mean, its 95 % interval (normal, from the sample sd; none for one game), sd."""
        mean = self.total / self.n if self.n else math.nan
        sd = math.sqrt(max(0.0, self.m2) / (self.n - 1)) if self.n > 1 else math.nan
        half = Z95 * sd / math.sqrt(self.n) if self.n > 1 else math.nan
        return {"games": self.n, "mean": mean, "low": mean - half, "high": mean + half, "sd": sd}


QUALITY_MEASURES = ("lead_changes", "lead_change_rate", "winner_behind", "drama", "decided_at")
"""The per-game quality numbers a summary averages: the `quality.py` columns, and Ludii's lead
change per decision (`lead_changes / length`)."""


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
        self.side_wins: Counter[tuple[int, ...]] = Counter()
        """Games won by each set of winning seats (the wizard alone, the heroes together)."""
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
        self.quality: dict[str, Moments] = {}

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
        self.side_wins.update(getattr(other, "side_wins", Counter()))
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
        for key, moments in other.quality.items():
            self.quality.setdefault(key, Moments()).merge(moments)
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
        seats = tuple(sorted(w for w in winners if isinstance(w, int) and w >= 0))
        self.seat_wins.update(seats)
        if seats:
            self.side_wins[seats] += 1
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
        for key in QUALITY_COLUMNS:
            measure = _number(r.get(key))
            if measure is not None:
                self.quality.setdefault(key, Moments()).add(measure)
        changes, length = _number(r.get("lead_changes")), _number(r.get("length"))
        if changes is not None and length:
            self.quality.setdefault("lead_change_rate", Moments()).add(changes / length)

    def _sides(self, names: list[str]) -> list[dict[str, Any]]:
        """Each side's result, from its own side: the games each set of winning seats won, with
        its Wilson interval, then the draws (the wizard's 38 % beside the heroes' 60 %, not
        seat 0's rate alone; a draw is its own line, not half a win)."""
        n = self.n
        out = []
        for seats, wins in sorted(self.side_wins.items()):
            low, high = wilson(wins, n)
            out.append({"side": side_name([names[s] if s < len(names) else f"seat {s}" for s in seats]),
                        "seats": list(seats), "wins": wins, "rate": wins / n if n else math.nan,
                        "low": low, "high": high})
        low, high = wilson(self.draws, n)
        out.append({"side": "draws", "seats": [], "wins": self.draws,
                    "rate": self.draws / n if n else math.nan, "low": low, "high": high})
        return out

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
            summary["sides"] = self._sides(summary["seat_names"])
        summary["metrics"] = {k: total / count for k, (total, count) in self.metric_sums.items()}
        if "score" in self.metric_sums:
            summary["score"] = self.score.distribution()
        if "turns" in self.metric_sums:
            summary["turns"] = self.turns.distribution()
            summary["decisions_per_turn"] = (
                self.per_turn_sum / self.per_turn_n if self.per_turn_n else math.nan
            )
        summary["events_per_game"] = {k: v / n for k, v in sorted(self.events.items())} if n else {}
        quality: dict[str, Any] = {k: self.quality[k].result() for k in QUALITY_MEASURES
                                   if k in self.quality and self.quality[k].n}
        quality["length"] = self.length.spread()
        if "turns" in self.metric_sums:
            quality["turns"] = self.turns.spread()
        summary["quality"] = quality
        return summary


def side_name(names: Sequence[str]) -> str:
    """A side's name from its seats' names: one seat's own name; seats numbered alike
    ("hero1".."hero4") by their shared word made plural ("heroes"); else the names joined."""
    if len(names) == 1:
        return names[0]
    stems = {name.rstrip("0123456789 ") for name in names}
    if len(stems) == 1 and (stem := stems.pop()):
        return stem + ("es" if stem.endswith(("o", "s", "x", "ch", "sh")) else "s")
    return " + ".join(names)


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
