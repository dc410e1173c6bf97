"""The table server's CPU and machine instructions per action, with nothing else running on it:
a steadier figure than web_load.py's, for comparing two versions of the server.

    .venv/bin/python benchmarks/server_actions.py [--actions 3000] [--tables 20] [--rounds 2]
        [--before REF] [--callgrind] [--hub [--tracked]]

A real `playtable serve` subprocess (a fresh SQLite file, the default settings but for the rate
limit) and one client in this process that plays `--tables` troll tables (plus-one, one person
each, seeds 1, 2, ...) in turn, one action at a time: it sends a random legal action and waits
for the new `state`, so the server handles exactly one action per wake-up, as it mostly does in
web_load.py at 200 tables. A finished game is followed by a new table (POST /api/tables with the
next seed; not counted as an action, its cost is in the figure as web_load.py's rematches are).
Everything the client does is decided by fixed seeds, so two runs send the same messages. One
game played to its end (and a new table) comes first, not counted: lazy imports and every
other first-time cost.

Figures, over the play only (making the first tables and connecting are left out):
- server CPU per action: the server process's user + system time (/proc), every thread of it
  (the SQLite checkpoint thread too), not its worker processes;
- with `--callgrind`, the server runs under valgrind's callgrind (about 50 times slower) with
  instrumentation switched on only around the play (`callgrind_control -i on/off`), and the
  figure is machine instructions per action: independent of the machine's load.

`--watchers N` opens N watcher sockets at every table besides its player (each reads every
state: a watched table's message is the same for all its watchers).

`--hub` leaves the transport out: the same play goes straight through the hub in this process
(`wire.parse_client_message`, `Hub.handle`, the SQLite commit, each message the connection gets
encoded as the socket's writer does), without uvicorn, Starlette, WebSocket frames, sockets or the
event loop's turns. With `--callgrind` it runs twice under callgrind, with 0 and with `--actions`
actions (PYTHONHASHSEED fixed; both after the uncounted first game); the difference over the
actions is the hub's cost of one. `--hub --tracked` also counts the objects the cyclic collector
tracks that an action leaves alive (the collector paused and everything before the play frozen;
over the play's second half, new tables included): what a young collection under a held load
scans and the cause of its long pauses (docs/web.md "Sustained load"). Its CPU figure is then
without the collector.

`--store node` runs the server as one node of a site on PostgreSQL (`--node`, its leases and
fenced writes; a durable PostgreSQL started in a scratch folder as web_hold.py starts it, a new
database for each server): what a node's action costs against the same play on SQLite. The
PostgreSQL server's own CPU is not in the figure.

`--before REF` runs the server of a git ref (its `src/` unpacked, put first on PYTHONPATH) too,
alternating with the working tree's for `--rounds` rounds, and prints both side by side.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pg_server import PgServer, skip_reason  # noqa: E402
from tests.web.nodes import NODE_ENV  # noqa: E402
from tests.web.server_process import STARTUP_TIMEOUT, free_port  # noqa: E402

from stardice_env_speed import unpack  # noqa: E402  # a git ref's src/, unpacked

TROLL = {"game": "troll", "variant": "plus-one", "seats": [{"kind": "human"}]}
WARM_UP_SEED = 1000
"""A game played to its end before the counted play (its first-time costs are not counted)."""


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process so far (/proc/PID/stat fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


class Server:
    """`playtable serve` on a free port, from `src` (None: the working tree), maybe under callgrind."""

    def __init__(self, tmp: Path, src: Path | None, callgrind: bool, db: str | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.callgrind_out = tmp / f"callgrind.{self.port}"
        """Each process its own file (`.PID`): the worker processes are forked under valgrind too."""
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONHASHSEED="0", **(NODE_ENV if db else {}))
        if src is not None:
            env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")
        command = [sys.executable, "-m", "playtable", "serve", "--host", "127.0.0.1", "--port",
                   str(self.port), "--db", db or str(tmp / f"tables-{self.port}.sqlite3"), "--workers", "1",
                   "--rate-limit", "100000", "--tables-per-minute", "10000"]
        if db:
            command += ["--node", "actions-1", "--node-url", self.url]
        help_text = subprocess.run([*command[:4], "--help"], env=env, capture_output=True, text=True,
                                   timeout=60).stdout
        if "--tables-per-network" in help_text:  # every table comes from 127.0.0.1: one network
            command += ["--tables-per-network", "1000000"]
        if callgrind:
            command = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                       f"--callgrind-out-file={self.callgrind_out}.%p", *command]
        self.log_path = tmp / f"server-{self.port}.log"
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=self.log,
                                        stdin=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + STARTUP_TIMEOUT * (20 if callgrind else 1)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}: "
                                   f"{self.log_path.read_text(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=5):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("the server did not start")

    def instrument(self, on: bool) -> None:
        """Switch callgrind's counting on or off; a request wakes the server so it sees it."""
        control = subprocess.Popen(["callgrind_control", "-i", "on" if on else "off",
                                    str(self.process.pid)], stdout=subprocess.DEVNULL)
        while control.poll() is None:
            with urllib.request.urlopen(self.url + "/api/games", timeout=60):
                pass
            time.sleep(0.2)

    def instructions(self) -> int:
        """Instructions counted (after `stop`): the total of the callgrind file's summary."""
        text = Path(f"{self.callgrind_out}.{self.process.pid}").read_text()
        match = re.search(r"^totals:\s+(\d+)", text, re.M)
        if match is None:
            raise RuntimeError("no instruction total in the callgrind output")
        return int(match.group(1))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Player:
    """One table's person: connects, then plays random legal actions one at a time."""

    def __init__(self, server: Server, seed: int, rng: random.Random, watchers: int = 0) -> None:
        self.server, self.rng, self.watching = server, rng, watchers
        self.watchers: list[ClientConnection] = []
        self.sit(seed)

    def sit(self, seed: int) -> None:
        created = post(self.server.url + "/api/tables", {**TROLL, "seed": seed})
        token = created["seats"][0]["join_url"].split("token=", 1)[1]
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{self.server.port}/ws/tables/{created['table_id']}?seat=0&token={token}",
            max_size=None, compression=None, open_timeout=600).__enter__()
        self.state = self.next_state()
        self.watchers = [connect(f"ws://127.0.0.1:{self.server.port}/ws/tables/{created['table_id']}",
                                 max_size=None, compression=None, open_timeout=600).__enter__()
                         for _ in range(self.watching)]
        for watcher in self.watchers:
            self.next_state(watcher)

    def close(self) -> None:
        for ws in [self.ws, *self.watchers]:
            ws.close()

    def next_state(self, ws: ClientConnection | None = None) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads((ws or self.ws).recv(timeout=600))
            if message["type"] == "state":
                return message
            if message["type"] == "error":
                raise RuntimeError(f"server error: {message}")

    def act(self, next_seed: int) -> bool:
        """One action, answered; a new table first if the game is over (True: it was)."""
        renewed = self.state["terminal"]
        if renewed:
            self.close()
            self.sit(next_seed)
        action = self.rng.choice(self.state["legal"])["action"]
        self.ws.send(json.dumps({"type": "act", "action": action, "step": self.state["step"]}))
        self.state = self.next_state()
        for watcher in self.watchers:
            self.next_state(watcher)
        return renewed


def server_module(name: str) -> Any:
    """A module of the server under test by its file's name: in its room (`web/server/<room>/`)
    or, in a server from before the rooms, in `web/server/` itself."""
    for room in ("tables.", "transport.", "store.", ""):
        try:
            return importlib.import_module(f"playtable.web.server.{room}{name}")
        except ImportError:
            continue
    raise ImportError(f"the server under test has no module {name}")


async def hub_play(actions: int, tables: int, db: Path, watchers: int = 0,
                   tracked: bool = False) -> tuple[float, int, float]:
    """`--hub`'s play (in a worker process of this script): the CPU seconds of `actions`
    actions through a hub in this process, the new tables it made, and with `tracked` the
    objects the cyclic collector tracks that an action leaves alive (over the play's second
    half, so that the tables' first states are not counted; NaN without `tracked`)."""
    from playtable.web.server.hub import Hub
    tables_module = server_module("tables")
    fresh_start = getattr(tables_module, "fresh_start", None)
    if fresh_start is None:  # a server from before snapshots: its hub made the first state
        from playtable.web.server.hub import _new_state  # type: ignore[attr-defined]

        def fresh_start(row: Any) -> Any:
            return _new_state(row.game, row.params, row.seed)
    wire = server_module("wire")
    encode = getattr(wire, "encode", None)
    if encode is None:  # a server from before it had one: what its writer did
        def encode(message: dict[str, Any]) -> str:
            return json.dumps(message, separators=(",", ":"))
    store_module = server_module("store")
    SqlStore = getattr(store_module, "SqlStore", None) or store_module.SqliteStore  # before PostgreSQL
    row_from_request = server_module("table_request").row_from_request
    Table, parse_client_message = tables_module.Table, wire.parse_client_message

    store = SqlStore(db)
    hub = Hub(store, None)  # type: ignore[arg-type]  # no bots: troll tables of one person
    connections = getattr(hub, "connections", hub)  # a hub from before its concerns had classes
    conn_table: dict[Any, Any] = {}

    def sit(seed: int) -> tuple[Any, Any, dict[str, Any]]:
        row, tokens, _ = row_from_request({**TROLL, "seed": seed})
        table = Table(row, fresh_start(row))
        store.create(row)
        hub.tables[row.id] = table
        conn, _ = connections.connect(table, "0", tokens[0])
        assert conn is not None
        conn_table[conn] = table
        hub.greet(table, conn)
        for _ in range(watchers):
            watcher, _ = connections.connect(table, None, None)
            assert watcher is not None
            hub.greet(table, watcher)
        return table, conn, drain(conn)

    def drain(conn: Any) -> dict[str, Any]:
        """Encode everything the table's connections were sent (as their writers would); the
        last state the player got."""
        state: dict[str, Any] = {}
        for other in list(conn_table[conn].connections):
            for message in other.outbox:
                encode(message)
                if other is conn and message["type"] == "state":
                    state = message
            other.outbox.clear()
        return state

    async def play(table: Any, conn: Any, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        action = rng.choice(state["legal"])["action"]
        raw = json.dumps({"type": "act", "action": action, "step": state["step"]})
        await hub.handle(table, conn, parse_client_message(raw))
        return drain(conn)

    rng = random.Random(1)
    table, conn, state = sit(WARM_UP_SEED)  # every lazy import and first-time cost, not counted
    while not state["terminal"]:
        state = await play(table, conn, state, rng)
    for gone in list(table.connections):
        connections.disconnect(table, gone)
    rngs = [random.Random(rng.random()) for _ in range(tables)]
    seats = [sit(seed) for seed in range(1, tables + 1)]
    seed, new_tables = tables, 0
    if tracked:  # from here on, every object the collector tracks is young until the end
        gc.collect()
        gc.disable()
        gc.freeze()
    halfway = 0
    began = time.process_time()
    for k in range(actions):
        if tracked and k == actions // 2:
            halfway = len(gc.get_objects(0))
        table, conn, state = seats[k % tables]
        if state["terminal"]:
            for gone in list(table.connections):
                connections.disconnect(table, gone)
            seed, new_tables = seed + 1, new_tables + 1
            table, conn, state = seats[k % tables] = sit(seed)
        seats[k % tables] = (table, conn, await play(table, conn, state, rngs[k % tables]))
    cpu = time.process_time() - began
    left = (len(gc.get_objects(0)) - halfway) / (actions - actions // 2) if tracked else float("nan")
    store.close()
    return cpu, new_tables, left


def hub_worker(actions: int, tables: int, watchers: int, tracked: bool) -> None:
    import asyncio

    with tempfile.TemporaryDirectory() as tmp:
        cpu, new_tables, left = asyncio.run(hub_play(actions, tables, Path(tmp) / "tables.sqlite3",
                                                     watchers, tracked))
    print(json.dumps({"cpu": cpu, "new_tables": new_tables, "tracked": left}))


def measure_hub(src: Path | None, actions: int, tables: int, callgrind: bool,
                watchers: int = 0, tracked: bool = False) -> dict[str, float]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    if src is not None:
        env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")

    def run(n: int) -> tuple[dict[str, Any], int]:
        command = [sys.executable, __file__, "--hub-worker", "--actions", str(n), "--tables",
                   str(tables), "--watchers", str(watchers), *(["--tracked"] if tracked else [])]
        if callgrind:
            command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
        done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT, check=True)
        counted = re.search(r"refs:\s+([\d,]+)", done.stderr) if callgrind else None
        instructions = int(counted.group(1).replace(",", "")) if counted else 0
        return json.loads(done.stdout.splitlines()[-1]), instructions

    played, total = run(actions)
    out = {"cpu_ms": 1000 * played["cpu"] / actions, "user_ms": float("nan"),
           "system_ms": float("nan"), "wall_ms": float("nan"), "new_tables": played["new_tables"],
           "tracked": played["tracked"]}
    if callgrind:
        _, base = run(0)
        out["instructions"] = (total - base) / actions
    return out


def measure(src: Path | None, actions: int, tables: int, callgrind: bool,
            watchers: int = 0, tracked: bool = False, pg: PgServer | None = None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), src, callgrind, None if pg is None else pg.database())
        try:
            rng = random.Random(1)
            warm_up = Player(server, WARM_UP_SEED, rng)
            while not warm_up.act(WARM_UP_SEED + 1):
                pass
            warm_up.close()
            players = [Player(server, seed, random.Random(rng.random()), watchers)
                       for seed in range(1, tables + 1)]
            if callgrind:
                server.instrument(True)
            began, wall = cpu_seconds(server.process.pid), time.perf_counter()
            seed, new_tables = tables, 0
            for k in range(actions):
                if players[k % tables].act(seed + 1):
                    seed, new_tables = seed + 1, new_tables + 1
            ended, wall = cpu_seconds(server.process.pid), time.perf_counter() - wall
            if callgrind:
                server.instrument(False)
            for player in players:
                player.close()
        finally:
            server.stop()
        user, system = ended[0] - began[0], ended[1] - began[1]
        out = {"cpu_ms": 1000 * (user + system) / actions, "user_ms": 1000 * user / actions,
               "system_ms": 1000 * system / actions, "wall_ms": 1000 * wall / actions,
               "new_tables": new_tables}
        if callgrind:
            out["instructions"] = server.instructions() / actions
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=3000)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--before", default=None, help="git ref of the server to compare with")
    ap.add_argument("--callgrind", action="store_true", help="count instructions (valgrind)")
    ap.add_argument("--hub", action="store_true", help="the hub in this process, no transport")
    ap.add_argument("--watchers", type=int, default=0, help="watcher sockets at every table")
    ap.add_argument("--tracked", action="store_true",
                    help="with --hub: objects the collector tracks that an action leaves alive "
                         "(the collector paused, so the CPU figure is without it)")
    ap.add_argument("--store", choices=("sqlite", "node"), default="sqlite",
                    help="node: one node of a site on PostgreSQL (a scratch server)")
    ap.add_argument("--hub-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.hub_worker:
        hub_worker(args.actions, args.tables, args.watchers, args.tracked)
        return
    if args.tracked and not args.hub:
        raise SystemExit("--tracked counts the objects of the hub in this process: give --hub too")
    if args.callgrind and shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    if args.store == "node" and (args.hub or skip_reason()):
        raise SystemExit("--store node plays through a real node on PostgreSQL: "
                         + ("not with --hub" if args.hub else str(skip_reason())))
    pg = None
    if args.store == "node":
        pg = PgServer()
        pg.durable = True
        pg.start()
    try:
        rows = play_rounds(args, pg)
    finally:
        if pg is not None:
            pg.stop()
    print_table(args, rows)


def play_rounds(args: argparse.Namespace, pg: PgServer | None) -> list[tuple[int, str, dict[str, float]]]:
    with tempfile.TemporaryDirectory() as tmp:
        servers: list[tuple[str, Path | None]] = []
        if args.before:
            servers.append((f"before ({args.before})", unpack(args.before, Path(tmp))))
        servers.append(("now (working tree)", None))
        rows: list[tuple[int, str, dict[str, float]]] = []
        for round_ in range(1, args.rounds + 1):
            for name, src in servers:
                if args.hub:
                    row = measure_hub(src, args.actions, args.tables, args.callgrind, args.watchers,
                                      args.tracked)
                else:
                    row = measure(src, args.actions, args.tables, args.callgrind, args.watchers, pg=pg)
                rows.append((round_, name, row))
                print(f"  round {round_}, {name}: {rows[-1][2]}", file=sys.stderr)
    return rows


def print_table(args: argparse.Namespace, rows: list[tuple[int, str, dict[str, float]]]) -> None:
    print(f"troll tables (plus-one), {args.tables} tables played in turn, {args.actions:,} actions "
          "one at a time" + (f", {args.watchers} watchers a table" if args.watchers else "")
          + (", through the hub in-process (no transport)" if args.hub else "")
          + (", one node on PostgreSQL" if args.store == "node" else ""))
    print(f"  command: {' '.join([Path(sys.executable).name, *sys.argv])}\n")
    head = ("| round | server | server CPU per action | of which user | of which system "
            "| round trip (wall) | new tables |")
    rule = "|---:|---|---:|---:|---:|---:|---:|"
    if args.callgrind:
        head, rule = head + " instructions per action |", rule + "---:|"
    if args.tracked:
        head, rule = head + " tracked objects left per action |", rule + "---:|"
    print(head + "\n" + rule)
    for round_, name, r in rows:
        line = (f"| {round_} | {name} | {r['cpu_ms']:.3f} ms | {r['user_ms']:.3f} ms "
                f"| {r['system_ms']:.3f} ms | {r['wall_ms']:.3f} ms "
                f"| {r['new_tables']:.0f} |")
        if args.callgrind:
            line += f" {r['instructions'] / 1e6:.3f} M |"
        if args.tracked:
            line += f" {r['tracked']:.2f} |"
        print(line)


if __name__ == "__main__":
    main()
