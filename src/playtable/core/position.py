"""Positions on disk: the documented JSON envelope around a game's full state.

    {"format": "playtable-position", "version": 1, "game": "troll", ...state.to_json()...}

`state.to_json()` always carries "params" and "chance" (seed, counter, rigged queues) plus the
game's own fields. See docs/positions.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playtable.core.errors import BadPosition
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
    try:
        state: State = game.state_from_json(body)
    except BadPosition:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise BadPosition(f"malformed position: {type(err).__name__}: {err}") from None
    return state


def read_position(game: Game[Any, Any], path: str | Path) -> State:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise BadPosition(f"cannot read {path}: {err.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise BadPosition(f"{path} is not valid JSON: {err.msg} at line {err.lineno}") from None
    return position_from_json(game, data)


def write_position(state: State, path: str | Path) -> None:
    """Write atomically: a crash mid-write never leaves a half-written position."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(position_to_json(state), indent=1) + "\n", encoding="utf-8")
    tmp.replace(target)
