"""What a request costs the node that sends it on to the table's holder (docs/web.md, "Several
machines"): CPU seconds of the forwarding node's event loop per forwarded HTTP request and per
forwarded WebSocket message, beside what a request it serves itself costs it.

    .venv/bin/python benchmarks/web_forward.py [--requests 300] [--games 4]

The owner is a real `playtable serve --node owner` on a free loopback port; the node in front
is `create_app(..., node=..., locate=...)` under uvicorn in a thread of this process
(tests/web/nodes.py's `ThreadedNode`), whose thread's CPU clock (`pthread_getcpuclockid`) is
what the table counts: the client's own work, in the main thread, is not in it. Rows:
`GET /api/games` served by the front itself; `GET /api/tables/ID` sent on; a troll game's
messages both ways through a forwarded socket (one human seat, bots in the others). Also the
median wall time of a request direct to the owner and through the front (loopback; the
machine's load beside it, since wall time depends on it). Run it with `PYTHONPATH` set to
another checkout's `src` to measure that server.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.nodes import ThreadedNode, node_server  # noqa: E402
from tests.web.wire_client import Client, create_table, join_query, play_to_the_end  # noqa: E402


class CountingClient(Client):
    """A table's connection that counts what it sends."""

    sent = 0

    def send(self, message: dict[str, Any] | str) -> None:
        self.sent += 1
        super().send(message)


def thread_cpu(node: ThreadedNode) -> float:
    assert node.thread.ident is not None
    return time.clock_gettime(time.pthread_getcpuclockid(node.thread.ident))


def timed(node: ThreadedNode, count: int, call: Callable[[], object]) -> tuple[float, float]:
    """(the front's CPU seconds per call, the median wall seconds of a call)."""
    walls = []
    cpu = thread_cpu(node)
    for _ in range(count):
        started = time.perf_counter()
        call()
        walls.append(time.perf_counter() - started)
    return (thread_cpu(node) - cpu) / count, statistics.median(walls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    requests, games = max(10, min(args.requests, 100_000)), max(1, min(args.games, 100))
    with tempfile.TemporaryDirectory() as tmp:
        held: dict[str, str] = {}

        async def locate(table_id: str) -> str | None:
            return held.get(table_id)

        with node_server(Path(tmp) / "owner.sqlite3", "owner", ("--rate-limit", "10000")).start() as owner, \
                ThreadedNode(Path(tmp) / "front.sqlite3", "front", locate, workers=1, rate=10_000) as front, \
                httpx2.Client(timeout=30) as http:
            table_id = create_table(owner.url, game="troll", seed=1)["table_id"]
            held[table_id] = owner.url
            rows: list[tuple[str, str, float | None, float]] = []
            rows.append(("GET /api/games, served by the front", "request",
                         *timed(front, requests, lambda: http.get(f"{front.url}/api/games"))))
            direct = timed(front, requests, lambda: http.get(f"{owner.url}/api/tables/{table_id}"))
            rows.append(("GET /api/tables/ID, direct to the owner", "request", None, direct[1]))
            rows.append(("GET /api/tables/ID, sent on by the front", "request",
                         *timed(front, requests, lambda: http.get(f"{front.url}/api/tables/{table_id}"))))
            messages, cpu, started = 0, thread_cpu(front), time.perf_counter()
            for seed in range(games):
                created = create_table(owner.url, game="troll", seed=seed)
                held[created["table_id"]] = owner.url
                with CountingClient(front.ws_url, created["table_id"], join_query(created)) as player:
                    play_to_the_end(player, player.greet()[1], seed)
                    messages += len(player.received) + player.sent
            wall = (time.perf_counter() - started) / max(1, messages)
            rows.append((f"{games} troll games through a forwarded socket", "message",
                         (thread_cpu(front) - cpu) / max(1, messages), wall))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("| what | per | front's CPU (ms) | median wall (ms) |")
    print("|---|---|---|---|")
    for what, per, cpu_each, wall_each in rows:
        cpu_text = "-" if cpu_each is None else f"{cpu_each * 1000:.3f}"
        print(f"| {what} | {per} | {cpu_text} | {wall_each * 1000:.2f} |")


if __name__ == "__main__":
    main()
