"""A request that reaches a node which does not hold its table is sent on to the node that does
(transport/forward.py, docs/web.md "Several machines"). The owner is a real `playtable serve
--node owner` process; the node in front is a real uvicorn serving `create_app(..., node=...,
locate=...)` with the test's own `locate` (a dict of which table is held where) and a store of
its own, so whatever it answers about a table can only have come from the owner."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2
import pytest
from tests.pg_server import PgServer
from tests.web.nodes import SECRET, ThreadedNode, node_server
from tests.web.server_process import ServerProcess
from tests.web.wire_client import (
    TIMEOUT,
    Client,
    create_table,
    join_query,
    play_to_the_end,
    watched_to_the_end,
)
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from playtable.web.server.transport.forward import ForwardLimits, believe, forwarded_headers
from playtable.web.server.transport.owners import owner_of

ELSEWHERE = "198.51.100.7"
"""A client address on another network than the tests' 127.0.0.1 (as nginx would name it)."""
ONE_NETWORK = "2001:db8:1:2::{}"
"""Addresses of one IPv6 /64 (one network, `networks.network_of`), as nginx would name them."""


BROKEN = "broken"
"""Where the test's `locate` is told a table is: it raises, as when the store is down."""


class Front:
    """The node in front, and where it believes each table is held (`held[table_id]`: a URL)."""

    def __init__(self, node: ThreadedNode, held: dict[str, str]) -> None:
        self.node, self.held = node, held
        self.url, self.ws_url = node.url, node.ws_url

    def hold(self, owner: ServerProcess, table_id: str) -> None:
        self.held[table_id] = owner.url


def start_owner(tmp_path: Path, *extra: str) -> ServerProcess:
    return node_server(tmp_path / "owner.sqlite3", "owner", ("--rate-limit", "1000", *extra)).start()


@pytest.fixture
def owner(tmp_path: Path) -> Iterator[ServerProcess]:
    with start_owner(tmp_path) as server:
        yield server


@pytest.fixture
def front(tmp_path: Path) -> Iterator[Front]:
    held: dict[str, str] = {}

    async def locate(table_id: str) -> str | None:
        if held.get(table_id) == BROKEN:
            raise RuntimeError("the store cannot be read")
        return held.get(table_id)

    with ThreadedNode(tmp_path / "front.sqlite3", "front", locate, workers=1, rate=1000) as node:
        yield Front(node, held)


def test_a_whole_game_through_the_node_in_front(owner: ServerProcess, front: Front) -> None:
    created = create_table(owner.url, game="troll", seed=11)
    table_id = created["table_id"]
    front.hold(owner, table_id)
    with Client(front.ws_url, table_id, join_query(created)) as player, \
            Client(front.ws_url, table_id) as watcher:
        welcome, state = player.greet()
        assert welcome["role"] == "player" and state["your_turn"]
        assert watcher.greet()[0]["role"] == "watcher"
        state = play_to_the_end(player, state, 11)
        seen = watched_to_the_end(watcher)  # through the same node, the watcher saw it end too
        assert seen["step"] == state["step"] and seen["result"] == state["result"]
    summary = httpx2.get(f"{front.url}/api/tables/{table_id}", timeout=TIMEOUT)
    assert summary.status_code == 200 and summary.json()["status"] == "finished"
    assert summary.headers["content-security-policy"]  # the owner's own answer, headers and all
    replay = httpx2.get(f"{front.url}/api/tables/{table_id}/replay", timeout=TIMEOUT)
    assert replay.status_code == 200 and len(replay.json()["steps"]) == state["step"] + 1
    front.held.clear()  # asked of the node in front itself: it has never had the table
    assert httpx2.get(f"{front.url}/api/tables/{table_id}", timeout=TIMEOUT).status_code == 404


def test_a_post_and_refusals_come_back_from_the_owner(owner: ServerProcess, front: Front) -> None:
    created = create_table(owner.url, game="troll", seed=3)
    table_id = created["table_id"]
    front.hold(owner, table_id)
    seat = created["seats"][0]
    token = join_query(created).split("token=", 1)[1].split("&", 1)[0]
    with httpx2.Client(base_url=front.url, timeout=TIMEOUT) as http:
        wrong = http.post(f"/api/tables/{table_id}/rematch", json={"seat": 0, "token": "x" * 20})
        assert wrong.status_code == 403 and "token" in wrong.json()["error"]
        front.hold(owner, "nosuch12")
        assert http.get("/api/tables/nosuch12").status_code == 404
        front.held["broken12"] = BROKEN  # no one can say who holds it: try again in a moment
        unknown = http.get("/api/tables/broken12")
        assert unknown.status_code == 503 and unknown.headers["retry-after"].isdigit()
        foreign = http.post(f"/api/tables/{table_id}/rematch", json={"seat": 0, "token": token},
                            headers={"Origin": "https://evil.example"})
        assert foreign.status_code == 403  # the owner's guard saw the client's own Origin
        big = http.post(f"/api/tables/{table_id}/rematch", content=b"{" + b" " * 70_000 + b"}",
                        headers={"Content-Type": "application/json"})
        assert big.status_code == 413
        again = http.post(f"/api/tables/{table_id}/rematch", json={"seat": 0, "token": token},
                          headers={"Origin": front.url})
        assert again.status_code == 200, again.text
    rematch = again.json()["table_id"]
    assert rematch and seat["seat"] == 0
    assert httpx2.get(f"{owner.url}/api/tables/{rematch}", timeout=TIMEOUT).status_code == 200


def test_a_refused_socket_and_the_bound_on_open_sockets(owner: ServerProcess, tmp_path: Path) -> None:
    """The owner's refusal of a handshake (a foreign Origin: 403) comes back as it is; past the
    node's bound on forwarded sockets a new one is closed with 1013 at once, until one ends."""
    created = create_table(owner.url, game="troll", seed=9)
    table_id = created["table_id"]

    async def locate(asked: str) -> str | None:
        return owner.url if asked == table_id else None

    limits = ForwardLimits(sockets=1)
    with ThreadedNode(tmp_path / "front.sqlite3", "front", locate, limits, workers=1) as node:
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{node.ws_url}/ws/tables/{table_id}", origin=Origin("https://evil.example"),
                    open_timeout=TIMEOUT)
        assert refused.value.response.status_code == 403
        with Client(node.ws_url, table_id, join_query(created)) as first:
            first.greet()
            with Client(node.ws_url, table_id) as second, pytest.raises(ConnectionClosed) as busy:
                second.recv()
            assert busy.value.rcvd is not None and busy.value.rcvd.code == 1013
        deadline = time.monotonic() + TIMEOUT  # the first one's slot is given back as it closes
        while True:
            with Client(node.ws_url, table_id) as third:
                try:
                    assert third.greet()[0]["role"] == "watcher"
                    break
                except ConnectionClosed:
                    assert time.monotonic() < deadline, "the closed socket's slot never came back"
                    time.sleep(0.1)


def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not check():
        assert time.monotonic() < deadline, f"not within {TIMEOUT:g} s: {what}"
        time.sleep(0.1)


def _slow_post(port: int, path: str, address: str) -> socket.socket:
    """A POST whose body never comes (one byte of the 40 it declares): its forwarding holds a
    slot until the node's `body_seconds` end it."""
    slow = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    slow.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: 40\r\nX-Forwarded-For: {address}\r\n\r\n{{".encode())
    return slow


def test_one_network_holds_only_its_share_of_the_forwarding(tmp_path: Path, postgres: PgServer) -> None:
    """Two real nodes on one PostgreSQL: the table is held by the owner (its lease), the node in
    front sends its requests on. Its bounds are 8 sockets and 8 requests, 2 of each a network:
    one IPv6 /64 opening sockets from many of its addresses gets 2, the next closed with 1013,
    and HTTP requests whose bodies never come hold 2 slots, the next refused with 503, while
    another network still gets through both; a body that does not come ends with 408 and gives
    its slot back."""
    db = postgres.database()
    limits = ForwardLimits(requests=8, sockets=8, requests_per_network=2, sockets_per_network=2,
                           body_seconds=5.0)
    with node_server(db, "owner", ("--rate-limit", "1000")).start() as owner, \
            ThreadedNode(db, "front", None, limits, workers=1, rate=1000) as front:
        table_id = create_table(owner.url, game="troll", seed=4)["table_id"]
        summary = f"{front.url}/api/tables/{table_id}"

        def from_network(k: int) -> dict[str, str]:
            return {"X-Forwarded-For": ONE_NETWORK.format(k)}

        held = [Client(front.ws_url, table_id, headers=from_network(k)) for k in (1, 2)]
        try:
            for watcher in held:
                assert watcher.greet()[0]["role"] == "watcher"  # sent on: the front never had it
            with Client(front.ws_url, table_id, headers=from_network(3)) as third, \
                    pytest.raises(ConnectionClosed) as busy:
                third.recv()
            assert busy.value.rcvd is not None and busy.value.rcvd.code == 1013
            with Client(front.ws_url, table_id, headers={"X-Forwarded-For": ELSEWHERE}) as stranger:
                assert stranger.greet()[0]["role"] == "watcher"
        finally:
            for watcher in held:
                watcher.close()

        slow = [_slow_post(front.port, f"/api/tables/{table_id}/rematch", ONE_NETWORK.format(k))
                for k in (4, 5)]
        try:
            _until(lambda: httpx2.get(summary, headers=from_network(6), timeout=TIMEOUT).status_code == 503,
                   "the network's third request refused while two bodies are awaited")
            refused = httpx2.get(summary, headers=from_network(7), timeout=TIMEOUT)
            assert refused.status_code == 503 and refused.headers["retry-after"].isdigit()
            assert "your network" in refused.json()["error"]
            other = httpx2.get(summary, headers={"X-Forwarded-For": ELSEWHERE}, timeout=TIMEOUT)
            assert other.status_code == 200 and other.json()["id"] == table_id
            for waiting in slow:  # the node ends a body that does not come, and frees its slot
                assert waiting.recv(4096).startswith(b"HTTP/1.1 408 ")
        finally:
            for waiting in slow:
                waiting.close()
        assert httpx2.get(summary, headers=from_network(8), timeout=TIMEOUT).status_code == 200


def test_an_owner_of_several_processes(tmp_path: Path, front: Front) -> None:
    """Requests for tables of two of the owner's processes, one after the other on the node's
    kept-alive connection: the one that reaches the wrong process is redirected there
    (`owners.OwnerCheck`) and sent once more, so the client sees only the answers."""
    with start_owner(tmp_path, "--processes", "2") as owner:
        by_process: dict[int, str] = {}
        for _ in range(16):  # each new table is the id-drawing process's: both come soon
            table_id = create_table(owner.url, game="troll")["table_id"]
            by_process.setdefault(owner_of(table_id, 2), table_id)
            if len(by_process) == 2:
                break
        assert len(by_process) == 2
        for table_id in by_process.values():
            front.hold(owner, table_id)
        with httpx2.Client(base_url=front.url, timeout=TIMEOUT) as http:
            for _ in range(3):
                for table_id in by_process.values():
                    answer = http.get(f"/api/tables/{table_id}")
                    assert answer.status_code == 200 and answer.json()["id"] == table_id


def test_the_owner_spends_the_clients_budget_not_the_nodes(tmp_path: Path, front: Front) -> None:
    """With one new table a minute per network, 127.0.0.1 has spent its own; a rematch (a new
    table) sent on for a client nginx names 198.51.100.7 is that network's, while the same
    address in a client's own forwarded-address headers, however signed, is ignored."""
    with start_owner(tmp_path, "--tables-per-minute", "1") as owner:
        created = create_table(owner.url, game="troll", seed=5)
        table_id = created["table_id"]
        front.hold(owner, table_id)
        body = {"seat": 0, "token": join_query(created).split("token=", 1)[1].split("&", 1)[0]}
        rematch = f"/api/tables/{table_id}/rematch"
        assert httpx2.post(owner.url + rematch, json=body, timeout=TIMEOUT).status_code == 429
        forged = {"x-playtable-node-client": ELSEWHERE, "x-playtable-node-time": str(int(time.time())),
                  "x-playtable-node-signature": "0" * 64}
        assert httpx2.post(owner.url + rematch, json=body, headers=forged, timeout=TIMEOUT).status_code == 429
        wrongly_signed = dict(forwarded_headers(
            {"type": "http", "method": "POST", "path": rematch, "client": (ELSEWHERE, 1),
             "headers": [(b"host", f"127.0.0.1:{owner.port}".encode())]}, "not-the-" + SECRET))
        answer = httpx2.post(owner.url + rematch, json=body, timeout=TIMEOUT,
                            headers={k.decode(): v.decode() for k, v in wrongly_signed.items()})
        assert answer.status_code == 429
        from_here = httpx2.post(front.url + rematch, json=body, timeout=TIMEOUT)
        assert from_here.status_code == 429  # the node in front sends 127.0.0.1 on, unchanged
        sent_on = httpx2.post(front.url + rematch, json=body, timeout=TIMEOUT,
                             headers={"X-Forwarded-For": ELSEWHERE})
        assert sent_on.status_code == 200, sent_on.text


def test_an_unreachable_owner(owner: ServerProcess, front: Front) -> None:
    created = create_table(owner.url, game="troll", seed=8)
    table_id = created["table_id"]
    front.hold(owner, table_id)
    with Client(front.ws_url, table_id, join_query(created)) as player:
        player.greet()
        owner.kill()
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(100):  # whatever was on its way, then the close
                player.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    answer = httpx2.get(f"{front.url}/api/tables/{table_id}", timeout=TIMEOUT)
    assert answer.status_code == 503 and answer.headers["retry-after"].isdigit()
    with Client(front.ws_url, table_id) as late, pytest.raises(ConnectionClosed) as refused:
        late.recv()
    assert refused.value.rcvd is not None and refused.value.rcvd.code == 1013


def test_forwarded_headers_are_believed_only_signed_and_recent() -> None:
    scope = {"type": "http", "method": "POST", "path": "/api/tables/abc/rematch", "client": ("10.0.0.9", 5),
             "scheme": "https", "headers": [(b"host", b"games.example.org"), (b"origin", b"https://games.example.org")]}
    signed = forwarded_headers(scope, SECRET, now=1000.0)
    arriving = {**scope, "client": ("10.0.0.2", 4), "scheme": "http",
                "headers": [(b"host", b"10.0.0.3:8000"), *signed]}
    believed = believe(arriving, SECRET, now=1010.0)
    assert believed["client"][0] == "10.0.0.9" and believed["scheme"] == "https"
    assert dict(believed["headers"]) == {b"host": b"games.example.org", b"origin": b"https://games.example.org"}
    for doubted in (believe(arriving, "not-the-" + SECRET, now=1010.0), believe(arriving, SECRET, now=1100.0),
                    believe({**arriving, "path": "/api/tables/other/rematch"}, SECRET, now=1010.0)):
        assert doubted["client"][0] == "10.0.0.2" and dict(doubted["headers"]) == {b"host": b"10.0.0.3:8000"}
