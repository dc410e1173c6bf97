"""Who sits where (docs/web.md, "People"): a seat remembers the player who sat there (taken from
the Open list, chosen as "mine" by the creator, or named by the page's `hello` on arrival); a
player's key opens their seats without a token, and a seat's clock runs only once the seat's
person has arrived."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from playtable.web.server.people.people import valid_key
from playtable.web.server.store.store import PlayerRow, StoreError
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.table_request import BadRequest
from playtable.web.server.tables.tables import Connection, Table, hash_token
from playtable.web.server.transport.wire import error

log = logging.getLogger("playtable.web")


class Sitting:
    def __init__(self, room: Room) -> None:
        self.room = room

    def holds(self, table: Table, seat: int, proof: Mapping[str, Any]) -> bool:
        """Whether `proof` (a request body or a message: its `token`, or its player `key`)
        opens seat `seat` of `table`."""
        if not 0 <= seat < len(table.row.seats):
            return False
        token = proof.get("token")
        if isinstance(token, str) and table.token_ok(seat, token):
            return True
        key = proof.get("key")
        if not isinstance(key, str) or not valid_key(key):
            return False
        player = self.room.people.find(key)
        return player is not None and player.id == table.row.seats[seat].player

    def arrive(self, table: Table, seat: int, conn: Connection) -> None:
        """A seat's person is here (through `conn`, greeted next): the first time, the seat is
        marked joined (it leaves the Open list) and, if it is their turn, their clock starts
        now and the table's other connections are told (`clock`)."""
        if table.row.seats[seat].joined:
            return
        self.room.claims.arrived(table.id, seat)
        try:
            self.room.store.mark_joined(table.id, seat)
        except StoreError as err:  # the seat is still played; only the lobby's "open" lags
            log.error("table %s: seat %d joined but not saved: %s", table.id, seat, err)
        table.row.seats[seat].joined = True
        if table.clock is not None and table.clock.waiting == seat:
            self.room.arm_timer(table)
            message = {"type": "clock", "step": table.step, "clock": table.clock_message()}
            for other in list(table.connections):
                if other is not conn:
                    other.push(message)

    def hello(self, table: Table, conn: Connection, key: str, seat: int | None) -> None:
        """A page says whose it is (`{"type": "hello", "key", "seat"}`). A watcher asking for
        `seat` is seated there if that seat is this player's (their Join from "Yours" or "Your
        turn", no token in any URL); a seated connection whose seat has no player yet makes
        this player its player (someone opening a join link they were sent)."""
        player = self.room.people.find(key)
        if player is None:
            conn.push(error("unknown_player", "no player has this key: choose a name first"))
            return
        if conn.seat is None and seat is not None:
            if not (0 <= seat < len(table.row.seats) and table.row.seats[seat].player == player.id):
                conn.push(error("forbidden", "that seat is not yours: you are watching this table"))
                return
            conn.seat = seat
            self.arrive(table, seat, conn)
            self.room.greet(table, conn)
            return
        if conn.seat is not None and table.row.seats[conn.seat].player is None \
                and table.row.seats[conn.seat].kind == "human":
            try:
                self.seat_player(table, conn.seat, player)
            except StoreError as err:
                log.error("table %s: seat %d's player not saved: %s", table.id, conn.seat, err)
                conn.push(error("unavailable", "the server could not save your name on this seat"))

    def seat_player(self, table: Table, seat: int, player: PlayerRow,
                    token_hash: str | None = None) -> None:
        """Seat `player` at `seat` (stored first), and tell the table who sits there now."""
        self.room.store.seat_player(table.id, seat, player, token_hash)
        row = table.row.seats[seat]
        row.player, row.player_name = player.id, player.name
        if token_hash is not None:
            row.token_hash = token_hash
        table.broadcast(table.seats_message())

    async def take(self, table: Table, body: Any, client: str = "") -> tuple[int, str]:
        """`POST /api/tables/{id}/take`: the body key's player takes a free seat (`seat`, or the
        first free one) and gets a new token for it (the seat's first link, never used, stops
        working). Refused: a seat taken, joined or reserved (409; a reserved seat 403), a
        finished table, an unknown player (403), too many takes from one network (429)."""
        if not isinstance(body, dict) or set(body) - {"key", "seat"}:
            raise BadRequest("the request body must be a JSON object with 'key' and 'seat'")
        room = self.room
        player = room.people.known(body.get("key"))
        wanted = body.get("seat")
        seats = table.row.seats
        if wanted is not None and (not isinstance(wanted, int) or isinstance(wanted, bool)
                                   or not 0 <= wanted < len(seats)):
            raise BadRequest(f"'seat' must be a seat number from 0 to {len(seats) - 1}, or null")
        if table.is_over:
            raise BadRequest("this table is over; no seat can be taken", 409)
        if wanted is None:
            wanted = next((i for i, s in enumerate(seats) if s.free), None)
            if wanted is None:
                raise BadRequest("this table has no free seat", 409)
        seat = seats[wanted]
        title = table.game.seat_title(seat.name)  # the lobby shows this sentence under the row
        if seat.kind != "human":
            raise BadRequest(f"{title} is a bot's seat", 409)
        if seat.reserved and not seat.joined and seat.player is None:
            raise BadRequest(f"{title} is kept for someone invited: only its link opens it", 403)
        if not seat.free:
            raise BadRequest(f"{title} is taken", 409)
        rate = room.limits.takes_per_minute or room.limits.creations_per_minute
        room.per_network("seats", client, rate, "too many seats taken from your network; wait a minute")
        token = secrets.token_urlsafe(18)
        try:
            self.seat_player(table, wanted, player, hash_token(token))
        except StoreError as err:
            log.error("table %s: seat %d not taken: %s", table.id, wanted, err)
            raise BadRequest("the server could not save your seat (its disk may be full)", 503) from None
        room.claims.claim(table.id, wanted, datetime.now(UTC).timestamp() + room.limits.take_seconds)
        return wanted, token

    def seat_invited(self, table: Table, seat: int, player: PlayerRow) -> str:
        """Seat `player` at a reserved seat nobody holds yet (the server's own invitation: a
        playtest seats its next tester so); the seat's new token. Refused (409) if the table is
        over or the seat is not a free reserved person's seat."""
        row = table.row.seats[seat]
        if table.is_over or row.kind != "human" or not row.reserved or row.joined or row.player is not None:
            raise BadRequest(f"{row.name} can no longer be taken", 409)
        token = secrets.token_urlsafe(18)
        self.seat_player(table, seat, player, hash_token(token))
        return token
