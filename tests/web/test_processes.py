"""`playtable serve --processes N` (docs/web.md, "Beyond one process"): a front owns the port
and hands each connection to the worker process that owns the table its first request names."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import random
import signal
import socket
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient
from tests.web.server_process import start_server
from tests.web.test_restart import _descendants, _running
from tests.web.wire_client import Client, create_table, play_moves

from playtable.agents import PERSON
from playtable.web.server.hub import Hub
from playtable.web.server.playtests.playtest_spec import DEFAULT_QUESTIONS, check_spec
from playtable.web.server.playtests.playtests import PlaytestStore
from playtable.web.server.store.rate_limits import Budgets, SharedBuckets
from playtable.web.server.store.schema import opened
from playtable.web.server.store.store import SqlStore
from playtable.web.server.tables.past import PER_ADDRESS_PER_MINUTE, PastCache
from playtable.web.server.tables.room import Limits
from playtable.web.server.tables.table_request import row_from_request
from playtable.web.server.tables.tables import Table, fresh_start
from playtable.web.server.transport import front
from playtable.web.server.transport.front import referer_path, request_path
from playtable.web.server.transport.owners import Owner, OwnerCheck, owner_of, preferred, route
from playtable.web.server.transport.processes import divided_limits
from playtable.web.server.transport.wire import KEY_LENGTH


# -- the routing function (owners.py) --------------------------------------------------------------
def test_a_table_id_names_its_owner_and_each_process_draws_only_its_own() -> None:
    for count in (2, 3, 16):
        for index in range(count):
            owner = Owner(index, count)
            ids = [owner.new_table_id() for _ in range(20)]
            assert all(owner_of(i, count) == index and owner.owns(i) for i in ids)
            assert all(len(i) == 8 for i in ids)
    assert owner_of("abc", 7) == owner_of("abc", 7)  # crc32: the same in every process
    one = Owner()
    assert one.owns("anything") and one.serves("/api/tables/x")


def test_requests_are_routed_by_the_table_or_playtest_id_and_the_rest_go_anywhere() -> None:
    table = "MFqiUVSb"
    for path in (f"/ws/tables/{table}", f"/api/tables/{table}", f"/api/tables/{table}/rematch"):
        assert route(path, 5) == owner_of(table, 5)
    assert route("/api/playtests/p1/play", 5) == owner_of("p1", 5)
    assert route("/api/live/main", 5) == route("/ws/live/main", 5) == 0  # live tables: process 0's
    for anywhere in ("/", "/api/tables", "/api/players/me", f"/t/{table}", "/static/x.js", "/api/tables/"):
        assert route(anywhere, 5) is None
    assert route("/api/players/me", 1) == 0
    assert request_path(b"GET /ws/tables/abc?seat=0&token=t HTTP/1.1\r\nHost: x") == "/ws/tables/abc"
    # A page's connections go to the owner of its table (or playtest) too, by path or Referer.
    assert preferred(f"/t/{table}", None, 5) == owner_of(table, 5)
    assert preferred("/static/x.js", f"/t/{table}", 5) == owner_of(table, 5)
    assert preferred("/static/x.js", "/p/p1", 5) == owner_of("p1", 5)
    assert preferred("/static/x.js", "/", 5) is None and preferred("/api/players/me", None, 5) is None
    head = f"GET /static/x.js HTTP/1.1\r\nHost: x\r\nReferer: http://x/t/{table}?seat=0\r\n\r\n".encode()
    assert referer_path(head) == f"/t/{table}"
    assert referer_path(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nReferer: /t/no") is None
    assert referer_path(b"GET / HTTP/1.1\r\nReferer: http://[::1/t/x\r\n\r\n") is None
    assert request_path(b"GET /api/tables/%41b HTTP/1.1") == "/api/tables/Ab"  # as the app sees it
    assert request_path(b"garbage") == ""


def test_a_request_for_another_process_table_is_redirected_with_the_connection_closed() -> None:
    async def ok(request: Any) -> PlainTextResponse:
        return PlainTextResponse("here")

    owner = Owner(0, 2)
    mine = owner.new_table_id()
    theirs = Owner(1, 2).new_table_id()
    app = OwnerCheck(Starlette(routes=[Route("/api/tables/{table_id}", ok)]), owner)
    with TestClient(app, follow_redirects=False) as client:
        assert client.get(f"/api/tables/{mine}").text == "here"
        moved = client.get(f"/api/tables/{theirs}?seat=1")
        assert moved.status_code == 307 and moved.headers["location"] == f"/api/tables/{theirs}?seat=1"
        assert moved.headers["connection"] == "close"


def test_each_process_holds_its_share_of_the_tables_and_sockets() -> None:
    shared = divided_limits(Limits(tables=5001, connections=100, creations_per_minute=20), 2)
    assert (shared.tables, shared.connections, shared.creations_per_minute) == (2501, 50, 20)


def test_the_processes_count_an_address_tables_a_minute_together(db_where: str | Path) -> None:
    first, second = (opened(db_where) for _ in range(2))
    try:
        one, other = SharedBuckets(first), SharedBuckets(second)  # two processes' connections
        answers = [rates.allow("tables", "10.0.0.1", 3) for rates in (one, other, one, other)]
        assert answers == [True, True, True, False]
        assert other.allow("tables", "10.0.0.2", 3) and other.allow("names", "10.0.0.1", 3)
    finally:
        first.close()
        second.close()


def test_the_processes_count_an_address_pasts_together(db_where: str | Path) -> None:
    """Replays and positions a minute are the whole server's too: two processes' caches, each
    with its own connection to the shared database, give an address `per_minute` between them."""
    first, second = (opened(db_where) for _ in range(2))
    try:
        caches = [PastCache(per_minute=3) for _ in range(2)]
        caches[0].budgets, caches[1].budgets = Budgets(SharedBuckets(first)), Budgets(SharedBuckets(second))
        answers = [caches[k % 2].admit("10.0.0.1") for k in range(4)]
        assert answers == [True, True, True, False]
        assert caches[1].admit("10.0.0.2")
        alone = PastCache(per_minute=3)  # one process: its own memory, as before
        assert [alone.admit("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    finally:
        first.close()
        second.close()


def test_the_processes_count_an_address_open_sockets_together(db_where: str | Path) -> None:
    """`connections_per_address` is the whole server's: an address cannot open it at each
    process by choosing tables each one owns; a closed socket frees its place anywhere; a
    process that starts again (its sockets died with it) no longer counts the old ones."""
    stores = [SqlStore(db_where) for _ in range(2)]
    try:
        limits = Limits(connections_per_address=3)
        hubs = [Hub(store, None, limits, owner=Owner(k, 2))  # type: ignore[arg-type]  # no bots
                for k, store in enumerate(stores)]
        row, _tokens, _ = row_from_request({"game": "troll", "seats": [{"kind": "human"}], "seed": 1})
        table = Table(row, fresh_start(row))

        def watch(hub: Hub, address: str = "10.0.0.1") -> Any:
            conn, _refusal = hub.connections.connect(table, None, None, address)
            return conn

        opened = [watch(hubs[0]), watch(hubs[1]), watch(hubs[0])]
        assert all(opened)
        assert watch(hubs[1]) is None and watch(hubs[0]) is None  # 3 open over both processes
        assert watch(hubs[1], "10.0.0.2") is not None  # another address is counted apart
        hubs[0].connections.disconnect(table, opened[0])
        assert watch(hubs[1]) is not None  # its place is free, at the other process too
        again = Hub(stores[1], None, limits, owner=Owner(1, 2))  # type: ignore[arg-type]
        # process 1 started again
        assert again.connections.connect(table, None, None, "10.0.0.1")[0] is not None
    finally:
        for store in stores:
            store.close()


# -- a real server with two processes ----------------------------------------------------------
def _workers(front: int) -> dict[int, int]:
    """The front's worker processes: pid -> the process number on its command line."""
    found = {}
    for pid in _descendants(front):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"playtable.web.server.transport.processes" in argv and _running(pid):
            found[pid] = int(argv[argv.index(b"playtable.web.server.transport.processes") + 1])
    return found


def test_the_front_waits_a_bounded_time_for_a_request_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that sends nothing, or half a request line and then nothing, is let go after
    HEAD_SECONDS; one that trickles its line in pieces is read whole; a closed one at once."""
    monkeypatch.setattr(front, "HEAD_SECONDS", 0.3)

    async def peek(*parts: bytes, close: bool = False) -> bytes | None:
        server, client = socket.socketpair()
        server.setblocking(False)
        try:
            async def send() -> None:
                for part in parts:
                    client.send(part)
                    await asyncio.sleep(0.05)
                if close:
                    client.close()
            sender = asyncio.ensure_future(send())
            line = await front._request_line(server)
            await sender
            return line
        finally:
            server.close()
            client.close()

    assert asyncio.run(peek()) is None
    assert asyncio.run(peek(b"GET /api/ta")) is None
    assert asyncio.run(peek(b"GET /api/ta", b"bles HTTP/1.1\r\n")) == b"GET /api/tables HTTP/1.1\r\n"
    assert asyncio.run(peek(close=True)) is None


def test_a_new_front_removes_the_peer_folders_of_fronts_killed_outright(tmp_path: Path) -> None:
    """A front stopped by SIGKILL leaves its workers' socket folder behind; the next front
    removes those whose front is no longer running, and leaves a running one's."""
    import subprocess
    import sys

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                           text=True, check=True)
    dead_pid = int(ended.stdout)  # a process that has ended (its pid not reused this instant)
    stale = tmp_path / f"{front.PEERS_PREFIX}{dead_pid}-abc"
    stale.mkdir()
    (stale / "worker-0.sock").write_text("")
    alive = tmp_path / f"{front.PEERS_PREFIX}{os.getpid()}-def"
    alive.mkdir()
    other = tmp_path / "playtable-peers-notapid"
    other.mkdir()
    kept = tmp_path / "kept"
    kept.mkdir()
    link = tmp_path / f"{front.PEERS_PREFIX}{dead_pid}-link"
    link.symlink_to(kept)  # a link is never followed, nor what it points to removed
    assert front.remove_stale_peer_folders(tmp_path) == [stale]
    assert not stale.exists() and alive.is_dir() and other.is_dir() and link.is_symlink() and kept.is_dir()


def test_two_processes_serve_one_port_and_a_dead_one_comes_back(tmp_path: Path) -> None:
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads the process tree from /proc")
    with start_server(tmp_path / "tables.sqlite3",
                      extra_args=("--processes", "2", "--tables-per-minute", "1000")) as server:
        key = "k" * KEY_LENGTH
        assert httpx2.post(f"{server.url}/api/players", json={"key": key, "name": "Ann"},
                          timeout=10).status_code == 201
        owned: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
        for _ in range(40):  # about half of them each; bounded
            created = create_table(server.url, game="troll", seed=len(owned[0]) + len(owned[1]), key=key,
                                   seats=[{"kind": "human", "mine": True}])
            owned[owner_of(created["table_id"], 2)].append(created)
            if min(len(v) for v in owned.values()) >= 2:
                break
        assert min(len(v) for v in owned.values()) >= 2, {k: len(v) for k, v in owned.items()}

        # Moves over WebSocket on a table of each process.
        played = {k: play_moves(server.ws_url, tables[0], 3) for k, tables in owned.items()}
        assert all(state["step"] == 3 for state in played.values())

        # A stranger's connections that never finish a request line hold nothing up.
        silent = socket.create_connection(("127.0.0.1", server.port))
        half = socket.create_connection(("127.0.0.1", server.port))
        half.sendall(b"GET /api/tab")
        # The lobby lists the tables of both processes, each with its own state.
        listed = {t["id"]: t for t in httpx2.get(f"{server.url}/api/tables", timeout=10).json()["tables"]}
        for tables in owned.values():
            assert all(t["table_id"] in listed for t in tables)
            assert listed[tables[0]["table_id"]]["step"] == 3

        silent.close()
        half.close()
        # A player's tables and whose turn it is, from both processes' memory; a new name
        # reaches the seats of both processes' tables in play.
        mine = httpx2.post(f"{server.url}/api/players/me", json={"key": key}, timeout=10).json()
        assert {t["table_id"] for v in owned.values() for t in v} <= set(mine["your_turn"])
        assert {t["id"]: t["step"] for t in mine["tables"]}[owned[1][0]["table_id"]] == 3
        assert httpx2.post(f"{server.url}/api/players", json={"key": key, "name": "Bo"},
                          timeout=10).status_code == 200
        for tables in owned.values():
            seat = httpx2.get(f"{server.url}/api/tables/{tables[0]['table_id']}", timeout=10,
                             follow_redirects=True).json()["seats"][0]
            assert seat["player"] == "Bo"

        # A kept-alive connection that went to one process reaches the other one's table: the
        # first process redirects it, and the new connection the client opens is routed.
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            connection.request("GET", f"/api/tables/{owned[0][0]['table_id']}")
            first = connection.getresponse()
            assert first.status == 200 and json.loads(first.read())["id"] == owned[0][0]["table_id"]
            connection.request("GET", f"/api/tables/{owned[1][0]['table_id']}")
            moved = connection.getresponse()
            moved.read()
            assert moved.status == 307 and moved.getheader("connection") == "close"
            assert moved.getheader("location") == f"/api/tables/{owned[1][0]['table_id']}"
            connection.close()
            connection.request("GET", moved.getheader("location") or "")
            answer = connection.getresponse()
            assert answer.status == 200 and json.loads(answer.read())["step"] == 3
        finally:
            connection.close()

        # An address's replays a minute are counted over both processes' tables together: asked
        # alternately of both, it gets its burst once (and what refilled meanwhile), not twice.
        began, answers = time.monotonic(), []
        while len(answers) < 2 * PER_ADDRESS_PER_MINUTE and 429 not in answers:
            answers.append(httpx2.get(f"{server.url}/api/tables/{owned[len(answers) % 2][0]['table_id']}"
                                     "/replay", timeout=10).status_code)
        refilled = (time.monotonic() - began) * PER_ADDRESS_PER_MINUTE / 60
        assert answers[-1] == 429 and set(answers[:-1]) == {200}, answers
        assert PER_ADDRESS_PER_MINUTE <= len(answers) - 1 <= PER_ADDRESS_PER_MINUTE + refilled + 1, answers

        # Process 1 dies: the front starts it again, and its tables come back from the store.
        assert server.process is not None
        workers = _workers(server.process.pid)
        assert sorted(workers.values()) == [0, 1], workers
        victim = next(pid for pid, index in workers.items() if index == 1)
        os.kill(victim, signal.SIGKILL)
        # Wait for the new process 1, not merely for two workers: just after the kill the victim
        # may still look alive (a connection handed to it in that instant dies with it).
        deadline = time.monotonic() + 30
        workers = _workers(server.process.pid)
        while time.monotonic() < deadline and (victim in workers or sorted(workers.values()) != [0, 1]):
            time.sleep(0.1)
            workers = _workers(server.process.pid)
        assert victim not in workers and sorted(workers.values()) == [0, 1], workers
        again = play_moves(server.ws_url, owned[1][0], 1)
        assert again["step"] == 4
        assert play_moves(server.ws_url, owned[0][0], 1)["step"] == 4  # the other process never stopped

        front = server.process.pid
        server.stop()
        assert server.process.returncode == 0, server.log()
        assert not _workers(front)


def test_a_playtest_reaches_its_tables_that_a_new_process_count_moved(tmp_path: Path) -> None:
    """A playtest's waiting table, made by a server of one process, belongs after a restart with
    `--processes 2` to the process that does not own the playtest: the tester who opened it
    still sees it, the next tester is seated at it (through its owner), and nobody gets 409."""
    db = tmp_path / "tables.sqlite3"
    wizard = check_spec("wizard", ["default"], 2, 40, ["heuristic", PERSON, PERSON, PERSON],
                        list(DEFAULT_QUESTIONS), "")
    key, other = "a" * KEY_LENGTH, "b" * KEY_LENGTH
    found = None
    with start_server(db, extra_args=("--tables-per-minute", "1000")) as server:
        for name, k in (("Ann", key), ("Bo", other)):
            assert httpx2.post(f"{server.url}/api/players", json={"key": k, "name": name},
                              timeout=10).status_code == 201
        for attempt in range(20):  # a table each; about half are moved away from their playtest
            store = PlaytestStore(db)
            playtest_id = store.create(wizard, random.Random(attempt))
            store.close()
            opened = httpx2.post(f"{server.url}/api/playtests/{playtest_id}/play", json={"key": key},
                                timeout=10).json()
            if owner_of(opened["table_id"], 2) != owner_of(playtest_id, 2):
                found = (playtest_id, opened["table_id"])
                break
    assert found is not None
    playtest_id, table_id = found
    with start_server(db, extra_args=("--processes", "2", "--tables-per-minute", "1000")) as server:
        api = f"{server.url}/api/playtests/{playtest_id}"
        mine = httpx2.post(f"{api}/me", json={"key": key}, timeout=10)
        assert mine.status_code == 200, mine.text
        assert mine.json()["last"] == {"table_id": table_id, "seat": 1, "over": False, "answered": False,
                                       "waiting_for": 2}
        # The owner has the table in memory before the next tester comes: a worker still starting
        # on a busy machine (its bot workers, the table read back) can miss the peers' 2-s answer,
        # and the tester then rightly goes to another table; that start-up is not what is tested.
        deadline = time.monotonic() + 60
        while httpx2.get(f"{server.url}/api/tables/{table_id}", timeout=10,
                        follow_redirects=True).status_code != 200:
            assert time.monotonic() < deadline, "the table's owner never answered"
            time.sleep(0.2)
        joined = httpx2.post(f"{api}/play", json={"key": other}, timeout=10)
        assert joined.status_code == 201, joined.text
        assert (joined.json()["table_id"], joined.json()["seat"]) == (table_id, 2)
        seats = httpx2.get(f"{server.url}/api/tables/{table_id}", timeout=10,
                          follow_redirects=True).json()["seats"]
        assert [s.get("player") for s in seats[1:3]] == ["Ann", "Bo"]
        # Bo's token, made by the table's owner, is the seat's: his page can play there.
        query = joined.json()["path"].split("?", 1)[1]
        with Client(server.ws_url, table_id, query) as page:
            welcome, _state = page.greet()
            assert welcome["seat"] == 2 and welcome["role"] == "player"
        back = httpx2.post(f"{api}/play", json={"key": key}, timeout=10).json()
        assert back["resumed"] and back["table_id"] == table_id
