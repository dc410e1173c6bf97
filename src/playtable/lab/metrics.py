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
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from playtable.lab.stats import mean_sd, quantile, wilson


def _numbers(rows: Sequence[dict[str, Any]], key: str) -> list[float]:
    out = []
    for row in rows:
        value = row.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and not math.isnan(value):
            out.append(float(value))
    return out


def distribution(values: Sequence[float]) -> dict[str, float]:
    mean, sd = mean_sd(values)
    return {
        "mean": mean,
        "sd": sd,
        "min": min(values) if values else math.nan,
        "q1": quantile(values, 0.25),
        "median": quantile(values, 0.5),
        "q3": quantile(values, 0.75),
        "max": max(values) if values else math.nan,
    }


def metric_values(rows: Sequence[dict[str, Any]]) -> dict[str, list[float]]:
    """Numeric (and boolean, as 0/1) game metrics by name."""
    out: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        for key, value in (row.get("metrics") or {}).items():
            if isinstance(value, bool):
                out[key].append(1.0 if value else 0.0)
            elif isinstance(value, int | float) and not math.isnan(value):
                out[key].append(float(value))
    return dict(out)


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Everything the CLI prints and the report tabulates for one group of rows."""
    n = len(rows)
    players = max((int(r.get("players") or 1) for r in rows), default=1)
    completed = sum(1 for r in rows if r.get("completed"))
    errors = sum(1 for r in rows if r.get("error"))
    wins = sum(1 for r in rows if r.get("win"))
    low, high = wilson(wins, n)
    summary: dict[str, Any] = {
        "games": n,
        "players": players,
        "completion": completed / n if n else math.nan,
        "errors": errors,
        "win_rate": wins / n if n else math.nan,
        "win_low": low,
        "win_high": high,
        "wins": wins,
        "length": distribution(_numbers(rows, "length")),
        "return_0": distribution(_numbers(rows, "return_0")),
        "branching_mean": mean_sd(_numbers(rows, "branching_mean"))[0],
        "branching_max": max(_numbers(rows, "branching_max"), default=math.nan),
    }
    if players > 1:
        seat_wins = [0] * players
        for r in rows:
            winners = r.get("winners")
            if winners is None:  # files written before the column existed
                w = r.get("winner")
                winners = [w] if isinstance(w, int) and w >= 0 else []
            for w in winners:
                if 0 <= w < players:
                    seat_wins[w] += 1
        rates = [w / n if n else math.nan for w in seat_wins]
        summary["seat_win_rates"] = rates
        summary["seat_win_intervals"] = [wilson(w, n) for w in seat_wins]
        summary["draw_rate"] = sum(1 for r in rows if r.get("draw")) / n if n else math.nan
        summary["balance"] = 1 - (max(rates) - min(rates)) if n else math.nan
        summary["first_player_advantage"] = rates[0] - sum(rates) / players if n else math.nan
        names = next((r.get("seat_names") for r in rows if r.get("seat_names")), None)
        summary["seat_names"] = list(names) if names else [f"seat {i}" for i in range(players)]
    metrics = metric_values(rows)
    summary["metrics"] = {k: mean_sd(v)[0] for k, v in metrics.items()}
    if "score" in metrics:
        summary["score"] = distribution(metrics["score"])
    if "turns" in metrics:
        summary["turns"] = distribution(metrics["turns"])
        per_turn = [
            float(r["length"]) / float(r["metrics"]["turns"])
            for r in rows
            if (r.get("metrics") or {}).get("turns")
        ]
        summary["decisions_per_turn"] = mean_sd(per_turn)[0]
    counts: dict[str, float] = defaultdict(float)
    for r in rows:
        for kind, count in (r.get("events") or {}).items():
            counts[kind] += count
    summary["events_per_game"] = {k: v / n for k, v in sorted(counts.items())} if n else {}
    return summary


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
