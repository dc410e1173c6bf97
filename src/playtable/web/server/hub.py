"""All tables of one server, and everything a connection may ask of a table (act, undo, hint,
sync, rematch): the hub owns the shared state (`tables.room.Room`) and routes each request, and
each call between concerns, to the class of that concern, one a room of `web/server/`:

- making a table (`tables.creation`), its rematch (`tables.rematches`), playing a move
  (`tables.play`), undo and hints (`tables.assists`), its clocks (`tables.clock_watch`) and its
  end, abandoned ones included (`tables.ends`);
- who sits where (`people.sitting`) and the players' names and tables (`people.players`);
- bots' turns (`bots.bot_turns`) and the tables' connections (`transport.connections`).

The hub runs on the event loop. Each request is checked completely before anything changes;
an accepted action is written to the store (committed) before the table changes and before
any message goes out. Bots and hints run in worker processes (`bots.Workers`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from playtable.core.protocol import Event
from playtable.web.server.bots.bot_turns import BotTurns
from playtable.web.server.bots.bots import Workers
from playtable.web.server.people.players import Players
from playtable.web.server.people.sitting import Sitting
from playtable.web.server.store.rate_limits import RATE_PER_SECOND
from playtable.web.server.store.store import PlayerRow, SeatRow, TableStore
from playtable.web.server.tables.assists import Assists
from playtable.web.server.tables.clock_watch import ClockWatch
from playtable.web.server.tables.creation import Creation
from playtable.web.server.tables.ends import Ends
from playtable.web.server.tables.leasing import Leasing
from playtable.web.server.tables.play import Play
from playtable.web.server.tables.rematches import Rematches
from playtable.web.server.tables.room import Limits, Room
from playtable.web.server.tables.tables import Connection, Table
from playtable.web.server.transport.connections import Connections
from playtable.web.server.transport.nodes import Node
from playtable.web.server.transport.owners import Owner
from playtable.web.server.transport.wire import ClientMessage, error

Handler = Callable[[Table, Connection, ClientMessage], object]
"""What answers one type of client message (a coroutine's result is awaited)."""


def _seat(conn: Connection) -> int:
    """The seat of a connection `Hub.handle` found seated."""
    assert conn.seat is not None
    return conn.seat


def _set_pace(table: Table, conn: Connection, msg: ClientMessage) -> None:
    conn.pace = msg.pace or "normal"  # how fast this page wants throws shown, from the next throw on


class Hub(Room):
    def __init__(self, store: TableStore, workers: Workers, limits: Limits | None = None,
                 rate: float = RATE_PER_SECOND, owner: Owner | None = None,
                 node: Node | None = None) -> None:
        super().__init__(store, workers, limits, rate, owner, node)
        self.creation = Creation(self)
        self.rematches = Rematches(self)
        self.play = Play(self)
        self.assists = Assists(self)
        self.clock_watch = ClockWatch(self)
        self.ends = Ends(self)
        self.bot_turns = BotTurns(self)
        self.sitting = Sitting(self)
        self.players = Players(self)
        self.connections = Connections(self)
        self.leases = Leasing(self, self.clock_watch.keeper)
        """Which node serves each running table, with several on the store (`leasing.py`)."""
        self.for_anyone: dict[str, Handler] = {
            "sync": lambda table, conn, msg: self.connections.sync(table, conn),
            "hello": lambda table, conn, msg: self.sitting.hello(table, conn, msg.key or "", msg.seat),
            "vote": lambda table, conn, msg: self.votes.cast(table, conn, msg.seat),
            "pace": _set_pace,
        }
        """Messages any connection may send, watchers' too."""
        self.for_seated: dict[str, Handler] = {
            "chat": lambda table, conn, msg: self.assists.chat(table, _seat(conn), msg.action or ""),
            "keep_playing": lambda table, conn, msg: self.rematches.keep_playing(table, _seat(conn), conn),
        }
        """Messages only a seated connection may send."""
        self.at_step: dict[str, Handler] = {
            "act": lambda table, conn, msg: self.play.act(table, _seat(conn), msg.action or "", conn),
            "undo": lambda table, conn, msg: self.assists.undo(table, conn),
            "hint": lambda table, conn, msg: self.assists.hint(table, conn),
        }
        """Messages only a seated connection may send, about the table's current step."""

    def start(self) -> None:
        """Start every restored table's bots and clocks, the watch for abandoned tables, and
        with a node its leases' renewal and sweep."""
        for table in list(self.tables.values()):
            self.schedule_bot(table)
            self.arm_timer(table, restarted=True)
        self.spawn(self.ends.reap())
        self.leases.start()

    async def handle(self, table: Table, conn: Connection, msg: ClientMessage) -> None:
        handler = self.for_anyone.get(msg.type)
        if handler is None and conn.seat is None:
            conn.push(error("forbidden", "you are watching this table; only a seated player with "
                                         "its token can act"))
            return
        handler = handler or self.for_seated.get(msg.type)
        if handler is None and msg.step != table.step:
            conn.push(error("stale", f"the table is at step {table.step}, not {msg.step}"))
            conn.push(table.state_message(conn.seat, []))
            return
        handler = handler or self.at_step.get(msg.type)
        if handler is not None:
            answer = handler(table, conn, msg)
            if inspect.isawaitable(answer):
                await answer

    # -- the calls between concerns, each routed to its own ----------------------------------
    async def create(self, body: Any, client: str = "", rematch_of: Table | None = None,
                     carried: list[int | None] | None = None, tutorial: str | None = None,
                     present: Sequence[SeatRow] = ()) -> tuple[Table, list[str | None]]:
        return await self.creation.create(body, client, rematch_of, carried, tutorial, present)

    def act(self, table: Table, seat: int, text: str, conn: Connection | None = None,
            bot: str | None = None) -> bool:
        return self.play.act(table, seat, text, conn, bot)

    def after_change(self, table: Table, events: list[Event]) -> None:
        self.play.after_change(table, events)

    def mark_ended(self, table: Table, result: dict[str, Any] | None = None) -> None:
        self.ends.mark_ended(table, result)

    def arm_timer(self, table: Table, restarted: bool = False) -> None:
        self.clock_watch.arm(table, restarted)

    def schedule_bot(self, table: Table) -> None:
        self.bot_turns.schedule(table)

    async def bot_turn(self, table: Table, seat: int, stand_in: str | None = None) -> None:
        await self.bot_turns.turn(table, seat, stand_in)

    def holds(self, table: Table, seat: int, proof: Mapping[str, Any]) -> bool:
        return self.sitting.holds(table, seat, proof)

    def arrive(self, table: Table, seat: int, conn: Connection) -> None:
        self.sitting.arrive(table, seat, conn)

    def seat_player(self, table: Table, seat: int, player: PlayerRow,
                    token_hash: str | None = None) -> None:
        self.sitting.seat_player(table, seat, player, token_hash)

    def greet(self, table: Table, conn: Connection) -> None:
        self.connections.greet(table, conn)

    def restore_held(self) -> None:
        self.leases.restore()

    async def locate(self, table_id: str) -> str | None:
        return await self.leases.locate(table_id)
