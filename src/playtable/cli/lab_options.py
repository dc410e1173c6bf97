"""Options of the lab commands (`sim`, `compare`, ...): agent specs per seat, the run options
(seed, workers, backend, step limit, quiet, JSON) and the result file (`--out`, `--force`).

GAME is a registered game id, or `module:attribute` naming a Game instance (a game under
development). Agents are specs such as `random`, `greedy:samples=16`, `ismcts:iterations=500`
or a game's own bot (`heuristic`); `--agent ismcts` gives every seat that agent,
`--agent 1=random` sets one seat.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import click

from playtable.cli.common import OUT_FILE, SEED, WORKERS, quiet_option
from playtable.core.errors import BadParameter

_SEAT_SPEC = re.compile(r"^(\d+)=(.+)$")


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
        "--workers", "-w", type=WORKERS, default=1, show_default=True, envvar="PLAYTABLE_WORKERS",
        show_envvar=True, help="Worker processes (or Ray CPUs).",
    ),
    click.option(
        "--backend",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        envvar="PLAYTABLE_BACKEND",
        help="local worker processes, or Ray (needs `pip install 'playtable[ray]'`).",
    ),
    click.option("--address", default=None, envvar="PLAYTABLE_RAY_ADDRESS", show_envvar=True,
                 help="Ray cluster address (default: start a local Ray)."),
    click.option(
        "--max-steps",
        type=int,
        default=100_000,
        show_default=True,
        help="Stop a game after this many actions.",
    ),
    quiet_option("No progress bar and no notes: only the summary and errors."),
    click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON."),
]


def with_run_options(func: Any) -> Any:
    for option in reversed(_run_options):
        func = option(func)
    return func
