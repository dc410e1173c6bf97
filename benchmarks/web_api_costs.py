"""What one API request costs the server's event loop (docs/web.md, "Fair use": the API budget):
a fresh `playtable serve` on SQLite with `--tables` tables in play (a troll table with a
person's seat each, made through the API first), then `--requests` of each request below back
to back on one connection, the server's CPU (user + system, /proc) and the wall time a request.

    .venv/bin/python benchmarks/web_api_costs.py [--tables 500] [--requests 300]

The server's budgets are raised for the run (`--api-requests-per-minute` and the tables' own):
every request comes from 127.0.0.1, one network.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.server_process import start_server  # noqa: E402

from web_load import cpu_seconds  # noqa: E402

PATHS = ("/api/tables", "/api/tables?status=running", "/api/games", "/api/leaderboard?game=troll")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    if not (0 <= args.tables <= 5000 and 1 <= args.requests <= 100_000):
        parser.error("--tables 0-5000, --requests 1-100000")
    extra = ("--tables-per-minute", "10000", "--tables-per-network", "100000", "--max-tables", "5000",
             "--api-requests-per-minute", "1000000")
    rows = []
    with tempfile.TemporaryDirectory() as tmp, \
            start_server(Path(tmp) / "tables.sqlite3", extra_args=extra) as server, \
            httpx2.Client(base_url=server.url, timeout=30) as http:
        assert server.process is not None
        for k in range(args.tables):
            made = http.post("/api/tables", json={"game": "troll", "seed": k, "seats": [{"kind": "human"}]})
            if made.status_code != 201:
                raise SystemExit(f"table {k} not made: {made.status_code} {made.text[:200]}")
        for path in PATHS:
            cpu, wall = cpu_seconds(server.process.pid), time.perf_counter()
            codes = {http.get(path).status_code for _ in range(args.requests)}
            cpu, wall = cpu_seconds(server.process.pid) - cpu, time.perf_counter() - wall
            rows.append((path, 1000 * cpu / args.requests, 1000 * wall / args.requests, codes))
    print(f"{args.tables} tables in play, {args.requests} requests of each back to back on one "
          "connection\n")
    print("| request | server CPU a request | wall a request | answers |\n|---|---:|---:|---|")
    for path, cpu_ms, wall_ms, codes in rows:
        print(f"| `GET {path}` | {cpu_ms:.2f} ms | {wall_ms:.2f} ms | {', '.join(map(str, sorted(codes)))} |")


if __name__ == "__main__":
    main()
