"""A small blocking WebSocket client for tests against a real server (`server_process.py`):
every receive has a timeout, so a test never hangs."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx2
from websockets.sync.client import ClientConnection, connect

TIMEOUT = 20.0
MAX_ACTIONS = 3000
"""Longer than any game the tests play to its end (a troll game is far shorter): a bound all the same."""


class Client:
    """One connection to a table; `received` keeps every message, in order."""

    def __init__(self, ws_url: str, table_id: str, query: str = "",
                 headers: dict[str, str] | None = None) -> None:
        opened = connect(f"{ws_url}/ws/tables/{table_id}{'?' + query if query else ''}",
                         open_timeout=TIMEOUT, max_size=None, additional_headers=headers)
        self.ws: ClientConnection = opened.__enter__()
        self.received: list[dict[str, Any]] = []

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=TIMEOUT))
        self.received.append(message)
        return message

    def recv_type(self, kind: str) -> dict[str, Any]:
        """The next message of type `kind`, keeping the ones before it in `received`."""
        while True:
            message = self.recv()
            if message["type"] == kind:
                return message

    def greet(self) -> tuple[dict[str, Any], dict[str, Any]]:
        welcome = self.recv_type("welcome")
        return welcome, self.recv_type("state")

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def act(self, action: str, step: int) -> dict[str, Any]:
        self.send({"type": "act", "action": action, "step": step})
        return self.recv()

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def play_to_the_end(player: Client, state: dict[str, Any], seed: int) -> dict[str, Any]:
    """The seated `player` plays random legal actions from `state` (drawn with `seed`) until
    the game ends (the only person at the table: bots take the other seats); the last state."""
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if state["terminal"]:
            break
        state = player.act(rng.choice(state["legal"])["action"], state["step"])
        assert state["type"] == "state", state
    assert state["terminal"] and state["result"] is not None, "the game did not end"
    return state


def watched_to_the_end(watcher: Client) -> dict[str, Any]:
    """The states a watcher is sent, up to the game's end; the last."""
    seen = watcher.recv_type("state")
    for _ in range(MAX_ACTIONS):
        if seen["terminal"]:
            break
        seen = watcher.recv_type("state")
    return seen


def create_table(url: str, **body: Any) -> dict[str, Any]:
    answer = httpx2.post(f"{url}/api/tables", json=body, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def join_query(created: dict[str, Any], seat: int = 0) -> str:
    return str(created["seats"][seat]["join_url"]).split("?", 1)[1]


def play_moves(ws_url: str, created: dict[str, Any], moves: int) -> dict[str, Any]:
    """Play `moves` acknowledged moves (each the first legal one) at the first seat of the
    table `created`; the last state."""
    with Client(ws_url, created["table_id"], join_query(created)) as player:
        _, state = player.greet()
        for _ in range(moves):
            state = player.act(state["legal"][0]["action"], state["step"])
            assert state["type"] == "state", state
        return state


def walk(value: Any, key: str | None = None) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) pair in a JSON message, nested ones included; a list's items carry the
    key of the list, so a leak checker can ask "is this value under a forbidden key"."""
    yield key, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from walk(v, key)
