"""`playtable sim`: simulate N games of a game and summarise them."""

from __future__ import annotations

import json
import math
import sys
import time

import click

from playtable.cli.common import check_seed_span
from playtable.cli.lab_common import (
    agents_for,
    jsonable,
    out_option,
    print_summary,
    recorded_run,
    with_run_options,
)
from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params


# -- sim ---------------------------------------------------------------------------------------------
@click.command()
@click.argument("game")
@click.option(
    "--param", "params", multiple=True, metavar="KEY=VALUE", help="Set a game parameter (repeatable)."
)
@click.option("--variant", default=None, metavar="NAME", help="Start from a named variant's parameters.")
@click.option(
    "--agent", "agents", multiple=True, metavar="[SEAT=]SPEC", help="Agent for every seat, or SEAT=SPEC."
)
@click.option("-n", "--games", type=int, default=100, show_default=True, help="Number of games.")
@with_run_options
@out_option("Write one row per game to this Parquet file.")
def sim(
    game: str,
    params: tuple[str, ...],
    variant: str | None,
    agents: tuple[str, ...],
    games: int,
    seed: int,
    workers: int,
    backend: str,
    address: str | None,
    max_steps: int,
    quiet: bool,
    as_json: bool,
    out: str | None,
) -> None:
    """Simulate N games of GAME and summarise them (win rate with a Wilson 95% interval, length
    and score distributions, game metrics). Ctrl-C keeps every finished game."""
    from playtable.lab.metrics import summarize
    from playtable.lab.runner import Arm, Interrupted, RunOptions, resolve_game, run_tasks

    if games < 1:
        raise BadParameter("-n must be at least 1")
    check_seed_span(seed, games)
    the_game = resolve_game(game)
    the_params = resolve_params(the_game.params_type, the_game.variants, variant, params)
    specs = agents_for(the_game, the_params, agents)
    arm = Arm.build(game, the_params, specs, label=variant or "default", max_steps=max_steps)
    tasks = [(arm, s) for s in range(seed, seed + games)]
    options = RunOptions(workers, backend, address)
    interrupted = False
    started = time.perf_counter()
    with recorded_run(options, out, games, f"{the_game.id} {' '.join(arm.agents)}", quiet):
        try:
            rows = run_tasks(tasks, options)
        except Interrupted as stop:
            rows, interrupted = stop.rows, True
    elapsed = time.perf_counter() - started
    summary = summarize(rows)
    if as_json:
        click.echo(json.dumps(jsonable(summary), indent=1))
    else:
        print_summary(
            summary, f"{the_game.id}: {', '.join(arm.agents)} ({arm.label}), seeds {seed}..{seed + games - 1}"
        )
    rate = len(rows) / elapsed if elapsed > 0 else math.nan
    plural = "s" if workers > 1 else ""
    click.echo(
        f"{len(rows)} games in {elapsed:.1f} s ({rate:.1f} games/s, {workers} worker{plural})", err=True
    )
    if out:
        click.echo(f"{len(rows)} rows written to {out}", err=True)
    if interrupted:
        click.echo(f"interrupted: {len(rows)} finished games kept", err=True)
        sys.exit(130)


