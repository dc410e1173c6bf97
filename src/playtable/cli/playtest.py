"""`playtable playtest GAME`: the seed's own playtest questions, answered from simulated games."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from playtable.cli.common import OUT_FILE, SEED, WORKERS, complete_agent, complete_game, log

if TYPE_CHECKING:
    from playtable.lab.playtest import Answer


@contextmanager
def games_counted(options: Any, label: str) -> Iterator[list[int]]:
    """A progress line on stderr while the games run: games played, their running win rate and
    the time (the questions play several batches of unknown total, so no bar's end). Yields
    [games won by seat 0, games played], counted as they come."""
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    progress = Progress(SpinnerColumn(), TextColumn(label), TextColumn("{task.completed} games"),
                        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), console=console,
                        transient=True, disable=not console.is_terminal)
    task = progress.add_task(label, total=None, rate="")
    won = [0, 0]

    def count(rows: list[dict[str, Any]]) -> None:
        won[0] += sum(bool(r.get("win")) for r in rows)
        won[1] += len(rows)
        progress.update(task, advance=len(rows), rate=f"seat 0 won {100 * won[0] / won[1]:.1f}%")

    options.on_rows = count
    with progress:
        yield won
    log.info("%d games played", won[1])


@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option("--agent", "agents", multiple=True, metavar="SPEC", shell_complete=complete_agent,
              help="An agent to answer with (repeatable; default: a weak and a strong one per game).")
@click.option("-n", "--games", type=int, default=None,
              help="Games per setting (default per game: troll 1000, wizard 200, stardice 60, rotator 30).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="First seed.")
@click.option("--workers", "-w", type=WORKERS, default=1, show_default=True, envvar="PLAYTABLE_WORKERS",
              show_envvar=True, help="Worker processes.")
@click.option("--out", type=OUT_FILE, default=None, help="Also write the answers as an HTML report page.")
@click.option("--force", is_flag=True, help="Replace --out if it exists.")
@click.option("--json", "as_json", is_flag=True, help="Print the answers as JSON.")
def playtest(game: str, agents: tuple[str, ...], games: int | None, seed: int, workers: int,
             out: str | None, force: bool, as_json: bool) -> None:
    """Answer the questions GAME's seed asked its playtesters (troll, stardice, wizard, rotator),
    each beside the seed's own answer, measured with a 95% interval, for two agents."""
    from playtable.core.files import check_new_output
    from playtable.lab.playtest import DEFAULT_GAMES, check_extras
    from playtable.lab.playtest import playtest as run
    from playtable.lab.runner import Interrupted, RunOptions

    check_extras(game, page=bool(out))  # a missing extra is said before any game is played
    if out:
        check_new_output(out, force)
    options = RunOptions(workers=workers)
    options.check()
    counted = [0, 0]
    try:
        with games_counted(options, f"playtest {game}") as counted:  # progress as sim shows it (stderr)
            answers = run(game, list(agents) or None, games, seed, options)
    except (Interrupted, KeyboardInterrupt):
        # Every answer is measured on all -n games of its setting: a part of them would answer
        # some questions on fewer games than the table says, so none is shown.
        click.echo(f"interrupted after {counted[1]:,} games: the answers need all of them, so none "
                   "is given (a smaller -n answers sooner)", err=True)
        sys.exit(130)
    n = games if games is not None else DEFAULT_GAMES.get(game, 0)
    if out:
        from playtable.lab.report_playtest import write_playtest

        write_playtest(game, answers, Path(out), n, seed)
        log.info("playtest page written to %s", out)
    if as_json:
        records = [{**vars(a), **{k: None for k in ("value", "low", "high") if math.isnan(getattr(a, k))}}
                   for a in answers]
        click.echo(json.dumps(records, indent=1))
        return
    from rich.console import Console

    title = f"{game}: the seed's playtest questions ({n} games per setting from seed {seed})"
    Console().print(answers_table(answers, title))
    log.info("* the agents' intervals do not overlap: the answer depends on who plays")


def answers_table(answers: Sequence[Answer], title: str) -> Any:
    """The answers as a rich table that reads at 80 columns: five columns, the question's the
    widest, and under each measured answer its 95 % interval and how far it can still move (a
    column of their own each squeezed the question to a word a line at 80)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left", show_lines=True, caption_justify="left",
                  caption="under a measured answer: its 95% interval, then how far it can still move")
    table.add_column("question", ratio=4, min_width=16)
    table.add_column("agent", ratio=2, min_width=8)
    table.add_column("the seed says", ratio=3)
    table.add_column("measured", ratio=4)
    table.add_column("n", justify="right")
    for a in answers:
        measured = Text(a.measured)
        for line in (a.interval_text(), a.reach_text()):
            if line != "-" and line not in a.measured:
                measured.append("\n" + line, style="dim")
        table.add_row(a.question, a.agent + (" *" if a.disagree else ""), a.seed_says, measured,
                      f"{a.n:,}")
    return table
