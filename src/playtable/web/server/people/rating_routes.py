"""The routes of ratings and personal bests (docs/web.md "Ratings"): every parameter
declared and bounded, every answer a bounded page.

- `GET /api/leaderboard?game=G&kind=player|bot&offset=N&limit=N`: a game's rated people and
  bots, best first (limit 1-100, offset 0-10,000).
- `GET /api/games/{game}/bots`: each bot of the game with its rating now (the lobby's seat
  chooser shows it).
- `GET /api/tables/{table_id}/rating`: how a table's end counted (each seat's rating before and
  after, or why it was not rated; a solitaire game's score with the person's best).
- `POST /api/players/me/scores` with `{"key", "game"?}`: the player's solitaire bests (per game
  and variant) and last 50 scores; the key stays out of every URL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from playtable.agents import available_agents
from playtable.core.registry import game_ids, get_game
from playtable.web.server.hub import Hub
from playtable.web.server.people.ratings import MAX_OFFSET, MAX_PAGE, bounded_int
from playtable.web.server.tables.table_request import BadRequest

LEADERBOARD_PARAMS = frozenset({"game", "kind", "offset", "limit"})


def _game(name: Any) -> str:
    if not isinstance(name, str) or name not in game_ids():
        raise BadRequest(f"'game' must be one of {', '.join(game_ids())}")
    return name


def rating_routes(hub: Callable[[], Hub], body: Callable[[Request], Awaitable[Any]]) -> list[BaseRoute]:
    async def leaderboard(request: Request) -> Response:
        query = request.query_params
        unknown = sorted(set(query.keys()) - LEADERBOARD_PARAMS)
        if unknown:
            raise BadRequest(f"unknown parameter '{unknown[0][:40]}' (known: game, kind, offset, limit)")
        game = get_game(_game(query.get("game")))
        kind = query.get("kind")
        if kind not in (None, "player", "bot"):
            raise BadRequest("'kind' must be player or bot (or absent: both)")
        offset = bounded_int(query.get("offset"), "offset", 0, 0, MAX_OFFSET)
        limit = bounded_int(query.get("limit"), "limit", 50, 1, MAX_PAGE)
        return JSONResponse(hub().ratings.board(game, kind, offset, limit))

    async def bots(request: Request) -> Response:
        game = get_game(_game(request.path_params["game"]))
        return JSONResponse({"game": game.id,
                             "bots": hub().ratings.bots(game, list(available_agents(game)))})

    async def table_rating(request: Request) -> Response:
        table = await hub().fetch(request.path_params["table_id"])
        return JSONResponse(hub().ratings.table_rating(table))

    async def my_scores(request: Request) -> Response:
        sent = await body(request)
        if not isinstance(sent, dict) or set(sent) - {"key", "game"}:
            raise BadRequest("the request body must be a JSON object with 'key' (and 'game')")
        player = hub().people.known(sent.get("key"))
        game = None if sent.get("game") is None else _game(sent.get("game"))
        lower = {g: get_game(g).lower_score_is_better for g in game_ids()}
        return JSONResponse({"player": {"name": player.name},
                             **hub().ratings.personal(player.id, lower, game)})

    return [
        Route("/api/leaderboard", leaderboard),
        Route("/api/games/{game}/bots", bots),
        Route("/api/tables/{table_id}/rating", table_rating),
        Route("/api/players/me/scores", my_scores, methods=["POST"]),
    ]
