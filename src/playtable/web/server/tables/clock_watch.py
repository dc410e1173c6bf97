"""The tables' clocks (`clocks.py`: real-time or come-back-later) kept up to date after every
change: each table's timer at its running clock's deadline, its clocks saved as they run, and
what a table was set to do when a seat's clock runs out (the seat forfeits, or the game's
stand-in bot plays)."""

from __future__ import annotations

import logging

from playtable.web.server.store.store import StoreError
from playtable.web.server.tables.clocks import FORFEIT, ClockKeeper, TableClock
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.seating import stand_in_agent
from playtable.web.server.tables.tables import Table

log = logging.getLogger("playtable.web")


class ClockWatch:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.keeper = ClockKeeper(self.ran_out, self.save)
        """Each table's timer at its running clock's deadline (at most one: the seat to act)."""

    def arm(self, table: Table, restarted: bool = False) -> None:
        """Bring the table's clocks up to date after any change (a move, an undo, an arrival, its
        end) and set its timer: only the seat that must act counts down, once its person has
        arrived; a bot's move or a finished table stops every clock. `restarted`: the first
        arming after a restart (`TableClock.resume`)."""
        clock = table.clock
        if clock is None:
            return
        to_act = table.state.current_player
        timed = not table.is_over and table.bot_to_move() is None and 0 <= to_act < len(table.row.seats)
        seat = to_act if timed else None
        arrived = seat is not None and table.row.seats[seat].joined
        self.keeper.arm(table.id, clock, seat, table.step, arrived, restarted)

    def save(self, table_id: str, clock: TableClock) -> None:
        data = clock.to_json()
        table = self.room.tables.get(table_id)
        if table is not None:
            table.row.clock = data
        try:
            self.room.store.save_clock(table_id, data)
        except StoreError as err:  # the clock runs on; a restart finds it as it was last saved
            log.error("table %s: its clocks not saved: %s", table_id, err)

    def ran_out(self, table_id: str, seat: int, step: int, first: bool) -> None:
        """`seat`'s clock ran out at `step` (`first`: just now; else a real-time seat already out
        of time whose move came round again): the table does what it was set to do, the seat
        forfeits or the game's stand-in bot plays (the log names the bot, never the person)."""
        room = self.room
        table = room.tables.get(table_id)
        if table is None or table.clock is None or table.step != step or table.is_over \
                or table.state.current_player != seat or table.bot_busy:
            return
        who = table.label(seat)
        if table.clock.settings.timeout == FORFEIT:
            table.forfeited = seat
            room.notice(table, f"{who}'s clock ran out: {who} forfeits the game.")
            room.after_change(table, [])  # stops the clocks, tells everyone, ends the table
            return
        agent = stand_in_agent(table.game)
        if first:
            moves = "this move" if table.clock.per_move else "every later move"
            room.notice(table, f"{who}'s clock ran out: the {agent} bot plays {moves} for them.")
        table.bot_busy = True
        room.spawn(room.bot_turn(table, seat, agent))
