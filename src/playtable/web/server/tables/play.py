"""Playing a move: checked completely before anything changes, written to the store (committed)
before the table changes and before any message goes out; a live table's motion streamed
before the new state; then what follows every change (bots, clocks, the end)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from playtable.core.errors import PlaytableError
from playtable.core.presentation import presentation
from playtable.core.protocol import Event
from playtable.web.server.store.leases import LeaseLost
from playtable.web.server.store.store import StoreError
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.tables import SNAPSHOT_EVERY, Connection, Table, paced_frames
from playtable.web.server.transport.wire import error

log = logging.getLogger("playtable.web")


class Play:
    def __init__(self, room: Room) -> None:
        self.room = room

    def act(self, table: Table, seat: int, text: str, conn: Connection | None = None,
            bot: str | None = None) -> bool:
        """Play `text` for `seat` (a person's, through `conn`, or a bot's: `bot` names it; a bot
        on a person's seat is a stand-in, and the log says so)."""
        state = table.state
        if table.is_over or state.current_player != seat:
            why = ("the players moved to a new table" if table.left_unfinished
                   else "the game is over" if state.is_terminal
                   else "the server ended this table" if table.abandoned else "it is not your turn")
            if conn:
                conn.push(error("illegal", f"'{text[:60]}' cannot be played: {why}"))
            return False
        if conn and table.clock is not None and seat in table.clock.out:
            conn.push(error("illegal", f"'{text[:60]}' cannot be played: your clock ran out, and "
                                       "the stand-in bot plays your moves"))
            return False
        try:
            canonical, after, events = table.try_action(text)
        except PlaytableError as err:
            if conn:
                conn.push(error("illegal", str(err)))
            return False
        stand_in = bot if bot and table.row.seats[seat].kind == "human" else None
        try:
            self.room.store.append_action(table.id, table.step + 1, seat, canonical, stand_in)
        except LeaseLost:  # another node holds the table now: this one lets it go (leasing.py)
            if conn:
                conn.push(error("moved", "this table is now served by another server; nothing "
                                         "changed here, reconnecting"))
            return False
        except StoreError as err:
            log.error("table %s: action not saved: %s", table.id, err)
            if conn:
                conn.push(error("unavailable", "the server could not save your move (its disk may be "
                                               "full); nothing changed, try again later"))
            return False
        table.commit(seat, canonical, after, events, stand_in)
        if conn is not None:  # a person's own move: from which network (people/ratings.py)
            self.room.ratings.played_from(table.id, seat, conn.address)
        if table.step % SNAPSHOT_EVERY == 0 and not table.is_over:
            self.save_snapshot(table)
        motion = presentation(after).motion()
        if motion:
            # A live table (Star Dice): the motion is streamed first, then the new state goes
            # out, so every page animates the throw before it shows where the dice came to rest.
            self.room.spawn(self.stream(table, motion, events))
        else:
            self.after_change(table, events)
        return True

    def save_snapshot(self, table: Table) -> None:
        """Store the table's snapshot; if that fails, the record is still whole (a restart
        replays more of it), so play goes on."""
        snapshot = table.snapshot()
        if snapshot is None:
            return
        try:
            self.room.store.save_snapshot(table.id, snapshot)
        except StoreError as err:
            log.error("table %s: its snapshot not saved: %s", table.id, err)

    async def stream(self, table: Table, motion: list[dict[str, Any]], events: list[Event]) -> None:
        """Send the motion's frames as `frame` messages at the table's pace (`Table.pace`: in
        real time unless every page asked for faster), then the state. The table has already
        moved on in the store: a page joining meanwhile gets it."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        step = table.step
        for at, frame in paced_frames(motion, step, table.pace):
            wait = start + at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            table.stream_frame(frame)
        if table.step == step:
            self.after_change(table, events)

    def after_change(self, table: Table, events: list[Event]) -> None:
        room = self.room
        room.schedule_bot(table)
        room.arm_timer(table)
        table.broadcast_state(events)
        if table.is_over:
            room.votes.send(table)
            room.mark_ended(table)
