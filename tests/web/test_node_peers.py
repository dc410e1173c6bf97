"""What one node asks the others, and what every node shares (docs/web.md, "Several machines"):
real `playtable serve --node` processes on one real PostgreSQL, each asked directly. The lobby
of one node lists the tables another holds; a player's tables and whose turn come from the
node holding them; a new name reaches the seats, and the pages, of another node's tables; a
rate budget, a name and a rating are the same whichever node is asked; a live table made on
one node is watched through the other; the nodes' route answers only with their secret; the
nodes' rows come and go with them; the sockets an address holds are counted over nodes, a dead
node's not for ever."""

from __future__ import annotations

import json
import os
import secrets
import signal
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx2
import psycopg
import pytest
from starlette.testclient import TestClient
from tests.cli.cli_runner import run
from tests.pg_server import PgServer
from tests.web.conftest import in_process_app
from tests.web.server_process import OPERATOR_TOKEN, ServerProcess, free_port
from tests.web.test_ratings import STARDICE_WON_BY_SEAT_0, bot, finished_row, person
from tests.web.wire_client import Client, create_table, join_query
from websockets.sync.client import connect

from playtable.web.server.hub import Hub
from playtable.web.server.people.people import hash_key
from playtable.web.server.store.node_registry import HEARTBEAT_SECONDS, NodeRegistry
from playtable.web.server.store.store import PlayerRow, SqlStore
from playtable.web.server.tables.past import PER_ADDRESS_PER_MINUTE
from playtable.web.server.tables.room import Limits
from playtable.web.server.tables.table_request import row_from_request
from playtable.web.server.tables.tables import Table, fresh_start
from playtable.web.server.transport.forward import forwarded_headers
from playtable.web.server.transport.node_peers import NODE_PATH, signed
from playtable.web.server.transport.nodes import NODE_SECRET_ENV, Node
from playtable.web.server.transport.owners import owner_of
from playtable.web.server.transport.peers import SHARED_SECONDS

SECRET = secrets.token_urlsafe(32)
RATED_KEY = secrets.token_urlsafe(32)
TIMEOUT = 20.0


class Nodes:
    """Two nodes on one PostgreSQL database (`db`): `a`, one process, and `b`, two processes
    (each answers another node's questions for both)."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.a, self.b = self.node("a"), self.node("b", "--processes", "2")

    def node(self, name: str, *more: str) -> ServerProcess:
        port = free_port()
        return ServerProcess(self.db, port, extra_args=(
            "--node", name, "--node-url", f"http://127.0.0.1:{port}", "--tables-per-minute", "1000", *more))

    def names(self) -> set[str]:
        with psycopg.connect(self.db) as db:
            return {row[0] for row in db.execute("SELECT name FROM nodes")}


@pytest.fixture(scope="module")
def nodes(postgres: PgServer) -> Iterator[Nodes]:
    """Nodes a and b started (in that order) on a database holding a rated game that ended."""
    db = postgres.database()
    stored = SqlStore(db)
    stored.add_player(PlayerRow("alice", "Alice", hash_key(RATED_KEY), "2026-12-06"))
    stored.create(finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("alice"), bot()], "sd-rated"))
    stored.close()
    before = os.environ.get(NODE_SECRET_ENV)
    os.environ[NODE_SECRET_ENV] = SECRET  # the servers' environment is the test's
    found = Nodes(db)
    try:
        with found.a, found.b:
            found.a.start()
            found.b.start()
            time.sleep(1.5 * HEARTBEAT_SECONDS)  # node a has read b's first heartbeat
            yield found
    finally:
        if before is None:
            os.environ.pop(NODE_SECRET_ENV, None)
        else:
            os.environ[NODE_SECRET_ENV] = before


def _player(url: str, name: str, key: str | None = None) -> str:
    key = key or secrets.token_urlsafe(32)
    answer = httpx2.post(f"{url}/api/players", json={"key": key, "name": name}, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    return key


def _solo(url: str, key: str, seed: int = 1) -> dict[str, Any]:
    return create_table(url, game="troll", seed=seed, key=key, seats=[{"kind": "human", "mine": True}])


def _at_each_process_of_b(nodes: Nodes, key: str) -> dict[int, dict[str, Any]]:
    """A table held by each of node b's two processes (its id names which: `owners.py`)."""
    held: dict[int, dict[str, Any]] = {}
    for seed in range(40):  # about half of them each; bounded
        created = _solo(nodes.b.url, key, seed)
        held.setdefault(owner_of(created["table_id"], 2), created)
        if len(held) == 2:
            return held
    raise AssertionError("40 tables, all at one process")


def test_the_lobby_of_one_node_lists_the_tables_in_play_held_by_another(nodes: Nodes) -> None:
    key = _player(nodes.b.url, "Lobby " + secrets.token_hex(3))
    held_by_b = {t["table_id"] for t in _at_each_process_of_b(nodes, key).values()}
    listed = httpx2.get(f"{nodes.a.url}/api/tables?status=running", timeout=TIMEOUT).json()["tables"]
    assert held_by_b <= {t["id"] for t in listed}
    assert httpx2.get(f"{nodes.a.url}/api/tables?status=nope", timeout=TIMEOUT).status_code == 400


def test_a_rename_on_one_node_reaches_the_seats_and_pages_of_another_node_tables(nodes: Nodes) -> None:
    name = "Ann" + secrets.token_hex(3)
    key = _player(nodes.a.url, name)
    held = _at_each_process_of_b(nodes, key)
    created = held[1]
    table_id = created["table_id"]
    # "Yours" and "Your turn" asked of node a: the tables and whose turn it is, from node b's
    # processes.
    with Client(nodes.b.ws_url, table_id, join_query(created)) as page:
        _, state = page.greet()
        state = page.act(state["legal"][0]["action"], state["step"])
        mine = httpx2.post(f"{nodes.a.url}/api/players/me", json={"key": key}, timeout=TIMEOUT).json()
        assert {t["table_id"] for t in held.values()} <= set(mine["your_turn"])
        assert {t["id"]: t["step"] for t in mine["tables"]}[table_id] == state["step"] == 1

        renamed = "Bo" + secrets.token_hex(3)
        assert httpx2.post(f"{nodes.a.url}/api/players", json={"key": key, "name": renamed},
                          timeout=TIMEOUT).status_code == 200
        seats = page.recv_type("seats")  # the page connected at node b hears it
        assert seats["players"] == [renamed]
    for other in held.values():  # at both processes of node b
        summary = httpx2.get(f"{nodes.b.url}/api/tables/{other['table_id']}", timeout=TIMEOUT,
                            follow_redirects=True).json()
        assert summary["seats"][0]["player"] == renamed


def test_a_name_taken_on_one_node_is_refused_on_the_other(nodes: Nodes) -> None:
    name = "Cara" + secrets.token_hex(3)
    _player(nodes.a.url, name)
    refused = httpx2.post(f"{nodes.b.url}/api/players", timeout=TIMEOUT,
                         json={"key": secrets.token_urlsafe(32), "name": name.upper()})
    assert refused.status_code == 409 and "taken" in refused.json()["error"]


def test_a_rating_is_the_same_whichever_node_is_asked(nodes: Nodes) -> None:
    asked = [(httpx2.get(f"{n.url}/api/games/stardice/bots", timeout=TIMEOUT).json(),
              httpx2.get(f"{n.url}/api/tables/sd-rated/rating", timeout=TIMEOUT).json(),
              httpx2.post(f"{n.url}/api/players/me/scores", json={"key": RATED_KEY}, timeout=TIMEOUT).json())
             for n in (nodes.a, nodes.b)]
    assert asked[0] == asked[1]
    assert asked[0][1]["settled"] and asked[0][0]["bots"]["random"]["games"] == 1  # rated once, not twice


def test_a_rate_budget_spent_on_one_node_is_refused_on_the_other(nodes: Nodes) -> None:
    key = _player(nodes.a.url, "Past " + secrets.token_hex(3))
    tables = {n.url: _solo(n.url, key)["table_id"] for n in (nodes.a, nodes.b)}
    answers = []
    while len(answers) < 2 * PER_ADDRESS_PER_MINUTE and 429 not in answers:  # bounded
        answers.append(httpx2.get(f"{nodes.a.url}/api/tables/{tables[nodes.a.url]}/replay",
                                 timeout=TIMEOUT).status_code)
    assert answers[-1] == 429 and set(answers[:-1]) == {200}, answers
    # Node b counts the same address's replays in the same budget, in the store: of two asked
    # now, one at most got a token refilled meanwhile (a budget of its own would give both).
    there = [httpx2.get(f"{nodes.b.url}/api/tables/{tables[nodes.b.url]}/replay", timeout=TIMEOUT).status_code
             for _ in range(2)]
    assert 429 in there, there


def _live_listed(node: ServerProcess, headers: dict[str, str], live_id: str) -> list[dict[str, Any]]:
    """The node's lobby's live tables once they are `live_id` alone, or as they are after a few
    of the periods one answer is shared."""
    deadline = time.monotonic() + 4 * SHARED_SECONDS
    while True:
        listed: list[dict[str, Any]] = httpx2.get(f"{node.url}/api/live", headers=headers,
                                                 timeout=TIMEOUT).json()["tables"]
        if [t["id"] for t in listed] == [live_id] or time.monotonic() > deadline:
            return listed
        time.sleep(0.1)


def test_a_live_table_made_on_one_node_is_reached_on_the_other(nodes: Nodes) -> None:
    """A live Star Dice table runs in one node's memory (its process 0, with its TUIO source):
    its summary, its socket and its closing asked of the other node are sent on to it, both
    ways (node b has two processes), and both nodes' lobbies list it; where it runs is the
    store's word, so once it is closed
    neither node knows it, and an id no node runs is answered 404 where it was asked."""
    operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    for maker, other in ((nodes.a, nodes.b), (nodes.b, nodes.a)):
        made = httpx2.post(f"{maker.url}/api/live", json={"replay": "sample"}, headers=operator,
                          timeout=TIMEOUT)
        assert made.status_code == 201, made.text
        live_id, control = made.json()["id"], made.json()["control"]
        summary = httpx2.get(f"{other.url}/api/live/{live_id}", timeout=TIMEOUT)
        assert summary.status_code == 200 and summary.json()["id"] == live_id, summary.text
        # both lobbies list it (within the period one answer of the other node's is shared:
        # peers.SHARED_SECONDS); its control link only where it runs, to the operator
        for node in (maker, other):
            listed = _live_listed(node, operator, live_id)
            assert [t["id"] for t in listed] == [live_id], listed
            assert ("control" in listed[0]) == (node is maker), listed
        with connect(f"{other.ws_url}/ws/live/{live_id}", open_timeout=TIMEOUT) as page:
            for _ in range(50):
                message = json.loads(page.recv(timeout=TIMEOUT))
                if message["type"] == "welcome":
                    break
            assert message["type"] == "welcome" and message["table"]["id"] == live_id, message
            page.send(json.dumps({"type": "control", "token": control}))  # through the other node too
            for _ in range(200):
                message = json.loads(page.recv(timeout=TIMEOUT))
                if message["type"] in ("control", "error"):
                    break
            assert message == {"type": "control", "granted": True}
        closed = httpx2.delete(f"{other.url}/api/live/{live_id}", timeout=TIMEOUT,
                              headers={"Authorization": f"Bearer {control}"})
        assert closed.status_code == 204, closed.text
        for node in (maker, other):
            assert httpx2.get(f"{node.url}/api/live/{live_id}", timeout=TIMEOUT).status_code == 404
    assert httpx2.get(f"{nodes.a.url}/api/live/nosuch12", timeout=TIMEOUT).status_code == 404


def test_the_nodes_route_refuses_a_question_without_the_secret(nodes: Nodes) -> None:
    key = _player(nodes.b.url, "Dee" + secrets.token_hex(3))
    table_id = _solo(nodes.b.url, key)["table_id"]
    question = {"question": {"ask": "playing", "status": None}}
    host = urlsplit(nodes.b.url).netloc

    def headers_of(secret: str, asker: str = "a") -> dict[str, str]:
        return {name.decode(): value.decode() for name, value in signed(NODE_PATH, host, asker, secret)}

    good = headers_of(SECRET)
    # a client's request that a node vouches for (a forwarded one) is not a node's question
    vouched_client = {name.decode(): value.decode() for name, value in forwarded_headers(
        {"type": "http", "method": "POST", "path": NODE_PATH, "scheme": "http",
         "client": ("198.51.100.7", 0), "headers": [(b"host", host.encode())]}, SECRET)}
    forgeries = ({}, {"x-playtable-node-secret": SECRET}, headers_of("x" * 43), headers_of(SECRET[:-1] + "y"),
                 {**good, "x-playtable-node-time": str(int(good["x-playtable-node-time"]) + 1)},
                 vouched_client)
    for headers in forgeries:
        forged = httpx2.post(nodes.b.url + NODE_PATH, json=question, headers=headers, timeout=TIMEOUT)
        assert forged.status_code == 403 and set(forged.json()) == {"error"}, headers
        assert table_id not in forged.text
    asked = httpx2.post(nodes.b.url + NODE_PATH, json=question, headers=headers_of(SECRET), timeout=TIMEOUT)
    # every process of b answers (the receiving one first, whichever the front chose)
    assert asked.status_code == 200 and table_id in {t["id"] for part in asked.json() for t in part}
    for body in ({"question": {"ask": "table_status", "table": table_id}},  # of one table: its id
                 {"question": {"ask": "delete_everything"}}, {"question": "playing"}, [1]):
        bad = httpx2.post(nodes.b.url + NODE_PATH, json=body, headers=headers_of(SECRET), timeout=TIMEOUT)
        assert bad.status_code == 400, body


def test_a_table_question_reaches_the_node_that_locate_names(nodes: Nodes) -> None:
    """A playtest's questions of one table ("table_status", "seat_invited") go to its holder,
    which the leases' `locate` names (here the test's own), a node started in this process."""
    name = "Eve" + secrets.token_hex(3)
    key = _player(nodes.b.url, name)
    table_id = _at_each_process_of_b(nodes, key)[1]["table_id"]  # node b asks its holder
    invited = create_table(nodes.b.url, game="stardice", seed=3, key=key, seats=[
        {"kind": "human", "mine": True}, {"kind": "human", "reserved": True}])["table_id"]
    with psycopg.connect(nodes.db) as db:
        (player_id,) = db.execute("SELECT id FROM players WHERE name = %s", (name,)).fetchone() or ("",)
    seat_question = {"ask": "seat_invited", "table": invited, "seat": 1, "player": player_id, "name": name}

    async def locate(asked: str) -> str | None:
        return nodes.b.url if asked in (table_id, invited) else None

    node = Node("c", f"http://127.0.0.1:{free_port()}", SECRET)
    with TestClient(in_process_app(nodes.db, node=node, locate=locate)) as here:
        app: Any = here.app
        while not hasattr(app, "state"):  # through the node's middlewares (forwarding, the guard)
            app = app.app
        peers = app.state.server.peers
        status = here.portal.call(peers.ask_owner, table_id, {"ask": "table_status", "table": table_id})
        assert status == {"over": False, "terminal": False}
        seated = here.portal.call(peers.ask_owner, invited, seat_question)
        assert set(seated) == {"token"} and len(seated["token"]) >= 24
        assert "refused" in here.portal.call(peers.ask_owner, invited, seat_question)  # taken now
        seats = httpx2.get(f"{nodes.b.url}/api/tables/{invited}", timeout=TIMEOUT,
                          follow_redirects=True).json()["seats"]
        assert seats[1]["player"] == name  # seated at node b, where the table is held
        assert "c" in nodes.names()
    assert "c" not in nodes.names()  # stopped cleanly: its row is gone


def test_each_node_registers_and_a_clean_stop_removes_its_row(nodes: Nodes) -> None:
    assert {"a", "b"} <= nodes.names()
    with nodes.node("c") as third:
        third.start()
        assert nodes.names() >= {"a", "b", "c"}
        third.stop()
        # uvicorn, its shutdown done, ends by the signal it was stopped with
        assert third.process is not None and third.process.returncode in (0, -15)
        assert "c" not in nodes.names() and {"a", "b"} <= nodes.names()


def test_a_node_that_does_not_answer_in_time_is_left_out(nodes: Nodes) -> None:
    """A node hung (stopped by SIGSTOP: its socket accepts, nothing answers) is waited for at
    most NODE_SECONDS: the lobby answers without its tables, short for the moment, never wrong;
    going on again, it is asked again."""
    with nodes.node("c") as third:
        third.start()
        key = _player(third.url, "Hung" + secrets.token_hex(3))
        held_by_c = _solo(third.url, key)["table_id"]
        # Node a reads who is live with its heartbeat: c is asked within HEARTBEAT_SECONDS.
        deadline = time.monotonic() + 4 * HEARTBEAT_SECONDS
        while held_by_c not in _running_at(nodes.a) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert held_by_c in _running_at(nodes.a)
        assert third.process is not None
        third.process.send_signal(signal.SIGSTOP)
        try:
            time.sleep(SHARED_SECONDS)  # the answer node a shares for that long is c's no more
            answer = httpx2.get(f"{nodes.a.url}/api/tables?status=running", timeout=TIMEOUT)
            assert answer.status_code == 200
            assert held_by_c not in {t["id"] for t in answer.json()["tables"]}
        finally:
            third.process.send_signal(signal.SIGCONT)
        deadline = time.monotonic() + 4 * SHARED_SECONDS
        while held_by_c not in _running_at(nodes.a) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert held_by_c in _running_at(nodes.a)


def _running_at(server: ServerProcess) -> set[str]:
    listed = httpx2.get(f"{server.url}/api/tables?status=running", timeout=TIMEOUT).json()["tables"]
    return {t["id"] for t in listed}


# -- the sockets an address holds, over nodes (both engines) -----------------------------------
def test_nodes_count_an_address_sockets_together_and_a_dead_node_not_for_ever(db_where: Any) -> None:
    stores = [SqlStore(db_where) for _ in range(2)]
    try:
        limits = Limits(connections_per_address=2)
        # Two nodes of one process each: both are process 0, their rows apart by node name.
        hubs = [Hub(store, None, limits,  # type: ignore[arg-type]  # no bots
                    node=Node(name, f"http://10.0.0.{len(name)}:8000", SECRET))
                for store, name in zip(stores, ("a", "b"), strict=True)]
        for store, name in zip(stores, ("a", "b"), strict=True):
            NodeRegistry(store.db, name, f"http://10.0.0.{len(name)}:8000").beat()
        row, _tokens, _ = row_from_request({"game": "troll", "seats": [{"kind": "human"}], "seed": 1})
        table = Table(row, fresh_start(row))

        def watch(hub: Hub) -> Any:
            return hub.connections.connect(table, None, None, "10.0.0.9")[0]

        assert watch(hubs[0]) is not None and watch(hubs[1]) is not None
        assert watch(hubs[0]) is None and watch(hubs[1]) is None  # 2 open over both nodes
        # Node b dies (no clean stop): once its heartbeat is old, its sockets no longer count.
        stores[0].db.execute("UPDATE nodes SET seen = seen - 100 WHERE name = 'b'")
        assert watch(hubs[0]) is not None
    finally:
        for store in stores:
            store.close()


def test_a_node_under_the_name_of_another_live_node_is_refused_in_one_line(nodes: Nodes) -> None:
    refused = run("serve", "--port", str(free_port()), "--db", nodes.db, "--node", "a",
                  "--node-url", "http://127.0.0.1:9")
    assert refused.code == 2 and refused.err.count("\n") == 1, refused
    assert "another node named 'a' is live at http://127.0.0.1:" in refused.err
