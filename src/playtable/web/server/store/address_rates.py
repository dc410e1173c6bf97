"""Per-address rates shared by a server's table-owning processes (`serve --processes N`,
docs/web.md, "Beyond one process"): what one client address may do a minute (make tables, take
seats, choose names) is counted once for the whole server, in the SQLite file every process
shares, so that spreading requests over the processes gains nothing. One process keeps these
counts in memory instead (`hub._per_address`), as it always did.

Each (kind, address) is a token bucket as `wire.RateLimit` is (`per_minute` tokens, refilled at
`per_minute` a minute), read and written in one `BEGIN IMMEDIATE` transaction, so two processes
never both spend the last token.

The sockets each address holds open are counted the same way (`AddressSockets`).
"""

from __future__ import annotations

import logging
import sqlite3
import time

log = logging.getLogger("playtable.web")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS address_rates (
    kind TEXT NOT NULL,
    address TEXT NOT NULL,
    tokens REAL NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (kind, address)
)
"""
FORGET_EVERY = 1000
"""Every this many checks, the buckets full again are deleted (a bucket refills in a minute)."""


class AddressRates:
    """Token buckets per (kind, address) in the shared SQLite file (`db`: a store's connection,
    autocommit, as `votes.SqliteVoteStore` uses it)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.db.execute(_SCHEMA)
        self.checks = 0

    def allow(self, kind: str, address: str, per_minute: float) -> bool | None:
        """Take one of `address`'s `kind` tokens if it has one; None if the store cannot say
        (the caller falls back on its own memory: a limit never fails a request on its own)."""
        now = time.time()
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                found = self.db.execute("SELECT tokens, at FROM address_rates WHERE kind = ? AND address = ?",
                                        (kind, address)).fetchone()
                tokens = per_minute if found is None else \
                    min(per_minute, found[0] + max(0.0, now - found[1]) * per_minute / 60.0)
                allowed = tokens >= 1.0
                self.db.execute("INSERT OR REPLACE INTO address_rates VALUES (?, ?, ?, ?)",
                                (kind, address, tokens - 1.0 if allowed else tokens, now))
            self.checks += 1
            if self.checks % FORGET_EVERY == 0:
                self.db.execute("DELETE FROM address_rates WHERE at < ?", (now - 60.0,))
        except sqlite3.Error as err:
            log.error("the shared per-address limits cannot be read (%s); this process's own apply", err)
            return None
        return allowed


_SOCKETS_SCHEMA = """
CREATE TABLE IF NOT EXISTS address_sockets (
    address TEXT NOT NULL,
    process INTEGER NOT NULL,
    open INTEGER NOT NULL,
    PRIMARY KEY (address, process)
) WITHOUT ROWID
"""


class AddressSockets:
    """The WebSockets each client address holds open, counted over all the table-owning processes
    (`Limits.connections_per_address` is the whole server's, not each process's: otherwise an
    address could open the limit at every process by choosing tables that each one owns).

    A row per (address, process) holding that process's own count, written as a whole number
    (never incremented), so a write that failed is put right by the next one. A process starting
    (the server's start, or a dead worker replaced: its sockets died with it) deletes its own
    rows, and those of processes the server no longer has (`--processes` lowered since)."""

    def __init__(self, db: sqlite3.Connection, process: int, processes: int) -> None:
        self.db = db
        self.process = process
        self.db.execute(_SOCKETS_SCHEMA)
        self.db.execute("DELETE FROM address_sockets WHERE process = ? OR process >= ?", (process, processes))

    def open(self, address: str, here: int, limit: int) -> bool | None:
        """Whether `address`, with `here` sockets open at this process, may open one more here
        (`limit` over the whole server); if so it is counted. None if the store cannot say (the
        caller falls back on this process's own count)."""
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                (elsewhere,) = self.db.execute(
                    "SELECT COALESCE(SUM(open), 0) FROM address_sockets WHERE address = ? AND process != ?",
                    (address, self.process)).fetchone()
                if elsewhere + here >= limit:
                    return False
                self.db.execute("INSERT OR REPLACE INTO address_sockets VALUES (?, ?, ?)",
                                (address, self.process, here + 1))
        except sqlite3.Error as err:
            log.error("the shared count of open sockets cannot be read (%s); this process's own applies", err)
            return None
        return True

    def closed(self, address: str, here: int) -> None:
        """A socket of `address` closed here; `here` are still open at this process."""
        try:
            if here > 0:
                self.db.execute("INSERT OR REPLACE INTO address_sockets VALUES (?, ?, ?)",
                                (address, self.process, here))
            else:
                self.db.execute("DELETE FROM address_sockets WHERE address = ? AND process = ?",
                                (address, self.process))
        except sqlite3.Error as err:  # the next socket of this address here writes the count again
            log.error("a closed socket could not be counted off (%s)", err)
