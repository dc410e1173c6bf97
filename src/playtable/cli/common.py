"""Shared pieces of the `playtable` command: game lookup, parameters, JSON output, the
messages on stderr (`log`, with `-v/--verbose` and `-q/--quiet`), files named on the command
line, and shell completion of game ids, agents and variants."""

from __future__ import annotations

import json
import logging
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from click.shell_completion import CompletionItem

from playtable.core.errors import BadParameter, PlaytableError
from playtable.core.files import output_problem, shown
from playtable.core.params import resolve_params
from playtable.core.protocol import Game
from playtable.core.registry import game_ids, get_game

log = logging.getLogger("playtable")
"""Every message the command prints on stderr that is not its result: notes (INFO: shown unless
--quiet), warnings and errors (always shown), details (DEBUG: shown with -v). The result itself
(tables, JSON) goes to stdout with click.echo."""


# -- -v/--verbose and -q/--quiet, the same on every command -----------------------------------------
def set_verbosity(level: int) -> None:
    """0: notes, warnings and errors; 1 (-v): and details; 2 (-vv): and the libraries' own
    messages; -1 (--quiet): only warnings and errors (no notes, no progress bars)."""
    log.setLevel({-1: logging.WARNING, 0: logging.INFO}.get(level, logging.DEBUG))
    logging.getLogger().setLevel(logging.DEBUG if level >= 2 else logging.WARNING)


_ASKED = {"verbose": 0, "quiet": 0}
"""What the command line asked for so far (on the group and on the command): --quiet wins
over -v, whatever their order."""


def reset_verbosity() -> None:
    _ASKED.update(verbose=0, quiet=0)
    set_verbosity(0)


def _asked(**change: int) -> None:
    _ASKED.update({k: _ASKED[k] + v for k, v in change.items()})
    set_verbosity(-1 if _ASKED["quiet"] else _ASKED["verbose"])


def _verbose_callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    if value:
        _asked(verbose=int(value))
    return value


def _quiet_callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    if value:
        _asked(quiet=1)
    return value


def verbose_param() -> click.Option:
    return click.Option(["-v", "--verbose"], count=True, expose_value=False, is_eager=True,
                        callback=_verbose_callback,
                        help="Say more on stderr (-vv: the libraries' messages too).")


def quiet_param(help_text: str = "Print only the result and errors: no notes, no progress bar.",
                expose: bool = False) -> click.Option:
    return click.Option(["-q", "--quiet"], is_flag=True, expose_value=expose, is_eager=True,
                        callback=_quiet_callback, help=help_text)


def quiet_option(help_text: str) -> Any:
    """A command's own `quiet` parameter (it also turns the progress bar or play-by-play off)
    that means the same as everywhere else (`set_verbosity(-1)`)."""
    return click.option("-q", "--quiet", is_flag=True, is_eager=True, callback=_quiet_callback,
                        help=help_text)


def quiet_wanted() -> bool:
    """Whether --quiet was given (here or on the group): progress bars stay off."""
    return log.level >= logging.WARNING


# -- shell completion ---------------------------------------------------------------------------------
def _game_of(ctx: click.Context) -> Game[Any, Any] | None:
    """The game a command line being completed is about: its GAME argument, or the game a
    command is named after (`play troll`, `solve troll`, `stardice battle`)."""
    game_id = ctx.params.get("game")
    if isinstance(game_id, str) and game_id in game_ids():
        return get_game(game_id)
    # completing an option's value, the parse stops short of GAME: it is among the words left
    for word in ctx.args:
        if word in game_ids():
            return get_game(word)
    here: click.Context | None = ctx
    while here is not None:
        if here.command.name in game_ids():
            return get_game(here.command.name)
        here = here.parent
    return None


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(g) for g in game_ids() if g.startswith(incomplete)]


def complete_agent(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The agents of the GAME already typed (all generic ones before it is), after an optional
    `SEAT=`."""
    from playtable.agents import GENERIC_AGENTS, available_agents

    game = _game_of(ctx)
    names = list(available_agents(game)) if game is not None else list(GENERIC_AGENTS)
    seat, sep, rest = incomplete.rpartition("=")
    prefix = seat + sep
    return [CompletionItem(prefix + n) for n in names if n.startswith(rest)]


def complete_variant(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    game = _game_of(ctx)
    names = list(game.variants) if game is not None else []
    return [CompletionItem(n) for n in names if n.startswith(incomplete)]


class GameType(click.ParamType):
    """A registered game id, with the known ids in the error and in shell completion."""

    name = "GAME"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value in game_ids():
            return value
        self.fail(f"unknown game '{value}' (known: {', '.join(game_ids())})", param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter,
                       incomplete: str) -> list[CompletionItem]:
        return complete_game(ctx, param, incomplete)


GAME = GameType()

MAX_SEED = 2**63 - 1
"""Seeds are stored as signed 64-bit integers in result files, so they are 0 .. 2**63-1."""
SEED = click.IntRange(0, MAX_SEED)
PORT = click.IntRange(0, 65535)
COUNT = click.IntRange(min=1)
"""How many of something (games, frames, seeds a round): at least one."""
class Workers(click.ParamType):
    """Worker processes: a whole number, at least one. The most this machine can use is checked
    with the run's other options (`lab.runner.RunOptions.check`: a Ray cluster may have far
    more CPUs than this machine)."""

    name = "N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(f"{str(value)[:20]!r} is not a whole number", param, ctx)
        if number < 1:
            self.fail(f"{number} workers: must be at least 1", param, ctx)
        return number


WORKERS = Workers()


class FiniteFloat(click.ParamType):
    """A finite number, above `low` (or at least `low` when `closed`): click's FloatRange lets
    `nan` and `inf` through, and no option means either."""

    name = "NUMBER"

    def __init__(self, low: float | None = None, closed: bool = True) -> None:
        self.low, self.closed = low, closed

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        if self.low is not None and (number < self.low or (number == self.low and not self.closed)):
            bound = f"at least {self.low:g}" if self.closed else f"above {self.low:g}"
            self.fail(f"{value!r} must be {bound}", param, ctx)
        return number


POSITIVE = FiniteFloat(0.0, closed=False)
NON_NEGATIVE = FiniteFloat(0.0)


def check_seed_span(seed: int, count: int) -> None:
    """Runs use seeds seed .. seed+count-1: the last one must be a seed too."""
    if seed + count - 1 > MAX_SEED:
        raise BadParameter(f"seeds {seed}..{seed + count - 1} pass the largest seed {MAX_SEED}; "
                           "start lower or run fewer games")


OUT_SIDECAR = ".journal.fragments"
"""The longest suffix of a file a run keeps beside its --out file (a result file's journal of
fragments, `lab.storage`): an --out name leaves room for it, so a long name is refused on the
command line rather than at the run's first fragment."""


def out_name_problem(path: Path) -> str | None:
    """Why `path` cannot name an output although the system would take it: a name that is not
    UTF-8 (result files and pages record their names as text) or that leaves no room for the
    run's journal beside it (`OUT_SIDECAR`)."""
    from playtable.core.files import NAME_MAX

    try:
        os.fsencode(path).decode("utf-8")
    except UnicodeDecodeError:
        return "the name is not UTF-8 text (files record their names as text); give a UTF-8 name"
    size = len(os.fsencode(path.name))
    if size + len(OUT_SIDECAR) > NAME_MAX:
        return (f"a file name of {size} bytes is too long: the run keeps NAME{OUT_SIDECAR} beside "
                f"it, so at most {NAME_MAX - len(OUT_SIDECAR)} bytes")
    return None


class OutFile(click.Path):
    """A file to write: checked when the command line is read, before any work, so a run
    never ends by finding that its output cannot be written (a missing directory, a
    directory in the way)."""

    name = "FILE"

    def __init__(self) -> None:
        super().__init__(dir_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = Path(os.fsdecode(value))
        problem = output_problem(path) or out_name_problem(path)  # too long, a directory, a FIFO...
        if problem:
            self.fail(f"cannot write {shown(path)}: {problem}", param, ctx)
        parent = path.parent if str(path.parent) else Path(".")
        if not parent.is_dir():
            self.fail(f"cannot write {shown(path)}: directory {shown(parent)} does not exist", param, ctx)
        if not os.access(parent, os.W_OK):
            self.fail(f"cannot write {shown(path)}: directory {shown(parent)} is not writable", param, ctx)
        return str(path) if isinstance(value, str) else path


OUT_FILE = OutFile()


class InFile(click.ParamType):
    """A file to read: a regular file that exists, checked when the command line is read (a
    FIFO, a device or a directory is refused, never opened: `core.files.check_input`)."""

    name = "FILE"

    def __init__(self, what: str = "file") -> None:
        self.what = what

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from playtable.core.files import check_input

        try:
            check_input(os.fsdecode(value), self.what)
        except PlaytableError as err:
            self.fail(str(err), param, ctx)
        return Path(os.fsdecode(value))

    def shell_complete(self, ctx: click.Context, param: click.Parameter,
                       incomplete: str) -> list[CompletionItem]:
        return [CompletionItem(incomplete, type="file")]


def check_files(paths: Sequence[str], what: str = "file") -> None:
    """Names given for files or glob patterns (query, report): each must be a name the system
    can hold, so a name too long is one line, not an OSError half-way."""
    from playtable.core.files import check_name

    for path in paths:
        check_name(path, what)

param_option = click.option(
    "--param",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set a game parameter (repeatable). See `playtable games GAME` for the list.",
)
variant_option = click.option(
    "--variant", default=None, metavar="NAME", shell_complete=complete_variant,
    help="Start from a named variant's parameters."
)
source_timeout_option = click.option(
    "--source-timeout", type=NON_NEGATIVE, default=5.0, show_default=True,
    help="Seconds after which a silent TUIO source's dice leave the table (0: never, for a "
         "tracker that sends nothing at all while the dice lie still).")


def game_and_params(game_id: str, variant: str | None, params: Sequence[str]) -> tuple[Game[Any, Any], Any]:
    game = get_game(game_id)
    return game, resolve_params(game.params_type, game.variants, variant, params)


def parse_rig(items: Sequence[str]) -> dict[str, list[Any]]:
    """`d6=3,4,1` -> {"d6": [3, 4, 1]}; non-numbers stay text (`deck=AS,KH`)."""
    rigged: dict[str, list[Any]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise BadParameter(f"'{item}' is not of the form QUEUE=v1,v2,...")
        values: list[Any] = []
        for text in (v.strip() for v in value.split(",") if v.strip()):
            values.append(int(text) if text.lstrip("-").isdigit() else text)
        rigged.setdefault(key, []).extend(values)
    return rigged


def echo_json(data: Any) -> None:
    """`data` as JSON on stdout (a closed or broken stdout is the entry point's to report)."""
    sys.stdout.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    sys.stdout.flush()
