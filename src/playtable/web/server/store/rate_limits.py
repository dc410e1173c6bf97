"""The server's one rate-limit design (docs/web.md, "Fair use"): a token bucket, `burst` tokens
refilled at `rate` a second, one token a request. It lives in one of two places:

- in memory (`RateLimit`): a WebSocket's messages and syncs, and the per-network budgets of a
  server of one process;
- in the database every table-owning process shares (`SharedBuckets`: the SQLite file, or
  PostgreSQL), so that with `serve --processes N` a network gets its budget from the whole
  server, not from each process.

`Budgets` holds the per-network (and per-person) buckets of one kind each ("tables", "names",
"seats", "pasts", ...): in the shared file when there is one, in memory otherwise or whenever
the file cannot answer (a limit never fails a request on its own). Buckets full again are
forgotten, so neither memory nor the file grows with the number of networks ever seen.

Why not pyrate-limiter (4.5.1): its buckets are sliding-window logs, a row or list entry per
accepted request; its SQLite bucket opens a connection and table of its own and needs filelock
for several processes; it has no answer to "how long until the next token" that a sync's
coalescing needs (`RateLimit.wait`). Ours is the same arithmetic in two places, about a hundred
lines, on the store's own connection.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from playtable.web.server.store.database import Database, DatabaseError

log = logging.getLogger("playtable.web")

RATE_PER_SECOND = 20.0
BURST = 40.0
STRIKES_BEFORE_CLOSE = 20
"""A client over the rate gets a `rate_limited` error per dropped message; after this many
dropped messages in a row it is closed with code 1008 (policy violation)."""
FORGET_PAST = 10_000
"""Buckets kept in memory past which the full ones are forgotten (a full bucket is a new one)."""
FORGET_EVERY = 1000
"""Every this many shared checks, the shared buckets full again are deleted."""


def refilled(tokens: float, elapsed: float, rate: float, burst: float) -> float:
    """A bucket's tokens `elapsed` seconds after it held `tokens`."""
    return min(burst, tokens + max(0.0, elapsed) * rate)


class RateLimit:
    """A token bucket in memory: `rate` tokens a second on average, bursts of `burst`.
    `clock`: seconds, monotonic (a test's own)."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()
        self.strikes = 0

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = refilled(self.tokens, now - self.last, self.rate, self.burst)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.strikes = 0
            return True
        self.strikes += 1
        return False

    def wait(self) -> float:
        """Take a token if one is there (0.0), else the seconds until one will be (none taken)."""
        if self.allow():
            return 0.0
        self.strikes -= 1  # a wait is not a dropped message
        return (1.0 - self.tokens) / self.rate

    @property
    def full(self) -> bool:
        """Whether the bucket has refilled (its owner has been quiet long enough to forget)."""
        return refilled(self.tokens, self.clock() - self.last, self.rate, self.burst) >= self.burst

    @property
    def exhausted(self) -> bool:
        return self.strikes >= STRIKES_BEFORE_CLOSE




class SharedBuckets:
    """Token buckets per (kind, key) in the database the server's processes share (`db`: a
    store's connection, autocommit; the table `address_rates`, whose keys are networks
    (`networks.network_of`) or a person's id), each read and written in one transaction that
    locks the table, so two processes never both spend the last token."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db, self.clock = db, clock
        self.checks = 0

    def allow(self, kind: str, key: str, per_minute: float) -> bool | None:
        """Take one of `key`'s `kind` tokens (`per_minute` a minute, bursts of as many) if it
        has one; None if the file cannot say."""
        now = self.clock()
        try:
            with self.db.transaction("address_rates"):
                found = self.db.execute("SELECT tokens, at FROM address_rates WHERE kind = ? AND address = ?",
                                        (kind, key)).fetchone()
                tokens = per_minute if found is None else \
                    refilled(found[0], now - found[1], per_minute / 60.0, per_minute)
                allowed = tokens >= 1.0
                self.db.execute("INSERT INTO address_rates VALUES (?, ?, ?, ?) ON CONFLICT (kind, address) "
                                "DO UPDATE SET tokens = excluded.tokens, at = excluded.at",
                                (kind, key, tokens - 1.0 if allowed else tokens, now))
            self.checks += 1
            if self.checks % FORGET_EVERY == 0:  # a bucket refills within a minute
                self.db.execute("DELETE FROM address_rates WHERE at < ?", (now - 60.0,))
        except DatabaseError as err:
            log.error("the shared rate limits cannot be read (%s); this process's own apply", err)
            return None
        return allowed


class Budgets:
    """Per-key budgets of several kinds, each `per_minute` a minute in bursts of as many: in
    `shared` (several processes) when given and readable, else in this process's memory."""

    def __init__(self, shared: SharedBuckets | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.shared, self.clock = shared, clock
        self.buckets: dict[tuple[str, str], RateLimit] = {}
        self.sweep_past = FORGET_PAST
        """The count of buckets past which the full ones are looked for next: twice what the last
        look left, so that with many networks busy at once (every bucket still refilling) a look
        is not made at every request, only each time the buckets have doubled."""
        self.sweeps = 0

    def allow(self, kind: str, key: str, per_minute: float) -> bool:
        """Spend one of `key`'s `kind` budget if any is left."""
        if self.shared is not None:
            answer = self.shared.allow(kind, key, per_minute)
            if answer is not None:
                return answer
        bucket = self.buckets.get((kind, key))
        if bucket is None:
            bucket = self.buckets[kind, key] = RateLimit(per_minute / 60.0, per_minute, self.clock)
        allowed = bucket.allow()
        if len(self.buckets) > self.sweep_past:
            self.sweeps += 1
            for quiet in [k for k, b in self.buckets.items() if b.full and k != (kind, key)]:
                del self.buckets[quiet]
            self.sweep_past = max(FORGET_PAST, 2 * len(self.buckets))
        return allowed
