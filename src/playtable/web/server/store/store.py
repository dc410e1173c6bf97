"""Where tables live between restarts: the `TableStore` interface and `SqlStore`, on SQLite (the
default) or PostgreSQL (`database.py`; the layout and its versions are `schema.py`).

A table is stored as its settings (game, parameters, seed, seats with hashed tokens) plus its
record, the action texts in order. The record is the truth: a table's state is rebuilt by
replaying it. A running table also has a snapshot, its full state at a step of the record,
rewritten every `tables.SNAPSHOT_EVERY` actions, so that a restart replays only the actions
after it; it is a cache of the record's replay, made by the server from the state it
played, removed when an undo takes the record back before it and when the table ends.

A table that has ended is marked so (`mark_ended`, with its result): a restart rebuilds only
the tables still being played (`load_running`), and an ended one is read back only when someone
asks for it (`load`), so starting the server does not grow with its history.

The interface is deliberately small (create, append an action, drop the last action, mark a
seat joined, save the clocks, link a rematch, mark ended, load): any store with atomic
single-row writes and a per-table ordered list can serve (a key-value store keyed by table
id, say). See docs/web.md, "Beyond one process" and "On PostgreSQL".

People are `players` rows: a player id, a display name, the SHA-256 of the private
player key the browser keeps (never the key), and when it was made. A seat refers to its player
by id (`SeatRow.player`, with the name it showed when they sat down), and `seat_players` indexes
seats by player, so "the tables I sit at" is one indexed query however long the history. Real
accounts replace the key, not the id: an `accounts` table (login, password hash, ...) would point
at `players.id`, and `key_hash` may then be NULL; seats, "Yours" and "Your turn" stay as they are.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from playtable.web.server.people.names import name_key, name_look
from playtable.web.server.store.database import Conflict, DatabaseError, StoreError
from playtable.web.server.store.leases import LeaseLost, LeaseStore
from playtable.web.server.store.schema import MAX_NAME, opened
from playtable.web.server.tables.clocks import legacy_settings

__all__ = ["MAX_NAME", "NameTaken", "PlayerRow", "SeatRow", "Snapshot", "SqlStore", "StoreError",
           "TableRow", "TableStore"]


class NameTaken(StoreError):
    """Another player has this name, up to case and look-alike characters (`names.py`)."""


@dataclass
class SeatRow:
    kind: str  # "human" or "bot"
    name: str
    agent: str | None = None
    token_hash: str | None = None
    joined: bool = False
    reserved: bool = False
    """Kept for someone invited: offered only through its join link, never in the Open list."""
    player: str | None = None
    """The player who sat here (a `PlayerRow.id`), once someone did; None for a bot or nobody yet."""
    player_name: str | None = None
    """That player's display name (kept with the seat, so a summary needs no other lookup)."""

    @property
    def free(self) -> bool:
        """Anyone may take it from the Open list: a person's seat nobody has taken, joined or
        reserved."""
        return self.kind == "human" and not self.joined and not self.reserved and self.player is None


@dataclass
class PlayerRow:
    """A person without an account: a name and the hash of the private key their browser keeps."""

    id: str
    name: str
    key_hash: str | None
    created: str


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
    ended: str | None = None
    """When the table ended (ISO 8601 UTC; None while it is played)."""
    result: dict[str, Any] | None = None
    """The table's result as its summary gives it, kept once it has ended."""
    stand_ins: dict[int, str] = field(default_factory=dict)
    """Step -> the bot that played a person's move there (their clock ran out)."""
    clock: dict[str, Any] | None = None
    """The table's clocks (`clocks.TableClock.to_json`: settings, each seat's time left, the
    running one's start), None without a clock. A table stored by the earlier turn timer (the
    seats' `stand_in_after`) reads back as a per-move clock of that many seconds."""
    tutorial: str | None = None
    """The shipped tutorial this table is the guided game of (`tutorials.py`), else None: never
    rated, never "Your turn", gone from "Yours" once it ends (docs/web.md, "Tutorials")."""


@dataclass(frozen=True)
class Snapshot:
    """A running table's full state after its first `step` actions (`State.to_json`: hidden
    parts and the random stream included; it never leaves the server), so that a restart
    replays only the actions after it."""

    step: int
    state: dict[str, Any]


class TableStore(Protocol):
    """Every write is durable when the call returns (the server acknowledges after it)."""

    def create(self, row: TableRow) -> None: ...

    def append_action(self, table_id: str, step: int, seat: int | None, action: str,
                      stand_in: str | None = None) -> None:
        """Store the action that leads to position `step` (1 = the first action); `stand_in`:
        the bot that played it for the seat's person (their clock ran out)."""

    def drop_last_action(self, table_id: str, step: int) -> None:
        """Remove the action that led to position `step` (an undo), and a snapshot after it;
        the undo counts for the seat that had played it."""

    def count_hint(self, table_id: str, seat: int) -> None:
        """The seat asked for a hint (counted for a playtest's export)."""

    def count_chat(self, table_id: str, seat: int) -> None:
        """The seat sent a chat line (counted for a playtest's export; the line is not stored)."""

    def save_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        """Keep the table's state at a step of its record (replacing an earlier snapshot)."""

    def mark_joined(self, table_id: str, seat: int) -> None: ...

    def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        """The table's clocks now (after a move, an arrival, a timeout), for a restart."""

    def seat_player(self, table_id: str, seat: int, player: PlayerRow,
                    token_hash: str | None = None) -> None:
        """The seat now belongs to `player` (and, when given, answers to a new token's hash)."""

    def release_seat(self, table_id: str, seat: int, token_hash: str) -> None:
        """The seat belongs to nobody again (its taker never came) and answers to a new token."""

    def add_player(self, player: PlayerRow) -> None: ...

    def find_player(self, key_hash: str) -> PlayerRow | None:
        """The player whose key has this hash, or None."""

    def rename_player(self, player_id: str, name: str) -> None: ...

    def player_tables(self, player_id: str, limit: int) -> list[tuple[TableRow, int]]:
        """The tables `player_id` sits at (at most `limit`): those in play first, then the ones
        that ended last; without their records, each with its number of actions."""

    def link_rematch(self, table_id: str, rematch_id: str) -> None: ...

    def mark_ended(self, table_id: str, ended: str, result: dict[str, Any] | None) -> None:
        """The table is over (terminal, left unfinished or abandoned): no restart rebuilds it,
        and its snapshot goes (an ended table is rebuilt from its record when asked for)."""

    def load(self, table_id: str) -> TableRow | None:
        """One table with its record, or None."""

    def load_running(self) -> list[TableRow]:
        """Every table not marked ended, with its record (a restart rebuilds these)."""

    def running_snapshots(self) -> dict[str, Snapshot]:
        """The snapshot of each table not marked ended that has one, by table id."""

    def recent_ended(self, limit: int) -> list[tuple[TableRow, int]]:
        """The `limit` tables that ended last, newest first, without their records, each with
        its number of actions (never a tutorial's: the lobby's public list leaves them out)."""

    def close(self) -> None: ...


_COLUMNS = ("id, game, variant, params, seed, seats, created, rematch, rematch_of, ended, result, clock, "
            "tutorial")


def _writes(method: Any) -> Any:
    """A store method whose database failure (disk full, I/O error, locked, a server gone)
    becomes a StoreError with one sentence: the caller refuses the request and nothing it
    acknowledged is lost."""

    def wrapped(self: SqlStore, *args: Any) -> Any:
        try:
            return method(self, *args)
        except DatabaseError as err:
            raise StoreError(f"the tables' database could not be written ({err})") from None

    wrapped.__name__, wrapped.__doc__ = method.__name__, method.__doc__
    return wrapped


def _name_keys(name: str) -> tuple[str, str]:
    return name_key(name), name_look(name)


def _taken(err: Conflict, name: str) -> Exception:
    """A player's name clashing with another's (its key's unique index) as `NameTaken`; any
    other constraint stays the database's error."""
    if "name_key" in str(err) or "name_look" in str(err):
        return NameTaken(f"the name '{name}' is another player's")
    return err


def _seats_json(seats: list[SeatRow]) -> str:
    return json.dumps([seat.__dict__ for seat in seats])


class SqlStore:
    """The tables in a database `schema.opened` gives: an SQLite file (the default; its
    connection's durability and checkpoints are `database.SqliteDatabase`'s) or PostgreSQL.

    The actions are a `WITHOUT ROWID` table in SQLite: stored in their primary key's own
    tree, an action's commit writes one page to the log instead of two (the rows and the key's
    index). A database made before keeps its rowid table, which works the same."""

    def __init__(self, where: str | Path) -> None:
        self.db = opened(where, serving=True)
        self.leases: LeaseStore | None = None
        """With several nodes on this store (`hold_as`): the leases this process takes, and
        the fence of every write that changes a table (None: the only server on its store)."""
        self.lost: Callable[[str], None] = lambda table_id: None
        """Told the id of a table whose write was refused because another node holds it now."""

    def hold_as(self, leases: LeaseStore, lost: Callable[[str], None]) -> None:
        """From now on each new table is leased to `leases`' holder in its creation's
        transaction, and a write to a table is made only while that holder holds its lease
        (else LeaseLost, and `lost` is told)."""
        self.leases, self.lost = leases, lost

    def _refused(self, table_id: str) -> LeaseLost:
        self.lost(table_id)
        return LeaseLost(f"table {table_id} is held by another node now; nothing was written")

    @contextlib.contextmanager
    def _changing(self, table_id: str, *locking: str, once_ended: bool = False) -> Iterator[None]:
        """The transaction of a write that changes `table_id`: fenced by its lease when nodes
        share the store (nothing is written unless this holder still holds it). `once_ended`:
        the write may also be made to the table once it has ended, when no node holds it (its
        lease went with its end) and any node may serve its page."""
        with self.db.transaction(*locking):
            if self.leases is not None and not self.leases.still_held(table_id) \
                    and not (once_ended and self._has_ended(table_id)):
                raise self._refused(table_id)
            yield

    def fence(self, table_id: str, *locking: str,
              once_ended: bool = False) -> contextlib.AbstractContextManager[None]:
        """The transaction of a write to `table_id` that a store of its own makes on this
        database (a table's proposals, `proposals.SqlProposalStore`; its ratings' settlement,
        `rating_store.SqlRatingStore`), fenced by the table's lease as every write here is
        (`_changing`; `leases.Fence`)."""
        return self._changing(table_id, *locking, once_ended=once_ended)

    def _has_ended(self, table_id: str) -> bool:
        found = self.db.execute("SELECT ended FROM tables WHERE id = ?", (table_id,)).fetchone()
        return found is not None and found[0] is not None

    def _promptly(self, table_id: str, table: str, columns: str, values: tuple[Any, ...],
                  tail: str = "") -> None:
        """One row written in play (an action, a snapshot) in one statement, fenced by the
        table's lease when nodes share the store."""
        if self.leases is None:
            marks = ", ".join("?" * len(values))
            self.db.execute_promptly(f"INSERT INTO {table} ({columns}) VALUES ({marks}){tail}", values)
        elif not self.db.execute_promptly(self.leases.fenced_insert(table, columns, tail),
                                          (*values, *self.leases.fence_args(table_id))):
            raise self._refused(table_id)

    def verify(self) -> None:
        """StoreError unless the database reads back (an SQLite file with corrupt pages opens,
        then fails at the first read of its tables: `serve` checks first)."""
        self.db.verify()

    @_writes
    def create(self, row: TableRow) -> None:
        with self.db.transaction():
            if self.leases is not None:
                self.leases.take(row.id)
            self.db.execute(
                f"INSERT INTO tables ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.variant, json.dumps(row.params), row.seed,
                 _seats_json(row.seats), row.created, row.rematch, row.rematch_of, row.ended,
                 None if row.result is None else json.dumps(row.result),
                 None if row.clock is None else json.dumps(row.clock), row.tutorial),
            )
            self.db.executemany(
                "INSERT INTO actions (table_id, step, seat, action, stand_in) VALUES (?, ?, ?, ?, ?)",
                [(row.id, k + 1, seat, text, row.stand_ins.get(k + 1))
                 for k, (seat, text) in enumerate(row.actions)],
            )
            self.db.executemany(
                "INSERT INTO seat_players VALUES (?, ?, ?)",
                [(row.id, k, seat.player) for k, seat in enumerate(row.seats) if seat.player],
            )

    @_writes
    def append_action(self, table_id: str, step: int, seat: int | None, action: str,
                      stand_in: str | None = None) -> None:
        self._promptly(table_id, "actions", "table_id, step, seat, action, stand_in, played",
                       (table_id, step, seat, action, stand_in, time.time()))

    @_writes
    def drop_last_action(self, table_id: str, step: int) -> None:
        with self._changing(table_id):
            last = self.db.execute("SELECT step, seat FROM actions WHERE table_id = ? "
                                   "ORDER BY step DESC LIMIT 1", (table_id,)).fetchone()
            if last is None or last[0] != step:
                raise ValueError(f"table {table_id}: step {step} is not the last stored action")
            self.db.execute("DELETE FROM actions WHERE table_id = ? AND step = ?", (table_id, step))
            if last[1] is not None:
                self._count(table_id, last[1], "undos")
            # a snapshot after the new last action no longer follows from the record
            self.db.execute("DELETE FROM snapshots WHERE table_id = ? AND step >= ?", (table_id, step))

    @_writes
    def count_hint(self, table_id: str, seat: int) -> None:
        self._count(table_id, seat, "hints")

    @_writes
    def count_chat(self, table_id: str, seat: int) -> None:
        # written on the event loop as each line comes, as an action is: on the connection
        # that never sleeps in SQLite
        self._count(table_id, seat, "chats", promptly=True)

    def _count(self, table_id: str, seat: int, kind: str, promptly: bool = False) -> None:
        sql = (f"INSERT INTO seat_assists (table_id, seat, {kind}) VALUES (?, ?, 1) "
               f"ON CONFLICT (table_id, seat) DO UPDATE SET {kind} = seat_assists.{kind} + 1")
        if promptly:
            self.db.execute_promptly(sql, (table_id, seat))
        else:
            self.db.execute(sql, (table_id, seat))

    def activity(self, table_id: str) -> tuple[list[tuple[int | None, float | None, str | None]],
                                               dict[int, tuple[int, int, int]]]:
        """A table's actions in order as (seat, when played in UTC seconds or None, stand-in bot
        or None), and each seat's (hints, undos, chats) counts: a playtest's export reads
        people's time and help from them."""
        actions = [(seat, played, stand_in) for seat, played, stand_in in self.db.execute(
            "SELECT seat, played, stand_in FROM actions WHERE table_id = ? ORDER BY step", (table_id,))]
        assists = {int(seat): (int(hints), int(undos), int(chats)) for seat, hints, undos, chats
                   in self.db.execute("SELECT seat, hints, undos, chats FROM seat_assists "
                                      "WHERE table_id = ?", (table_id,))}
        return actions, assists

    @_writes
    def save_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        # written in play, as an action is: on the connection that never sleeps in SQLite
        self._promptly(table_id, "snapshots", "table_id, step, state",
                       (table_id, snapshot.step, json.dumps(snapshot.state, separators=(",", ":"))),
                       " ON CONFLICT (table_id) DO UPDATE SET step = excluded.step, state = excluded.state")

    @_writes
    def mark_joined(self, table_id: str, seat: int) -> None:
        with self._changing(table_id, "tables"):
            (text,) = self.db.execute("SELECT seats FROM tables WHERE id = ?", (table_id,)).fetchone()
            seats = json.loads(text)
            seats[seat]["joined"] = True
            self.db.execute("UPDATE tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id))

    @_writes
    def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        with self._changing(table_id):
            self.db.execute("UPDATE tables SET clock = ? WHERE id = ?", (json.dumps(clock), table_id))

    @_writes
    def seat_player(self, table_id: str, seat: int, player: PlayerRow,
                    token_hash: str | None = None) -> None:
        with self._changing(table_id, "tables"):
            (text,) = self.db.execute("SELECT seats FROM tables WHERE id = ?", (table_id,)).fetchone()
            seats = json.loads(text)
            seats[seat]["player"], seats[seat]["player_name"] = player.id, player.name
            if token_hash is not None:
                seats[seat]["token_hash"] = token_hash
            self.db.execute("UPDATE tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id))
            self.db.execute("INSERT INTO seat_players VALUES (?, ?, ?) ON CONFLICT (table_id, seat) "
                            "DO UPDATE SET player_id = excluded.player_id", (table_id, seat, player.id))

    @_writes
    def release_seat(self, table_id: str, seat: int, token_hash: str) -> None:
        with self._changing(table_id, "tables"):
            (text,) = self.db.execute("SELECT seats FROM tables WHERE id = ?", (table_id,)).fetchone()
            seats = json.loads(text)
            seats[seat]["player"] = seats[seat]["player_name"] = None
            seats[seat]["token_hash"] = token_hash
            self.db.execute("UPDATE tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id))
            self.db.execute("DELETE FROM seat_players WHERE table_id = ? AND seat = ?", (table_id, seat))

    @_writes
    def add_player(self, player: PlayerRow) -> None:
        try:
            self.db.execute("INSERT INTO players (id, name, key_hash, created, name_key, name_look) "
                            "VALUES (?, ?, ?, ?, ?, ?)", (player.id, player.name, player.key_hash,
                                                          player.created, *_name_keys(player.name)))
        except Conflict as err:
            raise _taken(err, player.name) from None

    def find_player(self, key_hash: str) -> PlayerRow | None:
        found = self.db.execute("SELECT id, name, key_hash, created FROM players WHERE key_hash = ?",
                                (key_hash,)).fetchone()
        return None if found is None else PlayerRow(*found)

    @_writes
    def rename_player(self, player_id: str, name: str) -> None:
        try:
            self.db.execute("UPDATE players SET name = ?, name_key = ?, name_look = ? WHERE id = ?",
                            (name, *_name_keys(name), player_id))
        except Conflict as err:
            raise _taken(err, name) from None

    def player_tables(self, player_id: str, limit: int) -> list[tuple[TableRow, int]]:
        columns = ", ".join(f"t.{c.strip()}" for c in _COLUMNS.split(","))
        found = self.db.execute(  # a person at two seats of a table sees it once
            f"SELECT {columns}, (SELECT COUNT(*) FROM actions WHERE table_id = t.id) FROM tables t "
            "WHERE t.id IN (SELECT table_id FROM seat_players WHERE player_id = ?) "
            "ORDER BY t.ended IS NOT NULL, COALESCE(t.ended, t.created) DESC, t.id LIMIT ?",
            (player_id, limit)).fetchall()
        return [(self._row(values[:-1]), values[-1]) for values in found]

    @_writes
    def link_rematch(self, table_id: str, rematch_id: str) -> None:
        # the rematch of an ended table is asked for wherever its page is served
        with self._changing(table_id, once_ended=True):
            self.db.execute("UPDATE tables SET rematch = ? WHERE id = ?", (rematch_id, table_id))

    @_writes
    def mark_ended(self, table_id: str, ended: str, result: dict[str, Any] | None) -> None:
        with self._changing(table_id):
            self.db.execute("UPDATE tables SET ended = ?, result = ? WHERE id = ?",
                            (ended, None if result is None else json.dumps(result), table_id))
            self.db.execute("DELETE FROM snapshots WHERE table_id = ?", (table_id,))
            if self.leases is not None:
                self.leases.release(table_id)

    @staticmethod
    def _row(values: tuple[Any, ...]) -> TableRow:
        (tid, game, variant, params, seed, seats, created, rematch, rematch_of, ended, result,
         clock, tutorial) = values
        seat_dicts = json.loads(seats)
        # The earlier turn timer kept its seconds on each person's seat: a per-move clock now.
        timers = [s.pop("stand_in_after", None) for s in seat_dicts]
        stored = json.loads(clock) if clock is not None else None
        if stored is None and any(timers):
            stored = {"settings": legacy_settings(next(t for t in timers if t)).to_json()}
        return TableRow(tid, game, variant, json.loads(params), seed,
                        [SeatRow(**s) for s in seat_dicts], created, rematch, rematch_of,
                        ended=ended, result=None if result is None else json.loads(result),
                        clock=stored, tutorial=tutorial)

    def load(self, table_id: str) -> TableRow | None:
        found = self.db.execute(f"SELECT {_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
        if found is None:
            return None
        row = self._row(found)
        for step, seat, action, stand_in in self.db.execute(
                "SELECT step, seat, action, stand_in FROM actions WHERE table_id = ? ORDER BY step",
                (table_id,)):
            row.actions.append((seat, action))
            if stand_in:
                row.stand_ins[step] = stand_in
        return row

    def load_running(self) -> list[TableRow]:
        rows = {values[0]: self._row(values) for values in self.db.execute(
            f"SELECT {_COLUMNS} FROM tables WHERE ended IS NULL ORDER BY created, id")}
        for tid, step, seat, action, stand_in in self.db.execute(
            "SELECT a.table_id, a.step, a.seat, a.action, a.stand_in FROM actions a "
            "JOIN tables t ON t.id = a.table_id WHERE t.ended IS NULL ORDER BY a.table_id, a.step"
        ):
            rows[tid].actions.append((seat, action))
            if stand_in:
                rows[tid].stand_ins[step] = stand_in
        return list(rows.values())

    def snapshot(self, table_id: str) -> Snapshot | None:
        """One running table's snapshot, if it has one (a node taking the table over)."""
        found = self.db.execute("SELECT step, state FROM snapshots WHERE table_id = ?",
                                (table_id,)).fetchone()
        return None if found is None else Snapshot(found[0], json.loads(found[1]))

    def running_snapshots(self) -> dict[str, Snapshot]:
        return {tid: Snapshot(step, json.loads(state)) for tid, step, state in self.db.execute(
            "SELECT s.table_id, s.step, s.state FROM snapshots s JOIN tables t ON t.id = s.table_id "
            "WHERE t.ended IS NULL")}

    def recent_ended(self, limit: int) -> list[tuple[TableRow, int]]:
        found = self.db.execute(
            f"SELECT {_COLUMNS}, (SELECT COUNT(*) FROM actions WHERE table_id = tables.id) "
            "FROM tables WHERE ended IS NOT NULL AND tutorial IS NULL ORDER BY ended DESC, id LIMIT ?",
            (limit,)).fetchall()
        return [(self._row(values[:-1]), values[-1]) for values in found]

    def close(self) -> None:
        self.db.close()
