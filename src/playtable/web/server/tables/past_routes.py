"""A table's past (docs/web.md): its replay, its record and its position at a step. A replay or
a position is rebuilt in a worker, and each address may ask a bounded number a minute
(`past.PastCache`, which also keeps the answers)."""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from playtable.web.server.bots.bots import JobFailed
from playtable.web.server.context import ServerContext, server_of
from playtable.web.server.tables.api import record_response
from playtable.web.server.tables.past import Busy
from playtable.web.server.tables.table_request import parse_seat
from playtable.web.server.tables.tables import Table
from playtable.web.server.transport.http import client_of, json_error

log = logging.getLogger("playtable.web")


def seat_of(server: ServerContext, request: Request, table: Table) -> int | None:
    """The seat a request may see: its `seat` with that seat's `token`, or with the seat's
    player key in the `X-Player-Key` header (never in the URL)."""
    seat = parse_seat(request.query_params.get("seat"))
    proof = {"token": request.query_params.get("token"), "key": request.headers.get("x-player-key")}
    if seat is not None and server.hub.holds(table, seat, proof):
        return seat
    return None


async def _past(request: Request, key: tuple[Any, ...], compute: Any, name: str | None = None) -> Response:
    past = server_of(request).past
    if not past.admit(client_of(request)):
        return json_error("too many replays and positions from your address; wait a minute", 429)
    try:
        data = await past.get(key, compute)
    except Busy as busy:
        return json_error(str(busy), 503)
    except JobFailed as err:
        log.error("%s failed: %s", key, err)
        return json_error("this table's past could not be rebuilt in time", 503)
    headers = {"Content-Disposition": f'attachment; filename="{name}"'} if name else None
    return Response(data, media_type="application/json", headers=headers)


async def replay(request: Request) -> Response:
    server = server_of(request)
    table = await server.hub.fetch(request.path_params["table_id"])
    seat = seat_of(server, request, table)
    wanted = parse_seat(request.query_params.get("seat"))
    if seat is None and table.state.is_terminal and wanted is not None \
            and wanted < len(table.row.seats):
        seat = wanted  # once the game is over, every seat's view is open to everyone
    row, hidden = table.row, table.hidden_texts
    actions, stand_ins = list(row.actions), dict(row.stand_ins)
    workers = server.hub.workers
    return await _past(
        request, ("replay", table.id, table.version, table.step, seat, hidden),
        lambda: workers.replay(row.game, row.params, row.seed, actions, seat, hidden, stand_ins))


async def record(request: Request) -> Response:
    return record_response(await server_of(request).hub.fetch(request.path_params["table_id"]))


async def position(request: Request) -> Response:
    hub = server_of(request).hub
    table = await hub.fetch(request.path_params["table_id"])
    refusal = record_response(table)
    if refusal.status_code != 200:
        return refusal
    text = request.query_params.get("step") or ""
    step = int(text) if text.isascii() and text.isdecimal() and len(text) <= 6 else None
    if step is None or step > table.step:
        return json_error(f"'step' must be a whole number from 0 to {table.step}")
    row = table.row
    actions = [text for _, text in row.actions[:step]]
    workers = hub.workers
    return await _past(request, ("position", table.id, step),
                       lambda: workers.position(row.game, row.params, row.seed, actions),
                       f"{row.game}-{row.id}-step{step}.json")


def past_routes() -> list[BaseRoute]:
    return [
        Route("/api/tables/{table_id}/replay", replay),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/tables/{table_id}/position", position),
    ]
