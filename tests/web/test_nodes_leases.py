"""Running tables held by leases among real `playtable serve --node` processes on one store
(docs/web.md, "Several machines"), each node asked directly: a node killed outright mid-game
has its tables taken over by another within a bounded wait, with every acknowledged move, a
bots' table by the sweep with no request at all; the killed node restarted does not take them
back; and an owner paused past its lease (SIGSTOP) and resumed cannot write and lets go."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx2
import pytest
from tests.web.server_process import ServerProcess, free_port, start_server
from tests.web.wire_client import Client, create_table, join_query, play_moves
from websockets.exceptions import ConnectionClosed

from playtable.web.server.store.schema import opened
from playtable.web.server.transport.nodes import NODE_SECRET_ENV

SECRET = "nodes-secret-of-the-tests-0123456789"
WAIT = 30.0
"""The longest a test waits for a takeover (the lease is 6 s, the sweep every second)."""
SLOW_BOT = "ismcts:iterations=2000"
"""About a third of a second a move: its game is still going when its node is killed."""


@pytest.fixture(autouse=True)
def _secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NODE_SECRET_ENV, SECRET)


def _node(where: str | Path, name: str) -> ServerProcess:
    port = free_port()
    return start_server(where, port=port,
                        extra_args=("--node", name, "--node-url", f"http://127.0.0.1:{port}"))


def _read(where: str | Path, sql: str, args: tuple[Any, ...]) -> Any:
    db = opened(where)
    try:
        found = db.execute(sql, args).fetchone()
        return None if found is None else found[0]
    finally:
        db.close()


def _holder(where: str | Path, table_id: str) -> str | None:
    holder: str | None = _read(where, "SELECT holder FROM leases WHERE table_id = ?", (table_id,))
    return holder


def _actions(where: str | Path, table_id: str) -> int:
    return int(_read(where, "SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)))


def _until(check: Callable[[], bool], what: str, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds:g} s: {what}")


def test_a_killed_nodes_tables_go_on_at_another_node_with_every_acknowledged_move(
        db_where: str | Path) -> None:
    with _node(db_where, "one") as one, _node(db_where, "two") as two:
        person = create_table(one.url, game="troll", variant="plus-one", seed=17)
        bots = create_table(one.url, game="troll", variant="plus-one", seed=5,
                            seats=[{"kind": "bot", "agent": SLOW_BOT}])
        assert _holder(db_where, person["table_id"]) == _holder(db_where, bots["table_id"]) == "one/0"
        acknowledged = play_moves(one.ws_url, person, 6)
        one.kill()
        at_kill = _actions(db_where, bots["table_id"])

        # The sweep of node two takes both over with no request: the bots play on there.
        _until(lambda: _holder(db_where, bots["table_id"]) == "two/0", "the bots' table taken over")
        _until(lambda: _actions(db_where, bots["table_id"]) > at_kill, "the bots playing on")
        assert _holder(db_where, person["table_id"]) == "two/0"

        assert _actions(db_where, person["table_id"]) == acknowledged["step"] == 6  # 0 moves lost
        with Client(two.ws_url, person["table_id"], join_query(person)) as player:
            welcome, state = player.greet()
            assert welcome["role"] == "player" and len(welcome["log"]) == 7
            assert (state["step"], state["observation"], state["legal"]) == \
                (acknowledged["step"], acknowledged["observation"], acknowledged["legal"])
            assert player.act(state["legal"][0]["action"], state["step"])["step"] == 7
        assert _actions(db_where, person["table_id"]) == 7

        # Node one comes back under its name: it does not take back what node two holds, and
        # the table's page that reaches it is sent on to node two (forward.py).
        one.restart()
        with Client(one.ws_url, person["table_id"], join_query(person)) as sent_on:
            welcome, state = sent_on.greet()
            assert welcome["role"] == "player" and state["step"] == 7
        assert _holder(db_where, person["table_id"]) == _holder(db_where, bots["table_id"]) == "two/0"
        assert play_moves(two.ws_url, person, 1)["step"] == 8
        # A rematch made at node two is leased to it with its creation; the table it replaces
        # ends there, and an ended table has no lease.
        token = parse_qs(join_query(person))["token"][0]
        again = httpx2.post(f"{two.url}/api/tables/{person['table_id']}/rematch",
                           json={"seat": 0, "token": token}, timeout=20)
        assert again.status_code == 200, again.text
        assert _holder(db_where, again.json()["table_id"]) == "two/0"
        assert _holder(db_where, person["table_id"]) is None


def test_an_owner_paused_past_its_lease_cannot_write_and_lets_its_table_go(
        db_where: str | Path) -> None:
    with _node(db_where, "one") as one, _node(db_where, "two") as two:
        person = create_table(one.url, game="troll", variant="plus-one", seed=23)
        assert one.process is not None
        with Client(one.ws_url, person["table_id"], join_query(person)) as player:
            _, state = player.greet()
            state = player.act(state["legal"][0]["action"], state["step"])
            assert state["step"] == 1
            one.process.send_signal(signal.SIGSTOP)
            try:
                _until(lambda: _holder(db_where, person["table_id"]) == "two/0",
                       "the paused owner's table taken over")
                # Sent while node one is paused: it reads it when it resumes, its lease gone.
                player.send({"type": "act", "action": state["legal"][0]["action"], "step": 1})
            finally:
                one.process.send_signal(signal.SIGCONT)
            told: list[dict[str, Any]] = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    told.append(player.recv())
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012, told
            assert all(m["type"] != "state" or m["step"] <= 1 for m in told), told
        assert _actions(db_where, person["table_id"]) == 1  # the late move was not written
        assert _holder(db_where, person["table_id"]) == "two/0"
        after = play_moves(two.ws_url, person, 1)  # the page reconnects to the new holder and plays on
        assert after["step"] == 2 and _actions(db_where, person["table_id"]) == 2
