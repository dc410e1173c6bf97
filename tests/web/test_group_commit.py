"""Group commit (issue 32, docs/web.md "Tables, the store and restarts"): the actions of one turn
of the event loop share one transaction, nobody is told before it commits, and a batch is all or
nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playtable.web.server.group_commit import GroupCommit
from playtable.web.server.store import ActionRow, SeatRow, SqliteStore, StoreError, TableRow


def _store(tmp_path: Path) -> SqliteStore:
    store = SqliteStore(tmp_path / "tables.sqlite3")
    for table_id in ("a", "b"):
        store.create(TableRow(table_id, "troll", None, {}, 1, [SeatRow("human", "you")], "2026-11-27"))
    return store


def test_the_actions_of_one_turn_share_one_transaction_and_are_told_after_it(tmp_path: Path) -> None:
    store = _store(tmp_path)
    commits = GroupCommit(store)
    told: list[StoreError | None] = []

    async def play() -> None:
        commits.append(ActionRow("a", 1, 0, "draw"), told.append)
        commits.append(ActionRow("b", 1, 0, "pass"), told.append)
        assert told == [] and store.load("a").actions == []  # type: ignore[union-attr]
        await asyncio.sleep(0)  # the loop's next turn writes the batch

    asyncio.run(play())
    assert told == [None, None] and commits.batches == 1
    assert store.load("a").actions == [(0, "draw")]  # type: ignore[union-attr]
    assert store.load("b").actions == [(0, "pass")]  # type: ignore[union-attr]
    store.close()


def test_a_batch_the_store_refuses_changes_nothing_and_tells_every_table(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.append_action("a", 1, 0, "draw")
    commits = GroupCommit(store)
    told: list[StoreError | None] = []

    async def play() -> None:
        commits.append(ActionRow("b", 1, 0, "pass"), told.append)
        commits.append(ActionRow("a", 1, 0, "again"), told.append)  # step 1 is already stored
        await asyncio.sleep(0)

    asyncio.run(play())
    assert len(told) == 2 and all(isinstance(t, StoreError) for t in told)
    assert store.load("b").actions == [] and commits.batches == 0  # type: ignore[union-attr]
    store.close()
