"""`playtable sim`: simulate N games of a game and summarise them."""

from __future__ import annotations

import dataclasses
import json
import math
import signal
import sys
import time

import click

from playtable.cli.common import check_seed_span, complete_agent, complete_game, complete_variant, log
from playtable.cli.lab_options import agents_for, out_option, with_run_options
from playtable.cli.lab_progress import jsonable, print_summary
from playtable.cli.lab_runs import RunFrame, end_line, recorded_run
from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params


# -- sim ---------------------------------------------------------------------------------------------
@click.command()
@click.argument("game", shell_complete=complete_game)
@click.option(
    "--param", "params", multiple=True, metavar="KEY=VALUE", help="Set a game parameter (repeatable)."
)
@click.option("--variant", default=None, metavar="NAME", shell_complete=complete_variant,
              help="Start from a named variant's parameters.")
@click.option(
    "--agent", "agents", multiple=True, metavar="[SEAT=]SPEC", shell_complete=complete_agent,
    help="Agent for every seat, or SEAT=SPEC."
)
@click.option("-n", "--games", type=int, default=100, show_default=True, help="Number of games.")
@click.option(
    "--keep-records",
    is_flag=True,
    help="Keep each game's actions in the result file (column `actions`): `playtable replay FILE --seed S`.",
)
@click.option(
    "--quality/--no-quality",
    default=True,
    show_default=True,
    help="Take the game's value of every position for the game-quality columns (lead changes, drama, "
    "decisiveness); --no-quality leaves them empty and plays faster (random troll games: about 1.6x).",
)
@with_run_options
@out_option("Write one row per game to this Parquet file.")
def sim(
    game: str,
    params: tuple[str, ...],
    variant: str | None,
    agents: tuple[str, ...],
    games: int,
    keep_records: bool,
    quality: bool,
    seed: int,
    workers: int,
    backend: str,
    address: str | None,
    max_steps: int,
    quiet: bool,
    as_json: bool,
    out: str | None,
    force: bool,
) -> None:
    """Simulate N games of GAME and summarise them (win rate with a Wilson 95% interval, length
    and score distributions, game metrics). Ctrl-C keeps every finished game; the same command
    continues an interrupted run, and resumes one killed outright, at its missing seeds. Games stream through:
    memory stays bounded however large N is."""
    from playtable.lab.chunks import Chunk
    from playtable.lab.metrics import RunningSummary
    from playtable.lab.runner import Arm, Interrupted, RunOptions, resolve_game, run_tasks

    if games < 1:
        raise BadParameter("-n must be at least 1")
    check_seed_span(seed, games)
    the_game = resolve_game(game)
    the_params = resolve_params(the_game.params_type, the_game.variants, variant, params)
    specs = agents_for(the_game, the_params, agents)
    arm = Arm.build(game, the_params, specs, label=variant or "default", max_steps=max_steps)
    if keep_records:
        if not out:
            raise BadParameter("--keep-records needs --out FILE to keep them in")
        arm = dataclasses.replace(arm, keep_records=True)
    if not quality:
        arm = dataclasses.replace(arm, quality=False)
    options = RunOptions(workers, backend, address)
    seeds = range(seed, seed + games)
    log.debug("sim: %s with %s, seeds %d..%d, %d worker(s) (%s), results %s", arm.game,
              " / ".join(arm.agents), seed, seed + games - 1, workers, backend, out or "not kept")
    summary = RunningSummary()
    interrupted = False
    frame = RunFrame()
    started = time.perf_counter()
    try:
        if workers > 1 and backend == "local":
            from playtable.lab.workers import start_early

            start_early()  # the workers' imports go on while this process opens the result files
        with recorded_run(
            options, out, games, f"{the_game.id} {' '.join(arm.agents)}", quiet, [arm], seeds, force
        ) as frame:
            summary.add(frame.previous)
            done = frame.done()
            # A generator, never a list: the runner cuts batches from it as workers need them.
            tasks = ((arm, s) for s in seeds if (arm.label, s) not in done)
            # Workers hand over whole chunks (rows already encoded, a summary of their own): the
            # parent writes and merges them without touching a row (`lab/chunks.py`).
            take_chunk = frame.on_chunk

            def on_chunk(chunk: Chunk) -> None:
                take_chunk(chunk)
                summary.merge(chunk.summary)

            options.on_chunk = on_chunk
            try:
                run_tasks(tasks, options, total=games - len(done), keep_rows=False)
            except Interrupted:
                interrupted = True
    except KeyboardInterrupt:  # before the games started, or while the file was being completed
        interrupted = True
    elapsed = time.perf_counter() - started
    if summary.n:
        result = summary.result()
        if as_json:
            click.echo(json.dumps(jsonable(result), indent=1))
        else:
            title = f"{the_game.id}: {', '.join(arm.agents)} ({arm.label}), seeds {seed}..{seed + games - 1}"
            print_summary(result, title)
    played = summary.n - len(frame.previous)
    rate = played / elapsed if elapsed > 0 else math.nan
    plural = "s" if workers > 1 else ""
    last = end_line(out, summary.n, frame.rows_in_file, interrupted)
    if interrupted:  # one line, whatever --quiet says: the run did not finish
        # The run is stopped and its line decided: nothing that comes now (a Ctrl-C more, or
        # one still pending when the runner put its handlers back) may cut the exit short and
        # leave the process dead of the signal instead of status 130.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        click.echo(last, err=True)
        sys.exit(130)
    log.info("%d games in %.1f s (%.1f games/s, %d worker%s)", played, elapsed, rate, workers, plural)
    if last:
        log.info("%s", last)
