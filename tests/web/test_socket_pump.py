"""The table socket's two loops (socket_pump): what handling a client's own frame
pushes to that client, the reading task sends itself, in order with what other tasks push (which
the writer task sends); a message for several connections is encoded once."""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from typing import Any

from starlette.websockets import WebSocketDisconnect

from playtable.web.server.tables.tables import Connection
from playtable.web.server.transport.socket_pump import pump
from playtable.web.server.transport.wire import encode, shared


class FakeSocket:
    """Frames to hand the server, then the client leaves; records what was sent and by which task."""

    def __init__(self, frames: list[str]) -> None:
        self.frames = frames
        self.sent: list[tuple[str, str]] = []

    async def receive(self) -> dict[str, Any]:
        await asyncio.sleep(0.01)  # a client's next frame comes a moment later
        if not self.frames:
            return {"type": "websocket.disconnect"}
        return {"type": "websocket.receive", "text": self.frames.pop(0)}

    async def send_text(self, text: str) -> None:
        task = asyncio.current_task()
        self.sent.append((json.loads(text)["n"], task.get_name() if task else ""))
        await asyncio.sleep(0)  # a send may yield to the loop, as a real one can

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


def test_the_reader_sends_its_own_answers_in_order_with_the_writers() -> None:
    async def play() -> list[tuple[str, str]]:
        ws, conn = FakeSocket(["one", "alone", "two"]), Connection(0)

        async def other_task() -> None:  # a bot or a clock pushing to the same connection
            conn.push({"n": "from another task"})

        async def on_frame(raw: str | bytes | None) -> None:
            conn.push({"n": f"{raw}: first"})
            if raw != "alone":
                await asyncio.get_running_loop().create_task(other_task(), name="bot")
            conn.push({"n": f"{raw}: second"})

        reader = pump(ws, conn, 100.0, on_frame)  # type: ignore[arg-type]
        await asyncio.get_running_loop().create_task(reader, name="reader")
        return ws.sent

    sent = asyncio.run(play())
    assert [n for n, _ in sent] == ["one: first", "from another task", "one: second",
                                    "alone: first", "alone: second",
                                    "two: first", "from another task", "two: second"]
    # A frame whose handling nobody else interleaves with is answered by the reading task
    # itself; another task's push wakes the writer, which then sends what is waiting before it
    # and after it, in the order it was pushed.
    assert [who for n, who in sent if n.startswith("alone")] == ["reader", "reader"]
    assert [who for n, who in sent if n.startswith("one")] != ["reader", "reader"]


def test_a_message_for_several_connections_is_encoded_once() -> None:
    message = {"type": "state", "n": 1, "observation": {"cards": ["AS", None]}}
    once = shared(message)
    assert once == message and json.loads(encode(once)) == message
    assert encode(once) is encode(once)  # the same text every connection sends, made once
    assert encode(message) == encode(once)


def test_every_message_reads_back_as_it_was_built_whatever_orjson_refuses() -> None:
    """orjson writes the messages; what it cannot (an integer beyond 64 bits), the standard
    library does, and keys that are numbers become strings as JSON has them."""
    message = {"type": "state", "name": "Zoë ☃", "seed": 2**70, "at": 1.5, "none": None,
               "stand_ins": {3: "heuristic"}}
    assert json.loads(encode(message)) == {**message, "stand_ins": {"3": "heuristic"}}
    assert json.loads(encode({"name": "Zoë"})) == {"name": "Zoë"} and "\\u" not in encode({"name": "Zoë"})


class GoneSocket(FakeSocket):
    """A client that left: every send fails as Starlette's does then, and the next read says so."""

    async def receive(self) -> dict[str, Any]:
        await asyncio.sleep(0.05)  # the writer meets the closed socket first
        return {"type": "websocket.disconnect"}

    async def send_text(self, text: str) -> None:
        raise WebSocketDisconnect(1006)


def test_a_connection_whose_client_left_is_freed_without_the_garbage_collector() -> None:
    """The writer meeting a closed socket ends quietly: a task that ended with the exception would
    keep it, and its traceback holds `pump`'s frame, which holds the task, so the connection (and
    a table that left memory) could only be freed by a collection of the cycle (at
    1,000 tables the middle collection that found them took 2 s)."""
    async def play() -> weakref.ref[Connection]:
        ws, conn = GoneSocket([]), Connection(0)

        async def on_frame(raw: str | bytes | None) -> None:
            pass

        async def push_soon() -> None:
            await asyncio.sleep(0.01)
            conn.push({"n": "a state for a client who is gone"})  # wakes the writer

        pusher = asyncio.get_running_loop().create_task(push_soon())
        await pump(ws, conn, 100.0, on_frame)  # type: ignore[arg-type]
        await pusher
        return weakref.ref(conn)

    gc.disable()
    try:
        gone = asyncio.run(play())
        assert gone() is None, gc.get_referrers(gone())
    finally:
        gc.enable()
