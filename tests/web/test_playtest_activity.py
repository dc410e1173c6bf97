"""People's time and help in a playtest's export (docs/lab.md, "People's time"): the store keeps
when each action was played and each seat's hints and undos; `seat_activity` reads a game's
minutes and each person's seconds per decision from them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import create, seat_query

from playtable.lab.people import seat_activity
from playtable.web.server.store import schema
from playtable.web.server.store.store import SeatRow, SqlStore, TableRow


def _table(store: SqlStore) -> None:
    seats = [SeatRow("human", "a", joined=True), SeatRow("bot", "b", agent="random")]
    store.create(TableRow("t1", "troll", None, {}, 1, seats, "2026-12-06T00:00:00+00:00"))


def test_the_store_keeps_when_each_action_was_played_and_each_seats_help(db_where: str | Path) -> None:
    store = SqlStore(db_where)
    try:
        _table(store)
        store.append_action("t1", 1, 0, "a")
        store.append_action("t1", 2, 1, "b")
        store.append_action("t1", 3, 0, "c", "random")
        store.count_hint("t1", 0)
        store.count_hint("t1", 0)
        for _ in range(3):
            store.count_chat("t1", 0)
        store.count_chat("t1", 1)
        store.append_action("t1", 4, 0, "d")
        store.drop_last_action("t1", 4)  # seat 0 took its move back
        actions, assists = store.activity("t1")
    finally:
        store.close()
    assert [(seat, stand_in) for seat, _, stand_in in actions] == [(0, None), (1, None), (0, "random")]
    played = [when for _, when, _ in actions]
    assert all(isinstance(when, float) for when in played) and played == sorted(played)
    assert assists == {0: (2, 1, 3), 1: (0, 0, 1)}


def test_actions_stored_before_times_were_kept_read_back_without_one(tmp_path: Path) -> None:
    where = tmp_path / "tables.sqlite3"
    store = SqlStore(where)
    _table(store)
    store.append_action("t1", 1, 0, "a")
    store.db.execute("UPDATE actions SET played = NULL")  # as layout step 3 leaves older rows
    actions, assists = store.activity("t1")
    store.close()
    assert actions == [(0, None, None)] and assists == {}
    assert seat_activity(actions, assists, [0], 2)["minutes"] is None


def test_a_seats_decisions_are_its_gaps_since_the_previous_action() -> None:
    actions = [(1, 100.0, None), (0, 110.0, None), (1, 112.0, None), (0, 142.0, None),
               (0, 150.0, "random"), (1, 151.0, None), (0, 155.0, None), (1, None, None)]
    activity = seat_activity(actions, {0: (3, 1, 4)}, [0], 2)
    assert activity["minutes"] == pytest.approx(55 / 60)
    # seat 0 decided in 10, 30 and 4 seconds; the stand-in's move is not a decision
    assert activity["decision_seconds"] == [10.0, None]
    assert [activity[k] for k in ("hints", "undos", "stand_in_moves", "chats")] == [
        [3, None], [1, None], [1, None], [4, None]]


def test_layout_step_3_adds_the_time_column_and_the_help_counts(tmp_path: Path) -> None:
    db = schema.opened(tmp_path / "tables.sqlite3")
    try:
        assert "played" in db.columns("actions")
        assert "seat_assists" in schema.table_names() and "seat_assists" in db.tables()
    finally:
        db.close()


def test_a_hint_the_server_gives_is_counted_for_the_seat_that_asked(client: TestClient,
                                                                   tmp_path: Path) -> None:
    created = create(client, game="wizard", seed=2)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        ws.receive_json()
        state = ws.receive_json()
        ws.send_json({"type": "hint", "step": state["step"]})
        assert ws.receive_json()["type"] == "hint"
    store = SqlStore(tmp_path / "tables.sqlite3")
    try:
        assert store.activity(created["table_id"])[1] == {0: (1, 0, 0)}
    finally:
        store.close()


def test_a_chat_line_the_server_accepts_is_counted_for_the_seat_that_sent_it(client: TestClient,
                                                                             tmp_path: Path) -> None:
    created = create(client, game="wizard", seed=2)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws, \
            client.websocket_connect(f"/ws/tables/{created['table_id']}") as watcher:
        for text, answer in (("hello", "chat"), ("two\nlines", "error"), ("x" * 301, "error"),
                             ("again", "chat")):
            ws.send_json({"type": "chat", "text": text})
            assert _next_of(ws, ("chat", "error"))["type"] == answer
        watcher.send_json({"type": "chat", "text": "I only watch"})
        assert _next_of(watcher, ("error",))["code"] == "forbidden"
    store = SqlStore(tmp_path / "tables.sqlite3")
    try:
        assert store.activity(created["table_id"])[1] == {0: (0, 0, 2)}
    finally:
        store.close()


def _next_of(ws: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The socket's next message of one of `kinds` (the greeting and states come first)."""
    for _ in range(50):  # bounded: a greeting is a few messages
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in kinds:
            return message
    raise AssertionError(f"no {kinds} message among the next 50")


def test_layout_step_4_counts_chat_lines_and_keeps_the_older_counts(
        db_where: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    where = db_where
    monkeypatch.setattr(schema, "LATEST", 3)  # a database as layout step 3 left it
    store = SqlStore(where)
    _table(store)
    store.count_hint("t1", 0)
    store.close()
    monkeypatch.undo()
    store = SqlStore(where)
    try:
        assert schema.version(store.db) == schema.LATEST and "chats" in store.db.columns("seat_assists")
        store.count_chat("t1", 0)
        assert store.activity("t1")[1] == {0: (1, 0, 1)}
    finally:
        store.close()
