"""The table server facing hostile clients: normal players on 200 tables, as
`web_load.py` plays them, while hostile clients at the same time replay big finished tables,
flood `sync` on token-less watcher sockets, flood messages, create tables in a loop, post
oversized and malformed bodies and ask for bots with absurd options.

    .venv/bin/python benchmarks/web_hostile.py [--tables 200] [--seconds 20] [--think 0.5]
        [--replayers 3] [--syncers 6] [--sync-rate 20] [--flooders 2] [--creators 1]
        [--big-body-mib 64] [--persons 5] [--lobbyists 8] [--no-baseline]
        [--clients replay,sync,flood,create,bad,bots,botpool,rotate,lobby|none]

First, unless `--no-baseline`, web_load.py's own level (`web_load.measure`: the same players
on a fresh server, no hostile client) gives the figure to compare with. Then a fresh
`playtable serve` subprocess with the server's default limits (`--rate-limit` 20, one worker):
`--replay-tables` all-bot wizard tables of 4 seats are played to the end first (the big
replays: hundreds of steps; at most 120 s of waiting), then `--tables` normal players connect
and, for `--seconds`, play random troll games (think time mean `--think`) while a second
process runs the hostile clients for the same seconds:

- replayers: `GET /api/tables/{big}/replay` (public, `?seat=N` of a finished game) and
  `/position?step=k`, back to back, each of `--replayers` clients;
- sync flooders: `--syncers` watcher sockets without a token (half on the big tables, half on
  normal players' running tables, found through `GET /api/tables`), each sending `sync`
  `--sync-rate` times a second and reconnecting (at most once a second) when closed;
- message flooders: `--flooders` sockets, each seated at a table of its own, sending illegal
  actions, garbage, over-long frames, hints and chat lines as fast as the socket takes them;
- table creators: `POST /api/tables` back to back;
- bad requests, in turn: a 1 MiB body, JSON as `text/plain` and with no content type,
  malformed, deeply nested and non-UTF-8 JSON, a foreign Host header (GET and POST), a foreign
  Origin (POST and WebSocket), a path as a board or content parameter, a forged rematch token;
  and beside them, back to back, a `--big-body-mib` body sent in 64 KiB chunks on a raw
  socket (counting how much had gone when the answer came);
- absurd bots: tables asking for `ismcts:iterations=1000000000` and the like, twice a second;
- the bot-pool attack: ten all-bot wizard tables of 5 `ismcts:iterations=2000` (the dearest
  bot a client may ask for) from one address at the level's start, playing on;
- a /64 rotation: all-bot troll tables of `ismcts:iterations=2000`, 4 a second, each from
  another address of one IPv6 /64;
- a lobby flood: `--lobbyists` connections from one address asking for the lobby's list of
  every table (`GET /api/tables`, the API's dearest question) back to back, a 429 or not.

Beside the normal players, `--persons` people each play Star Dice against the greedy bot (the
bot a person picks by default; a table of their own, their own address, throws shown at once)
for the same seconds: the time their bot takes to answer (from the state that hands the bot the
move to the state with its action) is what the bot-pool attack would take from them.

Where the server has `--forwarded-allow-ips`, it believes X-Forwarded-For from 127.0.0.1, and
every player and every kind of hostile client sends an address of its own there, so the
server's per-address limits apply as they would behind the proxy (on loopback everyone would
otherwise share 127.0.0.1). `--clients` runs some kinds only (`none`: the same level without
any, a control).

It prints the normal players' round trip p50/p95/p99/max, a person's bot answer p50/p99,
the actions they played, errors
(players stopped by an error message or a dropped socket), round trips still unanswered 30 s
after the end, stalled tables (no state in the last 5 s of the level), and what every
hostile client sent and got (HTTP status codes, WebSocket messages and close codes, counted),
and the server's CPU time per player's action in both levels: on a shared machine the round
trips depend on how much of a core the server gets, the CPU time does not.
Every loop is bounded in time and count; the servers are stopped at the end. The target
: the normal players' p99 under 100 ms on the 2-core machine, a person's bot
answer p99 under 2 s, no error, no stalled table.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import multiprocessing
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx2
import websockets

from web_load import (
    Player,
    close_players,
    cpu_seconds,
    measure,
    open_players,
    percentile,
    play_level,
    rss_kib,
    serve_options,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.server_process import ServerProcess, start_server  # noqa: E402

BOT = {"kind": "bot", "agent": "random"}
BIG_TABLE = {"game": "wizard", "seats": [BOT] * 4}  # 4 random bots: several hundred steps in seconds
JSON_TYPE = {"Content-Type": "application/json"}
TROLL = json.dumps({"game": "troll"}).encode()
ABSURD_BOTS = ["ismcts:iterations=1000000000", "greedy:samples=1000000000", "expectimax:depth=99",
               "ismcts:iterations=1e99", "ismcts:c=nan", "rollout:rollouts=1000000000"]
HEAVY_BOT = {"kind": "bot", "agent": "ismcts:iterations=2000"}
"""The dearest bot a client may ask for (27-110 s a move in a 5-player wizard game: past the
30-s limit, so its worker is killed and the stand-in plays each move)."""
BOT_POOL = json.dumps({"game": "wizard", "players": 5, "seats": [HEAVY_BOT] * 5}).encode()
BOT_POOL_TABLES = 10
ROTATED = json.dumps({"game": "troll", "seats": [HEAVY_BOT]}).encode()
ROTATION_PER_SECOND = 4.0
PERSON_TABLE = {"game": "stardice", "seats": [{"kind": "bot", "agent": "greedy"}, {"kind": "human"}]}
"""A person's table as the brief's players open it: the bot a person picks by default, seat 0."""
CLIENTS = ("replay", "sync", "flood", "create", "bad", "bots", "botpool", "rotate", "lobby")
MAX_REQUESTS = 20_000  # per hostile client: every loop also stops at the deadline
MAX_RECONNECTS = 200


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process and every descendant alive now: the server with
    its bot and replay workers."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        child = int(stat.parent.name)
        parents[child] = int(fields[1])
        cpu[child] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    tree, todo = {pid}, [pid]
    while todo:
        parent = todo.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in tree:
                tree.add(child)
                todo.append(child)
    return sum(cpu.get(p, 0.0) for p in tree)


class Hostile:
    """What the hostile clients share: the server's addresses, the deadline, the tallies."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.url: str = config["url"]
        self.ws_url: str = config["ws_url"]
        self.deadline: float = time.monotonic() + config["seconds"]
        self.got: dict[str, Counter[str]] = defaultdict(Counter)
        self.sent: Counter[str] = Counter()
        self.rng = random.Random(config["seed"])
        self.addresses: dict[str, str] = {}

    def headers(self, kind: str) -> dict[str, str]:
        """Each kind of hostile client comes from an address of its own (10.66.0.k), when the
        server takes X-Forwarded-For from 127.0.0.1 as it would from its proxy."""
        if not self.config["addresses"]:
            return {}
        address = self.addresses.setdefault(kind, f"10.66.0.{len(self.addresses) + 1}")
        return {"X-Forwarded-For": address}

    def live(self) -> bool:
        return time.monotonic() < self.deadline

    def count(self, kind: str, outcome: str) -> None:
        self.got[kind][outcome] += 1

    async def request(self, http: httpx2.AsyncClient, kind: str, method: str, path: str,
                      **options: Any) -> httpx2.Response | None:
        """One request, its status code (or the exception that ended it) counted under `kind`."""
        self.sent[kind] += 1
        options["headers"] = {**self.headers(kind), **options.get("headers", {})}
        try:
            answer = await http.request(method, path, **options)
        except httpx2.TimeoutException:
            self.count(kind, "timeout")
            return None
        except asyncio.CancelledError:
            self.count(kind, "still waiting at the end")
            raise
        except (httpx2.HTTPError, OSError) as err:
            self.count(kind, type(err).__name__)
            return None
        self.count(kind, str(answer.status_code))
        return answer


TYPE = re.compile(r'"type":\s*"(\w+)"')
CODE = re.compile(r'"code":\s*"(\w+)"')


def message_kind(raw: str | bytes) -> str:
    """A server message's type (and an error's code), read from its start only: a welcome may
    be hundreds of kilobytes, and parsing them all would load this process, not the server."""
    head = raw[:300] if isinstance(raw, str) else raw[:300].decode(errors="replace")
    kind = TYPE.search(head)
    code = CODE.search(head)
    if kind is None:
        return "unreadable"
    return f"error {code.group(1)}" if kind.group(1) == "error" and code else kind.group(1)


async def socket_session(hostile: Hostile, kind: str, path: str,
                         send: Callable[[Any], Awaitable[bool]], headers: dict[str, str] | None = None,
                         ) -> None:
    """Connects to `path` again and again (at most once a second, MAX_RECONNECTS times) until
    the deadline; `send(ws)` sends one message and says whether to go on. Every message
    received and every close is counted under `kind`."""
    for _ in range(MAX_RECONNECTS):
        if not hostile.live():
            return
        began = time.monotonic()
        try:
            async with websockets.connect(f"{hostile.ws_url}{path}", max_size=None, compression=None,
                                          open_timeout=10, close_timeout=2,
                                          additional_headers={**hostile.headers(kind), **(headers or {})},
                                          ) as ws:
                hostile.count(kind, "connected")

                async def read() -> None:
                    async for raw in ws:
                        hostile.count(kind, message_kind(raw))

                reader = asyncio.ensure_future(read())
                try:
                    while hostile.live() and not reader.done():
                        hostile.sent[kind] += 1
                        if not await send(ws):
                            break
                except websockets.ConnectionClosed:
                    pass
                finally:
                    await asyncio.wait([reader], timeout=0.5)
                    reader.cancel()
                    await asyncio.gather(reader, return_exceptions=True)
                if ws.close_code is not None:  # closed by the server, not by this client's end
                    hostile.count(kind, f"closed {ws.close_code}")
        except websockets.InvalidStatus as refused:
            hostile.count(kind, f"handshake {refused.response.status_code}")
        except (OSError, TimeoutError, websockets.WebSocketException) as err:
            hostile.count(kind, type(err).__name__)
        await asyncio.sleep(max(0.0, began + 1.0 - time.monotonic()))


async def replayer(hostile: Hostile, http: httpx2.AsyncClient) -> None:
    tables: list[dict[str, Any]] = hostile.config["big_tables"]
    for n in range(MAX_REQUESTS):
        if not hostile.live():
            return
        table = tables[n % len(tables)]
        choice = n % 4
        if choice == 3:
            path = f"/api/tables/{table['id']}/position?step={hostile.rng.randrange(table['step'] + 1)}"
        else:
            path = f"/api/tables/{table['id']}/replay" + (f"?seat={choice}" if choice else "")
        await hostile.request(http, "replay and position of a big table", "GET", path)


async def syncer(hostile: Hostile, http: httpx2.AsyncClient, k: int) -> None:
    """A watcher socket without a token sending `sync` at --sync-rate: odd ones on a big
    finished table, even ones on a running table of a normal player (found as anyone would)."""
    table_id = hostile.config["big_tables"][k % len(hostile.config["big_tables"])]["id"]
    if k % 2 == 0:
        answer = await hostile.request(http, "list running tables", "GET", "/api/tables?status=running")
        if answer is not None and answer.status_code == 200 and answer.json()["tables"]:
            table_id = hostile.rng.choice(answer.json()["tables"])["id"]
    gap = 1.0 / hostile.config["sync_rate"]

    async def send(ws: Any) -> bool:
        await ws.send('{"type": "sync"}')
        await asyncio.sleep(gap)
        return True

    await socket_session(hostile, "sync flood (watcher, no token)", f"/ws/tables/{table_id}", send)


async def flooder(hostile: Hostile, http: httpx2.AsyncClient, k: int) -> None:
    """A seated socket at a table of its own sending bad and costly messages back to back."""
    answer = await hostile.request(http, "message flood: its table", "POST", "/api/tables",
                                   content=TROLL, headers=JSON_TYPE)
    if answer is None or answer.status_code != 201:
        return
    query = answer.json()["seats"][0]["join_url"].split("?", 1)[1]
    rng = random.Random(k)
    messages = [
        json.dumps({"type": "act", "action": "stomp", "step": 99}),
        json.dumps({"type": "act", "action": "no such action", "step": 0}),
        json.dumps({"type": "hint", "step": 0}),
        json.dumps({"type": "undo", "step": 0}),
        json.dumps({"type": "chat", "text": "spam " * 50}),
        json.dumps({"type": "act", "action": "x" * 20_000, "step": 0}),  # past the 16 KiB limit
        "not json at all", "[" * 1000 + "]" * 1000, b"\x00\x01binary",
    ]

    async def send(ws: Any) -> bool:
        await ws.send(rng.choice(messages))
        await asyncio.sleep(0.001)  # else this process's loop does nothing but send
        return True

    await socket_session(hostile, "message flood (seated)", f"/ws/tables/{answer.json()['table_id']}"
                         f"?{query}", send)


async def creator(hostile: Hostile, http: httpx2.AsyncClient) -> None:
    bodies = [TROLL, json.dumps({"game": "rotator"}).encode(),
              json.dumps({"game": "wizard"}).encode()]
    for n in range(MAX_REQUESTS):
        if not hostile.live():
            return
        await hostile.request(http, "create tables in a loop", "POST", "/api/tables",
                              content=bodies[n % len(bodies)], headers=JSON_TYPE)


async def bad_requests(hostile: Hostile, http: httpx2.AsyncClient) -> None:
    """Each bad request in turn, again and again, until the deadline."""
    running = hostile.config["running_table"]
    foreign = "https://evil.example"

    def post(body: Any, headers: dict[str, str] | None = None) -> dict[str, Any]:
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        return {"content": content, "headers": JSON_TYPE if headers is None else headers}

    cases: list[tuple[str, str, str, Callable[[], dict[str, Any]]]] = [
        ("body of 1 MiB", "POST", "/api/tables",
         lambda: post(b'{"game": "troll", "padding": "' + b"a" * (1 << 20) + b'"}')),
        ("JSON as text/plain", "POST", "/api/tables", lambda: post(TROLL, {"Content-Type": "text/plain"})),
        ("JSON with no content type", "POST", "/api/tables", lambda: post(TROLL, {})),
        ("malformed JSON", "POST", "/api/tables", lambda: post(b'{"game": "troll", ')),
        ("JSON nested 100,000 deep", "POST", "/api/tables", lambda: post(b"[" * 100_000 + b"]" * 100_000)),
        ("not UTF-8", "POST", "/api/tables", lambda: post(b'{"game": "\xff\xfe"}')),
        ("foreign Host, GET", "GET", "/api/games", lambda: {"headers": {"Host": "evil.example"}}),
        ("foreign Host, POST", "POST", "/api/tables",
         lambda: post(TROLL, {**JSON_TYPE, "Host": "evil.example"})),
        ("foreign Origin, POST", "POST", "/api/tables",
         lambda: post(TROLL, {**JSON_TYPE, "Origin": foreign})),
        ("a path as rotator's board", "POST", "/api/tables",
         lambda: post({"game": "rotator", "params": {"board": "/etc/passwd"}})),
        ("a path as wizard's content", "POST", "/api/tables",
         lambda: post({"game": "wizard", "params": {"content": "/etc"}})),
        ("a seed of 10^40", "POST", "/api/tables", lambda: post({"game": "troll", "seed": 10 ** 40})),
        ("a forged rematch token", "POST", f"/api/tables/{running}/rematch",
         lambda: post({"seat": 0, "token": "A" * 22})),
    ]
    for n in range(MAX_REQUESTS):
        for name, method, path, options in cases:
            if not hostile.live():
                return
            await hostile.request(http, name, method, path, **options())
        if n % 4 == 0:  # a foreign page's WebSocket (DNS rebinding, cross-site): once a round
            await foreign_socket(hostile, f"/ws/tables/{running}", foreign)


def sent_by(sent: int, total: int) -> str:
    """How much of a body had gone when the answer came, in coarse steps (the kernel's socket
    buffers take a few MiB before a server that stopped reading holds the sender up)."""
    if sent >= total:
        return "after the whole body"
    return next((f"within its first {mib} MiB" for mib in (1, 8, 32) if sent <= mib << 20),
                "after more than 32 MiB")


async def big_bodies(hostile: Hostile) -> None:
    """A --big-body-mib body sent in 64 KiB chunks (no length announced), again and again, on a
    raw socket that reads while it sends (httpx2 would send the whole body before reading):
    counts the answer and how much had been sent when it came."""
    kind = f"body of {hostile.config['big_body_mib']} MiB in 64 KiB chunks"
    host, port = hostile.url.removeprefix("http://").rsplit(":", 1)
    extra = "".join(f"{k}: {v}\r\n" for k, v in hostile.headers(kind).items())
    head = (f"POST /api/tables HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"Transfer-Encoding: chunked\r\n{extra}\r\n").encode()
    piece = b"%x\r\n" % 65536 + b"a" * 65536 + b"\r\n"
    total = hostile.config["big_body_mib"] << 20
    for _ in range(MAX_REQUESTS):
        if not hostile.live():
            return
        hostile.sent[kind] += 1
        sent = 0
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, int(port)), 10)
        except (OSError, TimeoutError) as err:
            hostile.count(kind, type(err).__name__)
            continue
        answer = asyncio.ensure_future(reader.readline())
        try:
            writer.write(head)
            while sent < total and not answer.done() and hostile.live():
                writer.write(piece)
                await writer.drain()
                sent += 65536
            done, _ = await asyncio.wait([answer], timeout=5)
            line = answer.result() if done else b""
            status = line.split()[1].decode() if len(line.split()) > 1 else "no answer"
            hostile.count(kind, f"{status} {sent_by(sent, total)}")
        except (OSError, ConnectionError) as err:
            hostile.count(kind, f"{type(err).__name__} {sent_by(sent, total)}")
        finally:
            answer.cancel()
            writer.close()


async def foreign_socket(hostile: Hostile, path: str, origin: str) -> None:
    kind = "foreign Origin, WebSocket"
    hostile.sent[kind] += 1
    try:
        async with websockets.connect(f"{hostile.ws_url}{path}", open_timeout=10, close_timeout=2,
                                      additional_headers={**hostile.headers(kind), "Origin": origin}) as ws:
            hostile.count(kind, "accepted")
            await ws.send('{"type": "sync"}')
    except websockets.InvalidStatus as refused:
        hostile.count(kind, f"handshake {refused.response.status_code}")
    except (OSError, TimeoutError, websockets.WebSocketException) as err:
        hostile.count(kind, type(err).__name__)


async def absurd_bots(hostile: Hostile, http: httpx2.AsyncClient) -> None:
    for n in range(MAX_REQUESTS):
        if not hostile.live():
            return
        agent = ABSURD_BOTS[n % len(ABSURD_BOTS)]
        game = "wizard" if n % 3 == 2 else "troll"
        seats = [{"kind": "bot", "agent": agent}] * (4 if game == "wizard" else 1)
        await hostile.request(http, "absurd bot options", "POST", "/api/tables",
                              content=json.dumps({"game": game, "seats": seats}).encode(),
                              headers=JSON_TYPE)
        await asyncio.sleep(0.5)


async def bot_pool(hostile: Hostile, http: httpx2.AsyncClient) -> None:
    """The bot-pool attack: BOT_POOL_TABLES all-bot wizard tables of the dearest bots a client
    may ask for, from one address (within its 20 tables a minute), left to play on."""
    for _ in range(BOT_POOL_TABLES):
        if not hostile.live():
            return
        await hostile.request(http, "bot pool: 10 wizard tables of 5 ismcts:iterations=2000",
                              "POST", "/api/tables", content=BOT_POOL, headers=JSON_TYPE)


async def rotation(hostile: Hostile, http: httpx2.AsyncClient) -> None:
    """All-bot tables created ROTATION_PER_SECOND times a second, each from another address of
    one IPv6 /64 (X-Forwarded-For), as a client holding a /64 may: a limit per address does
    not see it, one per network does."""
    kind = "/64 rotation: all-bot tables, each from another address"
    for n in range(MAX_REQUESTS):
        if not hostile.live():
            return
        address = {"X-Forwarded-For": f"2001:db8:66:64::{n + 1:x}"} if hostile.config["addresses"] else {}
        await hostile.request(http, kind, "POST", "/api/tables", content=ROTATED,
                              headers={**JSON_TYPE, **address})
        await asyncio.sleep(1.0 / ROTATION_PER_SECOND)


async def lobby_flood(hostile: Hostile, http: httpx2.AsyncClient) -> None:
    """The lobby's list of every table, asked back to back from one address."""
    for _ in range(MAX_REQUESTS):
        if not hostile.live():
            return
        await hostile.request(http, "lobby flood (one address)", "GET", "/api/tables")


async def run_hostile(config: dict[str, Any]) -> dict[str, Any]:
    await asyncio.sleep(max(0.0, config["start"] - time.time()))
    hostile = Hostile(config)
    limits = httpx2.Limits(max_connections=64)
    async with httpx2.AsyncClient(base_url=hostile.url, timeout=30, limits=limits) as http:
        kinds = config["clients"]
        clients = [replayer(hostile, http) for _ in range(config["replayers"] * ("replay" in kinds))]
        clients += [syncer(hostile, http, k) for k in range(config["syncers"] * ("sync" in kinds))]
        clients += [flooder(hostile, http, k) for k in range(config["flooders"] * ("flood" in kinds))]
        clients += [creator(hostile, http) for _ in range(config["creators"] * ("create" in kinds))]
        # Only the kinds asked for are made: a coroutine made and never run is warned about.
        if "bad" in kinds:
            clients += [bad_requests(hostile, http), big_bodies(hostile)]
        clients += [absurd_bots(hostile, http)] if "bots" in kinds else []
        clients += [bot_pool(hostile, http)] if "botpool" in kinds else []
        clients += [rotation(hostile, http)] if "rotate" in kinds else []
        clients += [lobby_flood(hostile, http) for _ in range(config["lobbyists"] * ("lobby" in kinds))]
        tasks = [asyncio.ensure_future(c) for c in clients]
        late: set[asyncio.Future[None]] = set()
        if tasks:  # `--clients none`: nothing to wait for
            _, late = await asyncio.wait(tasks, timeout=config["seconds"] + 30)
        for task in late:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        failures = [repr(t.exception())[:200] for t in tasks
                    if t.done() and not t.cancelled() and t.exception() is not None]
    return {"got": {k: dict(v) for k, v in hostile.got.items()}, "sent": dict(hostile.sent),
            "late": len(late), "failures": failures, "cpu": time.process_time()}


def hostile_process(config: dict[str, Any], out: Any) -> None:
    """The hostile clients, in a process of their own: their work is not in the players' loop."""
    out.put(asyncio.run(run_hostile(config)))


async def big_tables(http: httpx2.AsyncClient, count: int, seed: int) -> list[dict[str, Any]]:
    """`count` all-bot wizard tables played to the end (at most 120 s), as {"id", "step"}."""
    ids = []
    for k in range(count):
        answer = await http.post("/api/tables", json={**BIG_TABLE, "seed": seed + k})
        if answer.status_code != 201:
            raise RuntimeError(f"creating a big table: {answer.status_code} {answer.text[:200]}")
        ids.append(answer.json()["table_id"])
    deadline = time.monotonic() + 120
    while True:
        summaries = [(await http.get(f"/api/tables/{i}")).json() for i in ids]
        if all(s["status"] == "finished" for s in summaries) or time.monotonic() > deadline:
            return [{"id": s["id"], "step": s["step"], "status": s["status"]} for s in summaries]
        await asyncio.sleep(1)


class Person(Player):
    """A person at a Star Dice table against the greedy bot (PERSON_TABLE, seat 1), who asks for
    throws to be shown at once (`pace`), so the bot's answer is its wait and thinking alone."""

    async def connect(self) -> None:
        await super().connect()
        await self.ws.send(json.dumps({"type": "pace", "pace": "instant"}))


async def open_persons(server: ServerProcess, http: httpx2.AsyncClient, count: int, seed: int,
                       addresses: bool) -> list[Player]:
    """`count` people, each at a PERSON_TABLE of their own, from an address of their own."""
    persons: list[Player] = []
    for k in range(count):
        headers = {"X-Forwarded-For": f"10.2.0.{k + 1}"} if addresses else {}
        answer = await http.post("/api/tables", json=PERSON_TABLE, headers=headers)
        if answer.status_code != 201:
            raise RuntimeError(f"creating a person's table: {answer.status_code} {answer.text[:200]}")
        person = Person(server, http, answer.json(), random.Random(seed + k), 1, headers)
        await person.connect()
        persons.append(person)
    return persons


def server_args() -> tuple[str, ...]:
    """The server's defaults, plus, where it has the option, X-Forwarded-For believed from
    127.0.0.1: every client then comes from an address of its own, as behind a proxy (else all
    of them share 127.0.0.1 and one client's per-address limit would be everyone's)."""
    if "--forwarded-allow-ips" in serve_options():
        return ("--forwarded-allow-ips", "127.0.0.1")
    return ()


async def hostile_level(server: ServerProcess, args: argparse.Namespace) -> dict[str, Any]:
    assert server.process is not None
    limits = httpx2.Limits(max_connections=50)
    async with httpx2.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        print("  playing the big tables to the end ...", file=sys.stderr)
        big = await big_tables(http, args.replay_tables, args.seed)
        addresses = "--forwarded-allow-ips" in server.extra_args
        players = await open_players(server, http, args.tables, "troll", random.Random(args.seed),
                                     addresses)
        persons = await open_persons(server, http, args.persons, args.seed, addresses)
        config = {"url": server.url, "ws_url": server.ws_url, "seconds": args.seconds,
                  "start": time.time() + 3.0, "seed": args.seed, "big_tables": big,
                  "running_table": players[0].table_id, "replayers": args.replayers,
                  "syncers": args.syncers, "sync_rate": args.sync_rate, "flooders": args.flooders,
                  "creators": args.creators, "big_body_mib": args.big_body_mib,
                  "lobbyists": args.lobbyists,
                  "addresses": addresses, "clients": args.clients}
        context = multiprocessing.get_context("spawn")
        out = context.Queue()
        child = context.Process(target=hostile_process, args=(config, out), daemon=True)
        child.start()
        await asyncio.sleep(max(0.0, config["start"] - time.time()))
        rss_before = rss_kib(server.process.pid)
        cpu = cpu_seconds(server.process.pid)
        all_cpu = tree_cpu(server.process.pid)
        load = os.getloadavg()[0]
        print(f"  {args.tables} players and the hostile clients for {args.seconds:g} s ...", file=sys.stderr)
        level, personal = await asyncio.gather(
            play_level(players, args.seconds, args.think, grace=30.0),
            play_level(persons, args.seconds, args.think, grace=30.0))
        cpu = cpu_seconds(server.process.pid) - cpu
        all_cpu = tree_cpu(server.process.pid) - all_cpu
        load = max(load, os.getloadavg()[0])
        rss_after = rss_kib(server.process.pid)
        await close_players(players + persons)
        loop = asyncio.get_running_loop()
        try:
            report: dict[str, Any] = await loop.run_in_executor(None, functools.partial(out.get, timeout=90))
        except Exception as err:  # noqa: BLE001 - a lost report is said, not a crash
            report = {"got": {}, "sent": {}, "late": 0, "failures": [f"no report: {err!r}"], "cpu": 0.0}
        child.join(timeout=10)
        if child.is_alive():
            child.kill()
    times = level["times"]
    bot_times = personal["bot_times"]
    return {"level": level, "personal": personal, "report": report,
            "bot_answers": len(bot_times), "bot_p50": 1000 * percentile(bot_times, 0.5),
            "bot_p99": 1000 * percentile(bot_times, 0.99), "big": big, "rss_before": rss_before,
            "rss_after": rss_after, "cpu_share": cpu / level["elapsed"],
            "cpu_ms": 1000 * cpu / max(1, len(times)),
            "tree_share": all_cpu / level["elapsed"], "load": load,
            "actions": len(times), "per_s": len(times) / level["elapsed"],
            "p50": 1000 * percentile(times, 0.5), "p95": 1000 * percentile(times, 0.95),
            "p99": 1000 * percentile(times, 0.99),
            "max": 1000 * max(times[-1:] + [level["worst_unanswered"]]),
            "lag_p99": 1000 * percentile(level["lags"], 0.99)}


def print_report(args: argparse.Namespace, baseline: dict[str, Any] | None, hostile: dict[str, Any],
                 extra: tuple[str, ...]) -> None:
    level = hostile["level"]
    options = " ".join(("defaults", *extra))
    if len(args.clients) < len(CLIENTS):
        options += f"; hostile clients: {','.join(args.clients) or 'none'} only"
    print(f"\n{args.tables} tables of random troll games (plus-one), one player each, think time mean "
          f"{args.think} s, {args.seconds:g} s; server options: {options}\n")
    print("| | web_load.py (no hostile client) | with the hostile clients |\n|---|---:|---:|")
    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("actions (actions/s)", lambda r: f"{r['actions']:,} ({r['per_s']:,.0f})"),
        ("round trip p50", lambda r: f"{r['p50']:.1f} ms"),
        ("round trip p95", lambda r: f"{r['p95']:.1f} ms"),
        ("round trip p99 (target < 100 ms)", lambda r: f"{r['p99']:.1f} ms"),
        ("round trip max", lambda r: f"{r['max']:.1f} ms"),
        ("errors", lambda r: f"{len(r['errors'])}"),
        ("round trips unanswered 30 s after the end", lambda r: f"{r['unanswered']}"),
        ("stalled tables (no state in the last 5 s)", lambda r: f"{r['stalled']}"),
        ("players' loop lag p99", lambda r: f"{r['lag_p99']:.1f} ms"),
        # CPU time, not wall time: the figure the machine's other load does not change
        ("server CPU (main process) per player's action", lambda r: f"{r['cpu_ms']:.2f} ms"),
    ]
    flat = {**hostile, **{k: level[k] for k in ("errors", "unanswered", "stalled")}}
    for name, cell in rows:
        print(f"| {name} | {cell(baseline) if baseline else '(--no-baseline)'} | {cell(flat)} |")
    personal = hostile["personal"]
    print(f"| people at Star Dice against greedy: bot answers | | {hostile['bot_answers']:,} |")
    print(f"| a person's bot answer p50 / p99 (target p99 < 2 s) | | {hostile['bot_p50']:.0f} / "
          f"{hostile['bot_p99']:.0f} ms |")
    print(f"| people: errors / stalled tables / bots still thinking at the end | | "
          f"{len(personal['errors'])} / {personal['stalled']} / {personal['bots_waiting']} |")
    share = f"{baseline['cpu_ms'] * baseline['per_s'] / 1000:.0%} / -" if baseline else ""
    print(f"| server CPU, its main process / with its workers (share of one core) | {share} | "
          f"{hostile['cpu_share']:.0%} / {hostile['tree_share']:.0%} |")
    print(f"| server RSS before / after | | {hostile['rss_before'] / 1024:.0f} / "
          f"{hostile['rss_after'] / 1024:.0f} MiB |")
    print(f"| the machine's 1-minute load average ({os.cpu_count()} cores; the higher of the level's "
          f"start and end) | {baseline['load'] if baseline else 0:.1f} | {hostile['load']:.1f} |")
    print(f"| the hostile clients' own CPU (share of one core) | | "
          f"{hostile['report']['cpu'] / level['elapsed']:.0%} |")
    errors = (baseline["errors"] if baseline else []) + level["errors"] + personal["errors"]
    if errors:
        print(f"\nfirst errors: {errors[:3]}")
    big = ", ".join(f"{b['id']} ({b['step']} steps, {b['status']})" for b in hostile["big"])
    report = hostile["report"]
    print(f"\nbig tables replayed: {big}\n")
    print("| hostile client | sent | what it got (counted) |\n|---|---:|---|")
    for kind in sorted(set(report["sent"]) | set(report["got"])):
        got = sorted(report["got"].get(kind, {}).items(), key=lambda item: -item[1])
        text = ", ".join(f"{outcome} x{count:,}" for outcome, count in got) or "nothing"
        print(f"| {kind} | {report['sent'].get(kind, 0):,} | {text} |")
    if report["failures"] or report["late"]:
        print(f"\nhostile clients cancelled at the end: {report['late']}; failures: {report['failures'][:3]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time a move, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--replay-tables", type=int, default=2, help="big wizard tables replayed")
    parser.add_argument("--replayers", type=int, default=3)
    parser.add_argument("--syncers", type=int, default=6)
    parser.add_argument("--sync-rate", type=float, default=20.0, help="syncs a second per socket")
    parser.add_argument("--flooders", type=int, default=2)
    parser.add_argument("--creators", type=int, default=1)
    parser.add_argument("--big-body-mib", type=int, default=64)
    parser.add_argument("--lobbyists", type=int, default=8, help="connections of the lobby flood")
    parser.add_argument("--persons", type=int, default=5,
                        help="people at Star Dice tables against the greedy bot, its answer timed")
    parser.add_argument("--clients", default=",".join(CLIENTS),
                        help="the hostile clients to run, comma-separated (default: all; 'none': the "
                             "same level without them, a control)")
    parser.add_argument("--no-baseline", action="store_true", help="skip web_load.py's level")
    args = parser.parse_args()
    args.clients = [] if args.clients == "none" else args.clients.split(",")
    if not set(args.clients) <= set(CLIENTS):
        parser.error(f"--clients: 'none' or some of {','.join(CLIENTS)}")
    if not (1 <= args.tables <= 5000 and 1 <= args.seconds <= 3600 and 1 <= args.replay_tables <= 10
            and 0 <= args.persons <= 100):
        parser.error("--tables 1-5000, --seconds 1-3600, --replay-tables 1-10, --persons 0-100")
    baseline = None
    if not args.no_baseline:
        print(f"  web_load.py's level: {args.tables} tables, {args.seconds:g} s ...", file=sys.stderr)
        load = os.getloadavg()[0]
        baseline = measure(args.tables, args.seconds, args.think, 1, args.seed)
        baseline["load"] = max(load, os.getloadavg()[0])
    extra = server_args()
    with tempfile.TemporaryDirectory() as tmp, \
            start_server(Path(tmp) / "tables.sqlite3", extra_args=extra) as server:
        hostile = asyncio.run(hostile_level(server, args))
        alive = server.alive
    print_report(args, baseline, hostile, extra)
    if not alive:
        print("\nthe server had died by the end of the level")


if __name__ == "__main__":
    main()
