"""A table's WebSocket (`/ws/tables/{table_id}`, docs/web.md): admitted by the hub's
connections, greeted, then every frame checked (`wire.parse_client_message`) and handed to the
hub, at the pace `socket_pump.pump` allows."""

from __future__ import annotations

from starlette.websockets import WebSocket

from playtable.web.server.context import server_of
from playtable.web.server.tables.table_request import BadRequest
from playtable.web.server.transport.http import client_of
from playtable.web.server.transport.socket_pump import pump
from playtable.web.server.transport.wire import BadMessage, error, parse_client_message


async def table_socket(ws: WebSocket) -> None:
    server = server_of(ws)
    hub = server.hub
    await ws.accept()
    try:
        table = await hub.fetch(ws.path_params["table_id"])
    except BadRequest as bad:
        await ws.send_json(error("not_found", bad.message))
        await ws.close(code=1008)
        return
    conn, refusal = hub.connections.connect(table, ws.query_params.get("seat"),
                                            ws.query_params.get("token"), client_of(ws))
    if conn is None:
        await ws.send_json(error("too_many", refusal or ""))
        await ws.close(code=1013)
        return
    if refusal:
        conn.push(error("forbidden", refusal))
    hub.greet(table, conn)

    async def on_frame(raw: str | bytes | None) -> None:
        try:
            msg = parse_client_message(raw)
        except BadMessage as bad:
            conn.push(error(bad.code, bad.message))
            return
        await hub.handle(table, conn, msg)

    try:
        await pump(ws, conn, server.rate, on_frame)
    finally:
        hub.connections.disconnect(table, conn)
