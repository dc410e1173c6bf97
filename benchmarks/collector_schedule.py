"""The garbage collector's pauses under the tables' own churn, without the transport and
without the machine's load in the figures (docs/web.md, "Sustained load"): 1,000 troll tables
of one person played through a hub in this process, one action at a time round the tables
(each table moves every 1,000 actions, as at 1,800 actions/s with 0.5 s of thought), a new
table when one ends, for `--actions` actions after the collector is settled as the server
settles it. Every collection's CPU time (`time.thread_time`, so a shared machine's waits for a
core are not in it) is recorded by a gc callback.

    nice -n 10 .venv/bin/python benchmarks/collector_schedule.py [--actions 60000] [--tables 1000]
        [--settings count schedule middle] [--tick-actions 180]

Settings compared (each in a process of its own):
- `count`: the collector as the server set it before the schedule: freeze at start, then
  CPython's own collections by the allocation count, thresholds (50,000, 20, 10);
- `schedule`: `collector.settle` as the server runs it: the young generation collected every
  `--tick-actions` actions (180 actions stand for `YOUNG_SECONDS` at 1,800 actions/s), a full
  collection every `FULL_SECONDS` of this process's wall clock;
- `middle`: the same, and the middle generation with the young one at every third tick (tried,
  not kept).
It prints, by setting, the server's CPU an action (collections included), by generation the
collections' count, total CPU, p50, p99 and longest, and the CPU of one full collection at the
end (what the schedule's next full one, or the count's first, would take then).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server_actions import TROLL  # noqa: E402

SETTINGS = ("count", "schedule", "middle")
COUNT_THRESHOLDS = (50_000, 20, 10)
"""The server's thresholds before the schedule (collector.py of a18850b)."""


async def play(setting: str, actions: int, tables: int, tick_actions: int, db: Path) -> dict[str, Any]:
    from playtable.web.server.hub import Hub
    from playtable.web.server.store.store import SqlStore
    from playtable.web.server.tables.room import Limits
    from playtable.web.server.tables.table_request import row_from_request
    from playtable.web.server.tables.tables import Table, fresh_start
    from playtable.web.server.transport import collector
    from playtable.web.server.transport.wire import encode, parse_client_message

    store = SqlStore(db)
    hub = Hub(store, None, Limits(connections=10 * tables, connections_per_address=10 * tables))  # type: ignore[arg-type]

    def sit(seed: int) -> tuple[Any, Any, dict[str, Any]]:
        row, tokens, _ = row_from_request({**TROLL, "seed": seed})
        table = Table(row, fresh_start(row))
        store.create(row)
        hub.tables[row.id] = table
        conn, _ = hub.connections.connect(table, "0", tokens[0])
        assert conn is not None
        hub.greet(table, conn)
        return table, conn, drain(conn)

    def drain(conn: Any) -> dict[str, Any]:
        """Encode what the connection was sent, as its writer would; the last state."""
        state: dict[str, Any] = {}
        for message in conn.outbox:
            encode(message)
            if message["type"] == "state":
                state = message
        conn.outbox.clear()
        return state

    rng = random.Random(1)
    seats = [sit(seed) for seed in range(1, tables + 1)]
    rngs = [random.Random(rng.random()) for _ in range(tables)]
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    began = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.thread_time()
        else:
            pauses[info["generation"]].append(time.thread_time() - began[0])

    schedule = None
    if setting == "count":
        gc.collect()
        gc.freeze()
        gc.set_threshold(*COUNT_THRESHOLDS)
    else:
        schedule, _probe = collector.settle()
        schedule.stop()  # ticked below, every `tick_actions` actions: this loop never yields
    gc.callbacks.append(timed)
    seed, cpu = tables, time.process_time()
    for k in range(actions):
        if schedule is not None and k % tick_actions == 0:
            if setting == "middle" and (k // tick_actions) % 3 == 2:
                gc.collect(1)
            else:
                schedule.tick()
                schedule.stop()
        table, conn, state = seats[k % tables]
        if state["terminal"]:
            hub.connections.disconnect(table, conn)
            seed += 1
            table, conn, state = sit(seed)
        choice = rngs[k % tables].choice(state["legal"])["action"]
        raw = json.dumps({"type": "act", "action": choice, "step": state["step"]})
        await hub.handle(table, conn, parse_client_message(raw))
        seats[k % tables] = (table, conn, drain(conn))
    cpu = time.process_time() - cpu
    gc.callbacks.remove(timed)
    full = time.thread_time()
    gc.collect()  # what a full collection costs now: the schedule's next, or the count's first
    full = time.thread_time() - full
    store.close()
    return {"setting": setting, "cpu_ms": 1000 * cpu / actions, "new_tables": seed - tables,
            "pauses": {g: sorted(p) for g, p in pauses.items()}, "full_at_end_ms": 1000 * full}


def run(setting: str, actions: int, tables: int, tick_actions: int) -> dict[str, Any]:
    command = [sys.executable, __file__, "--worker", setting, "--actions", str(actions),
               "--tables", str(tables), "--tick-actions", str(tick_actions)]
    out = subprocess.run(command, check=True, capture_output=True, text=True, timeout=3600)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def cell(pauses: list[float]) -> str:
    if not pauses:
        return "none"
    n = len(pauses)
    return (f"{n:,}, {1000 * sum(pauses):,.0f} ms, p50 {1000 * pauses[n // 2]:.1f}, "
            f"p99 {1000 * pauses[min(n - 1, n * 99 // 100)]:.1f}, max {1000 * pauses[-1]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=60_000)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--settings", nargs="+", choices=SETTINGS, default=list(SETTINGS))
    parser.add_argument("--tick-actions", type=int, default=180)
    parser.add_argument("--worker", choices=SETTINGS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        with tempfile.TemporaryDirectory() as tmp:
            found = asyncio.run(play(args.worker, args.actions, args.tables, args.tick_actions,
                                     Path(tmp) / "tables.sqlite3"))
        print(json.dumps({**found, "pauses": {str(g): p for g, p in found["pauses"].items()}}))
        return
    rows = [run(setting, args.actions, args.tables, args.tick_actions) for setting in args.settings]
    print(f"\n{args.tables:,} troll tables through the hub, {args.actions:,} actions after the settling, "
          f"a tick every {args.tick_actions} actions; collections' CPU time\n")
    print("| settings | CPU an action | new tables | young (0): count, total, p50, p99, max "
          "| middle (1) | full (2) | a full one at the end |")
    print("|---|---:|---:|---|---|---|---:|")
    for r in rows:
        cells = " | ".join(cell(r["pauses"][str(g)]) for g in range(3))
        print(f"| {r['setting']} | {r['cpu_ms']:.3f} ms | {r['new_tables']:,} | {cells} "
              f"| {r['full_at_end_ms']:.0f} ms |")


if __name__ == "__main__":
    main()
