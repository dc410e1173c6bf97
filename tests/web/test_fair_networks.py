"""A public server one stranger cannot take over (docs/web.md, "Fair use"): every budget counts a
network (an IPv6 /64, an IPv4 address), a network keeps a bounded number of tables in play and
tutorials apart, a seat taken and never joined goes back to Open, a table nobody arrived at ends
within minutes, and a damaged database is refused in one line.

The requests come from the addresses the tests name (`FromAddress`), as they do behind the
shipped nginx site that forwards each client's address; time is moved by handing the reaper a
later moment (`Ends.reap_idle`), never by sleeping.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send
from tests.cli.cli_runner import run
from tests.web.conftest import create, in_process_app, seat_query, token_of
from tests.web.hub_support import running_hub
from tests.web.test_people import BATTLE, greet, receive_until, register

from playtable.web.server.hub import Hub
from playtable.web.server.store.schema import opened
from playtable.web.server.store.store import SqlStore, TableRow
from playtable.web.server.tables.in_play import TablesInPlay
from playtable.web.server.tables.past import PER_ADDRESS_PER_MINUTE
from playtable.web.server.tables.room import Limits
from playtable.web.server.tables.tutorials import shipped
from playtable.web.server.transport.networks import network_of


class FromAddress:
    """The app as reached from the address a request names in `X-Test-Address` (uvicorn sets
    the client so from a trusted proxy's X-Forwarded-For)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope["headers"]:
                if name == b"x-test-address":
                    scope = {**scope, "client": (value.decode(), 50000)}
        await self.app(scope, receive, send)


def one_home(n: int) -> dict[str, str]:
    """The headers of a request from the n-th address of one home's /64."""
    return {"x-test-address": f"2001:db8:1:2::{n:x}:1"}


NEIGHBOUR = {"x-test-address": "2001:db8:1:3::1"}
"""An address of the next /64: another network."""


@pytest.fixture
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    limits = getattr(request, "param", Limits())
    app = FromAddress(in_process_app(tmp_path / "t.sqlite3", rate=10_000, limits=limits))
    with TestClient(app) as client:
        yield client


def _hub() -> Hub:
    return running_hub()


def _later(seconds: float) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=seconds)


# -- class 2: one IPv6 /64 is one network, for every budget ------------------------------------------

def test_network_of_counts_a_64_an_ipv4_address_and_a_mapped_one_as_one() -> None:
    assert network_of("2001:db8:1:2::5:1") == network_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert network_of("2001:db8:1:3::1") != network_of("2001:db8:1:2::1")
    assert network_of("::ffff:192.0.2.7") == network_of("192.0.2.7") == "192.0.2.7"
    assert network_of("2001:db8:1:2::5:1", 48) == "2001:db8:1::/48"
    assert network_of("2001:db8::1", 128) != network_of("2001:db8::2", 128)
    assert network_of("testclient") == "testclient"


@pytest.mark.parametrize("served", [Limits(creations_per_minute=3, players_per_minute=2,
                                           takes_per_minute=2, connections_per_address=2)],
                         indirect=True)
def test_a_64_shares_its_tables_names_seats_and_sockets(served: TestClient) -> None:
    client = served
    _three_tables_from_one_home_then_none(client)
    names = [client.post("/api/players", json={"key": _key(n), "name": f"Mal{n}"},
                         headers=one_home(n)).status_code for n in range(3)]
    assert names == [201, 201, 429]
    mallory = _key(0)
    elsewhere = {"x-test-address": "198.51.100.1"}
    tables = [client.post("/api/tables", json={"game": "troll"}, headers=elsewhere).json()["table_id"]
              for _ in range(3)]
    takes = [client.post(f"/api/tables/{t}/take", json={"key": mallory}, headers=one_home(10 + n)).status_code
             for n, t in enumerate(tables)]
    assert takes == [200, 200, 429]
    table = tables[0]
    with client.websocket_connect(f"/ws/tables/{table}", headers=one_home(20)) as first, \
            client.websocket_connect(f"/ws/tables/{table}", headers=one_home(21)) as second:
        first.receive_json()
        second.receive_json()
        with client.websocket_connect(f"/ws/tables/{table}", headers=one_home(22)) as third:
            assert third.receive_json()["code"] == "too_many"
        with client.websocket_connect(f"/ws/tables/{table}", headers=NEIGHBOUR) as other:
            assert other.receive_json()["type"] == "welcome"


@pytest.mark.parametrize("served", [Limits(creations_per_minute=3)], indirect=True)
def test_a_64_proposes_new_games_mid_game_within_its_budget(served: TestClient) -> None:
    """Each mid-game rematch is a proposal written to the store and told to every page: one
    network may make as many a minute as it may make tables, from whichever of its addresses,
    while another network's still go through."""
    client = served
    created = client.post("/api/tables", json={"game": "wizard", "players": 3}, headers=NEIGHBOUR).json()
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 0)}") as wizard, \
            client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as hero:
        greet(wizard)
        greet(hero)
        asked = {"seat": 2, "token": token_of(created, 2)}
        answers = [client.post(f"/api/tables/{table}/rematch", json=asked, headers=one_home(n)).status_code
                   for n in range(4)]
        assert answers == [202, 202, 202, 429]
        elsewhere = client.post(f"/api/tables/{table}/rematch", json=asked,
                                headers={"x-test-address": "198.51.100.1"})
        assert elsewhere.status_code == 202, elsewhere.text
    assert client.get(f"/api/tables/{table}").json()["rematch"] is None  # still a proposal


def test_a_64_shares_its_replays_and_board_checks(served: TestClient) -> None:
    client = served
    table = client.post("/api/tables", json={"game": "troll"}, headers=NEIGHBOUR).json()["table_id"]
    replays = [client.get(f"/api/tables/{table}/replay", headers=one_home(n)).status_code
               for n in range(int(PER_ADDRESS_PER_MINUTE) + 1)]
    assert replays == [200] * int(PER_ADDRESS_PER_MINUTE) + [429]
    assert client.get(f"/api/tables/{table}/replay", headers=NEIGHBOUR).status_code == 200
    board = shipped()["rotator-sequence"].table["params"]["board"]
    checks = [client.post("/api/rotator/boards/check", json={"board": board}, headers=one_home(n)).status_code
              for n in range(31)]
    assert checks == [200] * 30 + [429]


def _three_tables_from_one_home_then_none(client: TestClient) -> None:
    """Four tables asked for from four addresses of one /64: the fourth is refused (429), and
    the next /64 is another network, with a budget of its own."""
    codes = [client.post("/api/tables", json={"game": "troll"}, headers=one_home(n)).status_code
             for n in range(4)]
    assert codes == [201, 201, 201, 429]
    assert client.post("/api/tables", json={"game": "troll"}, headers=NEIGHBOUR).status_code == 201


def _key(n: int) -> str:
    return f"{'k' * 40}{n:03d}"


# -- tables in play per network and per person; tutorials apart --------------------------------------

@pytest.mark.parametrize("served", [Limits(tables_per_network=3, tables_per_person=2,
                                           tutorials_per_network=2)], indirect=True)
def test_a_network_keeps_a_bounded_number_of_tables_in_play(served: TestClient) -> None:
    client = served
    _three_tables_from_one_home_then_none(client)
    # a tutorial is budgeted apart: the network's tables are all in play, its tutorials are not
    tutorials = [client.post("/api/tutorials", json={"name": "rotator-sequence"}, headers=one_home(n))
                 for n in range(3)]
    assert [t.status_code for t in tutorials] == [201, 201, 429]
    # a person has a budget of their own, within their network's
    alice = register(client, "Alice")
    mine = [client.post("/api/tables", json={"game": "troll", "key": alice,
                                             "seats": [{"kind": "human", "mine": True}]},
                        headers={"x-test-address": f"192.0.2.{n}"}).status_code for n in range(3)]
    assert mine == [201, 201, 429]


@pytest.mark.parametrize("served", [Limits(tutorials_per_network=1)], indirect=True)
def test_a_finished_tutorial_leaves_play(served: TestClient) -> None:
    client = served
    started = client.post("/api/tutorials", json={"name": "rotator-sequence"}, headers=one_home(1))
    assert started.status_code == 201
    assert client.post("/api/tutorials", json={"name": "rotator-sequence"},
                       headers=one_home(2)).status_code == 429
    script = shipped()["rotator-sequence"]
    query = started.json()["join_url"].split("?", 1)[1]
    with client.websocket_connect(f"/ws/tables/{started.json()['table_id']}?{query}") as ws:
        _, state = greet(ws)
        for action in [s["expect"] for s in script.steps if "expect" in s]:
            ws.send_json({"type": "act", "step": state["step"], "action": action})
            state = receive_until(ws, "state")
        assert state["terminal"]
    assert client.post("/api/tutorials", json={"name": "rotator-sequence"},
                       headers=one_home(3)).status_code == 201


def test_a_tutorial_left_open_by_nobody_ends_within_minutes(served: TestClient) -> None:
    started = served.post("/api/tutorials", json={"name": "rotator-sequence"}, headers=one_home(1)).json()
    query = started["join_url"].split("?", 1)[1]
    with served.websocket_connect(f"/ws/tables/{started['table_id']}?{query}") as ws:
        greet(ws)
        assert _hub().ends.reap_idle(_later(_hub().limits.unarrived_seconds + 60)) == []  # open: kept
    assert _hub().ends.reap_idle(_later(_hub().limits.unarrived_seconds + 60)) == [started["table_id"]]


# -- class 3: squatted seats ----------------------------------------------------------------------

def test_a_taken_seat_whose_person_never_comes_goes_back_to_open(served: TestClient) -> None:
    client = served
    mallory = register(client, "Mallory")
    created = client.post("/api/tables", json={"game": "troll"}, headers=NEIGHBOUR).json()
    table = created["table_id"]
    taken = client.post(f"/api/tables/{table}/take", json={"key": mallory, "seat": 0}, headers=one_home(1))
    assert taken.status_code == 200
    assert client.get(f"/api/tables/{table}").json()["status"] == "running"
    hub = _hub()
    assert hub.ends.reap_idle(_later(hub.limits.take_seconds - 30)) == []
    assert client.get(f"/api/tables/{table}").json()["status"] == "running"  # not yet
    hub.ends.reap_idle(_later(hub.limits.take_seconds + 1))
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["status"] == "open" and summary["seats"][0]["free"]
    with client.websocket_connect(f"/ws/tables/{table}?{taken.json()['join_url'].split('?', 1)[1]}") as ws:
        assert ws.receive_json()["code"] == "forbidden"  # the squatter's link no longer opens it
    again = client.post(f"/api/tables/{table}/take", json={"key": register(client, "Bob")},
                        headers=NEIGHBOUR)
    assert again.status_code == 200


def test_a_seat_taken_and_joined_in_time_is_kept(served: TestClient) -> None:
    client = served
    bob = register(client, "Bob")
    table = client.post("/api/tables", json={"game": "troll"}, headers=NEIGHBOUR).json()["table_id"]
    taken = client.post(f"/api/tables/{table}/take", json={"key": bob}, headers=NEIGHBOUR).json()
    with client.websocket_connect(f"/ws/tables/{table}?{taken['join_url'].split('?', 1)[1]}") as ws:
        assert greet(ws)[0]["role"] == "player"
    _hub().ends.reap_idle(_later(_hub().limits.take_seconds + 1))
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["player"] == "Bob"


def test_a_rematch_does_not_reserve_a_seat_for_someone_who_never_played(served: TestClient) -> None:
    client = served
    alice, mallory = register(client, "Alice"), register(client, "Mallory")
    created = create(client, **BATTLE, key=alice, seats=[{"kind": "human", "mine": True}, {"kind": "human"}])
    table = created["table_id"]
    assert client.post(f"/api/tables/{table}/take", json={"key": mallory, "seat": 1},
                       headers=one_home(1)).status_code == 200
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 0)}") as ws:
        greet(ws)
        answer = client.post(f"/api/tables/{table}/rematch", json={"seat": 0, "token": token_of(created, 0)})
    assert answer.status_code == 200, answer.text
    seats = client.get(f"/api/tables/{answer.json()['table_id']}").json()["seats"]
    assert seats[0]["player"] == "Alice" and seats[0]["reserved"]
    assert seats[1]["player"] is None and seats[1]["free"]  # Mallory never came: open to anyone


# -- a table nobody arrived at ----------------------------------------------------------------------

def test_a_table_nobody_arrived_at_ends_within_minutes(served: TestClient) -> None:
    client = served
    alice = register(client, "Alice")
    left = create(client, game="troll", seed=1)["table_id"]
    played = create(client, game="troll", seed=2, key=alice, seats=[{"kind": "human", "mine": True}])
    with client.websocket_connect(f"/ws/tables/{played['table_id']}?{seat_query(played)}") as ws:
        greet(ws)
    hub = _hub()
    assert hub.ends.reap_idle(_later(hub.limits.unarrived_seconds - 60)) == []
    assert hub.ends.reap_idle(_later(hub.limits.unarrived_seconds + 60)) == [left]
    summary = client.get(f"/api/tables/{left}").json()
    assert summary["status"] == "finished" and summary["result"]["abandoned"]
    assert client.get(f"/api/tables/{played['table_id']}").json()["status"] == "running"


# -- class 9: a damaged database --------------------------------------------------------------------

def test_serve_on_a_database_with_corrupt_pages_says_so_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    store = SqlStore(path)
    for n in range(40):
        store.create(TableRow(f"t{n}", "troll", None, {}, n, [], "2026-01-01T00:00:00+00:00"))
    store.close()
    with sqlite3.connect(path) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    assert len(data) > 2 * page_size
    data[page_size:] = b"\xa5" * (len(data) - page_size)  # every page but the schema's
    path.write_bytes(bytes(data))
    done = subprocess.run([sys.executable, "-m", "playtable", "serve", "--db", str(path), "--port", "0"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr  # refused input, as every other command's
    assert "tables.sqlite3" in done.stderr and "damaged" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_processes_count_a_network_tables_in_play_together(db_where: str | Path) -> None:
    """Two processes' connections to the shared database: a network's tables in play are the
    whole server's, counted and written at once, and a table that ends gives its place back."""
    first, second = (opened(db_where) for _ in range(2))
    try:
        one, other = TablesInPlay(first), TablesInPlay(second)
        home = network_of("2001:db8:1:2::1")
        answers = [rows.reserve(f"t{n}", home, None, False, 3, 3) for n, rows in enumerate((one, other) * 2)]
        assert answers[:3] == [None, None, None] and "your network" in str(answers[3])
        assert other.reserve("u1", home, None, True, 1, 1) is None  # a tutorial: counted apart
        assert other.reserve("u2", network_of("2001:db8:1:3::1"), None, False, 3, 3) is None
        one.ended("t1")
        assert other.reserve("t9", home, None, False, 3, 3) is None
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("prefix", ["16", "129", "x"])
def test_serve_refuses_an_ipv6_prefix_out_of_bounds(tmp_path: Path, prefix: str) -> None:
    refused = run("serve", "--ipv6-prefix", prefix, "--db", str(tmp_path / "t.sqlite3"))
    assert refused.one_error_line() and "--ipv6-prefix" in refused.err, refused
