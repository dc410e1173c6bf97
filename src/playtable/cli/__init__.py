"""The `playtable` command. Each command group lives in its own module of this package.

The entry point (`main`) holds what every command shares: bad input of any kind ends with one
line and status 2; Ctrl-C ends with one line and status 130, also while the command's modules
are still loading; a closed standard output is one line on stderr, a reader that goes away
(`playtable games | head -1`) is a quiet end; every command takes `-v/--verbose` and
`-q/--quiet`, meaning the same everywhere (`common.set_verbosity`); every option can be set
from the environment as `PLAYTABLE_<COMMAND>_<OPTION>` (and the options people set once have a
short name of their own, such as `PLAYTABLE_WORKERS`); `playtable completion` prints the shell
completion script.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType


def _interrupted_while_loading(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C before `main` runs (the imports below take a moment): one line, not an import
    traceback."""
    try:
        os.write(2, b"interrupted\n")
    finally:
        os._exit(130)


_LOADING = (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
if _LOADING:
    signal.signal(signal.SIGINT, _interrupted_while_loading)

import errno  # noqa: E402 - after the Ctrl-C guard on purpose
import io  # noqa: E402
import logging  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from typing import Any  # noqa: E402

import click  # noqa: E402

from playtable import __version__  # noqa: E402
from playtable.cli.common import log, quiet_param, reset_verbosity, verbose_param  # noqa: E402
from playtable.cli.compare import compare  # noqa: E402
from playtable.cli.completion import completion  # noqa: E402
from playtable.cli.db import db  # noqa: E402
from playtable.cli.games import games  # noqa: E402
from playtable.cli.lab import claims, query, report  # noqa: E402
from playtable.cli.play import play  # noqa: E402
from playtable.cli.playtest import playtest  # noqa: E402
from playtable.cli.playtest_online import playtest_online  # noqa: E402
from playtable.cli.replay import replay  # noqa: E402
from playtable.cli.rotator import play_rotator  # noqa: E402
from playtable.cli.serve import serve  # noqa: E402
from playtable.cli.sim import sim  # noqa: E402
from playtable.cli.solve import solve  # noqa: E402
from playtable.cli.stardice import stardice  # noqa: E402
from playtable.cli.state import state  # noqa: E402
from playtable.cli.tournament import tournament  # noqa: E402
from playtable.cli.troll import solve_troll  # noqa: E402
from playtable.cli.tune import tune  # noqa: E402
from playtable.cli.wizard import play_wizard  # noqa: E402
from playtable.core.errors import PlaytableError  # noqa: E402

ENV_PREFIX = "PLAYTABLE"
"""Every option can come from the environment: `PLAYTABLE_SIM_WORKERS=2`, `PLAYTABLE_TUNE_STORAGE=...`
(click's automatic names), besides the short names some options declare themselves."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="playtable")
def cli() -> None:
    """playtable: play four tabletop game designs, bot them, and playtest them by the thousand.

    Start with `playtable play` for a menu of the games, or `playtable games` for their
    parameters and variants. Every command takes -v/--verbose (more on stderr) and -q/--quiet
    (only results and errors); any option can be set in the environment as
    PLAYTABLE_<COMMAND>_<OPTION> (e.g. PLAYTABLE_SIM_WORKERS=2); `playtable completion --help`
    installs tab completion."""


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
cli.add_command(playtest_online)
solve.add_command(solve_troll)
cli.add_command(stardice)
cli.add_command(serve)
cli.add_command(db)
cli.add_command(completion)


def _commands(command: click.Command) -> Iterator[click.Command]:
    yield command
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            yield from _commands(sub)


def _with_verbosity(root: click.Group) -> None:
    """Give every command -v/--verbose and -q/--quiet (a command with a `quiet` of its own,
    such as `sim`'s progress bar, keeps it: it sets the same level through `quiet_option`)."""
    for command in _commands(root):
        taken = {opt for p in command.params for opt in getattr(p, "opts", [])}
        if "--verbose" not in taken and "-v" not in taken:
            command.params.append(verbose_param())
        if "--quiet" not in taken and "-q" not in taken:
            command.params.append(quiet_param())


_with_verbosity(cli)
if _LOADING:  # loaded: Ctrl-C is KeyboardInterrupt again, which `main` turns into one line
    signal.signal(signal.SIGINT, signal.default_int_handler)


def one_line(message: str) -> str:
    """An error message as one line: a newline or other control character inside it (from an
    action text or a file name a user typed) is shown escaped, never obeyed."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)


# -- standard streams ---------------------------------------------------------------------------------
class OutputClosed(PlaytableError):
    """The command has a result to print, but its standard output was closed (`>&-`)."""


class _ClosedOutput(io.TextIOBase):
    """Standard output when it was closed: writing anything raises OutputClosed."""

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise OutputClosed("standard output is closed: the result could not be printed")

    def flush(self) -> None:
        pass


def _guard_std_streams() -> None:
    """A standard stream that was closed (`>&-`, `<&-`) gets /dev/null in its place, so no file
    the command opens takes its number (a result would otherwise be printed into it); a closed
    stdout then raises OutputClosed when the result is printed."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            if fd == 1:
                sys.stdout = _ClosedOutput()
            elif fd == 2:
                sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the process
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()


def _quiet_stdout() -> None:
    """After a reader went away (EPIPE): point stdout at /dev/null, so the interpreter's own
    flush at exit does not fail again with a second message."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


class _EchoHandler(logging.Handler):
    """Messages on stderr as one line each: notes as they are, warnings and errors prefixed."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
            if record.levelno >= logging.ERROR:
                text = f"error: {text}"
            elif record.levelno >= logging.WARNING:
                text = f"warning: {text}"
            elif record.levelno <= logging.DEBUG and record.name != log.name:
                text = f"{record.name}: {text}"
            click.echo(text, err=True)
            if record.exc_info and record.levelno <= logging.DEBUG:
                import traceback

                click.echo("".join(traceback.format_exception(*record.exc_info)).rstrip(), err=True)
        except Exception:  # noqa: BLE001 - a message that cannot be shown must not end the command
            self.handleError(record)


def _setup_logging() -> None:
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, _EchoHandler)]:
        root.removeHandler(handler)
    root.addHandler(_EchoHandler())
    reset_verbosity()


def _invoke(argv: list[str] | None, typed: list[str]) -> Any:
    args = list(argv) if argv is not None else sys.argv[1:]
    extra: dict[str, Any] = {"obj": {"argv": typed}, "auto_envvar_prefix": ENV_PREFIX}
    complete = getattr(cli, "_main_shell_completion", None)
    if complete is not None:  # `_PLAYTABLE_COMPLETE=bash_source playtable`: answer and exit
        complete(extra, "playtable", None)
    with cli.make_context("playtable", args, **extra) as ctx:
        return cli.invoke(ctx)


def _os_error(err: OSError) -> int:
    """An error of the system (a name too long, no space left, no permission) as one line."""
    name = f" ({err.filename})" if err.filename else ""
    if err.errno == errno.ENAMETOOLONG:
        click.echo(one_line(f"error: a file name is too long{name}"[:300]), err=True)
        return 2
    reason = err.strerror or str(err) or type(err).__name__
    click.echo(one_line(f"error: {reason}{name}"[:300]), err=True)
    return 2 if err.errno in (errno.ENOENT, errno.EACCES, errno.EISDIR, errno.ENOTDIR,
                              errno.ELOOP, errno.EROFS, errno.EEXIST) else 1


def _command_name(argv: list[str] | None) -> str:
    """`playtable COMMAND` as typed, for a message, or "this command"."""
    words = list(argv) if argv is not None else sys.argv[1:]
    return f"playtable {words[0]}" if words and not words[0].startswith("-") else "this command"


def main(argv: list[str] | None = None) -> Any:
    """Entry point: bad input of any kind ends with status 2 and one line naming the problem."""
    _guard_std_streams()
    _setup_logging()
    try:
        # The command line, as typed, for files that record what made them (Parquet metadata).
        typed = list(argv) if argv is not None else sys.argv[1:]
        return _invoke(argv, typed)
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
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except ImportError as err:  # an extra's module that no `require` check caught: one line
        from playtable.core.extras import missing_extra

        needs = missing_extra(err, _command_name(argv))
        if needs is None:
            raise
        click.echo(one_line(f"error: {needs}"), err=True)
        sys.exit(2)
    except PlaytableError as err:
        click.echo(one_line(f"error: {err}"), err=True)
        sys.exit(2)
    except BrokenPipeError:  # the reader went away (`| head`): nothing to say, nothing to print
        _quiet_stdout()
        sys.exit(141)
    except OSError as err:
        log.debug("the system's error", exc_info=True)
        sys.exit(_os_error(err))
