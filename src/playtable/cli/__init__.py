"""The `playtable` command. Each command group lives in its own module of this package."""

from __future__ import annotations

import sys
from typing import Any

import click

from playtable import __version__
from playtable.cli.compare import compare
from playtable.cli.games import games
from playtable.cli.lab import claims, query, report
from playtable.cli.play import play
from playtable.cli.playtest import playtest
from playtable.cli.replay import replay
from playtable.cli.rotator import play_rotator
from playtable.cli.serve import serve
from playtable.cli.sim import sim
from playtable.cli.solve import solve
from playtable.cli.stardice import stardice
from playtable.cli.state import state
from playtable.cli.tournament import tournament
from playtable.cli.troll import solve_troll
from playtable.cli.tune import tune
from playtable.cli.wizard import play_wizard
from playtable.core.errors import PlaytableError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="playtable")
def cli() -> None:
    """playtable: play four tabletop game designs, bot them, and playtest them by the thousand.

    Start with `playtable play` for a menu of the games, or `playtable games` for their
    parameters and variants."""


cli.add_command(games)
cli.add_command(play)
play.add_command(play_rotator)
play.add_command(play_wizard)
cli.add_command(solve)
cli.add_command(state)
cli.add_command(sim)
cli.add_command(compare)
cli.add_command(query)
cli.add_command(report)
cli.add_command(claims)
cli.add_command(replay)
cli.add_command(tune)
cli.add_command(tournament)
cli.add_command(playtest)
solve.add_command(solve_troll)
cli.add_command(stardice)
cli.add_command(serve)


def one_line(message: str) -> str:
    """An error message as one line: a newline or other control character inside it (from an
    action text or a file name a user typed) is shown escaped, never obeyed."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)


def main(argv: list[str] | None = None) -> Any:
    """Entry point: bad input of any kind ends with status 2 and one line naming the problem."""
    try:
        # The command line, as typed, for files that record what made them (Parquet metadata).
        typed = list(argv) if argv is not None else sys.argv[1:]
        return cli.main(args=argv, prog_name="playtable", standalone_mode=False, obj={"argv": typed})
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.UsageError as err:
        hint = f" (see '{err.ctx.command_path} --help')" if err.ctx else ""
        click.echo(one_line(f"error: {err.format_message()}{hint}"), err=True)
        sys.exit(2)
    except click.ClickException as err:
        click.echo(one_line(f"error: {err.format_message()}"), err=True)
        sys.exit(err.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except PlaytableError as err:
        click.echo(one_line(f"error: {err}"), err=True)
        sys.exit(2)
