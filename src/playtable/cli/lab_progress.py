"""What the lab commands show: numbers and percentages, the live progress bar with the running
win rate, the summary table of a run, and results made JSON-ready.
"""

from __future__ import annotations

import math
from typing import Any


def format_number(value: Any, digits: int = 3) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.{digits}f}"
    return str(value)


def pct(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.1f}%"


P_FLOOR = 1e-300
"""The smallest p-value printed as a number: below it (and at 0, where the test's floating point
ran out) a p-value is printed `< 1e-300`, never `0`: a test never proves a chance of nothing."""


def format_p(value: float) -> str:
    """A p-value for people: three significant digits, `< 1e-300` below that, `-` for none."""
    if math.isnan(value):
        return "-"
    return f"< {P_FLOOR:g}" if value < P_FLOOR else f"{value:.3g}"


class Live:
    """A rich progress bar with the running win rate (and its interval) and the time left."""

    def __init__(self, total: int, label: str, quiet: bool) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.quiet = quiet
        self.wins = 0
        self.done = 0
        self.arms: dict[str, list[int]] = {}  # variant label -> [wins, games]
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=quiet,
        )
        self.task = self.progress.add_task(label, total=total, rate="")

    def __enter__(self) -> Live:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def add(self, rows: list[dict[str, Any]]) -> None:
        """Count finished games. Rows of several variants (compare) get a win rate each: one
        rate pooled over different rules would mean nothing."""
        counts: dict[str, list[int]] = {}
        for r in rows:
            arm = counts.setdefault(str(r.get("variant", "")), [0, 0])
            arm[0] += bool(r.get("win"))
            arm[1] += 1
        self.add_counts(counts)

    def add_counts(self, counts: dict[str, list[int]]) -> None:
        """Count finished games given as variant -> [wins, games] (a worker's chunk)."""
        from playtable.lab.stats import wilson

        for name, (wins, games) in counts.items():
            arm = self.arms.setdefault(name, [0, 0])
            arm[0] += wins
            arm[1] += games
            self.done += games
            self.wins += wins
        if not self.done:
            return
        if len(self.arms) > 1:
            rate = "win " + " · ".join(f"{name} {pct(w / n)}" for name, (w, n) in self.arms.items())
        else:
            low, high = wilson(self.wins, self.done)
            rate = f"win {pct(self.wins / self.done)} [{pct(low)}, {pct(high)}]"
        self.progress.update(self.task, advance=sum(n for _, n in counts.values()), rate=rate)

    def retotal(self, total: int) -> None:
        self.progress.update(self.task, total=total)


def print_summary(summary: dict[str, Any], title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    from playtable.lab.stats import rate_reach, reach_text

    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column("measure")
    table.add_column("value")
    n = summary["games"]
    table.add_row("games", f"{n} ({pct(summary['completion'])} completed, {summary['errors']} errors)")
    alone = {"side": "win rate", "wins": summary["wins"], "rate": summary["win_rate"],
             "low": summary["win_low"], "high": summary["win_high"]}
    sides = summary.get("sides") or [alone]
    for side in sides:  # each side's result from its own side, draws apart (not seat 0's rate)
        name = side["side"] if side["side"] in ("draws", "win rate") else f"{side['side']} won"
        table.add_row(name, f"{pct(side['rate'])}  95% CI [{pct(side['low'])}, {pct(side['high'])}]"
                            f"  ({side['wins']} of {n})")
    widest = max(sides, key=lambda side: side["high"] - side["low"])
    table.add_row("how far it can still move",
                  f"{widest['side']}: {reach_text(rate_reach(widest['wins'], n))}")
    if summary["players"] > 1:
        for seat, (rate, (lo, hi)) in enumerate(
            zip(summary["seat_win_rates"], summary["seat_win_intervals"], strict=True)
        ):
            name = summary["seat_names"][seat]
            table.add_row(f"seat {seat} ({name}) wins", f"{pct(rate)}  [{pct(lo)}, {pct(hi)}]")
        table.add_row("balance", format_number(summary["balance"]))
        table.add_row("first-player advantage", format_number(summary["first_player_advantage"]))
    for key, title_ in (
        ("length", "actions per game"),
        ("turns", "turns per game"),
        ("score", "score (game metric)"),
        ("return_0", "return (seat 0)"),
    ):
        d = summary.get(key)
        if d:
            table.add_row(
                title_,
                f"mean {format_number(d['mean'], 2)} sd {format_number(d['sd'], 2)}  "
                f"min {format_number(d['min'], 0)} q1 {format_number(d['q1'], 1)} "
                f"median {format_number(d['median'], 1)} q3 {format_number(d['q3'], 1)} "
                f"max {format_number(d['max'], 0)}",
            )
    table.add_row(
        "branching",
        f"mean {format_number(summary['branching_mean'], 2)} legal actions, "
        f"max {format_number(summary['branching_max'], 0)}",
    )
    if "decisions_per_turn" in summary:
        table.add_row("decisions per turn", format_number(summary["decisions_per_turn"], 2))
    quality = summary.get("quality") or {}
    for key, title_ in (("lead_changes", "lead changes a game"), ("winner_behind", "winner behind (share)"),
                        ("drama", "drama"), ("decided_at", "decided at (share of the game)")):
        m = quality.get(key)
        if m and m.get("games"):
            table.add_row(title_, f"{format_number(m['mean'], 3)}  95% CI [{format_number(m['low'], 3)}, "
                                  f"{format_number(m['high'], 3)}]  ({m['games']} games)")
    for key, value in summary["metrics"].items():
        table.add_row(f"metric {key} (mean)", format_number(value))
    for kind, value in summary["events_per_game"].items():
        table.add_row(f"event {kind} (per game)", format_number(value, 2))
    Console().print(table)


def jsonable(data: Any) -> Any:
    if isinstance(data, float) and math.isnan(data):
        return None
    if isinstance(data, dict):
        return {k: jsonable(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [jsonable(v) for v in data]
    return data
