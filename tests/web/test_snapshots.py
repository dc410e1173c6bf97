"""Snapshots of running tables (a restart independent of history): a table
restored from its snapshot and the actions after it is the same table as one replayed from its
whole record, for every game, every seat's view, the log, the take-back rule and the play that
follows; the hub stores one every `SNAPSHOT_EVERY` actions and a restart uses it; the store drops
a snapshot that an undo or the end of the table makes useless; a snapshot that cannot be read
costs only time."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from playtable.web.server.hub import Hub
from playtable.web.server.store.store import Snapshot, SqlStore, TableRow
from playtable.web.server.tables import play as play_module
from playtable.web.server.tables.table_request import row_from_request
from playtable.web.server.tables.tables import Table, fresh_start

GAMES = [("troll", 1), ("rotator", 1), ("wizard", 4), ("stardice", 2)]


def _row(game: str, seats: int, seed: int) -> TableRow:
    row, _tokens, _mine = row_from_request({"game": game, "seed": seed,
                                            "seats": [{"kind": "human"}] * seats})
    return row


def _play(table: Table, actions: int, rng: random.Random) -> None:
    """Random legal actions (each committed as the hub does) until `actions` or the end."""
    for _ in range(actions):
        if table.state.is_terminal:
            return
        text = str(rng.choice(table.state.legal_actions()))
        canonical, after, events = table.try_action(text)
        seat = table.state.current_player
        table.commit(seat if seat >= 0 else None, canonical, after, events)


def _finished(game: str, seats: int, length: int) -> Table:
    """A random game (seeds 1, 2, ... tried in turn) at least `length` actions long."""
    for seed in range(1, 200):
        table = Table(_row(game, seats, seed), None)
        _play(table, 400, random.Random(seed))
        if table.step >= length:
            return table
    raise AssertionError(f"no random {game} game of {length} actions")


def _views(table: Table) -> list[dict[str, Any]]:
    seats = [None, *range(table.state.num_players)]
    return [{**table.state_message(seat, []), "bot_thinking": None} for seat in seats]


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_a_table_restored_from_a_snapshot_is_the_replayed_table(game: str, seats: int) -> None:
    # A table still in play: a random game's record but for its last three actions.
    record = _copy(_finished(game, seats, 12).row)
    record.actions = record.actions[:-3]
    played = Table(record, fresh_start(record))
    assert not played.state.is_terminal
    at = played.step - 5
    snapshot = _snapshot_at(played.row, at)

    restored = Table(_copy(played.row), snapshot=snapshot)
    replayed = Table(_copy(played.row), fresh_start(played.row))
    # Only the tail was replayed: the log before the snapshot is rebuilt when first needed.
    assert restored._unreplayed == at
    assert restored.step == replayed.step == played.step
    assert _views(restored) == _views(replayed) == _views(played)
    for seat in range(seats):
        assert restored.can_undo(seat) == replayed.can_undo(seat)
    assert restored._unreplayed == at  # the views, the last step and take-back need no log
    assert restored.welcome(0)["log"] == replayed.welcome(0)["log"]
    assert restored._unreplayed == 0 and len(restored.steps) == played.step + 1
    # ...and the game goes on the same from both.
    for table in (restored, replayed):
        _play(table, 3, random.Random(11))
    assert restored.row.actions == replayed.row.actions
    assert _views(restored) == _views(replayed)
    assert restored.state.to_json() == replayed.state.to_json()


def _copy(row: TableRow) -> TableRow:
    return TableRow(row.id, row.game, row.variant, row.params, row.seed, row.seats, row.created,
                    actions=list(row.actions), stand_ins=dict(row.stand_ins))


def _snapshot_at(row: TableRow, step: int) -> Snapshot:
    """The state after the record's first `step` actions, replayed from the start."""
    early = _copy(row)
    early.actions = early.actions[:step + 1]
    snapshot = Table(early, fresh_start(early)).snapshot()
    assert snapshot is not None and snapshot.step == step
    return snapshot


def test_an_unreadable_snapshot_costs_only_time(db_where: str | Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    store = SqlStore(db_where)
    try:
        table = Table(_row("troll", 1, 3), None)
        store.create(table.row)
        _play(table, 12, random.Random(1))
        for k, (seat, text) in enumerate(table.row.actions, start=1):
            store.append_action(table.id, k, seat, text)
        store.save_snapshot(table.id, Snapshot(6, {"not": "a troll state"}))
        hub = Hub(store, None)  # type: ignore[arg-type]  # people's seats only: no bots
        with caplog.at_level(logging.WARNING):
            hub.restore()
        again = hub.tables[table.id]
        assert again._unreplayed == 0 and _views(again) == _views(table)
        assert "snapshot at step 6 could not be used" in caplog.text
    finally:
        store.close()


def test_the_hub_stores_a_snapshot_and_a_restart_replays_only_after_it(
        db_where: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    every = 8  # a random troll game is too short for the server's own interval
    monkeypatch.setattr(play_module, "SNAPSHOT_EVERY", every)

    async def play_through_hub(hub: Hub, table: Table, actions: list[tuple[int | None, str]]) -> None:
        for seat, text in actions:
            assert hub.act(table, seat, text)

    store = SqlStore(db_where)
    try:
        hub = Hub(store, None)  # type: ignore[arg-type]
        record = _finished("troll", 1, every + 4).row
        table = Table(_row("troll", 1, record.seed), None)
        store.create(table.row)
        hub.tables[table.id] = table
        asyncio.run(play_through_hub(hub, table, record.actions[:every + 3]))
        saved = store.running_snapshots()[table.id]
        assert saved.step == every - 1  # the state before the snapshot's action

        again = Hub(store, None)  # type: ignore[arg-type]  # a restart on the same database
        again.restore()
        restored = again.tables[table.id]
        assert restored._unreplayed == every - 1
        assert _views(restored) == _views(table)
        assert restored.welcome(0)["log"] == table.welcome(0)["log"]

        # An undo back past the snapshot's step removes it; the table's end removes any.
        # (a snapshot at the record's last step is kept: the next action makes it useful again)
        for step in range(table.step, saved.step - 1, -1):
            store.drop_last_action(table.id, step)
            assert (table.id in store.running_snapshots()) == (step > saved.step)
        store.save_snapshot(table.id, saved)
        store.mark_ended(table.id, "2026-11-27T00:00:00+00:00", None)
        assert store.running_snapshots() == {}
        assert store.db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] == 0
    finally:
        store.close()


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_an_undo_replays_the_record_minus_its_last_action(game: str, seats: int) -> None:
    """`Table.replay_without_last` (an undo's work, in a thread) replays in place, as a restart
    does, and still gives the take-back rule the state before its last action."""
    table = _finished(game, seats, 12)
    position = table.state.to_json()
    rebuilt = table.replay_without_last()
    shorter = _copy(table.row)
    shorter.actions = shorter.actions[:-1]
    replayed = Table(shorter, fresh_start(shorter))
    assert rebuilt.of_step == table.step and len(rebuilt.steps) == replayed.step + 1
    assert rebuilt.state.to_json() == replayed.state.to_json()
    assert rebuilt.before is not None and replayed.before is not None
    assert rebuilt.before.to_json() == replayed.before.to_json()
    assert [[e.to_json() for e in s.events] for s in rebuilt.steps] == \
        [[e.to_json() for e in s.events] for s in replayed.steps]
    assert table.state.to_json() == position and table.step == rebuilt.of_step  # the table did not move


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_an_undo_replays_from_the_table_snapshot(game: str, seats: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """With a snapshot before its last kept action, an undo replays only the actions after it
    (the first state is never made) and gives what a replay of the whole record gives; an undo
    back to the snapshot's step forgets it, as the store does."""
    seed = _finished(game, seats, 16).row.seed  # its first 13 actions, again
    table, rng = Table(_row(game, seats, seed), None), random.Random(seed)
    _play(table, 10, rng)
    snapshot = table.snapshot()
    assert snapshot is not None and snapshot.step == 9
    _play(table, 3, rng)
    whole = Table(_copy(table.row), fresh_start(table.row))
    monkeypatch.setattr(Table, "start", property(lambda _: pytest.fail("replayed from the start")))
    rebuilt = table.replay_without_last()
    monkeypatch.undo()
    expected = whole.replay_without_last()
    assert rebuilt.of_step == expected.of_step == 13
    assert rebuilt.state.to_json() == expected.state.to_json()
    assert rebuilt.before is not None and expected.before is not None
    assert rebuilt.before.to_json() == expected.before.to_json()
    assert [[e.to_json() for e in s.events] for s in rebuilt.steps] == \
        [[e.to_json() for e in s.events] for s in expected.steps]
    table.adopt(rebuilt)
    table.adopt(table.replay_without_last())
    table.adopt(table.replay_without_last())
    assert table.step == 10 and table._snapshot == snapshot  # still before the last action
    table.adopt(table.replay_without_last())
    assert table._snapshot is None
