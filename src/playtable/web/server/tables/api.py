"""What the JSON API says about games (the lobby's catalogue, the player-facing rules) and a
table's record once the game is over (its replay and positions: `replays.py`)."""

from __future__ import annotations

import dataclasses
import json
import typing
from functools import cache
from typing import Any

from starlette.responses import JSONResponse, Response

from playtable.agents import available_agents, ladder
from playtable.core.errors import BadParameter
from playtable.core.params import params_from_dict
from playtable.core.protocol import Game
from playtable.core.records import Record
from playtable.core.registry import game_ids, get_game, player_rules
from playtable.web.server.tables.tables import Table


def _type_name(kind: Any) -> str:
    return getattr(kind, "__name__", str(kind).replace("typing.", ""))


def player_counts(game: Game[Any, Any]) -> list[int]:
    """[fewest, most] seats over the defaults, every named variant and, for a game with a
    `players` parameter, every count from 1 to 8 the game accepts."""
    tries: list[Any] = [game.default_params()]
    for values in game.variants.values():
        tries.append(params_from_dict(game.params_type, values))
    if "players" in {f.name for f in dataclasses.fields(game.params_type)}:
        for n in range(1, 9):
            try:
                tries.append(params_from_dict(game.params_type, {"players": n}))
            except BadParameter:
                continue
    counts = [game.num_players(p) for p in tries]
    return [min(counts), max(counts)]


def game_entry(game_id: str) -> dict[str, Any]:
    game = get_game(game_id)
    defaults = game.default_params()
    hints = typing.get_type_hints(game.params_type)
    params = []
    for f in dataclasses.fields(game.params_type):
        value = getattr(defaults, f.name)
        params.append({"name": f.name, "default": list(value) if isinstance(value, tuple) else value,
                       "type": _type_name(hints[f.name]), "doc": f.metadata.get("doc", "")})
    return {
        "id": game.id,
        "name": game.name,
        "players": player_counts(game),
        "pitch": game.pitch,
        "picture": f"/static/img/{game.id}.svg",
        "variants": [{"name": name, "title": game.variant_titles.get(name, name),
                      "description": game.variant_descriptions.get(name, ""),
                      "standard": not preset}  # a preset that changes nothing: the standard rules
                     for name, preset in game.variants.items()],
        "standard": {"title": game.standard_title, "description": game.standard_line()},
        "variant_groups": [{"title": g.title, "note": g.note, "names": list(g.names), "first": g.first}
                           for g in game.variant_groups],
        "agents": list(available_agents(game)),
        # the ladder the seat chooser offers first, by each level's title (agents/levels.py)
        "levels": [{"agent": lv.agent, "title": lv.title, "about": lv.about} for lv in ladder(game.id)],
        "params": params,
        "seat_names_default": game.seat_names(defaults),
        "seat_titles_default": [game.seat_title(name) for name in game.seat_names(defaults)],
        "sides": len(game.sides(defaults)),
    }


@cache
def catalogue() -> list[dict[str, Any]]:
    return [game_entry(game_id) for game_id in game_ids()]


def rules_markdown(game_id: str) -> str | None:
    """The player-facing rules of a game (its `HOW_TO_PLAY.md`), None for an unknown game or
    one that has no such file yet."""
    if game_id not in game_ids():
        return None
    try:
        return player_rules(game_id)
    except OSError:
        return None


def _download(data: dict[str, Any], name: str) -> Response:
    return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def record_response(table: Table) -> Response:
    """The record as a download; only once the game is over (403 before)."""
    if not table.state.is_terminal:
        return JSONResponse({"error": "the record and positions are available once the game is over: "
                                      "they hold the deal number, hence every future card and die"},
                            status_code=403)
    row = table.row
    record = Record(row.game, row.params, row.seed, [text for _, text in row.actions])
    return _download(record.to_json(), f"{row.game}-{row.id}.record.json")
