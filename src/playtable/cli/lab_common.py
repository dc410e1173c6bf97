"""Shared pieces of the lab commands (`sim`, `compare`, `query`, `report`, `claims`): agent
specs per seat, number formatting, live progress, summaries, output files.

GAME is a registered game id, or `module:attribute` naming a Game instance (a game under
development). Agents are specs such as `random`, `greedy:samples=16`, `ismcts:iterations=500`
or a game's own bot (`heuristic`); `--agent ismcts` gives every seat that agent,
`--agent 1=random` sets one seat.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import click

from playtable.cli.common import OUT_FILE, SEED
from playtable.core.errors import BadParameter

_SEAT_SPEC = re.compile(r"^(\d+)=(.+)$")


# -- shared pieces -----------------------------------------------------------------------------------
def agents_for(game: Any, params: Any, specs: Sequence[str], base: Sequence[str] = ()) -> list[str]:
    """One agent spec per seat from `--agent SPEC` / `--agent SEAT=SPEC` options."""
    seats = game.num_players(params)
    chosen = list(base) if len(base) == seats else ([base[0]] * seats if base else ["random"] * seats)
    for spec in specs:
        match = _SEAT_SPEC.match(spec.strip())
        if match:
            seat = int(match.group(1))
            if not 0 <= seat < seats:
                raise BadParameter(f"--agent {spec}: {game.id} has seats 0..{seats - 1}")
            chosen[seat] = match.group(2)
        else:
            chosen = [spec.strip()] * seats
    return chosen


def format_number(value: Any, digits: int = 3) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.{digits}f}"
    return str(value)


def pct(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.1f}%"


class TermAsInterrupt:
    """While running, SIGTERM (kill, a timeout) stops the run like Ctrl-C, so the finished
    games are still written and the result file is completed."""

    def __enter__(self) -> TermAsInterrupt:
        import signal

        def handler(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt

        try:
            self._previous: Any = signal.signal(signal.SIGTERM, handler)
        except ValueError:  # not the main thread
            self._previous = None
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)


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
        from playtable.lab.stats import wilson

        self.done += len(rows)
        self.wins += sum(1 for r in rows if r.get("win"))
        low, high = wilson(self.wins, self.done)
        rate = f"win {pct(self.wins / self.done)} [{pct(low)}, {pct(high)}]"
        self.progress.update(self.task, advance=len(rows), rate=rate)

    def retotal(self, total: int) -> None:
        self.progress.update(self.task, total=total)


def print_summary(summary: dict[str, Any], title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column("measure")
    table.add_column("value")
    n = summary["games"]
    table.add_row("games", f"{n} ({pct(summary['completion'])} completed, {summary['errors']} errors)")
    label = "win rate (seat 0)" if summary["players"] > 1 else "win rate"
    table.add_row(
        label,
        f"{pct(summary['win_rate'])}  95% CI [{pct(summary['win_low'])}, {pct(summary['win_high'])}]"
        f"  ({summary['wins']} of {n})",
    )
    if summary["players"] > 1:
        for seat, (rate, (lo, hi)) in enumerate(
            zip(summary["seat_win_rates"], summary["seat_win_intervals"], strict=True)
        ):
            name = summary["seat_names"][seat]
            table.add_row(f"seat {seat} ({name}) wins", f"{pct(rate)}  [{pct(lo)}, {pct(hi)}]")
        table.add_row("draws", pct(summary["draw_rate"]))
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


@dataclass
class RunFrame:
    """What `recorded_run` hands the command: the games a killed earlier run of it left (to be
    skipped), and, once the run ends, the number of rows the result file really holds."""

    previous: list[dict[str, Any]] = field(default_factory=list)
    rows_in_file: int = 0

    def done(self) -> set[tuple[str, int]]:
        return {(str(r["variant"]), int(r["seed"])) for r in self.previous}


def resume_killed(out: str, arms: Sequence[Any], seeds: Collection[int]) -> list[dict[str, Any]]:
    """A run that was killed outright (not interrupted) left its games in a journal beside OUT:
    merge them into NAME.recovered.parquet (cumulatively), and return those of this run."""
    from playtable.lab.recovery import recover, recovered_path, resume
    from playtable.lab.storage import journal_path

    if journal_path(out).exists() or journal_path(out).is_symlink():
        target = recovered_path(out)
        count = recover(out, target)
        click.echo(f"a killed run had left {count} finished games: saved to {target}", err=True)
    previous = resume(out, arms, seeds)
    if previous:
        click.echo(f"resuming: {len(previous)} games recovered from {recovered_path(out)} are kept", err=True)
    return previous


def command_line() -> str:
    """The command being run, as typed (for the metadata of the files it writes)."""
    import shlex

    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    argv = obj.get("argv") if isinstance(obj, dict) else None
    return shlex.join(["playtable", *(argv if argv is not None else sys.argv[1:])])


@contextmanager
def recorded_run(
    options: Any,
    out: str | None,
    total: int,
    label: str,
    quiet: bool,
    arms: Sequence[Any] = (),
    seeds: Collection[int] = (),
    force: bool = False,
) -> Iterator[RunFrame]:
    """The frame of a `sim` or `compare` run: check the run options before anything is shown,
    refuse an existing OUT without --force, recover what a killed earlier run left and resume
    it (its games of this run are written first and skipped), then hand every finished chunk
    of rows (through `options.on_rows`) to the Parquet file OUT and the progress bar, with
    SIGTERM taken as Ctrl-C; the file is completed however the run ends."""
    from playtable.core.extras import require

    options.check()
    frame = RunFrame()
    writer = None
    if out:
        require("lab", "--out (a Parquet result file)")
        from playtable.core.files import check_new_output
        from playtable.lab.recovery import recovered_path
        from playtable.lab.storage import ResultWriter, row_count

        check_new_output(out, force)
        frame.previous = resume_killed(out, arms, seeds)
        writer = ResultWriter(out, command=command_line())
    with TermAsInterrupt(), Live(total, label, quiet) as live:

        def on_rows(rows: list[dict[str, Any]]) -> None:
            if writer is not None:
                writer.write(rows)
            live.add(rows)

        if frame.previous:
            on_rows(frame.previous)
        options.on_rows = on_rows
        try:
            yield frame
        finally:
            if writer is not None and out:
                writer.close()
                frame.rows_in_file = row_count(out)
                if frame.previous:  # every recovered game is in OUT now
                    recovered_path(out).unlink(missing_ok=True)


def out_option(help_text: str) -> Any:
    def decorate(func: Any) -> Any:
        func = click.option("--force", is_flag=True, help="Replace --out if it exists.")(func)
        return click.option("--out", type=OUT_FILE, default=None, help=help_text)(func)

    return decorate


_run_options = [
    click.option(
        "--seed", type=SEED, default=0, show_default=True, help="First seed; games use seed, seed+1, ..."
    ),
    click.option(
        "--workers", "-w", type=int, default=1, show_default=True, help="Worker processes (or Ray CPUs)."
    ),
    click.option(
        "--backend",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="local worker processes, or Ray (needs `pip install 'playtable[ray]'`).",
    ),
    click.option("--address", default=None, help="Ray cluster address (default: start a local Ray)."),
    click.option(
        "--max-steps",
        type=int,
        default=100_000,
        show_default=True,
        help="Stop a game after this many actions.",
    ),
    click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
    click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON."),
]


def with_run_options(func: Any) -> Any:
    for option in reversed(_run_options):
        func = option(func)
    return func


