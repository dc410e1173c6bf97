"""The end of tables: marking one over (rated, stored, then free to leave memory and out of its
network's tables in play), ending as abandoned the tables nobody plays for `Limits.idle_seconds`
(docs/web.md, "Facing a network") or nobody ever arrived at, and the playtest slots nobody began
(docs/web.md, "Playtest slots"), and giving back to Open the seats taken by people who never came
(`seat_claims.py`; docs/web.md, "Fair use")."""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from playtable.core.protocol import Event
from playtable.web.server.people.seat_claims import nobody_arrived
from playtable.web.server.store.leases import LeaseLost
from playtable.web.server.store.store import StoreError
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.table_request import BadRequest, now
from playtable.web.server.tables.tables import Table, hash_token

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
        except LeaseLost:  # another node holds the table (let go here): its end and its count are that node's
            log.warning("table %s: not ended here, another node holds it now", table.id)
            return
        except StoreError as err:  # it is rebuilt at the next start and marked then
            log.error("table %s: its end not saved: %s", table.id, err)
        room.in_play.ended(table.id)
        table.proposals.drop()  # a game over asks nobody any more
        room.remember_ended(table.id)

    async def reap(self) -> None:
        """End the tables nobody has played for `idle_seconds`, checking every minute (or more
        often, for the taken seats' `take_seconds`)."""
        limits = self.room.limits
        while True:
            await asyncio.sleep(min(60.0, limits.idle_seconds / 4, limits.take_seconds / 4))
            self.reap_idle(datetime.now(UTC))

    def reap_idle(self, at: datetime) -> list[str]:
        """End every table in play idle since before `at - idle_seconds`, or left unattended
        (`unattended`); their ids. A table whose clock runs is not idle: its deadline (up to 14
        days a move, longer than the idle limit) decides what happens (clocks.py). Taken seats
        whose person did not come in time go back to Open first."""
        self.release_claims(at.timestamp())
        cutoff = (at - timedelta(seconds=self.room.limits.idle_seconds)).timestamp()
        reaped = []
        for table in list(self.room.tables.values()):
            timed = table.clock is not None and table.clock.running is not None
            if table.row.ended is None and not table.is_over and (
                    table.last_activity < cutoff and not timed or self.unattended(table, at.timestamp())):
                self.abandon(table, "Nobody played this table for too long: it has been ended.")
                reaped.append(table.id)
        return reaped

    def abandon(self, table: Table, why: str) -> None:
        """End a table in play as abandoned (its people are told `why`): idle too long, never
        arrived at, or a playtest's slot nobody began (playtests/playtests.py)."""
        table.abandoned = True
        table.broadcast_state([Event("abandoned", why)])
        self.mark_ended(table)

    def leave_tutorial(self, table: Table) -> None:
        """The person of a tutorial's table leaves it (the lobby's Leave): a game not over yet
        ends there, unrated as every tutorial, and the table goes from their "Yours" (players.py);
        one already over stays as it ended. Only a tutorial: a real table ends by its game, its
        clock or the idle rule, where its other people and ratings have their say."""
        if not table.row.tutorial:
            raise BadRequest("only a tutorial's table can be left this way", 409)
        if not table.is_over and table.row.ended is None:
            self.abandon(table, "You left the tutorial: this table has ended.")

    def unattended(self, table: Table, at: float) -> bool:
        """A table no person ever arrived at, or a tutorial nobody has open, for
        `unarrived_seconds` (seat_claims.py)."""
        before = at - self.room.limits.unarrived_seconds
        return nobody_arrived(table.row, before) or not table.connections \
            and table.last_activity < before and table.id in self.room.in_play.tutorials

    def release_claims(self, at: float) -> None:
        """Give back to Open every taken seat whose person has not connected by its due time."""
        room = self.room
        for table_id, seat in room.claims.expired(at):
            table = room.tables.get(table_id)
            if table is None or table.is_over or table.row.seats[seat].joined:
                continue
            fresh = hash_token(secrets.token_urlsafe(18))  # the taker's link stops working
            try:
                room.store.release_seat(table_id, seat, fresh)
            except StoreError as err:
                log.error("table %s: seat %d not given back: %s", table_id, seat, err)
                continue
            row = table.row.seats[seat]
            row.player, row.player_name, row.token_hash = None, None, fresh
            table.broadcast(table.seats_message())
