"""The tables' WebSocket connections: admitted within the server's and each address's bounds
(counted by all processes with several, `address_rates.AddressSockets`), seated by token or
watching, greeted, synced within their sync limit, and let go."""

from __future__ import annotations

import asyncio

from playtable.web.server.tables.room import Room
from playtable.web.server.tables.table_request import parse_seat
from playtable.web.server.tables.tables import Connection, Table


class Connections:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.by_address: dict[str, int] = {}
        self.open = 0

    def connect(self, table: Table, seat_text: str | None, token: str | None,
                address: str = "") -> tuple[Connection | None, str | None]:
        """A connection for a seat (if the token is right) or a watcher; the second value is a
        refusal to report when a seat was asked for and not granted. No connection (None) when
        the server or this address has as many sockets open as it may."""
        room = self.room
        open_here = self.by_address.get(address, 0)
        too_many = None, "too many connections are open (from your address, or to this server)"
        per_address = room.limits.connections_per_address
        if open_here >= per_address or self.open >= room.limits.connections:
            return too_many
        shared = room.shared_sockets
        if shared is not None and shared.open(address, open_here, per_address) is False:
            return too_many
        refusal = None
        seat: int | None = None
        if seat_text is not None:
            n = parse_seat(seat_text)
            if n is not None and table.token_ok(n, token):
                seat = n
            else:
                refusal = "the seat token was refused (wrong token or seat): you are watching this table"
        conn = Connection(seat, room.rate)
        conn.address = address
        self.by_address[address] = open_here + 1
        self.open += 1
        table.connections.add(conn)
        if seat is not None:
            room.arrive(table, seat, conn)
        return conn, refusal

    def greet(self, table: Table, conn: Connection) -> None:
        conn.push(table.welcome(conn.seat))
        conn.push(table.state_message(conn.seat, []))
        self.room.votes.send(table, conn)

    def sync(self, table: Table, conn: Connection) -> None:
        """A fresh welcome and state. A welcome is the whole log (hundreds of kilobytes in a long
        game), so a connection gets one at most as often as its sync limit allows: a sync
        asked for sooner is answered when the limit allows, and any more asked meanwhile are
        answered by that same one (a page that missed a step always catches up)."""
        if conn.sync_pending:
            return
        wait = conn.sync_limit.wait()
        if wait <= 0:
            self.greet(table, conn)
            return
        conn.sync_pending = True

        def later() -> None:
            conn.sync_pending = False
            if not conn.closed:
                conn.sync_limit.wait()
                self.greet(table, conn)

        asyncio.get_running_loop().call_later(wait, later)

    def disconnect(self, table: Table, conn: Connection) -> None:
        if conn in table.connections:
            table.connections.discard(conn)
            self.open -= 1
            left = self.by_address.get(conn.address, 1) - 1
            if left > 0:
                self.by_address[conn.address] = left
            else:
                self.by_address.pop(conn.address, None)
            if self.room.shared_sockets is not None:
                self.room.shared_sockets.closed(conn.address, left)
        conn.closed = True
