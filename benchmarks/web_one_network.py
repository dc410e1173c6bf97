"""One home network against the whole server (docs/web.md, "Fair use"): a client that picks a new
address of its IPv6 /64 for every request, as behind the shipped nginx site (the client's address
in X-Forwarded-For), asks for tables back to back; then a stranger from another network asks for
one.

    .venv/bin/python benchmarks/web_one_network.py [--requests 658] [--max-tables 5000]

A fresh `playtable serve` (its defaults, `--forwarded-allow-ips 127.0.0.1` so that it believes
the addresses, `--max-tables` as given) on a free loopback port; the client sends `--requests`
`POST /api/tables` (a troll table with a person's seat) from `2001:db8:1:2::N:1`, N = 1, 2, ...,
one at a time. It prints how many tables the /64 got, the answers it had (counted by status),
the seconds it took, and what the stranger (`2001:db8:9:9::1`) got after it. Run it with
`PYTHONPATH` set to another checkout's `src` to measure that server.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.server_process import start_server  # noqa: E402

TABLE = {"game": "troll", "seats": [{"kind": "human"}]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=658)
    parser.add_argument("--max-tables", type=int, default=5000)
    args = parser.parse_args()
    requests = max(1, min(args.requests, 100_000))
    extra = ("--forwarded-allow-ips", "127.0.0.1", "--max-tables", str(args.max_tables))
    with tempfile.TemporaryDirectory() as tmp, \
            start_server(Path(tmp) / "t.sqlite3", extra_args=extra) as server, \
            httpx2.Client(base_url=server.url, timeout=30) as http:
        answers: Counter[int] = Counter()
        started = time.monotonic()
        for n in range(1, requests + 1):
            sent = http.post("/api/tables", json=TABLE, headers={"X-Forwarded-For": f"2001:db8:1:2::{n:x}:1"})
            answers[sent.status_code] += 1
        elapsed = time.monotonic() - started
        stranger = http.post("/api/tables", json=TABLE, headers={"X-Forwarded-For": "2001:db8:9:9::1"})
    print("| requests from one /64 | tables it got | answers | seconds | a stranger after it |")
    print("|---|---|---|---|---|")
    counted = ", ".join(f"{code}: {count}" for code, count in sorted(answers.items()))
    print(f"| {requests} | {answers[201]} | {counted} | {elapsed:.1f} | {stranger.status_code} |")


if __name__ == "__main__":
    main()
