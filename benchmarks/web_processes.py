"""The table server on one process and on several (docs/web.md, "Beyond one
process" and "Measured"): the same load as benchmarks/web_load.py (N players on loopback
WebSockets, random troll games, think time mean 0.5 s, a rematch after each game) against
`playtable serve --processes P`.

    nice -n 10 .venv/bin/python benchmarks/web_processes.py [--processes 1 2] [--tables 200 1000]
        [--seconds 10] [--think 0.5] [--connections 1000] [--probe]

For each number of processes and of tables it prints actions/s, p50/p99 round trip, the server's
CPU time per action summed over all its processes (the front, the table-owning workers and
their bot pools, from /proc), the players' own CPU per action and their event loop's lag (they
run in this process, on the same cores: their share of a round trip), and the load average when
the level ended (the machine may be shared: the CPU figures are the ones that do not depend on
it). The players' garbage collector is paused during a level (web_load.py says why). `--probe`
also prints the table processes' garbage collections of 1 ms or more during each level
(stall_probe/sitecustomize.py, on the server's PYTHONPATH). Then, on a fresh server with
several processes, the front's CPU per connection: `--connections` new connections, each one
request (`GET /api/games`, `Connection: close`), 20 at a time, the front's CPU time over them
divided by their number.

The projection to a machine of C cores (printed for 16) uses only CPU-time figures measured
here, never the 2 cores' wall-clock rates:
- one process's saturation rate = 1 / (the server's CPU per action with `--processes 1`): the
  actions a second one core gives when it does nothing else;
- a worker's saturation rate with P processes = 1 / (the server's CPU per action summed over
  the processes, with `--processes P`, the largest P run): what the cost of more processes
  (the peers' questions, SQLite's lock shared by several writers, the front) leaves of it;
  the front's CPU is in that sum, at the connections a second the level opened (a new
  WebSocket after each game's rematch);
- C cores serve C x a worker's rate, and at most SQLite's ceiling: every action is one commit
  to the one file, commits are serialized by its write lock, so the commits a CPU second one
  process makes back to back (measured here with the server's store) bound the whole machine.
The factor over one core is that projection divided by one process's saturation rate.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tests.web.server_process  # noqa: E402
from tests.web.server_process import ServerProcess, start_server  # noqa: E402
from tests.web.test_restart import _descendants  # noqa: E402

from playtable.web.server.store.schema import opened  # noqa: E402
from web_load import Player, close_players, cpu_seconds, open_players, percentile, play_level  # noqa: E402

# A loaded shared machine starts a server (N workers, each with its bot pool) slowly.
tests.web.server_process.STARTUP_TIMEOUT = 120.0


def server_cpu(server: ServerProcess) -> float:
    """CPU seconds so far of the server and every process below it (workers, bot pools)."""
    assert server.process is not None
    total = 0.0
    for pid in {server.process.pid, *_descendants(server.process.pid)}:
        with contextlib.suppress(OSError):  # ended meanwhile
            total += cpu_seconds(pid)
    return total


def load_average() -> float:
    return os.getloadavg()[0]


async def run_level(server: ServerProcess, tables: int, seconds: float, think: float,
                    seed: int) -> dict[str, Any]:
    limits = httpx2.Limits(max_connections=50)
    # A rematch asked on a kept-alive connection that went to another process is redirected
    # (307, the same request again on a new connection): the client follows, as a browser does.
    async with httpx2.AsyncClient(base_url=server.url, timeout=60, limits=limits,
                                 follow_redirects=True) as http:
        players: list[Player] = await open_players(server, http, tables, "troll", random.Random(seed), True)
        cpu, own = server_cpu(server), time.process_time()
        began, began_at = time.monotonic(), time.time()
        level = await play_level(players, seconds, think)
        cpu, own = server_cpu(server) - cpu, time.process_time() - own
        await close_players(players)
    database = opened(server.db)  # an SQLite file or a node's PostgreSQL (web_hold.py --store node)
    try:
        (made,) = database.execute("SELECT COUNT(*) FROM tables").fetchone()
    finally:
        database.close()
    ordered = level["times"]
    return {"tables": tables, "actions": len(ordered), "per_s": len(ordered) / level["elapsed"],
            "p50": 1000 * percentile(ordered, 0.5), "p99": 1000 * percentile(ordered, 0.99),
            "max": 1000 * percentile(ordered, 1.0), "cpu_ms": 1000 * cpu / max(1, len(ordered)),
            "errors": level["errors"],
            "players_cpu_ms": 1000 * own / max(1, len(ordered)),
            "lag_p99": 1000 * percentile(level["lags"], 0.99),
            "unanswered": level["unanswered"], "load": load_average(),
            "elapsed": time.monotonic() - began, "began_at": began_at, "rematches": made - tables}


def front_cpu_per_connection(server: ServerProcess, connections: int) -> float:
    """The front's CPU seconds per connection handed over (see the module's documentation)."""
    assert server.process is not None
    request = (f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
               "Connection: close\r\n\r\n").encode()

    async def one() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(request)
        await writer.drain()
        await reader.read()  # to the end: the worker closes it
        writer.close()

    async def all_of_them() -> None:
        gate = asyncio.Semaphore(20)

        async def gated() -> None:
            async with gate:
                await one()

        await asyncio.gather(*(gated() for _ in range(connections)))

    before = cpu_seconds(server.process.pid)
    asyncio.run(all_of_them())
    return (cpu_seconds(server.process.pid) - before) / connections


def sqlite_commits_per_second(seconds: float = 3.0) -> float:
    """Actions one process commits a second back to back, with the server's own store."""
    from playtable.web.server.store.store import SeatRow, SqlStore, TableRow

    with tempfile.TemporaryDirectory() as tmp:
        store = SqlStore(Path(tmp) / "commits.sqlite3")
        try:
            store.create(TableRow("commits", "troll", None, {}, 1, [SeatRow("troll", "human")], "now"))
            done, began = 0, time.perf_counter()
            cpu = time.process_time()
            while time.perf_counter() - began < seconds:
                done += 1
                store.append_action("commits", done, 0, "draw")
            return done / (time.process_time() - cpu)
        finally:
            store.close()


def measure(processes: int, tables: int, seconds: float, think: float, seed: int,
            probe: bool = False) -> dict[str, Any]:
    extra = ("--processes", str(processes), "--rate-limit", "100000", "--tables-per-minute", "10000",
             "--forwarded-allow-ips", "127.0.0.1")
    with tempfile.TemporaryDirectory() as tmp, probed(Path(tmp) / "probe", probe) as pauses, \
            start_server(Path(tmp) / "tables.sqlite3", extra_args=extra) as server:
        level = asyncio.run(run_level(server, tables, seconds, think, seed))
        if probe:
            level["pauses"] = pauses(level["began_at"], level["began_at"] + level["elapsed"])
    return {"processes": processes, **level}


@contextlib.contextmanager
def probed(folder: Path, on: bool) -> Iterator[Callable[[float, float], dict[int, list[float]]]]:
    """With `on`, servers started inside record their garbage collections of 1 ms or more
    (`stall_probe/sitecustomize.py`); yields a function of a wall-clock window that sums the
    table processes' pauses in it: generation -> [count, total seconds, longest]."""
    saved = {name: os.environ.get(name) for name in ("PYTHONPATH", "PLAYTABLE_STALL_PROBE")}
    if on:
        folder.mkdir()
        os.environ["PLAYTABLE_STALL_PROBE"] = str(folder)
        os.environ["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(Path(__file__).with_name("stall_probe")), saved["PYTHONPATH"]) if p)

    def pauses(start: float, end: float) -> dict[int, list[float]]:
        out: dict[int, list[float]] = {}
        for path in folder.glob("*.json"):
            found = json.loads(path.read_text())
            if not found["argv"][0].endswith(("processes.py", "__main__.py")):
                continue  # the front, the bot pools
            for at, generation, took, *_ in found["pauses"]:
                if start <= at <= end:
                    counts = out.setdefault(generation, [0, 0.0, 0.0])
                    counts[0] += 1
                    counts[1] += took
                    counts[2] = max(counts[2], took)
        return out

    try:
        yield pauses
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--tables", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time a move, seconds")
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--cores", type=int, default=16, help="the machine the projection is for")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--probe", action="store_true",
                        help="also print the table processes' garbage collections of 1 ms or more")
    args = parser.parse_args()
    rows = []
    for tables in args.tables:
        for processes in args.processes:
            rows.append(measure(processes, tables, args.seconds, args.think, args.seed, args.probe))
            print(f"  {rows[-1]}", file=sys.stderr)  # as it comes: a later failure loses nothing
    many = max(args.processes)
    extra = ("--processes", str(many))
    with tempfile.TemporaryDirectory() as tmp, \
            start_server(Path(tmp) / "tables.sqlite3", extra_args=extra) as server:
        front_ms = 1000 * front_cpu_per_connection(server, args.connections)
        front_load = load_average()
    commits = sqlite_commits_per_second()

    print(f"\nrandom troll games (plus-one), one player per table, think time mean {args.think} s, "
          f"{args.seconds:g} s a level\n")
    print("| processes | open tables | actions | actions/s | p50 round trip | p99 round trip "
          "| server CPU per action (all processes) | players' CPU per action | players' loop lag p99 "
          "| load average |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['processes']} | {r['tables']:,} | {r['actions']:,} | {r['per_s']:,.0f} | "
              f"{r['p50']:.1f} ms | {r['p99']:.1f} ms | {r['cpu_ms']:.2f} ms | "
              f"{r['players_cpu_ms']:.2f} ms | {r['lag_p99']:.1f} ms | {r['load']:.1f} |")
    for r in rows:
        if r["errors"] or r["unanswered"]:
            print(f"\n{r['processes']} processes, {r['tables']:,} tables: {len(r['errors'])} players "
                  f"stopped by an error (first: {r['errors'][:1]}), {r['unanswered']} unanswered")
    if args.probe:
        print("\ngarbage collections of 1 ms or more in the table processes during the level "
              "(stall_probe): count, total, longest, by generation\n")
        print("| processes | open tables | young (0) | middle (1) | full (2) |\n|---:|---:|---|---|---|")
        for r in rows:
            cells = []
            for generation in (0, 1, 2):
                n, total, longest = r["pauses"].get(generation, [0, 0.0, 0.0])
                cells.append(f"{n}, {1000 * total:.0f} ms, {1000 * longest:.0f} ms" if n else "none")
            print(f"| {r['processes']} | {r['tables']:,} | " + " | ".join(cells) + " |")
    print(f"\nthe front's CPU per connection ({args.connections:,} connections, {many} processes): "
          f"{front_ms:.3f} ms (load average {front_load:.1f})")
    print(f"SQLite commits of one action a CPU second, one process back to back: {commits:,.0f}")

    if 1 not in args.processes or many == 1:
        return  # the projection compares one process with several
    print(f"\n| open tables | one process: actions a CPU second | {many} processes: actions a CPU "
          f"second per process | {args.cores} cores: projected actions/s | factor over one core |")
    print("|---:|---:|---:|---:|---:|")
    for tables in args.tables:
        one = next(r for r in rows if r["tables"] == tables and r["processes"] == 1)
        several = next(r for r in rows if r["tables"] == tables and r["processes"] == many)
        single_rate = 1000 / one["cpu_ms"]
        worker_rate = 1000 / several["cpu_ms"]
        projected = min(args.cores * worker_rate, commits)
        print(f"| {tables:,} | {single_rate:,.0f} | {worker_rate:,.0f} | {projected:,.0f} | "
              f"{projected / single_rate:.1f}x |")


if __name__ == "__main__":
    main()
