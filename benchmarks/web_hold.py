"""The table server under a load held for minutes, and its garbage collector's pauses (docs/web.md,
"Sustained load"): the load of benchmarks/web_processes.py (one player per table on loopback
WebSockets, random troll games, think time mean 0.5 s, a rematch after each game) held for
`--seconds` against a real `playtable serve --processes P`.

    nice -n 10 .venv/bin/python benchmarks/web_hold.py [--processes 1 2] [--tables 1000]
        [--seconds 300] [--src DIR] [--store sqlite|postgresql|node]

`--store node` runs the server as one node of a site of several machines (docs/web.md "Several
machines"): `playtable serve --node` on a PostgreSQL server the benchmark starts in a scratch
folder with fsync on (as `web_nodes.py` does), holding each table under a lease it renews. With
`--tables` set to a node's share (333 of 1,000 over three nodes), that is one machine of three
held for minutes: the players, PostgreSQL and the node share this machine's cores.
`--store postgresql` is the same server on that PostgreSQL without `--node` (no leases).

The server runs with PLAYTABLE_GC_PROBE set (`transport/collector.py`'s `Probe`, off by
default): each serving process records every collection (its generation, and how long it held
the process, wall clock and CPU), and counts the objects the collector tracks when the level is
over. For each number of processes it prints the level (actions/s, p50/p99/max round trip, the
server's CPU per action, the players' loop lag, the load average at the end), then a row per
serving process: its collections during the level per generation (count, total, p50 and
longest pause), and the objects tracked at the end by generation, and frozen.

`--src DIR` runs the server from another `src/` (an older commit's, unpacked: before/after on
the same machine); its collector needs the probe for the pause columns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.pg_server import PgServer, skip_reason  # noqa: E402
from tests.web.nodes import NODE_ENV  # noqa: E402
from tests.web.server_process import free_port, start_server  # noqa: E402

from web_processes import run_level  # noqa: E402

PROBE_ENV = "PLAYTABLE_GC_PROBE"  # transport/collector.py's
STORES = {"sqlite": "one server on SQLite", "postgresql": "one server on PostgreSQL",
          "node": "one node on PostgreSQL"}


def probed_processes(folder: Path, start: float, end: float) -> list[dict[str, Any]]:
    """Each serving process's collections in the window, by generation, and its census."""
    rows = []
    for path in sorted(folder.glob("*.json")):
        found = json.loads(path.read_text())
        generations: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
        for at, generation, took, cpu in found["pauses"]:
            if start <= at <= end:
                generations[generation].append((took, cpu))
        rows.append({"pid": found["pid"], "pauses": {g: sorted(p) for g, p in generations.items()},
                     "census": found["census"] or {}})
    return rows


def wait_for_census(folder: Path, timeout: float = 30.0) -> None:
    """Ask every probed process for its census and wait (bounded) until each wrote one."""
    (folder / "census").touch()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        files = list(folder.glob("*.json"))
        if files and all(json.loads(p.read_text())["census"] for p in files):
            return
        time.sleep(0.5)


def node_store(node: bool) -> tuple[PgServer, str, int, tuple[str, ...]]:
    """A durable PostgreSQL server, a new database on it, the server's port and, for a node,
    its arguments."""
    reason = skip_reason()
    if reason:
        raise SystemExit(f"--store node needs PostgreSQL: {reason}")
    pg = PgServer()
    pg.durable = True
    pg.start()
    port = free_port()
    args = ("--node", "hold-1", "--node-url", f"http://127.0.0.1:{port}") if node else ()
    return pg, pg.database(), port, args


def hold(processes: int, tables: int, seconds: float, think: float, seed: int,
         src: Path | None, store: str = "sqlite") -> dict[str, Any]:
    extra = ("--processes", str(processes), "--rate-limit", "100000", "--tables-per-minute", "10000",
             "--forwarded-allow-ips", "127.0.0.1")
    pg, port, env = None, None, None
    if store != "sqlite":
        pg, db, port, node_args = node_store(store == "node")
        extra, env = extra + node_args, NODE_ENV
    saved = {name: os.environ.get(name) for name in ("PYTHONPATH", PROBE_ENV)}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "probe"
        folder.mkdir()
        os.environ[PROBE_ENV] = str(folder)
        if src is not None:
            os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(src), saved["PYTHONPATH"]) if p)
        try:
            where = db if pg else Path(tmp) / "tables.sqlite3"
            with start_server(where, port=port, extra_args=extra, env=env) as server:
                level = asyncio.run(run_level(server, tables, seconds, think, seed))
                wait_for_census(folder)
                level["probed"] = probed_processes(folder, level["began_at"],
                                                   level["began_at"] + level["elapsed"])
        finally:
            if pg:
                pg.stop()
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
    return {"processes": processes, "store": store, **level}


def pause_cell(pauses: list[tuple[float, float]]) -> str:
    """Count, total, p50 and longest wall-clock pause, then the longest in CPU time (what a
    collection itself cost, without the waits for a core of a shared machine)."""
    if not pauses:
        return "none"
    return (f"{len(pauses):,}, {1000 * sum(p[0] for p in pauses):,.0f} ms, "
            f"p50 {1000 * pauses[len(pauses) // 2][0]:.1f} ms, max {1000 * pauses[-1][0]:.1f} ms "
            f"(CPU max {1000 * max(p[1] for p in pauses):.1f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time a move, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--src", type=Path, help="run the server from this src/ instead")
    parser.add_argument("--store", choices=("sqlite", "postgresql", "node"), default="sqlite",
                        help="one server on SQLite (the default) or on PostgreSQL, or one node on PostgreSQL")
    args = parser.parse_args()
    rows = []
    for processes in args.processes:
        rows.append(hold(processes, args.tables, args.seconds, args.think, args.seed, args.src, args.store))
        print(f"  {rows[-1]['processes']} processes: {rows[-1]['per_s']:.0f} actions/s, "
              f"p99 {rows[-1]['p99']:.1f} ms", file=sys.stderr)

    print(f"\n{args.tables:,} tables of random troll games (plus-one), think time mean {args.think} s, "
          f"held {args.seconds:g} s{f', server from {args.src}' if args.src else ''}, "
          f"{STORES[args.store]}\n")
    print("| processes | actions/s | p50 round trip | p99 | max | server CPU per action "
          "| players' loop lag p99 | errors, unanswered | load average |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for r in rows:
        print(f"| {r['processes']} | {r['per_s']:,.0f} | {r['p50']:.1f} ms | {r['p99']:.1f} ms | "
              f"{r['max']:.0f} ms | {r['cpu_ms']:.2f} ms | {r['lag_p99']:.1f} ms | "
              f"{len(r['errors'])}, {r['unanswered']} | {r['load']:.1f} |")
    print("\nthe serving processes' collections during the level (count, total, p50, longest "
          "pause, wall clock; the longest in CPU time) and the objects tracked at the end\n")
    print("| processes | pid | young (0) | middle (1) | full (2) | tracked at the end "
          "(generations 0 / 1 / 2) | frozen |")
    print("|---:|---:|---|---|---|---|---:|")
    for r in rows:
        for p in r["probed"]:
            census = p["census"]
            tracked = " / ".join(f"{census.get(f'generation {g}', 0):,}" for g in range(3))
            cells = " | ".join(pause_cell(p["pauses"][g]) for g in range(3))
            print(f"| {r['processes']} | {p['pid']} | {cells} | {tracked} | {census.get('frozen', 0):,} |")


if __name__ == "__main__":
    main()
