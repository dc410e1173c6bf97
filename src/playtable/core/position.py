"""Positions on disk: the documented JSON envelope around a game's full state.

    {"format": "playtable-position", "version": 1, "game": "troll", ...state.to_json()...}

`state.to_json()` always carries "params" and "chance" (seed, counter, rigged queues) plus the
game's own fields. See docs/positions.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playtable.core import checks
from playtable.core.errors import BadParameter, BadPosition
from playtable.core.files import write_atomic
from playtable.core.jsonio import read_json
from playtable.core.protocol import Game, State

FORMAT = "playtable-position"
VERSION = 1


def position_to_json(state: State) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "game": state.game_id, **state.to_json()}


def position_from_json(game: Game[Any, Any], data: Any) -> State:
    if not isinstance(data, dict):
        raise BadPosition("a position must be a JSON object")
    if data.get("format") != FORMAT:
        raise BadPosition(f"'format' must be \"{FORMAT}\"")
    if data.get("version") != VERSION:
        raise BadPosition(f"unsupported position version {data.get('version')!r} (expected {VERSION})")
    if data.get("game") != game.id:
        raise BadPosition(f"this position is for game {data.get('game')!r}, not '{game.id}'")
    body = {k: v for k, v in data.items() if k not in ("format", "version", "game")}
    checks.all_finite(body)
    try:
        state: State = game.state_from_json(body)
    except BadPosition:
        raise
    except BadParameter as err:  # a position's parameters are part of the position
        raise BadPosition(f"params: {err}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as err:
        raise BadPosition(f"malformed position: {type(err).__name__}: {err}") from None
    check_fields(body, state)
    return state


def check_fields(body: dict[str, Any], state: State) -> None:
    """Refuse a top-level field the game does not write (a typo such as `"trol"`, or a field of
    another game or version): it would be dropped silently, and the position read would not be
    the one the person meant. The fields a game writes are those of its `to_json()`."""
    known = set(state.to_json())
    unknown = sorted(set(body) - known)
    if unknown:
        listed = ", ".join(["format", "version", "game", *sorted(known)])
        raise BadPosition(f"unknown field '{unknown[0][:40]}' (a {state.game_id} position has: {listed})")


def read_position(game: Game[Any, Any], path: str | Path) -> State:
    """The position in the file `path`, read with the shared limits (`core.jsonio`)."""
    return position_from_json(game, read_json(path, "position file"))


def write_position(state: State, path: str | Path) -> None:
    """Write atomically: a crash mid-write never leaves a half-written position, and a symlink
    planted at a temporary name is never followed (`core.files.write_atomic`)."""
    write_atomic(path, json.dumps(position_to_json(state), indent=1) + "\n")
