"""A Star Dice table's live stream (issue 15, docs/web.md "Live tables"): a throw sent as the
engine's action text is simulated by the server, which streams the motion as `frame` messages
to every connection (the player and a watcher alike) and then sends the new state; the frames
are the engine's own (`State.motion()`), ending where the state says the dice rest."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession
from tests.web.conftest import create, seat_query
from tests.web.test_table_socket import greet

from playtable.core.registry import get_game


def _until_state(ws: WebSocketTestSession) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Frames received before the next state (a late last frame may follow it: see below)."""
    frames = []
    for _ in range(2000):  # bounded: a throw is at most max_time / frame_dt = 120 frames
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":  # a late last frame of an earlier throw is left out
            return [f for f in frames if f["step"] == message["step"]], message
        assert message["type"] == "frame", message
        frames.append(message)
    raise AssertionError("no state after the frames")


def test_a_throw_is_streamed_to_every_page_then_the_state_follows(client: TestClient) -> None:
    created = create(client, game="stardice", variant="battle", seed=4)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as player, \
            client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as other, \
            client.websocket_connect(f"/ws/tables/{table}") as watcher:
        latest = {0: greet(player)[1], 1: greet(other)[1]}
        greet(watcher)
        # The call and the Borg roll come first (Final Rules); whoever is to act plays the menu's
        # first throw, written exactly as a page's drag writes it.
        seats = {0: player, 1: other}
        for _ in range(4):
            mover = latest[0]["current_player"]
            legal = [e["action"] for e in latest[mover]["legal"]]
            throw = next((a for a in legal if a.startswith("roll ")), None)
            seats[mover].send_json({"type": "act", "action": throw or legal[0],
                                    "step": latest[mover]["step"]})
            frames, latest[0] = _until_state(player)
            for seat, conn in ((1, other), (None, watcher)):
                their_frames, their_state = _until_state(conn)
                assert their_state["step"] == latest[0]["step"]
                if seat is not None:
                    latest[seat] = their_state
                if frames:
                    assert their_frames, "every connection gets the stream"
            if throw:
                break
        state = latest[0]
        step = state["step"]
        assert frames and frames[0]["t"] == 0.0 and frames[0]["step"] == step
        times = [f["t"] for f in frames]
        assert times == sorted(times)
        expected = get_game("stardice").new_state(get_game("stardice").default_params(), 0)
        assert expected.motion() == []  # a fresh or restored state has no motion
        # where the dice rest: the stream's last frame (it may arrive just after the state,
        # frames being coalesced behind discrete messages) matches the state's table
        last = frames[-1] if frames[-1]["last"] else player.receive_json()
        assert last["type"] == "frame" and last["last"]
        resting = {pc["id"]: (pc["x"], pc["y"]) for pc in state["observation"]["table"]}
        assert {p[0] for p in last["pieces"]} == set(resting)
        for pid, x, y in last["pieces"]:
            assert abs(resting[pid][0] - x) < 1e-3 and abs(resting[pid][1] - y) < 1e-3

