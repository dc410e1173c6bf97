"""A wizard table survives a server killed with SIGKILL in the middle of a round:
while one hero has committed his secret move and the other has not, the server dies and comes
back; every seat reconnects to the same step and the same observation (the committed hero
still sees his own move, nobody else does), the same `waiting_for`, and the round goes on."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx2
from tests.web.server_process import start_server
from tests.web.wire_client import Client, create_table, join_query


def _greet_all(ws_url: str, created: dict[str, Any]) -> list[dict[str, Any]]:
    states = []
    for seat in range(3):
        with Client(ws_url, created["table_id"], join_query(created, seat)) as client:
            states.append(client.greet()[1])
    return states


def test_sigkill_between_two_heroes_commits(tmp_path: Path) -> None:
    with start_server(tmp_path / "tables.sqlite3") as server:
        created = create_table(server.url, game="wizard", seed=99, players=3)
        seats = [Client(server.ws_url, created["table_id"], join_query(created, s)) for s in range(3)]
        try:
            states = [c.greet()[1] for c in seats]
            for _ in range(300):  # bounded: the first heroes' turn comes within a few dozen steps
                mover = states[0]["current_player"]
                obs = states[mover]["observation"]
                if obs["decision"].get("kind") == "commit" and mover == 2 and obs["heroes"][0]["committed"]:
                    break
                legal = [e["action"] for e in states[mover]["legal"]]
                # The wizard ends his turn at once, so the heroes' first turn comes soon.
                action = "end" if "end" in legal else legal[0]
                seats[mover].send({"type": "act", "action": action, "step": states[mover]["step"]})
                states = [c.recv_type("state") for c in seats]
            else:
                raise AssertionError("no heroes' turn reached")
        finally:
            for c in seats:
                c.close()
        assert states[1]["observation"]["my_move"] and "my_move" not in states[2]["observation"]
        assert states[0]["waiting_for"] == [2]

        server.kill()
        server.restart()

        after = _greet_all(server.ws_url, created)
        for before, again in zip(states, after, strict=True):
            for key in ("step", "observation", "legal", "waiting_for", "current_player"):
                assert again[key] == before[key], key
        # ...and the round goes on: hero 2 commits, every move is revealed together.
        with Client(server.ws_url, created["table_id"], join_query(created, 2)) as hero:
            _, state = hero.greet()
            answer = hero.act(state["legal"][0]["action"], state["step"])
            assert answer["type"] == "state" and answer["step"] == state["step"] + 1
            assert any(e["kind"] in ("hero_moves", "hero_stays") for e in answer["events"])


def test_a_real_time_clock_hands_absent_seats_to_the_stand_in_and_survives_a_restart(
        tmp_path: Path) -> None:
    """A real-time clock (docs/web.md "Clocks") runs only once a seat's person has
    arrived; once each person has opened the table and left, their clocks run out in turn and
    the stand-in plays every later move of theirs; the clocks (who is out of time) survive a
    restart, and the stand-in plays on after it."""
    with start_server(tmp_path / "tables.sqlite3") as server:
        answer = httpx2.post(f"{server.url}/api/tables", json={
            "game": "wizard", "players": 3, "clock": {"pace": "real-time", "seconds": 4}}, timeout=10)
        assert answer.status_code == 400 and "clock" in answer.json()["error"]
        plain = create_table(server.url, game="wizard", seed=3, players=3)
        plain_url = f"{server.url}/api/tables/{plain['table_id']}"
        assert httpx2.get(plain_url, timeout=10).json()["clock"] is None
        created = create_table(server.url, game="wizard", seed=3, players=3,
                               clock={"pace": "real-time", "seconds": 5})
        url = f"{server.url}/api/tables/{created['table_id']}"

        def step() -> int:
            summary = httpx2.get(url, timeout=10).json()
            assert summary["clock"]["pace"] == "real-time" and summary["clock"]["seconds"] == 5
            return int(summary["step"])

        assert httpx2.get(url, timeout=10).json()["clock"]["waiting"] == 0  # nobody came yet
        for seat in range(3):
            with Client(server.ws_url, created["table_id"], join_query(created, seat)) as person:
                person.greet()
        deadline = time.monotonic() + 30
        while step() < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert step() >= 2, server.log()
        assert httpx2.get(plain_url, timeout=10).json()["step"] == 0
        server.kill()
        server.restart()
        reached = step()
        deadline = time.monotonic() + 30
        while step() <= reached and time.monotonic() < deadline:
            time.sleep(0.2)
        assert step() > reached, server.log()
