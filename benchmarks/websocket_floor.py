"""The least server CPU a WebSocket round trip can cost on this stack: an
app that does nothing but answer each frame with a fixed text of a table state's size, served
by uvicorn with the table server's own settings, against the real server's CPU per action.

    .venv/bin/python benchmarks/websocket_floor.py [--messages 10000] [--reply-bytes 4540]

Each app runs in a `uvicorn` subprocess on a free loopback port; one client in this process sends
the frame a player sends (`{"type":"act",...}`) and waits for the answer, one at a time, so the
server handles exactly one frame per wake-up, as `benchmarks/server_actions.py` plays. The figure
is the server process's user + system CPU (/proc) over the messages, after 500 not counted.

- `asgi`: a bare ASGI callable (no Starlette): uvicorn, its WebSocket protocol
  (`websockets-sansio`), asyncio and the socket calls: what any Python app on this server pays.
- `starlette`: the same through a Starlette `WebSocketRoute` and `receive_text`/`send_text`, as the
  table server reads and writes its sockets.

Whatever the table server does beyond these (the rules, the view, the commit, the rate limit) is
above this floor; `benchmarks/server_actions.py` measures the whole.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.server_process import free_port  # noqa: E402

FRAME = '{"type":"act","action":"move 3","step":12}'
"""What a player's page sends for an action (the reply's size is a troll state's)."""


def asgi_app(reply: str) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
        elif scope["type"] == "http":  # the readiness probe
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})
        elif scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            while (await receive())["type"] == "websocket.receive":
                await send({"type": "websocket.send", "text": reply})
    return app


def starlette_app(reply: str) -> Any:
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def answer(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                await ws.receive_text()
                await ws.send_text(reply)
        except WebSocketDisconnect:
            pass

    return Starlette(routes=[Route("/", lambda request: PlainTextResponse("ok")),
                             WebSocketRoute("/ws", answer)])


def serve(kind: str, port: int, reply_bytes: int) -> None:
    import uvicorn

    from playtable.web.server.transport.processes import uvicorn_options

    reply = '{"type":"state","pad":"' + "x" * max(0, reply_bytes - 24) + '"}'
    app = asgi_app(reply) if kind == "asgi" else starlette_app(reply)
    uvicorn.run(app, host="127.0.0.1", port=port, **uvicorn_options(None))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(kind: str, messages: int, reply_bytes: int) -> float:
    """Server CPU ms per round trip of `kind`'s app."""
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", kind, "--port", str(port),
                               "--reply-bytes", str(reply_bytes)])
    try:
        for _ in range(300):  # bounded: 60 s
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5):
                    break
            except OSError:
                time.sleep(0.2)
        with connect(f"ws://127.0.0.1:{port}/ws", compression=None, max_size=None) as ws:
            for _ in range(500):
                ws.send(FRAME)
                ws.recv(timeout=60)
            before = cpu_seconds(server.pid)
            for _ in range(messages):
                ws.send(FRAME)
                ws.recv(timeout=60)
            return 1000 * (cpu_seconds(server.pid) - before) / messages
    finally:
        server.terminate()
        server.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--reply-bytes", type=int, default=4540, help="a troll state's size")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--serve", choices=("asgi", "starlette"), help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.port, args.reply_bytes)
        return
    print(f"{args.messages:,} round trips one at a time, a {args.reply_bytes:,}-byte answer, "
          f"load average {os.getloadavg()[0]:.1f}\n")
    print("| round | app | server CPU per round trip |\n|---:|---|---:|")
    for k in range(1, args.rounds + 1):
        for kind in ("asgi", "starlette"):
            print(f"| {k} | {kind} | {measure(kind, args.messages, args.reply_bytes):.3f} ms |", flush=True)


if __name__ == "__main__":
    main()
