"""Per-address rates shared by a server's table-owning processes (`serve --processes N`,
docs/web.md, "Beyond one process"): what one client address may do a minute (make tables, take
seats, choose names) is counted once for the whole server, in the SQLite file every process
shares, so that spreading requests over the processes gains nothing. One process keeps these
counts in memory instead (`hub._per_address`), as it always did.

Each (kind, address) is a token bucket as `wire.RateLimit` is (`per_minute` tokens, refilled at
`per_minute` a minute), read and written in one `BEGIN IMMEDIATE` transaction, so two processes
never both spend the last token.
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
