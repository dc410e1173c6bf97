"""What a seated player may ask for besides a move: taking the last action back (the game's
`can_take_back` decides) and a hint, each worked out off the event loop, and a chat line."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from playtable.core.errors import PlaytableError
from playtable.core.protocol import Event
from playtable.web.server.bots.bots import JobFailed
from playtable.web.server.store.store import StoreError
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.tables import Connection, Table
from playtable.web.server.transport.networks import network_of
from playtable.web.server.transport.wire import error

log = logging.getLogger("playtable.web")
HINTS_WAITING = 8
"""Jobs of one network waiting for the bots' workers past which its hints are refused."""
HINTS_KEPT = 10_000
"""Hints kept for asking again (one per table and seat, the oldest forgotten first)."""


class Assists:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.given: OrderedDict[tuple[str, int], tuple[int, str, str]] = OrderedDict()
        """(table, seat) -> the table's version when its last hint was given, and that hint
        (action, text): asked again at the same position, it is given again without a new job
        and counted once, so a flood of hints costs one worker job and one count a position."""

    async def undo(self, table: Table, conn: Connection) -> None:
        """Take the last action back (the game's `can_take_back` decides): the record minus it is
        replayed in a thread, off the event loop, then stored and made current, unless the table
        moved meanwhile (the player is then told it is stale)."""
        if not table.can_undo(conn.seat):
            conn.push(error("no_undo", "the last action cannot be taken back (it was not yours, or "
                                       "it drew a card, rolled a die or revealed something)"))
            return
        step = table.step
        try:
            rebuilt = await asyncio.to_thread(table.replay_without_last)
        except PlaytableError as err:
            log.error("table %s: undo could not replay the record: %s", table.id, err)
            conn.push(error("unavailable", "the server could not take the move back; nothing changed"))
            return
        if table.step != rebuilt.of_step or not table.can_undo(conn.seat):
            conn.push(error("stale", f"the table moved on to step {table.step}; nothing was taken back"))
            conn.push(table.state_message(conn.seat, []))
            return
        try:
            self.room.store.drop_last_action(table.id, step)
        except StoreError as err:
            log.error("table %s: undo not saved: %s", table.id, err)
            conn.push(error("unavailable", "the server could not save the undo; nothing changed"))
            return
        table.adopt(rebuilt)
        self.room.after_change(table, [Event("undo", "The last action was taken back.")])

    async def hint(self, table: Table, conn: Connection) -> None:
        step, seat = table.step, conn.seat
        if table.is_over or seat is None or table.state.current_player != seat:
            conn.push(error("no_hint", "a hint is for the player whose turn it is"))
            return
        version, key = table.version, (table.id, seat)
        kept = self.given.get(key)
        if kept is not None and kept[0] == version:
            conn.push({"type": "hint", "step": step, "action": kept[1], "text": kept[2]})
            return
        workers = self.room.workers
        network = network_of(conn.address)
        if workers.bots.waiting_from(network) >= HINTS_WAITING:
            conn.push(error("no_hint", "the server is busy; ask for a hint again in a moment"))
            return
        try:
            found = await workers.hint(table.row.game, table.state.to_json(), network)
        except JobFailed as err:
            log.error("hint on table %s failed: %s", table.id, err)
            conn.push(error("no_hint", "the hint could not be worked out in time"))
            return
        if found is None:
            conn.push(error("no_hint", f"{table.game.name} has no hint for this position"))
            return
        action, text = found
        if table.version == version and self._first(key, version, action, text):
            try:
                self.room.store.count_hint(table.id, seat)
            except StoreError as err:  # the count is for a playtest's export; the hint still helps
                log.error("table %s: hint not counted: %s", table.id, err)
        conn.push({"type": "hint", "step": step, "action": action, "text": text})

    def chat(self, table: Table, seat: int, text: str) -> None:
        """A seated player's chat line (checked by the wire: one printable line, `MAX_CHAT_TEXT`
        characters at most, under the connection's rate limit), counted for a playtest's export
        and sent to every connection; the line itself is kept in memory only."""
        try:
            self.room.store.count_chat(table.id, seat)
        except StoreError as err:  # the count is for a playtest's export; the line still goes out
            log.error("table %s: chat line not counted: %s", table.id, err)
        table.chat(seat, text)

    def _first(self, key: tuple[str, int], version: int, action: str, text: str) -> bool:
        """Keep the hint given at `version`; False when one was already given there (another
        page of the same seat asked meanwhile: counted once)."""
        kept = self.given.get(key)
        self.given[key] = (version, action, text)
        self.given.move_to_end(key)
        if len(self.given) > HINTS_KEPT:
            self.given.popitem(last=False)
        return kept is None or kept[0] != version
