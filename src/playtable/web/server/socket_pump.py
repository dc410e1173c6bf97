"""The two loops of every table WebSocket (game tables and live tables alike): the reader takes
the client's frames under the rate limit and hands each to the caller; the writer sends the
connection's outbox (its own task, so one slow client never holds up a table).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from playtable.web.server.tables import Connection
from playtable.web.server.wire import RateLimit, error

Handler = Callable[[str | bytes | None], Awaitable[None]]
"""Called with each frame's text (or bytes) the rate limit lets through."""


async def pump(ws: WebSocket, conn: Connection, rate: float, on_frame: Handler) -> None:
    """Read until the client leaves (or is closed for flooding); write meanwhile."""
    writer = asyncio.get_running_loop().create_task(_write(ws, conn))
    try:
        await _read(ws, conn, rate, on_frame)
    finally:
        conn.wake.set()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _read(ws: WebSocket, conn: Connection, rate: float, on_frame: Handler) -> None:
    limit = RateLimit(rate, 2 * rate)
    while not conn.closed:
        try:
            message = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):  # RuntimeError: already closed
            return
        if message["type"] == "websocket.disconnect":
            return
        if not limit.allow():
            if limit.exhausted:
                await ws.close(code=1008, reason="too many messages")
                return
            conn.push(error("rate_limited", f"too many messages: slow down (at most {rate:g} a second)"))
            continue
        await on_frame(message.get("text", message.get("bytes")))


async def _write(ws: WebSocket, conn: Connection) -> None:
    while not conn.closed:
        for message in await conn.next_messages():
            await ws.send_text(json.dumps(message, separators=(",", ":")))
    with contextlib.suppress(Exception):
        await ws.close(code=1008, reason="too slow to keep up")
