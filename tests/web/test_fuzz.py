"""Bad input over the table WebSocket: thousands of fuzzed messages (JSON of every
shape, non-JSON, binary and oversized frames, wrong types, illegal actions) each get exactly one
`error` and leave every table unchanged; a flooding client is rate-limited, then closed with
1008, and the server goes on serving everyone else."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import create, in_process_app, seat_query

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
FIELD = JSON | st.sampled_from(["stomp", "move left", "drill 2", "start a1", "", " ", "\x00"]) | \
    st.integers(-3, 5) | st.text(max_size=300)
MESSAGE = st.one_of(
    JSON,
    st.text(max_size=200),  # mostly not JSON at all
    st.fixed_dictionaries({"type": st.sampled_from(["act", "undo", "hint", "sync", "ACT", 3, None])},
                          optional={"action": FIELD, "step": FIELD, "extra": JSON}),
    st.integers(16_400, 40_000).map(lambda n: {"type": "act", "action": "x" * n, "step": 0}),
    st.binary(max_size=64),
    st.sampled_from(['{"type": "act", "action": "stomp", "step": 1' + "0" * 5000 + '}',
                     "[" * 2000 + "]" * 2000, '{"type": "undo", "step": NaN}',
                     '{"type": "undo", "step": 1e999}']),
)


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = Path(tmp_path_factory.mktemp("fuzz")) / "tables.sqlite3"
    with TestClient(in_process_app(db, workers=1, rate=100_000)) as client:
        yield client


@pytest.fixture(scope="module")
def tables(app_client: TestClient) -> Iterator[dict[str, Any]]:
    """A troll and a rotator table, each with a seat and a watcher connection."""
    out: dict[str, Any] = {}
    sessions = []
    for game in ("troll", "rotator"):
        created = create(app_client, game=game, seed=12)
        table_id = created["table_id"]
        for who, query in (("seat", seat_query(created)), ("watcher", "")):
            session = app_client.websocket_connect(f"/ws/tables/{table_id}?{query}")
            ws = session.__enter__()
            sessions.append(session)
            ws.receive_json()
            state = ws.receive_json()
            out[f"{game}-{who}"] = (table_id, ws, state)
    yield out
    for session in sessions:
        session.__exit__(None, None, None)


def _send(ws: WebSocketTestSession, message: Any) -> None:
    if isinstance(message, bytes):
        ws.send_bytes(message)
    elif isinstance(message, str):
        ws.send_text(message)
    else:
        ws.send_text(json.dumps(message))


def _harmless(message: Any, state: dict[str, Any]) -> bool:
    """False for the rare fuzzed message that is a valid request (it would rightly be served)."""
    if not isinstance(message, dict | str):
        return True
    data = message
    if isinstance(message, str):
        try:
            data = json.loads(message)
        except (ValueError, RecursionError):
            return True
    if not isinstance(data, dict) or data.get("type") not in ("act", "undo", "hint", "sync"):
        return True
    if data["type"] == "sync":
        return False
    legal = {entry["action"] for entry in state["legal"]}
    return not (data.get("step") == state["step"] and (data["type"] == "hint" or
                isinstance(data.get("action"), str) and data["action"].strip() in legal))


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(which=st.sampled_from(["troll-seat", "troll-watcher", "rotator-seat", "rotator-watcher"]),
       messages=st.lists(MESSAGE, min_size=30, max_size=50))
def test_fuzzed_messages_get_one_error_each_and_change_nothing(
        app_client: TestClient, tables: dict[str, Any], which: str, messages: list[Any]) -> None:
    table_id, ws, state = tables[which]
    for message in messages:
        assume(_harmless(message, state))
    before = app_client.get(f"/api/tables/{table_id}").json()
    for message in messages:
        _send(ws, message)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["message"], (message, reply)
        if reply["code"] == "stale":
            assert ws.receive_json() == state
    after = app_client.get(f"/api/tables/{table_id}").json()
    assert after == before
    ws.send_json({"type": "sync"})
    assert ws.receive_json()["type"] == "welcome" and ws.receive_json() == state


def test_a_flooding_client_is_limited_then_closed_and_others_are_served(tmp_path: Path) -> None:
    with TestClient(in_process_app(tmp_path / "tables.sqlite3", workers=1, rate=5)) as client:
        created = create(client, game="troll", seed=1)
        table_id = created["table_id"]
        codes = []
        with client.websocket_connect(f"/ws/tables/{table_id}") as flood:
            flood.receive_json()
            flood.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(200):
                    flood.send_text("{}")
                    codes.append(flood.receive_json()["code"])
            assert closed.value.code == 1008
        assert "bad_message" in codes and "rate_limited" in codes
        with client.websocket_connect(f"/ws/tables/{table_id}?{seat_query(created)}") as player:
            player.receive_json()
            state = player.receive_json()
            player.send_json({"type": "act", "action": state["legal"][0]["action"], "step": 0})
            assert player.receive_json()["step"] == 1


@pytest.mark.parametrize("raw", [
    '{"type": "act", "action": "stomp", "step": ' + "9" * 5000 + "}",
    '{"type": "sync", "x": ' + "[" * 3000 + "]" * 3000 + "}",
    '{"type": "undo", "step": NaN}',
    '{"type": "undo", "step": 1e999}',
])
def test_numbers_and_nesting_past_the_limits_are_one_clear_error(app_client: TestClient, raw: str) -> None:
    """A 5,000-digit number, JSON nested thousands deep, NaN and a float that overflows are
    refused by the shared JSON reader, over the socket and in a request body alike."""
    created = create(app_client, game="troll", seed=3)
    with app_client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        ws.receive_json()
        ws.receive_json()
        ws.send_text(raw)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad_message"
        assert "\n" not in reply["message"]
    response = app_client.post("/api/tables", content=raw.encode(),
                               headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]
