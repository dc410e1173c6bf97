"""What the store's writes and reads cost on each engine: an SQLite file (WAL, as the server has
it) and a PostgreSQL 15 on this machine (started as the tests start it, tests/pg_server.py, but
with `fsync` on: durable as a site's would be), through the same `SqlStore`.

    .venv/bin/python benchmarks/store_engines.py [--actions 2000] [--tables 20]

For each engine, on the event loop's thread as the server makes them: an action's commit
(`append_action`, the one write of every move), a seat's shared budget (`SharedBuckets.allow`:
a locked read and write), and a table read back with its record (`load`). Each line gives the
median and p99 wall time of one call, and the calls a second one connection makes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.pg_server import PgServer, skip_reason  # noqa: E402

from playtable.web.server.store.rate_limits import SharedBuckets  # noqa: E402
from playtable.web.server.store.store import SeatRow, SqlStore, TableRow  # noqa: E402


def timed(call: Callable[[int], object], n: int) -> list[float]:
    out = []
    for k in range(n):
        start = time.perf_counter()
        call(k)
        out.append(time.perf_counter() - start)
    return out


def measure(where: str | Path, actions: int, tables: int) -> dict[str, list[float]]:
    store = SqlStore(where)
    try:
        for t in range(tables):
            store.create(TableRow(f"t{t}", "troll", None, {}, t, [SeatRow("human", "a")], "2026-12-06"))
        budgets = SharedBuckets(store.db)
        return {
            "append_action": timed(lambda k: store.append_action(f"t{k % tables}", k // tables + 1, 0,
                                                                 f"move {k}"), actions),
            "shared budget": timed(lambda k: budgets.allow("seats", f"net{k % 50}", 1e9), actions),
            "load (a table)": timed(lambda k: store.load(f"t{k % tables}"), max(1, actions // 10)),
        }
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()
    reason = skip_reason()
    results: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        results["sqlite"] = measure(Path(folder) / "tables.sqlite3", args.actions, args.tables)
    if reason is None:
        server = PgServer()
        server.durable = True
        try:
            server.start()
            results["postgresql"] = measure(server.database(), args.actions, args.tables)
        finally:
            server.stop()
    else:
        print(f"PostgreSQL skipped: {reason}", file=sys.stderr)
    print(f"{args.actions} actions over {args.tables} tables")
    print("| engine | call | median (ms) | p99 (ms) | calls/s |")
    print("|---|---|---:|---:|---:|")
    for engine, calls in results.items():
        for name, times in calls.items():
            ordered = sorted(times)
            p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
            print(f"| {engine} | {name} | {statistics.median(times) * 1e3:.3f} | {p99 * 1e3:.3f} | "
                  f"{len(times) / sum(times):,.0f} |")


if __name__ == "__main__":
    main()
