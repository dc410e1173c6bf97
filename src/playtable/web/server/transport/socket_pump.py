"""The two loops of every table WebSocket (game tables and live tables alike): the reader takes
the client's frames under the rate limit and hands each to the caller; the writer sends the
connection's outbox (its own task, so one slow client never holds up a table).

What the handling of a client's frame sends back to that same client (the state after its
action, an error) is sent by the reader as soon as the frame is handled, not by waking the
writer: an action then costs one task switch and one turn of the event loop less.
Both send under the connection's lock, taking messages in order, so nothing overtakes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from playtable.web.server.store.rate_limits import RateLimit
from playtable.web.server.tables.tables import Connection
from playtable.web.server.transport.wire import encode, error

CLIENT_GONE = (WebSocketDisconnect, RuntimeError, OSError)
"""What sending to a client that has gone raises (RuntimeError: the socket is already closed)."""

Handler = Callable[[str | bytes | None], Awaitable[None]]
"""Called with each frame's text (or bytes) the rate limit lets through."""


async def pump(ws: WebSocket, conn: Connection, rate: float, on_frame: Handler) -> None:
    """Read until the client leaves (or is closed for flooding); write meanwhile."""
    writer = asyncio.get_running_loop().create_task(_write(ws, conn))
    conn.reader = asyncio.current_task()
    try:
        await _read(ws, conn, rate, on_frame)
    finally:
        conn.reader = None
        conn.wake.set()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _read(ws: WebSocket, conn: Connection, rate: float, on_frame: Handler) -> None:
    limit = RateLimit(rate, 2 * rate)
    await _receive(ws, conn, rate, limit, on_frame)
    if conn.closed:
        # Closed by the server (`Connection.leave`, or an outbox too full) while this reader
        # handled a frame: the close frame goes now, with its code, before `pump` stops the
        # writer (which would else be cancelled before it sent it, and the page would not
        # know why its socket dropped).
        async with conn.sending:
            with contextlib.suppress(Exception):
                await ws.close(code=conn.farewell[0], reason=conn.farewell[1])


async def _receive(ws: WebSocket, conn: Connection, rate: float, limit: RateLimit,
                   on_frame: Handler) -> None:
    while not conn.closed:
        if conn.outbox and not await _flush(ws, conn):  # what the last frame's handling pushed
            return
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


async def _flush(ws: WebSocket, conn: Connection) -> bool:
    """Send what the reader's own handling pushed (and anything after it); False: the client
    is gone."""
    async with conn.sending:
        try:
            while conn.outbox and not conn.closed:
                await ws.send_text(encode(conn.outbox.popleft()))
        except CLIENT_GONE:
            return False
    return True


async def _write(ws: WebSocket, conn: Connection) -> None:
    try:
        while not conn.closed:
            messages = await conn.next_messages()
            async with conn.sending:  # after any message the reader took before these
                for message in messages:
                    await ws.send_text(encode(message))
    except CLIENT_GONE:
        # The client is gone (the reader finds it too). Ended here, not by the exception: a task
        # that ends with one keeps it, and its traceback holds `pump`'s frame, which holds the
        # task: a cycle that only the garbage collector frees, and with it the connection and
        # any table that has left memory meanwhile (about 350 objects a connection; at 1,000
        # tables the middle collection that found them took 2 s).
        return
    with contextlib.suppress(Exception):
        await ws.close(code=conn.farewell[0], reason=conn.farewell[1])
