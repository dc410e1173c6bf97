"""Several nodes on one PostgreSQL behind nginx, under the load of benchmarks/web_load.py
(docs/web.md, "Several machines", "Measured: nodes").

    nice -n 10 .venv/bin/python benchmarks/web_nodes.py [--tables 1000] [--seconds 20]
        [--nodes 1 2 3] [--sqlite | --no-sqlite] [--think 0.5] [--cores 16] [--pg-cores 16]

It starts a PostgreSQL of its own in a scratch folder (tests/pg_server.py, with fsync on as a
site's server) and, for each count in `--nodes`, that many `playtable serve --node` processes on
a fresh database behind a real nginx running docs/deploy/nginx-nodes.conf (tests/web/nodes.py:
its hash of the table id picks the node). `--sqlite` also runs one `playtable serve` on a fresh
SQLite file behind the same nginx site, as one machine runs today (no `--node`, so no leases), for
comparison. Each configuration: `--tables`
tables made through nginx, one scripted player at each over a WebSocket through nginx (wss,
the site's TLS), every player playing random troll games for `--seconds` as web_load.py plays
(think time uniform in [0, 2 x think]; a rematch after each game). It prints:

- actions/s and the p50/p99 round trip (from the send to the next state, through nginx);
- the server's CPU an action on each node (each node process and its children, from
  /proc/PID/stat), counted over the actions of all the tables (each node serves its share);
- PostgreSQL's CPU an action (the postmaster, every backend it has now, and the CPU of the
  backends it reaped meanwhile: /proc's cutime and cstime) and its commits a second
  (`pg_stat_database.xact_commit` of the database, before and after);
- with the largest count of nodes (2 or more), after its level: one node is killed (SIGKILL)
  and every page that was on it reconnects through nginx every 0.5 s until a move is
  acknowledged again: the time from the kill until the first table, half of them and all of
  them are back, and the tables whose record lost an acknowledged move (must be 0);
- this machine's CPU an action, every part of the run: the nodes, PostgreSQL, nginx (its master
  and worker, /proc) and the simulated players (this process's own CPU over the level), their
  sum, and the cores the load the players offer (tables / mean think time actions a second)
  needs of a machine that runs them all: where that passes the machine's cores, no node figure
  of that run is the node's own.

Then a projection for N machines of `--cores` cores each on one PostgreSQL machine of
`--pg-cores` cores, from the CPU figures only (never from this shared machine's wall-clock
rates): a machine serves cores / (a node's CPU an action) actions a second, PostgreSQL at most
pg-cores / (its CPU an action); where the sum of the machines passes that, PostgreSQL is the
limit. The players run in this process on the same cores (their garbage collector paused during
a level, as web_load.py says): print the load beside any wall-clock figure. Ctrl-C (or SIGTERM)
stops every node, nginx and PostgreSQL it started.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import signal
import ssl
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import httpx2
import websockets
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tests.web.test_nginx  # noqa: E402
from tests.pg_server import PgServer, skip_reason  # noqa: E402
from tests.web.nodes import NodesSite, holders  # noqa: E402
from tests.web.server_process import ServerProcess  # noqa: E402
from tests.web.test_nginx import NAME, NGINX, OPENSSL  # noqa: E402
from tests.web.test_restart import _descendants  # noqa: E402

from playtable.web.server.store.schema import opened  # noqa: E402
from web_load import TABLES, Player, close_players, percentile, play_level  # noqa: E402

LIMITS = ("--tables-per-minute", "10000", "--tables-per-network", "100000", "--rate-limit", "100000")
COMEBACK_WAIT = 60.0
"""How long the killed node's pages keep reconnecting (the lease runs out 4 to 6 s after a kill)."""
RETRY = 0.5
HTTP_ADDRESSES = 20
"""The players' HTTP clients (new tables, rematches), each from a loopback address of its own:
a node's budget of new tables an address a minute (10,000 at most) is shared by 50 players."""
PROJECTED_MACHINES = (1, 2, 4, 8, 16, 32, 64)


_TESTS_MAIN_CONFIG = tests.web.test_nginx.main_config


def _nginx_for_thousands(tmp: Path, site: Path) -> str:
    """The tests' nginx.conf with room for every player's socket (the tests' 1,024 connections a
    worker hold only 512 proxied WebSockets; each proxied one is two connections). main() puts
    it in the tests' place, so that importing this module changes nothing."""
    config = _TESTS_MAIN_CONFIG(tmp, site)
    if "worker_connections 1024;" not in config:
        raise RuntimeError("tests/web/test_nginx.py's nginx.conf changed: give web_nodes.py its room again")
    return config.replace("worker_connections 1024;", "worker_connections 8192;")


# --- CPU from /proc -------------------------------------------------------------------------

@dataclass(frozen=True)
class StatTimes:
    """A process's CPU clock ticks (/proc/PID/stat fields 14 to 17): its own, and its reaped
    children's."""

    utime: int
    stime: int
    cutime: int
    cstime: int


def parse_stat(text: str) -> StatTimes:
    """/proc/PID/stat's times; the command name (field 2, in parentheses) may hold spaces and
    parentheses itself, so the fields are counted after its last ')'."""
    fields = text.rsplit(")", 1)[1].split()
    return StatTimes(*(int(fields[i]) for i in (11, 12, 13, 14)))


def _stat(pid: int) -> StatTimes | None:
    try:
        return parse_stat(Path(f"/proc/{pid}/stat").read_text())
    except (OSError, IndexError):  # gone meanwhile
        return None


def tree_cpu_seconds(root: int, reaped: bool = False) -> float:
    """CPU seconds of `root` and every process below it alive now; `reaped` adds the CPU of the
    children `root` has already waited for (a PostgreSQL backend that ended meanwhile)."""
    total = 0
    for pid in {root} | _descendants(root):
        times = _stat(pid)
        if times is not None:
            total += times.utime + times.stime
            if reaped and pid == root:
                total += times.cutime + times.cstime
    return total / os.sysconf("SC_CLK_TCK")


def postmaster_pid(data: Path) -> int:
    """The PostgreSQL server's pid: the first line of its data folder's postmaster.pid."""
    return int((data / "postmaster.pid").read_text().split("\n", 1)[0])


def xact_commit(url: str) -> int:
    """The commits the database at `url` has counted (pg_stat_database; a fresh connection, so
    a fresh snapshot of the statistics)."""
    db = opened(url)
    try:
        row = db.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
        return int(row.fetchone()[0])
    finally:
        db.close()


# --- players through nginx ------------------------------------------------------------------

class ProxiedPlayer(Player):
    """web_load's player, its socket over wss://NAME:PORT through nginx (to 127.0.0.1, the TLS
    name NAME's, the certificate checked), with the site's Origin, as a page served there. Its
    socket leaves from a loopback address of its own (`local_host`): nginx tells the nodes the
    address it sees ($remote_addr), and a node admits at most 100 sockets an address."""

    https_port = 0
    tls: ssl.SSLContext | None = None
    local_host = "127.0.0.1"

    async def connect(self) -> None:
        url = (f"wss://{NAME}:{self.https_port}/ws/tables/{self.table_id}"
               f"?seat={self.seat}&token={self.token}")
        self.ws = await websockets.connect(url, host="127.0.0.1", local_addr=(self.local_host, 0),
                                           ssl=self.tls, max_size=None, compression=None,
                                           origin=Origin(f"https://{NAME}:{self.https_port}"),
                                           open_timeout=30)
        self.state = await self.next_state()

    async def rematch(self) -> None:
        answer = await self.http.post(f"/api/tables/{self.table_id}/rematch",
                                      json={"seat": self.seat, "token": self.token})
        if answer.status_code not in (200, 201):
            raise RuntimeError(f"rematch: {answer.status_code} {answer.text[:200]}")
        self.table_id = answer.json()["table_id"]
        await self.ws.close()
        await self.connect()
        self.progress = time.monotonic()


def player_address(k: int) -> str:
    """Player k's own loopback address (all of 127.0.0.0/8 is this machine's)."""
    return f"127.1.{k // 250}.{k % 250 + 1}"


def proxied_http(site: NodesSite, local_host: str) -> httpx2.AsyncClient:
    """An HTTPS client of the site through nginx from `local_host`: to 127.0.0.1 with the site's
    Host and Origin; the certificate is checked against the site's own (not its name: an address
    has none)."""
    assert site.proxy is not None
    tls = ssl.create_default_context(cafile=str(site.proxy.cert))
    tls.check_hostname = False
    port = site.proxy.https_port
    transport = httpx2.AsyncHTTPTransport(verify=tls, local_address=local_host,
                                         limits=httpx2.Limits(max_connections=10))
    return httpx2.AsyncClient(base_url=f"https://127.0.0.1:{port}", transport=transport, timeout=60,
                             headers={"Host": f"{NAME}:{port}", "Origin": site.public_url})


async def open_players(site: NodesSite, clients: list[httpx2.AsyncClient], tables: int,
                       seed: int) -> list[Player]:
    """`tables` troll tables made through nginx, each with its player connected (each player's
    requests through one of `clients`, each from an address of its own, so that no address's
    budget of new tables runs out)."""
    assert site.proxy is not None
    ProxiedPlayer.https_port, ProxiedPlayer.tls = site.proxy.https_port, site.proxy.tls
    rng = random.Random(seed)
    body, seat = TABLES["troll"]

    async def make(k: int) -> Player:
        http = clients[k % len(clients)]
        answer = await http.post("/api/tables", json=body)
        if answer.status_code != 201:
            raise RuntimeError(f"creating a table: {answer.status_code} {answer.text[:200]}")
        player = ProxiedPlayer(site.nodes[0], http, answer.json(), random.Random(rng.random()), seat)
        player.local_host = player_address(k)
        return player

    players: list[Player] = []
    for start in range(0, tables, 50):  # in batches, so setup does not flood the nodes
        players += await asyncio.gather(*(make(k) for k in range(start, min(tables, start + 50))))
        await asyncio.gather(*(p.connect() for p in players[start:]))
    return players


# --- one configuration ----------------------------------------------------------------------

def node_pids(site: NodesSite) -> list[int]:
    return [node.process.pid for node in site.nodes if node.process is not None]


async def run_level(site: NodesSite, pg: PgServer | None, url: str, tables: int, seconds: float,
                    think: float, seed: int, clients: list[httpx2.AsyncClient]
                    ) -> tuple[dict[str, Any], list[Player]]:
    """One level of play on a running site; the players stay open (for the kill)."""
    players = await open_players(site, clients, tables, seed)
    pids = node_pids(site)
    postmaster = postmaster_pid(pg.data) if pg is not None else None
    nodes_before = [tree_cpu_seconds(pid) for pid in pids]
    pg_before = tree_cpu_seconds(postmaster, reaped=True) if postmaster else 0.0
    assert site.proxy is not None
    nginx_before, own_before = tree_cpu_seconds(site.proxy.process.pid), time.process_time()
    commits_before = xact_commit(url) if pg is not None else 0
    level = await play_level(players, seconds, think)
    own_cpu = time.process_time() - own_before  # the players' (and this benchmark's) CPU
    nginx_cpu = tree_cpu_seconds(site.proxy.process.pid) - nginx_before
    commits = xact_commit(url) - commits_before if pg is not None else 0
    pg_cpu = tree_cpu_seconds(postmaster, reaped=True) - pg_before if postmaster else float("nan")
    nodes_cpu = [tree_cpu_seconds(pid) - before for pid, before in zip(pids, nodes_before, strict=True)]
    ordered = level["times"]
    actions = max(1, len(ordered))
    return {
        "nodes": len(pids), "store": "PostgreSQL" if pg is not None else "SQLite",
        "actions": len(ordered), "per_s": len(ordered) / level["elapsed"],
        "p50": 1000 * percentile(ordered, 0.5), "p99": 1000 * percentile(ordered, 0.99),
        "lag_p99": 1000 * percentile(level["lags"], 0.99),
        "node_ms": [1000 * cpu / actions for cpu in nodes_cpu],
        "pg_ms": 1000 * pg_cpu / actions, "commits_per_s": commits / level["elapsed"],
        "nginx_ms": 1000 * nginx_cpu / actions, "players_ms": 1000 * own_cpu / actions,
        "offered_per_s": tables / think,
        "commits_per_action": commits / actions if pg is not None else float("nan"),
        "errors": len(level["errors"]) + level["unanswered"] + level["stalled"],
        "first_error": level["errors"][:1], "unanswered": level["unanswered"], "stalled": level["stalled"],
        "load": os.getloadavg()[0],
    }, players



async def come_back(player: Player, killed: float) -> tuple[float, bool]:
    """Reconnect `player`'s page through nginx every RETRY s until a move of its is acknowledged:
    the seconds from the kill (inf if never within COMEBACK_WAIT), and whether the table came
    back with every move acknowledged before (its step not behind). A player stopped between a
    rematch's answer and its new table's first state has acknowledged nothing there yet."""
    acknowledged = player.state["step"] if player.state_of == player.table_id else 0
    while time.monotonic() - killed < COMEBACK_WAIT:
        try:
            await player.connect()
            kept = player.state["step"] >= acknowledged
            if player.state["terminal"]:
                return time.monotonic() - killed, kept
            action = player.rng.choice(player.state["legal"])["action"]
            await player.ws.send(json.dumps({"type": "act", "action": action, "step": player.state["step"]}))
            await player.next_state()
            return time.monotonic() - killed, kept
        except (OSError, TimeoutError, RuntimeError, websockets.exceptions.WebSocketException):
            await asyncio.sleep(RETRY)
    return math.inf, True


async def kill_one(site: NodesSite, url: str, players: list[Player]) -> dict[str, Any]:
    """Kill the last node (SIGKILL) and time its tables' return (see the module's documentation)."""
    victim = f"node-{len(site.nodes) - 1}/"
    held = holders(url)
    theirs = [p for p in players if held.get(p.table_id, "").startswith(victim)]
    site.kill(len(site.nodes) - 1)
    killed = time.monotonic()
    await close_players(theirs)
    back = await asyncio.gather(*(come_back(p, killed) for p in theirs))
    times = sorted(seconds for seconds, _ in back)
    return {"tables": len(theirs), "first": times[0] if times else math.nan,
            "half": percentile(times, 0.5), "all": times[-1] if times else math.nan,
            "never": sum(math.isinf(t) for t in times), "lost": sum(not kept for _, kept in back),
            "load": os.getloadavg()[0]}


def measure(pg: PgServer | None, count: int, args: argparse.Namespace, kill: bool) -> dict[str, Any]:
    """One configuration on fresh servers: `count` nodes on a fresh PostgreSQL database (or, with
    `pg` None, one node on a fresh SQLite file) behind nginx; a level of play, then the kill."""
    with tempfile.TemporaryDirectory(prefix="web-nodes-") as tmp:
        url = pg.database() if pg is not None else str(Path(tmp) / "tables.sqlite3")
        site = NodesSite(Path(tmp), url, count, extra_args=LIMITS)
        if pg is None:  # the one-machine server as it runs today: no --node, so no leases
            node = site.nodes[0]
            site.nodes = [ServerProcess(url, node.port, extra_args=node.extra_args[4:])]  # past --node*
        with site:

            async def run() -> dict[str, Any]:
                clients = [proxied_http(site, f"127.2.0.{i + 1}") for i in range(HTTP_ADDRESSES)]
                players: list[Player] = []
                try:
                    row, players = await run_level(site, pg, url, args.tables, args.seconds,
                                                   args.think, args.seed, clients)
                    row["log"] = [line for node in site.nodes for line in node.log().splitlines()
                                  if "error" in line.lower() or "not linked" in line][-3:]
                    if kill:
                        row["kill"] = await kill_one(site, url, players)
                    return row
                finally:
                    await close_players(players)
                    await asyncio.gather(*(http.aclose() for http in clients))

            return asyncio.run(run())


def project(node_ms: float, pg_ms: float, commits_per_action: float, cores: int, pg_cores: int,
            machines: tuple[int, ...] = PROJECTED_MACHINES) -> dict[str, Any]:
    """N machines of `cores` cores on one PostgreSQL machine of `pg_cores` cores, from the CPU an
    action costs a node (`node_ms`) and PostgreSQL (`pg_ms`): each machine's rate, PostgreSQL's
    ceiling, the machines at which it is reached, and a row for each count in `machines` (what
    they offer, what PostgreSQL can take of it, its cores busy and its commits a second)."""
    per_machine = cores * 1000 / node_ms
    ceiling = pg_cores * 1000 / pg_ms
    rows = []
    for n in machines:
        offered = n * per_machine
        served = min(offered, ceiling)
        rows.append({"machines": n, "offered": offered, "served": served,
                     "pg_cores_busy": served * pg_ms / 1000,
                     "commits_per_s": served * commits_per_action, "pg_bound": offered > ceiling})
    return {"per_machine": per_machine, "ceiling": ceiling, "machines_at_ceiling": ceiling / per_machine,
            "rows": rows}


def print_levels(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(f"\n{args.tables:,} tables, random troll games through nginx (wss), think time mean "
          f"{args.think} s, {args.seconds:g} s a configuration\n")
    print("| store | nodes | actions | actions/s | p50 round trip | p99 round trip | players' loop lag p99 "
          "| server CPU an action, each node | PostgreSQL CPU an action | commits/s | commits an action "
          "| errors | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for r in rows:
        nodes = " / ".join(f"{ms:.2f}" for ms in r["node_ms"])
        pg = "" if r["store"] == "SQLite" else f"{r['pg_ms']:.2f} ms"
        commits = "" if r["store"] == "SQLite" else \
            f"{r['commits_per_s']:,.0f} | {r['commits_per_action']:.2f}"
        print(f"| {r['store']} | {r['nodes']} | {r['actions']:,} | {r['per_s']:,.0f} | {r['p50']:.1f} ms "
              f"| {r['p99']:.1f} ms | {r['lag_p99']:.1f} ms | {nodes} ms (sum {sum(r['node_ms']):.2f}) "
              f"| {pg} | {commits or ' | '} | {r['errors']} | {r['load']:.1f} |")
    for r in rows:
        if r["errors"]:
            stopped = r["errors"] - r["unanswered"] - r["stalled"]
            print(f"\n{r['store']}, {r['nodes']} nodes: {stopped} players stopped by an error "
                  f"(first: {r['first_error']}), {r['unanswered']} round trips "
                  f"unanswered, {r['stalled']} tables did not move on in the level's last 5 s")
            print("  the nodes' last errors logged:\n  " + "\n  ".join(r["log"]))
        if "kill" in r:
            k = r["kill"]
            print(f"\nnode-{r['nodes'] - 1} of {r['nodes']} killed (SIGKILL) after the level: its "
                  f"{k['tables']} tables back (a move acknowledged through nginx) after first "
                  f"{k['first']:.1f} s, half {k['half']:.1f} s, all {k['all']:.1f} s; "
                  f"{k['never']} not back within {COMEBACK_WAIT:g} s; {k['lost']} lost an acknowledged "
                  f"move; load {k['load']:.1f}")


def print_machine(rows: list[dict[str, Any]]) -> None:
    """Everything on this machine, per action: what the offered load needs of its cores when
    the site's parts share them (the nodes, PostgreSQL, nginx and the simulated players)."""
    print(f"\nThis machine's CPU an action, every part of the run on its {os.cpu_count()} cores "
          "(cores needed = the whole's CPU an action x the actions/s the players offer: "
          "tables / mean think time)\n")
    print("| store | nodes | nodes | PostgreSQL | nginx | players | whole | actions/s offered "
          "| cores needed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        pg = 0.0 if r["store"] == "SQLite" else r["pg_ms"]
        whole = sum(r["node_ms"]) + pg + r["nginx_ms"] + r["players_ms"]
        print(f"| {r['store']} | {r['nodes']} | {sum(r['node_ms']):.2f} ms | "
              f"{'' if r['store'] == 'SQLite' else f'{pg:.2f} ms'} | {r['nginx_ms']:.2f} ms | "
              f"{r['players_ms']:.2f} ms | {whole:.2f} ms | {r['offered_per_s']:,.0f} | "
              f"{whole * r['offered_per_s'] / 1000:.2f} |")


def print_projection(rows: list[dict[str, Any]], cores: int, pg_cores: int) -> None:
    measured = [r for r in rows if r["store"] == "PostgreSQL"]
    if not measured:
        return
    base = max(measured, key=lambda r: r["nodes"])
    node_ms = sum(base["node_ms"])  # every node's CPU over all the actions: one action's cost
    got = project(node_ms, base["pg_ms"], base["commits_per_action"], cores, pg_cores)
    print(f"\nProjection from the {base['nodes']}-node run's CPU an action (nodes {node_ms:.2f} ms, "
          f"PostgreSQL {base['pg_ms']:.2f} ms, {base['commits_per_action']:.2f} commits): a machine of "
          f"{cores} cores serves {got['per_machine']:,.0f} actions/s; PostgreSQL on {pg_cores} cores takes "
          f"at most {got['ceiling']:,.0f} actions/s, reached at {got['machines_at_ceiling']:.1f} machines\n")
    print("| machines | actions/s offered | actions/s served | PostgreSQL cores busy | commits/s | limit |")
    print("|---:|---:|---:|---:|---:|---|")
    for row in got["rows"]:
        print(f"| {row['machines']} | {row['offered']:,.0f} | {row['served']:,.0f} | "
              f"{row['pg_cores_busy']:.1f} | {row['commits_per_s']:,.0f} | "
              f"{'PostgreSQL' if row['pg_bound'] else 'the nodes'} |")


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C and SIGTERM stop the run wherever it is, through every context manager's exit.
    Installed for SIGINT too: asyncio.run's own handler only cancels the players' task, whose
    waits may take the cancellation for a timeout and play on."""
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 3], choices=(1, 2, 3),
                        help="counts of nodes on PostgreSQL (the nginx site lists three)")
    parser.add_argument("--sqlite", action=argparse.BooleanOptionalAction, default=True,
                        help="also one node on SQLite, for comparison")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time a move, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cores", type=int, default=16, help="a node machine's cores, for the projection")
    parser.add_argument("--pg-cores", type=int, default=16,
                        help="PostgreSQL machine's cores, for the projection")
    args = parser.parse_args()
    reason = skip_reason() or (None if NGINX and OPENSSL else "nginx or openssl is not installed")
    if reason is not None:
        sys.exit(f"web_nodes: {reason}")
    if not 1 <= args.tables <= 5000 or not 1 <= args.seconds <= 3600:
        sys.exit("web_nodes: --tables is 1 to 5000, --seconds 1 to 3600")
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    tests.web.test_nginx.main_config = _nginx_for_thousands
    print(f"load before: {os.getloadavg()[0]:.2f} (1-min average, {os.cpu_count()} cores)")
    rows = []
    pg = PgServer()
    pg.durable = True  # fsync on, as a site's PostgreSQL: a commit waits for the disk
    try:
        pg.start()
        if args.sqlite:
            rows.append(measure(None, 1, args, kill=False))
            print("  SQLite, 1 node done", file=sys.stderr, flush=True)
        for count in args.nodes:
            rows.append(measure(pg, count, args, kill=count == max(args.nodes) and count > 1))
            print(f"  PostgreSQL, {count} nodes done", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("web_nodes: interrupted; everything it started is stopped", file=sys.stderr)
    finally:
        pg.stop()
    print_levels(rows, args)
    print_machine(rows)
    print_projection(rows, args.cores, args.pg_cores)
    print(f"\nload after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
