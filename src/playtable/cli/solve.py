"""`playtable solve ...`: solvers of the deterministic games, one subcommand each."""

from __future__ import annotations

import click

from playtable.cli.rotator import solve_rotator


@click.group()
def solve() -> None:
    """Solve a position or board of a deterministic game."""


solve.add_command(solve_rotator)
