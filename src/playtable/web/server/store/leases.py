"""Who holds each running table when several nodes share one store (docs/web.md, "Several
machines"): a `leases` row per running table naming its holder (a node's name and worker
index), the address the other nodes reach that node at, and when the lease expires, in the
database's own clock (`Database.now`), so that no node's clock decides who holds a table.

A lease is taken in the transaction that creates its table (`SqlStore.create`), renewed for
all of a holder's tables in one statement (`renew`), and taken over only once it has expired,
by an UPDATE whose condition is checked again on the row it changes (`claim`): two nodes that
sweep at once never both get a table. Every write that changes a table is fenced: it is made
only where the writer still holds the table's lease, in the same statement or transaction
(`fenced_insert`, `still_held`), so an owner that was paused or cut off past its lease cannot
write after another has taken the table over; the row it reads is locked until the write
commits (PostgreSQL's `FOR SHARE`; SQLite has one writer at a time), so a takeover waits for a
write in flight and then replays it with the rest of the record.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from playtable.web.server.store.database import Database, StoreError

Fence = Callable[..., AbstractContextManager[None]]
"""`SqlStore.fence(table_id, *locking, once_ended=False)`: the transaction of a write to a table
that another store of the same database makes (its proposals, its ratings' settlement), made
only where this holder still holds the table's lease (`once_ended=True`: or once it has ended)."""


class LeaseLost(StoreError):
    """A write to a table this holder no longer holds (another node took it over): refused,
    nothing written."""


@dataclass(frozen=True)
class Lease:
    """A table's lease as read: its holder, that node's address, and whether it is still live."""

    holder: str
    url: str
    live: bool


_RUNNING = "EXISTS (SELECT 1 FROM tables WHERE tables.id = leases.table_id AND tables.ended IS NULL)"
"""A lease whose table is still running (a lease left behind by a server without `--node` that
ended the table is never claimed)."""


class LeaseStore:
    """The lease SQL of one holder (`holder`: `node/worker`, `url`: its node's address), each
    lease `seconds` long."""

    def __init__(self, db: Database, holder: str, url: str, seconds: float) -> None:
        self.db, self.holder, self.url, self.seconds = db, holder, url, seconds

    def take(self, table_id: str) -> None:
        """The lease of a table being created (inside `SqlStore.create`'s transaction)."""
        self.db.execute(f"INSERT INTO leases (table_id, holder, url, expires) VALUES (?, ?, ?, "
                        f"{self.db.now} + ?)", (table_id, self.holder, self.url, self.seconds))

    def renew(self) -> set[str]:
        """Extend every lease this holder still holds, in one statement; their table ids (a
        table missing from them was taken over, or has ended)."""
        return {row[0] for row in self.db.execute(
            f"UPDATE leases SET expires = {self.db.now} + ? WHERE holder = ? RETURNING table_id",
            (self.seconds, self.holder)).fetchall()}

    def expired(self, limit: int, mine: bool = False) -> list[str]:
        """Tables whose lease has expired (the longest expired first), at most `limit`; `mine`:
        and this holder's own (a node restarted under its name takes its tables back at once:
        no other node holds them)."""
        return [row[0] for row in self.db.execute(
            f"SELECT table_id FROM leases WHERE (expires < {self.db.now} OR holder = ?) AND {_RUNNING} "
            "ORDER BY expires LIMIT ?", (self.holder if mine else "", limit)).fetchall()]

    def unleased(self, limit: int) -> list[str]:
        """Running tables with no lease at all (made by a server without `--node`), at most
        `limit`."""
        return [row[0] for row in self.db.execute(
            "SELECT id FROM tables WHERE ended IS NULL AND NOT EXISTS "
            "(SELECT 1 FROM leases WHERE leases.table_id = tables.id) ORDER BY created, id LIMIT ?",
            (limit,)).fetchall()]

    def claim(self, table_ids: list[str]) -> list[str]:
        """Take the leases of `table_ids` that are still expired (or this holder's) when the
        row is changed, and give a lease to those that have none; the ids now held here."""
        if not table_ids:
            return []
        marks = ", ".join("?" * len(table_ids))
        now = self.db.now
        taken = [row[0] for row in self.db.execute(
            f"UPDATE leases SET holder = ?, url = ?, expires = {now} + ? WHERE table_id IN ({marks}) "
            f"AND (expires < {now} OR holder = ?) AND {_RUNNING} RETURNING table_id",
            (self.holder, self.url, self.seconds, *table_ids, self.holder)).fetchall()]
        for table_id in set(table_ids) - set(taken):  # no lease yet: the first to insert holds it
            taken += [row[0] for row in self.db.execute(
                f"INSERT INTO leases (table_id, holder, url, expires) SELECT id, ?, ?, {now} + ? "
                "FROM tables WHERE id = ? AND ended IS NULL ON CONFLICT (table_id) DO NOTHING "
                "RETURNING table_id", (self.holder, self.url, self.seconds, table_id)).fetchall()]
        return taken

    def lease_of(self, table_id: str) -> Lease | None:
        """The table's lease, or None when it has none (ended, unknown, or never leased)."""
        found = self.db.execute(f"SELECT holder, url, expires > {self.db.now} FROM leases "
                                "WHERE table_id = ?", (table_id,)).fetchone()
        return None if found is None else Lease(found[0], found[1], bool(found[2]))

    def still_held(self, table_id: str) -> bool:
        """Inside a transaction that changes the table: whether this holder still holds it, the
        lease's row locked until the transaction ends (a takeover waits for it)."""
        return int(self.db.execute("UPDATE leases SET expires = expires WHERE table_id = ? AND "
                                   "holder = ?", (table_id, self.holder)).rowcount) == 1

    def fenced_insert(self, table: str, columns: str, tail: str = "") -> str:
        """An `INSERT INTO table (columns)` of one row that is written only where this holder
        still holds the lease; its parameters: the row's values, then the table id and the
        holder (`fence_args`)."""
        values = ", ".join("?" * len(columns.split(",")))
        return (f"INSERT INTO {table} ({columns}) SELECT {values} FROM leases WHERE table_id = ? "
                f"AND holder = ?{self.db.share_lock}{tail}")

    def fence_args(self, table_id: str) -> tuple[str, str]:
        return table_id, self.holder

    def release(self, table_id: str) -> None:
        """The table has ended (inside `mark_ended`'s transaction): its lease goes."""
        self.db.execute("DELETE FROM leases WHERE table_id = ?", (table_id,))
