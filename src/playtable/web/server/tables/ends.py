"""The end of tables: marking one over (rated, stored, then free to leave memory) and ending
as abandoned the tables nobody plays for `Limits.idle_seconds` (docs/web.md, "Facing a
network") and the playtest slots nobody began (docs/web.md, "Playtest slots")."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from playtable.core.protocol import Event
from playtable.web.server.store.store import StoreError
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.table_request import now
from playtable.web.server.tables.tables import Table

log = logging.getLogger("playtable.web")


class Ends:
    def __init__(self, room: Room) -> None:
        self.room = room

    def mark_ended(self, table: Table, result: dict[str, Any] | None = None) -> None:
        """Record that the table is over (so no restart rebuilds it) and let it leave memory."""
        if table.row.ended is not None:
            return
        room = self.room
        room.arm_timer(table)  # every clock stops
        table.row.ended = now()
        table.row.result = result or table.result()
        room.ratings.settle(table)  # before the end is stored: a crash between them rates it at the restart
        try:
            room.store.mark_ended(table.id, table.row.ended, table.row.result)
        except StoreError as err:  # it is rebuilt at the next start and marked then
            log.error("table %s: its end not saved: %s", table.id, err)
        room.remember_ended(table.id)

    async def reap(self) -> None:
        """End the tables nobody has played for `idle_seconds`, checking every minute."""
        while True:
            await asyncio.sleep(min(60.0, self.room.limits.idle_seconds / 4))
            self.reap_idle(datetime.now(UTC))

    def reap_idle(self, at: datetime) -> list[str]:
        """End every table in play idle since before `at - idle_seconds`; their ids. A table
        whose clock runs is not idle: its deadline (up to 14 days a move, longer than the idle
        limit) decides what happens (clocks.py)."""
        cutoff = (at - timedelta(seconds=self.room.limits.idle_seconds)).timestamp()
        reaped = []
        for table in list(self.room.tables.values()):
            timed = table.clock is not None and table.clock.running is not None
            if table.row.ended is None and not table.is_over and table.last_activity < cutoff \
                    and not timed:
                self.abandon(table, "Nobody played this table for too long: it has been ended.")
                reaped.append(table.id)
        return reaped

    def abandon(self, table: Table, why: str) -> None:
        """End a table in play as abandoned (its people are told `why`): idle too long, or a
        playtest's slot nobody began (playtests/playtests.py)."""
        table.abandoned = True
        table.broadcast_state([Event("abandoned", why)])
        self.mark_ended(table)
