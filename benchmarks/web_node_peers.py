"""What a question to the other nodes costs (docs/web.md, "Several machines"): the lobby's
`GET /api/tables?status=running` asked of node a, alone and then with node b holding tables of
its own (a's answer then waits for b's over `/_node/ask`), and what an idle node's heartbeat
costs. Real `playtable serve --node` processes on a PostgreSQL 15 started as the tests start it.

    nice -n 10 .venv/bin/python benchmarks/web_node_peers.py [--requests 300] [--tables 100]

Each line: the lobby's wall time (p50, p99) over sequential requests, and the CPU seconds a
request of node a and of node b (from /proc, whole processes); then each node's CPU a second
while idle (heartbeats only). The load average is printed beside the wall times: the machine
is shared.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from pathlib import Path

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.pg_server import PgServer, skip_reason  # noqa: E402
from tests.web.server_process import ServerProcess, free_port  # noqa: E402

from playtable.web.server.transport.nodes import NODE_SECRET_ENV  # noqa: E402
from web_load import cpu_seconds, percentile  # noqa: E402


def node(db: str, name: str) -> ServerProcess:
    port = free_port()
    return ServerProcess(db, port, extra_args=(
        "--node", name, "--node-url", f"http://127.0.0.1:{port}", "--tables-per-minute", "10000",
        "--tables-per-network", "1000"))


def cpu(server: ServerProcess) -> float:
    assert server.process is not None
    return cpu_seconds(server.process.pid)


def fill(server: ServerProcess, tables: int) -> None:
    for seed in range(tables):
        answer = httpx2.post(f"{server.url}/api/tables", json={"game": "troll", "seed": seed,
                            "seats": [{"kind": "human"}]}, timeout=20)
        assert answer.status_code == 201, answer.text


def lobby(a: ServerProcess, others: list[ServerProcess], requests: int) -> tuple[float, float, float, float]:
    """p50 and p99 wall seconds of node a's lobby, CPU seconds a request at a and at the others."""
    walls = []
    before = [cpu(s) for s in (a, *others)]
    with httpx2.Client(timeout=20) as client:
        for _ in range(requests):
            start = time.perf_counter()
            answer = client.get(f"{a.url}/api/tables?status=running")
            walls.append(time.perf_counter() - start)
            assert answer.status_code == 200
    spent = [cpu(s) - b for s, b in zip((a, *others), before, strict=True)]
    walls.sort()
    return percentile(walls, 0.5), percentile(walls, 0.99), spent[0] / requests, sum(spent[1:]) / requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--tables", type=int, default=100, help="tables in play at each node")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the idle measure")
    args = parser.parse_args()
    reason = skip_reason()
    if reason is not None:
        sys.exit(f"web_node_peers: {reason}")
    os.environ[NODE_SECRET_ENV] = secrets.token_urlsafe(32)
    pg = PgServer().start()
    try:
        db = pg.database()
        with node(db, "a") as a, node(db, "b") as b:
            a.start()
            fill(a, args.tables)
            print(f"{'nodes':<28} {'p50 ms':>8} {'p99 ms':>8} {'CPU a ms/req':>13} {'CPU b ms/req':>13} "
                  f"{'load':>5}")
            alone = lobby(a, [], args.requests)
            print(f"{'a alone':<28} {alone[0] * 1e3:8.2f} {alone[1] * 1e3:8.2f} {alone[2] * 1e3:13.3f} "
                  f"{'-':>13} {os.getloadavg()[0]:5.1f}")
            b.start()
            fill(b, args.tables)
            time.sleep(3)  # a has read b's heartbeat
            both = lobby(a, [b], args.requests)
            print(f"{'a asking b':<28} {both[0] * 1e3:8.2f} {both[1] * 1e3:8.2f} {both[2] * 1e3:13.3f} "
                  f"{both[3] * 1e3:13.3f} {os.getloadavg()[0]:5.1f}")
            before = [cpu(a), cpu(b)]
            time.sleep(args.idle)
            idle = [(cpu(s) - c) / args.idle for s, c in zip((a, b), before, strict=True)]
            print(f"idle CPU a second (heartbeats): a {idle[0] * 1e3:.2f} ms, b {idle[1] * 1e3:.2f} ms")
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
