"""The JSON API of tables (docs/web.md): the games and their rules, making a table (or a
tutorial's), the lobby's list, one table's summary, its rematch, and leaving a tutorial. Each route reads the
server's context (`context.server_of`); every rule about tables lives in the hub."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from playtable.web.server.context import server_of
from playtable.web.server.tables.api import catalogue, rules_markdown
from playtable.web.server.tables.tutorials import leave_request, shipped, tutorial_request
from playtable.web.server.transport.http import client_of, json_error, read_body


async def games(request: Request) -> Response:
    return JSONResponse({"games": catalogue()})


async def rules(request: Request) -> Response:
    game_id = request.path_params["game"]
    text = rules_markdown(game_id)
    if text is None:
        return json_error(f"there are no rules for game '{game_id[:40]}'", 404)
    return JSONResponse({"game": game_id, "markdown": text})


async def create_table(request: Request) -> Response:
    server = server_of(request)
    table, tokens = await server.hub.create(await read_body(request), client_of(request))
    base = server.base
    seats = []
    for i, (seat, token) in enumerate(zip(table.row.seats, tokens, strict=True)):
        entry: dict[str, Any] = {"seat": i, "name": seat.name, "title": table.game.seat_title(seat.name),
                                 "kind": seat.kind}
        if token is not None:
            entry["join_url"] = f"{base}/t/{table.id}?seat={i}&token={token}"
            entry["reserved"], entry["player"] = seat.reserved, seat.player_name
        else:
            entry["agent"] = seat.agent
        seats.append(entry)
    return JSONResponse({"table_id": table.id, "watch_url": f"{base}/t/{table.id}", "seats": seats},
                        status_code=201)


async def tutorials(request: Request) -> Response:
    return JSONResponse({"tutorials": [t.listing() for t in shipped().values()]})


async def start_tutorial(request: Request) -> Response:
    # Only a shipped tutorial's name: its game, deal and seats come from the script, and
    # its table counts against the network's tutorials, apart from its tables (in_play.py).
    server = server_of(request)
    tutorial, body = tutorial_request(await read_body(request))
    table, tokens = await server.hub.create(body, client_of(request), tutorial=tutorial.name)
    seat = tutorial.seat
    return JSONResponse({"table_id": table.id, "seat": seat, "tutorial": tutorial.name,
                         "join_url": f"{server.base}/t/{table.id}?seat={seat}&token={tokens[seat]}"
                                     f"&tutorial={tutorial.name}"}, status_code=201)


async def leave_tutorial(request: Request) -> Response:
    # The seat's token or its player's key: only the tutorial's own person may end it.
    hub = server_of(request).hub
    table = await hub.fetch(request.path_params["table_id"])
    proof = leave_request(await read_body(request))
    if not any(hub.sitting.holds(table, seat, proof) for seat in range(len(table.row.seats))):
        return json_error("only the person of this tutorial may leave it (their seat's link or name)", 403)
    hub.ends.leave_tutorial(table)
    return JSONResponse({"table_id": table.id, "status": table.status})


async def list_tables(request: Request) -> Response:
    server = server_of(request)
    status = request.query_params.get("status")
    if server.peers is None:
        return JSONResponse({"tables": server.hub.listing(status)})
    server.hub.playing(status)  # a wrong status is refused before anyone is asked
    return JSONResponse({"tables": server.hub.listing(status, await server.peers.ask_shared(
        {"ask": "playing", "status": status}))})


async def one_table(request: Request) -> Response:
    return JSONResponse((await server_of(request).hub.fetch(request.path_params["table_id"])).summary())


async def rematch(request: Request) -> Response:
    hub = server_of(request).hub
    table = await hub.fetch(request.path_params["table_id"])
    new, seat = await hub.rematches.rematch(table, await read_body(request), client_of(request))
    if new is None:  # a mid-game proposal: the others are asked (docs/web.md, rematch)
        return JSONResponse({"table_id": None, "seat": None, "proposed": True,
                             "waiting_for": table.proposals.waiting,
                             "proposal": table.open_proposal()}, status_code=202)
    return JSONResponse({"table_id": new.id, "seat": seat})


def table_routes() -> list[BaseRoute]:
    return [
        Route("/api/games", games),
        Route("/api/games/{game}/rules", rules),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", one_table),
        Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", leave_tutorial, methods=["POST"]),
        Route("/api/tutorials", tutorials, methods=["GET"]),
        Route("/api/tutorials", start_tutorial, methods=["POST"]),
    ]
