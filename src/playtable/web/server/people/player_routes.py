"""The players' API (docs/web.md, "People"): a name for a player key, the tables a player sits
at ("Yours", "Your turn"; with several processes the others are asked for theirs), and taking
an open seat."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from playtable.web.server.context import server_of
from playtable.web.server.transport.http import client_of, read_body


async def register(request: Request) -> Response:
    server = server_of(request)
    player, new = server.hub.players.register(await read_body(request), client_of(request))
    if server.peers is not None and not new:
        await server.peers.ask({"ask": "renamed", "player": player.id, "name": player.name})
    return JSONResponse({"player": {"name": player.name, "created": player.created}},
                        status_code=201 if new else 200)


async def me(request: Request) -> Response:
    server = server_of(request)
    players = server.hub.players
    body = await read_body(request)
    if server.peers is None:
        return JSONResponse(players.mine(body))
    player, rows = found = players.player_tables(body)
    # In play and not held here: another process's, or another node's (each holds its own).
    away = [row.id for row, _ in rows if row.ended is None and row.id not in server.hub.tables]
    elsewhere: dict[str, Any] = {}
    if away:
        for part in await server.peers.ask({"ask": "mine", "player": player.id, "tables": away}):
            elsewhere.update(part)
    return JSONResponse(players.mine(body, elsewhere, found))


async def take(request: Request) -> Response:
    server = server_of(request)
    table = await server.hub.fetch(request.path_params["table_id"])
    seat, token = await server.hub.sitting.take(table, await read_body(request), client_of(request))
    return JSONResponse({"table_id": table.id, "seat": seat, "name": table.row.seats[seat].name,
                         "join_url": f"{server.base}/t/{table.id}?seat={seat}&token={token}"})


def player_routes() -> list[BaseRoute]:
    return [
        Route("/api/tables/{table_id}/take", take, methods=["POST"]),
        Route("/api/players", register, methods=["POST"]),
        Route("/api/players/me", me, methods=["POST"]),
    ]
