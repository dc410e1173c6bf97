"""The table WebSocket (docs/web.md): seats act with their token, watchers and wrong tokens
cannot, stale and illegal actions change nothing, undo follows each game's rule (troll RULES.md
"Front ends", rotator RULES.md "Undo"), hints, bots, and rematch."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession
from tests.web.conftest import create, seat_query, token_of

from playtable.core.registry import get_game


def greet(ws: WebSocketTestSession) -> tuple[dict[str, Any], dict[str, Any]]:
    welcome, state = ws.receive_json(), ws.receive_json()
    assert welcome["type"] == "welcome" and state["type"] == "state"
    return welcome, state


def act(ws: WebSocketTestSession, action: str, step: int) -> dict[str, Any]:
    ws.send_json({"type": "act", "action": action, "step": step})
    reply: dict[str, Any] = ws.receive_json()
    return reply


def test_a_seat_plays_and_a_watcher_sees_the_public_view(client: TestClient) -> None:
    created = create(client, game="troll", variant="plus-one", seed=11)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as player, \
            client.websocket_connect(f"/ws/tables/{table}") as watcher:
        welcome, state = greet(player)
        assert welcome["role"] == "player" and welcome["seat"] == 0 and welcome["seat_names"] == ["troll"]
        assert welcome["log"][0]["step"] == 0 and welcome["log"][0]["events"]  # the setup
        assert state["your_turn"] and state["legal"] and state["waiting_for"] == [0]
        w_welcome, w_state = greet(watcher)
        assert w_welcome["role"] == "watcher" and w_state["legal"] == [] and not w_state["your_turn"]
        expected = get_game("troll").new_state(get_game("troll").default_params(), 0)  # a shape check
        assert set(w_state["observation"]) == set(expected.public_observation())

        first = state["legal"][0]["action"]
        moved = act(player, first, 0)
        assert moved["type"] == "state" and moved["step"] == 1 and moved["last_action"] == first
        assert watcher.receive_json()["step"] == 1  # watchers follow every step

        watcher.send_json({"type": "act", "action": first, "step": 1})
        refused = watcher.receive_json()
        assert refused["type"] == "error" and refused["code"] == "forbidden"
    assert client.get(f"/api/tables/{table}").json()["step"] == 1


def test_a_wrong_token_is_refused_then_watches(client: TestClient) -> None:
    created = create(client, game="troll", seed=5)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?seat=0&token=guess") as ws:
        refused = ws.receive_json()
        assert refused["code"] == "forbidden" and "refused" in refused["message"]
        welcome, state = greet(ws)
        assert welcome["role"] == "watcher" and welcome["seat"] is None
        legal = get_game("troll").new_state(seed=5).legal_actions()
        assert act(ws, str(legal[0]), 0)["code"] == "forbidden"
    assert client.get(f"/api/tables/{created['table_id']}").json()["step"] == 0


def test_stale_illegal_and_malformed_actions_change_nothing(client: TestClient) -> None:
    created = create(client, game="troll", seed=5)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        _, state = greet(ws)
        stale = act(ws, state["legal"][0]["action"], 3)
        assert stale["code"] == "stale"
        assert ws.receive_json() == state  # a fresh state, the same position
        assert act(ws, "fly to the moon", 0)["code"] == "illegal"
        ws.send_text("{not json")
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_json({"type": "act", "action": 7, "step": 0})
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_text("x" * 20_000)
        assert ws.receive_json()["code"] == "too_large"
        ws.send_json({"type": "sync"})
        assert greet(ws)[1] == state
    assert client.get(f"/api/tables/{created['table_id']}").json()["step"] == 0


def test_unknown_table_gets_not_found(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert ws.receive_json()["code"] == "not_found"


def test_troll_undo_only_within_the_turn(client: TestClient) -> None:
    created = create(client, game="troll", variant="tutorial", seed=21)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        _, state = greet(ws)
        assert not state["can_undo"]
        ws.send_json({"type": "undo", "step": 0})
        assert ws.receive_json()["code"] == "no_undo"
        # Play actions until one keeps the turn going (undoable) and one ends it (not undoable).
        seen_undoable = seen_final = False
        for _ in range(60):
            if state["terminal"]:
                break
            before = state
            state = act(ws, state["legal"][-1]["action"], state["step"])
            turn_went_on = state["observation"]["turn"] == before["observation"]["turn"]
            if state["can_undo"]:
                assert turn_went_on
                seen_undoable = True
                ws.send_json({"type": "undo", "step": state["step"]})
                undone = ws.receive_json()
                assert undone["step"] == before["step"] and undone["observation"] == before["observation"]
                state = act(ws, before["legal"][0]["action"], before["step"])
            elif not turn_went_on:
                seen_final = True
                ws.send_json({"type": "undo", "step": state["step"]})
                assert ws.receive_json()["code"] == "no_undo"
            if seen_undoable and seen_final:
                break
        assert seen_undoable and seen_final


def test_rotator_undo_any_move_and_hints(client: TestClient) -> None:
    created = create(client, game="rotator", variant="easy", seed=4)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        _, state = greet(ws)
        ws.send_json({"type": "hint", "step": 0})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["step"] == 0 and hint["text"]
        assert hint["action"] in [entry["action"] for entry in state["legal"]]
        moved = act(ws, hint["action"], 0)
        assert moved["can_undo"]
        ws.send_json({"type": "undo", "step": 1})
        undone = ws.receive_json()
        assert undone["step"] == 0 and undone["observation"] == state["observation"]
        # Follow the hints to the win.
        for _ in range(40):
            if state["terminal"]:
                break
            ws.send_json({"type": "hint", "step": state["step"]})
            state = act(ws, ws.receive_json()["action"], state["step"])
        assert state["terminal"] and state["result"]["returns"] == [1.0]
        assert "win" in state["result"]["text"]
    summary = client.get(f"/api/tables/{created['table_id']}").json()
    assert summary["status"] == "finished" and summary["seed"] == 4
    record = client.get(f"/api/tables/{created['table_id']}/record")
    assert record.status_code == 200 and record.json()["format"] == "playtable-record"
    position = client.get(f"/api/tables/{created['table_id']}/position?step=1").json()
    assert position["format"] == "playtable-position" and position["game"] == "rotator"


def test_troll_has_no_hint(client: TestClient) -> None:
    created = create(client, game="troll", seed=2)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        greet(ws)
        ws.send_json({"type": "hint", "step": 0})
        assert ws.receive_json()["code"] == "no_hint"


def _wait_finished(client: TestClient, table_id: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        summary: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        if summary["status"] == "finished":
            return summary
        time.sleep(0.05)
    raise AssertionError(f"table {table_id} did not finish within {timeout} s")


def test_bots_play_in_workers_to_the_end(client: TestClient) -> None:
    troll = create(client, game="troll", variant="plus-one", seats=[{"kind": "bot", "agent": "heuristic"}])
    summary = _wait_finished(client, troll["table_id"])
    assert summary["result"]["text"] and summary["step"] > 10
    replay = client.get(f"/api/tables/{troll['table_id']}/replay").json()["steps"]
    assert len(replay) == summary["step"] + 1 and replay[-1]["observation"]["outcome"] is not None


def test_the_strongest_troll_bot_plays_a_web_table_to_the_end(client: TestClient) -> None:
    """The strongest bot, offered by name in the lobby, plays a table in the workers."""
    troll = create(client, game="troll", variant="tutorial", seed=4,
                   seats=[{"kind": "bot", "agent": "strongest"}])
    summary = _wait_finished(client, troll["table_id"])
    assert "win" in summary["result"]["text"] and summary["step"] > 0
    replay = client.get(f"/api/tables/{troll['table_id']}/replay").json()["steps"]
    assert len(replay) == summary["step"] + 1 and replay[-1]["observation"]["outcome"] == "win"


def test_rematch_carries_tokens_and_moves_every_connection(client: TestClient) -> None:
    created = create(client, game="troll", variant="plus-one", seed=9)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as player, \
            client.websocket_connect(f"/ws/tables/{table}") as watcher:
        greet(player)
        greet(watcher)
        refused = client.post(f"/api/tables/{table}/rematch", json={"seat": 0, "token": "wrong"})
        assert refused.status_code == 403
        answer = client.post(f"/api/tables/{table}/rematch", json={"seat": 0, "token": token_of(created)})
        new = answer.json()["table_id"]
        assert player.receive_json() == {"type": "rematch", "table_id": new}
        assert watcher.receive_json() == {"type": "rematch", "table_id": new}
    again = client.post(f"/api/tables/{table}/rematch", json={"seat": 0, "token": token_of(created)})
    assert again.json()["table_id"] == new  # one rematch per table
    summary = client.get(f"/api/tables/{new}").json()
    assert summary["rematch_of"] == table and client.get(f"/api/tables/{table}").json()["rematch"] == new
    assert summary["variant"] == "plus-one" and summary["params"]["extra_per_slot"] == 1
    with client.websocket_connect(f"/ws/tables/{new}?seat=0&token={token_of(created)}") as player:
        assert greet(player)[0]["role"] == "player"  # the old token plays the new table
