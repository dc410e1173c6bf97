"""The table server under load: N simulated players on loopback WebSockets, each
playing random troll games at its own table, all at once.

    nice -n 10 .venv/bin/python benchmarks/web_load.py [--tables 50 200 1000] [--seconds 10]
        [--think 0.5] [--workers 1] [--game troll|wizard] [--profile DIR]

`--game wizard`: wizard tables of 5 seats, hero 1 a person (random legal actions)
and the other 4 seats heuristic bots in the server's worker pool; it also prints the time a bot
seat takes to answer (from the state that hands a bot the move to the state with its action).

The server is a real `playtable serve` subprocess this script starts and stops (a fresh SQLite
file, so every action is committed to disk before it is acknowledged). For each number of open
tables: create the tables over HTTP, connect one player to each, then for `--seconds` every
player plays: it waits a think time (uniform in [0, 2 x think], mean `--think` seconds; 0 plays
as fast as the server answers), sends a random legal action and waits for its next `state`.
The round trip is from the send to that state (an action sent within the level counts
however late its answer comes). A finished game is followed by a rematch (HTTP,
the same token), like a player asking for another deal; rematches are not counted as actions.
Prints actions/s, p50/p99 round trip, the players' own event-loop lag (their share of a round
trip when the machine is busy), the server's CPU time per action (from /proc: the figure that
does not depend on what else runs), and the server's resident memory (RSS of the server
process) per open table, with every table and connection open.

`--profile DIR` runs the server under cProfile, counting its event loop thread's CPU
time (benchmarks/server_profile.py), writes DIR/server-TABLES.prof for each level and prints
where an action's CPU goes: by layer (JSON, SQLite, WebSocket frames, the engine, ...) and by the
server's own steps. The profiler slows the server: take the other figures from a run without it.

The players run in this process, on the same 2 cores as the server: their own work (parsing
every state) is inside the figures, so the server alone is somewhat faster. Their garbage
collector is paused during a level: its full collections of 1,000 players' states held every
player up to 170 ms, a pause of the load generator's, not the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.server_process import ServerProcess, start_server  # noqa: E402

import server_profile  # noqa: E402

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
    def __init__(self, server: ServerProcess, http: httpx2.AsyncClient, created: dict[str, Any],
                 rng: random.Random, seat: int = 0, headers: dict[str, str] | None = None) -> None:
        self.server, self.http, self.rng, self.seat = server, http, rng, seat
        self.headers = headers or {}  # sent with every request (web_hostile.py: X-Forwarded-For)
        join = created["seats"][seat]["join_url"]
        self.table_id = created["table_id"]
        self.token = join.split("token=", 1)[1]
        self.ws: Any = None
        self.bot_waiting = False
        self.state: dict[str, Any] = {}
        self.state_of = ""  # the table `state` is of (a rematch changes `table_id` first)
        self.actions = 0  # actions acknowledged (round trips completed)
        self.progress = time.monotonic()  # when this table last moved on (a state received)
        self.pending: float | None = None  # perf_counter of an action sent and not yet answered

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            f"{self.server.ws_url}/ws/tables/{self.table_id}?seat={self.seat}&token={self.token}",
            max_size=None, compression=None, additional_headers=self.headers)
        self.state = await self.next_state()
        self.state_of = self.table_id

    async def next_state(self) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
            if message["type"] == "state":
                return message
            if message["type"] == "error":
                raise RuntimeError(f"server error: {message}")

    async def rematch(self) -> None:
        answer = await self.http.post(f"/api/tables/{self.table_id}/rematch",
                                      json={"seat": self.seat, "token": self.token}, headers=self.headers)
        self.table_id = answer.json()["table_id"]
        await self.ws.close()
        await self.connect()
        self.progress = time.monotonic()

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
                self.progress = time.monotonic()
                if time.monotonic() < until:
                    bot_times.append(time.perf_counter() - began)
                continue
            if think:
                await asyncio.sleep(self.rng.uniform(0, 2 * think))
            if self.state["terminal"]:
                await self.rematch()
                continue
            action = self.rng.choice(self.state["legal"])["action"]
            self.pending = sent = time.perf_counter()
            await self.ws.send(json.dumps({"type": "act", "action": action, "step": self.state["step"]}))
            self.state = await self.next_state()
            self.pending = None
            self.actions += 1
            self.progress = time.monotonic()
            times.append(time.perf_counter() - sent)  # sent within the level: counted, however late


async def loop_lag(until: float, lags: list[float]) -> None:
    """How late this process's own event loop wakes up (a 10 ms sleep, measured): the players'
    share of each round trip on a busy machine."""
    while time.monotonic() < until:
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - began - 0.01)


def percentile(ordered: list[float], q: float) -> float:
    """The q-quantile (0 to 1) of a sorted list by nearest rank; nan for an empty list."""
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def open_players(server: ServerProcess, http: httpx2.AsyncClient, tables: int, game: str,
                       rng: random.Random, addresses: bool = False) -> list[Player]:
    """`tables` new tables of `game` (TABLES), each with its player connected. `addresses`:
    each player comes from an address of its own (10.1.x.y in X-Forwarded-For, which a server
    started with `--forwarded-allow-ips 127.0.0.1` takes as the client's, as behind a proxy)."""
    async def make(k: int) -> Player:
        body, seat = TABLES[game]
        headers = {"X-Forwarded-For": f"10.1.{k // 250}.{k % 250 + 1}"} if addresses else {}
        answer = await http.post("/api/tables", json=body, headers=headers)
        if answer.status_code != 201:
            raise RuntimeError(f"creating a table: {answer.status_code} {answer.text[:200]}")
        return Player(server, http, answer.json(), random.Random(rng.random()), seat, headers)

    players: list[Player] = []
    for start in range(0, tables, 50):  # in batches, so setup does not flood the server
        players += await asyncio.gather(*(make(k) for k in range(start, min(tables, start + 50))))
        await asyncio.gather(*(p.connect() for p in players[start:]))
    return players


async def play_level(players: list[Player], seconds: float, think: float, grace: float = 60.0,
                     stall_after: float = 5.0) -> dict[str, Any]:
    """Every player plays for `seconds`. A round trip sent within the level is counted however
    late its answer; one still unanswered `grace` seconds after the end is cancelled and counted
    in `unanswered` (its wait so far in `worst_unanswered`). A player whose table sent an error
    or dropped it stops and is counted in `errors`. `stalled`: tables that did not move on
    (no state received) in the level's last `stall_after` seconds."""
    times: list[float] = []
    bot_times: list[float] = []
    lags: list[float] = []
    errors: list[str] = []
    began = time.monotonic()
    until = began + seconds
    progress_at_end: list[float] = []

    async def one(player: Player) -> None:
        try:
            await player.play(until, think, times, bot_times)
        except Exception as err:  # noqa: BLE001 - any failure of a player is a counted error
            errors.append(f"{type(err).__name__}: {err}"[:200])

    async def snapshot() -> None:
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        progress_at_end.extend(p.progress for p in players)

    tasks = [asyncio.ensure_future(one(p)) for p in players]
    tasks += [asyncio.ensure_future(loop_lag(until, lags)), asyncio.ensure_future(snapshot())]
    # The players stand for browsers on other machines: their own garbage collector's pauses
    # (a full collection of 1,000 players' states took up to 170 ms, every player waiting) are
    # not the server's, so it is paused for the level; the loop lag still shows their share.
    gc.collect()
    gc.disable()
    try:
        _, late = await asyncio.wait(tasks, timeout=seconds + grace)
    finally:
        gc.enable()
    for task in late:
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    now = time.perf_counter()
    waits = [now - p.pending for p in players if p.pending is not None]
    elapsed = time.monotonic() - began
    return {
        "times": sorted(times), "bot_times": sorted(bot_times), "lags": sorted(lags),
        "errors": errors, "elapsed": min(elapsed, seconds + grace),
        "unanswered": len(waits), "worst_unanswered": max(waits, default=0.0),
        "stalled": sum(until - at > stall_after for at in progress_at_end),
        "bots_waiting": sum(p.bot_waiting for p in players),
    }


async def close_players(players: list[Player]) -> None:
    await asyncio.gather(*(p.ws.close() for p in players if p.ws is not None),
                         return_exceptions=True)


async def run_level(server: ServerProcess, tables: int, seconds: float, think: float,
                    seed: int, game: str = "troll", addresses: bool = False) -> dict[str, Any]:
    assert server.process is not None
    base_rss = rss_kib(server.process.pid)
    limits = httpx2.Limits(max_connections=50)
    async with httpx2.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        players = await open_players(server, http, tables, game, random.Random(seed), addresses)
        loaded_rss = rss_kib(server.process.pid)
        profiled = bool(server.interpreter_args)  # server_profile.py: profile the play only
        if profiled:
            os.kill(server.process.pid, signal.SIGUSR1)
        cpu = cpu_seconds(server.process.pid)
        level = await play_level(players, seconds, think)
        cpu = cpu_seconds(server.process.pid) - cpu
        if profiled:
            os.kill(server.process.pid, signal.SIGUSR2)
        await close_players(players)
    ordered, bots = level["times"], level["bot_times"]
    return {
        "bot_answers": len(bots),
        "bots_waiting": level["bots_waiting"],
        "bot_p50": 1000 * percentile(bots, 0.5),
        "bot_p99": 1000 * percentile(bots, 0.99),
        "tables": tables,
        "actions": len(ordered),
        "per_s": len(ordered) / level["elapsed"],
        "p50": 1000 * percentile(ordered, 0.5),
        "p95": 1000 * percentile(ordered, 0.95),
        "p99": 1000 * percentile(ordered, 0.99),
        "max": 1000 * max(ordered[-1:] + [level["worst_unanswered"]]),
        "errors": level["errors"],
        "unanswered": level["unanswered"],
        "stalled": level["stalled"],
        "rss_mib": loaded_rss / 1024,
        "per_table_kib": (loaded_rss - base_rss) / tables,
        "cpu_ms": 1000 * cpu / max(1, len(ordered)),
        "lag_p99": 1000 * percentile(level["lags"], 0.99),
    }


@functools.cache
def serve_options() -> str:
    """`playtable serve --help`: which options this server has (the hostile-client work added some)."""
    return subprocess.run([sys.executable, "-m", "playtable", "serve", "--help"],
                          capture_output=True, text=True, timeout=60).stdout


def measure(tables: int, seconds: float, think: float, workers: int = 1, seed: int = 1,
            game: str = "troll", profile: Path | None = None) -> dict[str, Any]:
    """One level, as this script's table prints it, on a fresh server it starts and stops
    (benchmarks/web_hostile.py prints this figure beside its own)."""
    # A fresh server per level, so memory per table is measured from an empty server;
    # a high per-connection message rate, so the fastest players are never throttled. Where
    # the server limits each client address, every player comes from its own, as
    # behind a proxy (X-Forwarded-For, believed from 127.0.0.1), and may create tables at will.
    extra: tuple[str, ...] = ("--rate-limit", "100000")
    addresses = "--forwarded-allow-ips" in serve_options()
    if addresses:
        extra += ("--forwarded-allow-ips", "127.0.0.1")
    if "--tables-per-minute" in serve_options():
        extra += ("--tables-per-minute", "10000")
    profiled = () if profile is None else (
        str(Path(__file__).with_name("server_profile.py")), str(profile / f"server-{tables}.prof"))
    with tempfile.TemporaryDirectory() as tmp, \
            start_server(Path(tmp) / "tables.sqlite3", workers=workers, extra_args=extra,
                         interpreter_args=profiled) as server:
        level = asyncio.run(run_level(server, tables, seconds, think, seed, game, addresses))
    if profile is not None:  # the server has stopped cleanly (SIGTERM): its profile is written
        print(server_profile.report(profiled[1], level["actions"]) + "\n")
    return level


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time a move, seconds")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=sorted(TABLES), default="troll")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="run the server under cProfile; write DIR/server-TABLES.prof and print it")
    args = parser.parse_args()
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    rows = []
    for tables in args.tables:
        rows.append(measure(tables, args.seconds, args.think, args.workers, args.seed, args.game,
                            args.profile))
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
    for r in rows:
        if r["errors"] or r["stalled"] or r["unanswered"]:
            print(f"\n{r['tables']:,} tables: {len(r['errors'])} players stopped by an error "
                  f"(first: {r['errors'][:1]}), {r['unanswered']} round trips unanswered, "
                  f"{r['stalled']} tables did not move on in the level's last 5 s")
    if args.game != "troll":
        print("\n| open tables | bot answers | bot answer p50 | bot answer p99 | tables still waiting "
              "for a bot at the end |\n|---:|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['tables']:,} | {r['bot_answers']:,} | {r['bot_p50']:.1f} ms "
                  f"| {r['bot_p99']:.1f} ms | {r['bots_waiting']:,} |")


if __name__ == "__main__":
    main()
