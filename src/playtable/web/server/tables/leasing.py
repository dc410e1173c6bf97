"""Which node serves each running table when several nodes share one store (docs/web.md,
"Several machines"): a table is this process's while it holds the table's lease
(`store/leases.py`), and only then.

- A new table (and a rematch) is leased to this process in its creation's transaction.
- Every `RENEW_EVERY` seconds one statement renews all of this process's leases for
  `LEASE_SECONDS`; a table missing from what it renewed was taken over by another node, and
  this process stops serving it (`let_go`: out of memory, its bots and clocks stopped, its
  sockets closed with 1012 so that the pages reconnect, reaching the new holder). A process
  that cannot renew at all for a whole lease lets every table go: by then another node may
  hold them.
- Every write that changes a table is fenced by its lease in the store; a refused write lets
  the table go the same way (a process that was paused, or cut off, past its lease).
- Every `SWEEP_EVERY` seconds the node looks for running tables whose lease expired (a node
  that died) and takes over a bounded batch (`SWEEP_BATCH`; with `--processes`, only the tables
  this worker owns): their leases claimed in one statement, then each rebuilt by replaying its
  record from its snapshot (in a thread, off the event loop), as a restart does, its bots and
  clocks started. `locate` does the same on demand for one table.
- At start a node loads only what it claims: its own tables (a restart under the same name),
  expired leases and running tables never leased; never a table another live node holds.

Without a node (`Room.node` None) nothing here runs and no lease is read or written.
"""

from __future__ import annotations

import asyncio
import logging
import time

from playtable.web.server.store.database import StoreError
from playtable.web.server.store.leases import LeaseStore
from playtable.web.server.tables.clocks import ClockKeeper
from playtable.web.server.tables.room import Room, rebuilt
from playtable.web.server.transport.wire import error

log = logging.getLogger("playtable.web")

LEASE_SECONDS = 6.0
"""How long a lease lasts past its last renewal: a dead node's tables are taken over this long
after its last renewal at most, plus a sweep."""
RENEW_EVERY = 2.0
"""Seconds between renewals: two may fail (a slow database) before a lease runs out."""
SWEEP_EVERY = 1.0
"""Seconds between looks for expired leases."""
SWEEP_BATCH = 50
"""Tables one sweep takes over at most (each replayed in a thread), so a sweep after a node with
many tables died stays short and the next one takes the rest."""
MOVED = 1012
"""The close code of a table's sockets when another node holds it now (the WebSocket code for
"service restart"): every page reconnects."""


class Leasing:
    def __init__(self, room: Room, clocks: ClockKeeper) -> None:
        self.room = room
        self.clocks = clocks
        node = room.node
        self.store: LeaseStore | None = None
        if node is not None:
            holder = f"{node.name}/{room.owner.index}"
            self.store = LeaseStore(room.store.db, holder, node.url, LEASE_SECONDS)  # type: ignore[attr-defined]
            room.store.hold_as(self.store, self.lost)  # type: ignore[attr-defined]
        self.renewed = time.monotonic()
        """When the last renewal that succeeded was asked (this process's own clock: only to
        know that its leases have surely run out, never to decide who holds a table)."""
        self.taking = asyncio.Lock()
        """One takeover at a time (a sweep's, a `locate`'s), so no table is loaded twice."""

    # -- at start, and the loops ----------------------------------------------------------------
    def restore(self) -> None:
        """Load, before serving, the tables this process claims: its own, the expired and the
        never leased (with several processes, those it owns); the sweep finds the rest."""
        assert self.store is not None
        room = self.room
        while len(room.tables) < room.limits.tables:
            wanted = room.limits.tables - len(room.tables)
            found = self.store.expired(wanted * room.owner.count, mine=True) + \
                self.store.unleased(wanted * room.owner.count)
            ids = [t for t in dict.fromkeys(found) if room.owner.owns(t) and t not in room.tables]
            before = len(room.tables)
            for table_id in self.store.claim(ids[:wanted]):
                row = room.store.load(table_id)
                if row is not None and row.ended is None:
                    room.keep(row, rebuilt(row, room.store.snapshot(table_id)))  # type: ignore[attr-defined]
            if len(room.tables) == before:
                return
            self.store.renew()  # a long restore keeps what it has loaded so far

    def start(self) -> None:
        """Renew this process's leases and sweep for expired ones for as long as it serves."""
        if self.store is not None:
            self.renewed = time.monotonic()
            self.room.spawn(self.renewing())
            self.room.spawn(self.sweeping())

    async def renewing(self) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            self.renew()

    def renew(self) -> None:
        """Renew every lease held here; let go of every table in play here that was not among
        them (another node took it over), or of all of them once the leases have surely run out
        without a renewal."""
        assert self.store is not None
        asked = time.monotonic()
        try:
            held = self.store.renew()
        except StoreError as err:
            log.error("the tables' leases could not be renewed: %s", err)
            if time.monotonic() - self.renewed > LEASE_SECONDS:
                for table_id in self.in_play():
                    self.let_go(table_id, "its lease could not be renewed")
            return
        self.renewed = asked
        for table_id in self.in_play():
            if table_id not in held:
                self.let_go(table_id, "another node took it over")

    async def sweeping(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.sweep()
            except StoreError as err:
                log.error("the sweep for expired leases failed: %s", err)

    async def sweep(self) -> list[str]:
        """Take over a batch of the tables whose lease expired (this worker's own), no more than
        `Limits.tables` lets this process hold (a full node leaves them to the others); their
        ids."""
        assert self.store is not None
        owner = self.room.owner
        batch = min(SWEEP_BATCH, self.room.limits.tables - len(self.in_play()))
        if batch <= 0:
            return []
        found = self.store.expired(batch * owner.count)
        return await self.take_over([t for t in found if owner.owns(t)][:batch])

    # -- on demand --------------------------------------------------------------------------------
    async def locate(self, table_id: str) -> str | None:
        """Where `table_id` is served: None here (this process holds it now, having taken it
        over if its lease had expired; or the table has ended, is unknown, or is another of this
        node's processes'), else the base address of the live node that holds it."""
        room = self.room
        if self.store is None or len(table_id) > 40:
            return None
        if table_id in room.tables and table_id not in room.ended:
            return None
        elsewhere = self.elsewhere(table_id)
        if elsewhere is not None or not room.owner.owns(table_id):
            return elsewhere
        await self.take_over([table_id])
        return None if table_id in room.tables else self.elsewhere(table_id)

    def elsewhere(self, table_id: str) -> str | None:
        """The address of the other live node that holds the table, if one does."""
        assert self.store is not None and self.room.node is not None
        lease = self.store.lease_of(table_id)
        if lease is None or not lease.live or lease.holder == self.store.holder \
                or lease.url == self.room.node.url:
            return None
        return lease.url

    async def take_over(self, table_ids: list[str]) -> list[str]:
        """Claim the leases of `table_ids` that may be taken (expired, never leased, or this
        holder's), and load each claimed table by replaying its record, its bots and clocks
        started; the ids loaded."""
        assert self.store is not None
        room = self.room
        loaded = []
        async with self.taking:
            wanted = [t for t in table_ids if t not in room.tables or t in room.ended]
            for table_id in self.store.claim(wanted):
                row = room.store.load(table_id)
                if row is None or row.ended is not None:
                    continue
                started = time.monotonic()
                built = await asyncio.to_thread(rebuilt, row, room.store.snapshot(table_id))  # type: ignore[attr-defined]
                room.ended.pop(table_id, None)
                table = room.keep(row, built)
                if table is None:
                    continue
                room.schedule_bot(table)
                room.arm_timer(table, restarted=True)
                loaded.append(table_id)
                log.warning("table %s taken over (its lease had expired): %d actions replayed in "
                            "%.2f s", table_id, table.step, time.monotonic() - started)
        return loaded

    # -- letting a table go -----------------------------------------------------------------------
    def in_play(self) -> list[str]:
        room = self.room
        return [t.id for t in room.tables.values() if t.id not in room.ended and t.row.ended is None]

    def lost(self, table_id: str) -> None:
        """A write to the table was refused (another node holds it): let it go at once, before
        the caller goes on (a clock that ran out must not then forfeit a seat, nor settle
        ratings, of a table this process no longer holds)."""
        self.let_go(table_id, "a write was refused")

    def let_go(self, table_id: str, why: str) -> None:
        """Stop serving a table another node holds now: out of memory, its clock's timer and
        any bot turn in flight stopped, its sockets closed with `MOVED` so that its pages
        reconnect (reaching the new holder)."""
        room = self.room
        table = room.tables.pop(table_id, None)
        room.ended.pop(table_id, None)
        if table is None:
            return
        log.warning("table %s is no longer served here: %s", table_id, why)
        self.clocks.forget(table_id)
        # In this process's memory only (the store is the new holder's): a bot turn in flight
        # sees the table over and stops, and any late request is refused.
        table.abandoned = True
        for conn in list(table.connections):
            conn.push(error("moved", "this table is now served by another server; reconnecting"))
            conn.leave(MOVED, "table moved")
