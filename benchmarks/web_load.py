"""The table server under load (issue 11): N simulated players on loopback WebSockets, each
playing random troll games at its own table, all at once.

    nice -n 10 .venv/bin/python benchmarks/web_load.py [--tables 50 200 1000] [--seconds 10]
        [--think 0.5] [--workers 1] [--game troll|wizard]

`--game wizard` (issue 16): wizard tables of 5 seats, hero 1 a person (random legal actions)
and the other 4 seats heuristic bots in the server's worker pool; it also prints the time a bot
seat takes to answer (from the state that hands a bot the move to the state with its action).

The server is a real `playtable serve` subprocess this script starts and stops (a fresh SQLite
file, so every action is committed to disk before it is acknowledged). For each number of open
tables: create the tables over HTTP, connect one player to each, then for `--seconds` every
player plays: it waits a think time (uniform in [0, 2 x think], mean `--think` seconds; 0 plays
as fast as the server answers), sends a random legal action and waits for its next `state`.
The round trip is from the send to that state. A finished game is followed by a rematch (HTTP,
the same token), like a player asking for another deal; rematches are not counted as actions.
Prints actions/s, p50/p99 round trip, the players' own event-loop lag (their share of a round
trip when the machine is busy), the server's CPU time per action (from /proc: the figure that
does not depend on what else runs), and the server's resident memory (RSS of the server
process) per open table, with every table and connection open.

The players run in this process, on the same 2 cores as the server: their own work (parsing
every state) is inside the figures, so the server alone is somewhat faster.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.server_process import ServerProcess, start_server  # noqa: E402

TROLL = {"game": "troll", "variant": "plus-one", "seats": [{"kind": "human"}]}
BOT = {"kind": "bot", "agent": "heuristic"}
WIZARD = {"game": "wizard", "players": 5, "seats": [BOT, {"kind": "human"}, BOT, BOT, BOT]}
TABLES = {"troll": (TROLL, 0), "wizard": (WIZARD, 1)}  # the table, the person's seat


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/PID/stat fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Player:
    def __init__(self, server: ServerProcess, http: httpx.AsyncClient, created: dict[str, Any],
                 rng: random.Random, seat: int = 0) -> None:
        self.server, self.http, self.rng, self.seat = server, http, rng, seat
        join = created["seats"][seat]["join_url"]
        self.table_id = created["table_id"]
        self.token = join.split("token=", 1)[1]
        self.ws: Any = None
        self.bot_waiting = False
        self.state: dict[str, Any] = {}

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            f"{self.server.ws_url}/ws/tables/{self.table_id}?seat={self.seat}&token={self.token}",
            max_size=None, compression=None)
        self.state = await self.next_state()

    async def next_state(self) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
            if message["type"] == "state":
                return message
            if message["type"] == "error":
                raise RuntimeError(f"server error: {message}")

    async def rematch(self) -> None:
        answer = await self.http.post(f"/api/tables/{self.table_id}/rematch",
                                      json={"seat": self.seat, "token": self.token})
        self.table_id = answer.json()["table_id"]
        await self.ws.close()
        await self.connect()

    async def play(self, until: float, think: float, times: list[float],
                   bot_times: list[float]) -> None:
        while time.monotonic() < until:
            if not self.state["terminal"] and not self.state["your_turn"]:  # a bot seat to move
                began = time.perf_counter()
                try:  # a bot still thinking at the end of the level is counted as unanswered
                    self.state = await asyncio.wait_for(self.next_state(),
                                                        max(0.01, until - time.monotonic()))
                except TimeoutError:
                    self.bot_waiting = True
                    return
                if time.monotonic() < until:
                    bot_times.append(time.perf_counter() - began)
                continue
            if think:
                await asyncio.sleep(self.rng.uniform(0, 2 * think))
            if self.state["terminal"]:
                await self.rematch()
                continue
            action = self.rng.choice(self.state["legal"])["action"]
            sent = time.perf_counter()
            await self.ws.send(json.dumps({"type": "act", "action": action, "step": self.state["step"]}))
            self.state = await self.next_state()
            if time.monotonic() < until:
                times.append(time.perf_counter() - sent)


async def loop_lag(until: float, lags: list[float]) -> None:
    """How late this process's own event loop wakes up (a 10 ms sleep, measured): the players'
    share of each round trip on a busy machine."""
    while time.monotonic() < until:
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - began - 0.01)


async def run_level(server: ServerProcess, tables: int, seconds: float, think: float,
                    seed: int, game: str = "troll") -> dict[str, float]:
    assert server.process is not None
    base_rss = rss_kib(server.process.pid)
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        async def make() -> Player:
            body, seat = TABLES[game]
            answer = await http.post("/api/tables", json=body)
            return Player(server, http, answer.json(), random.Random(rng.random()), seat)

        players = []
        for start in range(0, tables, 50):  # in batches, so setup does not flood the server
            players += await asyncio.gather(*(make() for _ in range(start, min(tables, start + 50))))
            await asyncio.gather(*(p.connect() for p in players[start:]))
        loaded_rss = rss_kib(server.process.pid)
        times: list[float] = []
        bot_times: list[float] = []
        cpu = cpu_seconds(server.process.pid)
        began = time.monotonic()
        lags: list[float] = []
        await asyncio.gather(loop_lag(began + seconds, lags),
                             *(p.play(began + seconds, think, times, bot_times) for p in players))
        elapsed = time.monotonic() - began
        cpu = cpu_seconds(server.process.pid) - cpu
        await asyncio.gather(*(p.ws.close() for p in players))
    ordered = sorted(times)
    bots = sorted(bot_times) or [float("nan")]
    return {
        "bot_answers": len(bot_times),
        "bots_waiting": sum(p.bot_waiting for p in players),
        "bot_p50": 1000 * statistics.median(bots),
        "bot_p99": 1000 * bots[min(len(bots) - 1, int(0.99 * len(bots)))],
        "tables": tables,
        "actions": len(times),
        "per_s": len(times) / elapsed,
        "p50": 1000 * statistics.median(ordered),
        "p99": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "rss_mib": loaded_rss / 1024,
        "per_table_kib": (loaded_rss - base_rss) / tables,
        "cpu_ms": 1000 * cpu / max(1, len(times)),
        "lag_p99": 1000 * sorted(lags)[int(0.99 * len(lags))],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time a move, seconds")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=sorted(TABLES), default="troll")
    args = parser.parse_args()
    rows = []
    for tables in args.tables:
        # A fresh server per level, so memory per table is measured from an empty server;
        # a high per-connection message rate, so the fastest players are never throttled.
        with tempfile.TemporaryDirectory() as tmp, \
                start_server(Path(tmp) / "tables.sqlite3", workers=args.workers,
                             extra_args=("--rate-limit", "100000")) as server:
            rows.append(asyncio.run(run_level(server, tables, args.seconds, args.think, args.seed,
                                              args.game)))
        print(f"  {tables} tables done", file=sys.stderr)
    what = ("random troll games (plus-one), one player per table" if args.game == "troll" else
            "wizard games of 5 seats, hero 1 a person playing at random, 4 heuristic bots")
    print(f"\n{what}, think time mean {args.think} s, {args.seconds:g} s a level\n")
    print("| open tables | actions | actions/s | p50 round trip | p99 round trip | players' loop lag p99 "
          "| server CPU per action | server RSS | RSS per table |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['tables']:,} | {r['actions']:,} | {r['per_s']:,.0f} | {r['p50']:.1f} ms | "
              f"{r['p99']:.1f} ms | {r['lag_p99']:.1f} ms | {r['cpu_ms']:.2f} ms | {r['rss_mib']:.0f} MiB | "
              f"{r['per_table_kib']:.0f} KiB |")
    if args.game != "troll":
        print("\n| open tables | bot answers | bot answer p50 | bot answer p99 | tables still waiting "
              "for a bot at the end |\n|---:|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['tables']:,} | {r['bot_answers']:,} | {r['bot_p50']:.1f} ms "
                  f"| {r['bot_p99']:.1f} ms | {r['bots_waiting']:,} |")


if __name__ == "__main__":
    main()
