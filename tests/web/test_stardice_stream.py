"""A Star Dice table's live stream (docs/web.md "Live tables"): a throw sent as the
engine's action text is simulated by the server, which streams the motion as `frame` messages
to every connection (the player and a watcher alike) and then sends the new state; the frames
are the engine's own (`State.motion()`), the last one, where the state says the dice rest,
before the state. Each page may ask for a pace (`pace`: as thrown, fast, at once), and the
table streams at the slowest any page asked for."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession
from tests.web.conftest import create, seat_query
from tests.web.test_table_socket import greet

from playtable.core.registry import get_game
from playtable.web.server.tables.tables import paced_frames


def _until_state(ws: WebSocketTestSession) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The frames received before the next state."""
    frames = []
    for _ in range(2000):  # bounded: a throw is at most max_time / frame_dt = 120 frames
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":
            return frames, message
        assert message["type"] == "frame", message
        frames.append(message)
    raise AssertionError("no state after the frames")


Frames = dict[int | None, list[dict[str, Any]]]
"""Each connection's frames (a seat's, None: the watcher's)."""


def _next_throw(conns: dict[int | None, WebSocketTestSession],
                latest: dict[int, dict[str, Any]]) -> tuple[Frames, dict[str, Any]]:
    """Whoever is to act plays the menu's first roll (else its first action: the call), written
    exactly as a page's drag writes it, until an action has motion; each connection's frames of
    that throw, and the player's state after it. `latest`: each seat's last state (updated)."""
    for _ in range(6):  # the call, then the Borg roll: a throw
        mover = latest[0]["current_player"]
        legal = [e["action"] for e in latest[mover]["legal"]]
        action = next((a for a in legal if a.startswith("roll ")), legal[0])
        conns[mover].send_json({"type": "act", "action": action, "step": latest[mover]["step"]})
        frames: Frames = {}
        step = latest[mover]["step"] + 1
        for key, conn in conns.items():
            frames[key], state = _until_state(conn)
            assert state["step"] == step
            if key is not None:
                latest[key] = state
        if frames[0]:
            return frames, latest[0]
        assert not any(frames.values()), "a call has no motion"
    raise AssertionError("no throw")


def _ask_pace(conn: WebSocketTestSession, pace: str) -> None:
    """A page's `pace`; a pace outside the declared ones is refused and changes nothing (its
    answer also shows the one before was read)."""
    conn.send_json({"type": "pace", "pace": pace})
    conn.send_json({"type": "pace", "pace": "slow-motion"})
    refused = conn.receive_json()
    assert refused["type"] == "error" and refused["code"] == "bad_message"
    assert "normal, fast, instant" in refused["message"]


def _rests_where_the_state_says(frame: dict[str, Any], state: dict[str, Any]) -> None:
    assert frame["last"]
    resting = {pc["id"]: (pc["x"], pc["y"]) for pc in state["observation"]["table"]}
    assert {p[0] for p in frame["pieces"]} == set(resting)
    for pid, x, y in frame["pieces"]:
        assert abs(resting[pid][0] - x) < 1e-3 and abs(resting[pid][1] - y) < 1e-3


def test_a_throw_is_streamed_to_every_page_then_the_state_follows(client: TestClient) -> None:
    created = create(client, game="stardice", variant="battle", seed=4)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as player, \
            client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as other, \
            client.websocket_connect(f"/ws/tables/{table}") as watcher:
        latest = {0: greet(player)[1], 1: greet(other)[1]}
        greet(watcher)
        frames, state = _next_throw({0: player, 1: other, None: watcher}, latest)
        step = state["step"]
        mine = frames[0]
        for theirs in (frames[1], frames[None]):  # frames may be coalesced, never the last
            assert theirs and theirs[-1] == mine[-1], "every connection gets the stream"
        assert mine[0]["t"] == 0.0 and all(f["step"] == step for f in mine)
        assert all(f["pace"] == "normal" and f["speed"] == 1.0 for f in mine), "as thrown by default"
        times = [f["t"] for f in mine]
        assert times == sorted(times)
        assert [f["last"] for f in mine] == [False] * (len(mine) - 1) + [True]
        expected = get_game("stardice").new_state(get_game("stardice").default_params(), 0)
        assert expected.motion() == []  # a fresh or restored state has no motion
        # where the dice rest: the stream's last frame, sent before the state, is the state's table
        _rests_where_the_state_says(mine[-1], state)


def test_a_throw_is_streamed_at_the_slowest_pace_its_pages_asked_for(client: TestClient) -> None:
    created = create(client, game="stardice", variant="battle", seed=4)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as player, \
            client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as other, \
            client.websocket_connect(f"/ws/tables/{table}") as watcher:
        conns: dict[int | None, WebSocketTestSession] = {0: player, 1: other, None: watcher}
        latest = {0: greet(player)[1], 1: greet(other)[1]}
        greet(watcher)
        _ask_pace(player, "instant")
        _ask_pace(other, "fast")
        # the watcher asked nothing: as thrown, every frame, for everyone
        frames, _ = _next_throw(conns, latest)
        assert len(frames[0]) > 1 and {(f["pace"], f["speed"]) for f in frames[0]} == {("normal", 1.0)}
        _ask_pace(watcher, "instant")  # a stranger watching cannot hurry the others' throws
        frames, _ = _next_throw(conns, latest)
        assert len(frames[0]) > 1 and {(f["pace"], f["speed"]) for f in frames[0]} == {("fast", 3.0)}
        assert {(f["pace"], f["speed"]) for f in frames[None]} == {("fast", 3.0)}
        _ask_pace(other, "instant")
        frames, state = _next_throw(conns, latest)
        for conn_frames in frames.values():  # at once: only where the dice came to rest
            assert [(f["pace"], f["speed"]) for f in conn_frames] == [("instant", None)]
            _rests_where_the_state_says(conn_frames[0], state)


def test_paced_frames_keep_the_motion_and_divide_its_times() -> None:
    motion = [{"t": 0.0, "pieces": [["F.d6a", 0.5, 0.8]]}, {"t": 0.1, "pieces": [["F.d6a", 0.5, 0.7]]},
              {"t": 0.3, "pieces": [["F.d6a", 0.5, 0.6]]}]
    normal = paced_frames(motion, 7, "normal")
    assert [at for at, _ in normal] == [0.0, 0.1, 0.3]
    assert [f["pieces"] for _, f in normal] == [m["pieces"] for m in motion]
    assert [f["t"] for _, f in paced_frames(motion, 7, "fast")] == [0.0, 0.1, 0.3]  # physics time
    assert [at for at, _ in paced_frames(motion, 7, "fast")] == [0.0, 0.1 / 3, 0.3 / 3]
    assert paced_frames(motion, 7, "instant") == [
        (0.0, {"type": "frame", "step": 7, "last": True, "pace": "instant", "speed": None, **motion[-1]})]
