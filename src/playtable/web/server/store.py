"""Where tables live between restarts: the `TableStore` interface and its SQLite default.

A table is stored as its settings (game, parameters, seed, seats with hashed tokens) plus its
record, the action texts in order. Nothing else is stored: a table's state is rebuilt by
replaying its record, so the store never holds a position that could disagree with the record.

The interface is deliberately small (create, append an action, drop the last action, mark a
seat joined, link a rematch, load): any store with atomic single-row writes and a per-table
ordered list can replace SQLite (PostgreSQL, or a key-value store keyed by table id). See
docs/web.md, "Beyond one process".
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


@dataclass
class SeatRow:
    kind: str  # "human" or "bot"
    name: str
    agent: str | None = None
    token_hash: str | None = None
    joined: bool = False
    stand_in_after: float | None = None
    """The turn timer (seconds): a bot plays this person's turn once it has waited this long."""


@dataclass
class TableRow:
    id: str
    game: str
    variant: str | None
    params: dict[str, Any]
    seed: int
    seats: list[SeatRow]
    created: str
    rematch: str | None = None
    rematch_of: str | None = None
    actions: list[tuple[int | None, str]] = field(default_factory=list)
    """(seat, action text) in the order they were played."""


class TableStore(Protocol):
    """Every write is durable when the call returns (the server acknowledges after it)."""

    def create(self, row: TableRow) -> None: ...

    def append_action(self, table_id: str, step: int, seat: int | None, action: str) -> None:
        """Store the action that leads to position `step` (1 = the first action)."""

    def drop_last_action(self, table_id: str, step: int) -> None:
        """Remove the action that led to position `step` (an undo)."""

    def mark_joined(self, table_id: str, seat: int) -> None: ...

    def link_rematch(self, table_id: str, rematch_id: str) -> None: ...

    def load_all(self) -> list[TableRow]: ...

    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT,
    params TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    created TEXT NOT NULL,
    rematch TEXT,
    rematch_of TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    step INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, step)
);
"""


def _seats_json(seats: list[SeatRow]) -> str:
    return json.dumps([seat.__dict__ for seat in seats])


class SqliteStore:
    """One SQLite file in WAL mode. `synchronous=NORMAL` keeps every committed transaction
    through a crash of the server process (kill -9); only a power loss may lose the last ones.

    Commits then only append to the write-ahead log (no fsync), so they are cheap enough to run
    on the event loop. Copying the log back into the database (a checkpoint, which does fsync)
    runs in a background thread once a second instead of inside whichever commit fills the log,
    so a slow disk never stalls the tables."""

    CHECKPOINT_EVERY = 1.0

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.executescript(_SCHEMA)
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints, name="sqlite-checkpoint",
                                              daemon=True)
        self._checkpointer.start()

    def _checkpoints(self) -> None:
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(self.CHECKPOINT_EVERY):
                # PASSIVE never waits for, nor blocks, the writer on the event loop.
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def create(self, row: TableRow) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.variant, json.dumps(row.params), row.seed,
                 _seats_json(row.seats), row.created, row.rematch, row.rematch_of),
            )
            self.db.executemany(
                "INSERT INTO actions VALUES (?, ?, ?, ?)",
                [(row.id, k + 1, seat, text) for k, (seat, text) in enumerate(row.actions)],
            )

    def append_action(self, table_id: str, step: int, seat: int | None, action: str) -> None:
        self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)", (table_id, step, seat, action))

    def drop_last_action(self, table_id: str, step: int) -> None:
        with self.db:
            self.db.execute("BEGIN")
            last = self.db.execute("SELECT MAX(step) FROM actions WHERE table_id = ?", (table_id,))
            if last.fetchone()[0] != step:
                raise ValueError(f"table {table_id}: step {step} is not the last stored action")
            self.db.execute("DELETE FROM actions WHERE table_id = ? AND step = ?", (table_id, step))

    def mark_joined(self, table_id: str, seat: int) -> None:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            (text,) = self.db.execute("SELECT seats FROM tables WHERE id = ?", (table_id,)).fetchone()
            seats = json.loads(text)
            seats[seat]["joined"] = True
            self.db.execute("UPDATE tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id))

    def link_rematch(self, table_id: str, rematch_id: str) -> None:
        self.db.execute("UPDATE tables SET rematch = ? WHERE id = ?", (rematch_id, table_id))

    def load_all(self) -> list[TableRow]:
        rows: dict[str, TableRow] = {}
        for (tid, game, variant, params, seed, seats, created, rematch, rematch_of) in self.db.execute(
            "SELECT * FROM tables ORDER BY created, id"
        ):
            rows[tid] = TableRow(tid, game, variant, json.loads(params), seed,
                                 [SeatRow(**s) for s in json.loads(seats)], created, rematch, rematch_of)
        for tid, _step, seat, action in self.db.execute(
            "SELECT table_id, step, seat, action FROM actions ORDER BY table_id, step"
        ):
            if tid in rows:
                rows[tid].actions.append((seat, action))
        return list(rows.values())

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(timeout=10)
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
