"""Shared pieces of the `playtable` command: game lookup, parameters, JSON output."""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params
from playtable.core.protocol import Game
from playtable.core.registry import game_ids, get_game


class GameType(click.ParamType):
    """A registered game id, with the known ids in the error and in shell completion."""

    name = "GAME"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value in game_ids():
            return value
        self.fail(f"unknown game '{value}' (known: {', '.join(game_ids())})", param, ctx)


GAME = GameType()

MAX_SEED = 2**63 - 1
"""Seeds are stored as signed 64-bit integers in result files, so they are 0 .. 2**63-1."""
SEED = click.IntRange(0, MAX_SEED)
PORT = click.IntRange(0, 65535)
COUNT = click.IntRange(min=1)
"""How many of something (games, frames, seeds a round): at least one."""


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


class OutFile(click.Path):
    """A file to write: checked when the command line is read, before any work, so a run
    never ends by finding that its output cannot be written (a missing directory, a
    directory in the way)."""

    name = "FILE"

    def __init__(self) -> None:
        super().__init__(dir_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = Path(os.fsdecode(super().convert(value, param, ctx)))
        parent = path.parent if str(path.parent) else Path(".")
        if path.is_dir():
            self.fail(f"{path} is a directory", param, ctx)
        if not parent.is_dir():
            self.fail(f"cannot write {path}: directory {parent} does not exist", param, ctx)
        if not os.access(parent, os.W_OK):
            self.fail(f"cannot write {path}: directory {parent} is not writable", param, ctx)
        return str(path) if isinstance(value, str) else path


OUT_FILE = OutFile()

param_option = click.option(
    "--param",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set a game parameter (repeatable). See `playtable games GAME` for the list.",
)
variant_option = click.option(
    "--variant", default=None, metavar="NAME", help="Start from a named variant's parameters."
)


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
    sys.stdout.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
