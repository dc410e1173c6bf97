"""Players at this server's tables: a name for a player key (`POST /api/players`) that the seats
of their tables in play take, and the tables they sit at (`POST /api/players/me`: "Yours" and
"Your turn"), this process's answered here and, with several processes, the others' asked of
them."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from playtable.web.server.store.store import PlayerRow, StoreError, TableRow
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.table_request import BadRequest
from playtable.web.server.tables.tables import Table, row_summary

log = logging.getLogger("playtable.web")
MAX_PLAYER_TABLES = 100
"""Tables "Yours" lists: every one in play, then the ones that ended last."""


class Players:
    def __init__(self, room: Room) -> None:
        self.room = room

    def register(self, body: Any, client: str = "") -> tuple[PlayerRow, bool]:
        """`POST /api/players`: a name for a player key (a new player, or a new name); the seats
        of the player's tables in play take the new name."""
        if not isinstance(body, dict) or set(body) - {"key", "name"}:
            raise BadRequest("the request body must be a JSON object with 'name' and 'key'")
        room = self.room
        room.per_network("names", client, room.limits.players_per_minute,
                         "too many names from your network; wait a minute")
        player, new = room.people.register(body.get("key"), body.get("name"))
        if not new:
            self.rename_seats(player)
        return player, new

    def renamed(self, player_id: str, name: str) -> None:
        """Another process renamed a player: this one's cached row and the seats of its tables
        in play take the new name."""
        self.room.people.renamed(player_id, name)
        self.rename_seats(PlayerRow(player_id, name, None, ""))

    def rename_seats(self, player: PlayerRow) -> None:
        for table in self.tables_of(player):
            for i, seat in enumerate(table.row.seats):
                if seat.player == player.id and seat.player_name != player.name:
                    try:
                        self.room.seat_player(table, i, player)
                    except StoreError as err:
                        log.error("table %s: new name not saved: %s", table.id, err)

    def tables_of(self, player: PlayerRow) -> list[Table]:
        """The tables in play (in memory) where `player` sits."""
        return [t for t in self.room.tables.values()
                if t.id not in self.room.ended and any(s.player == player.id for s in t.row.seats)]

    def player_tables(self, body: Any) -> tuple[PlayerRow, list[tuple[TableRow, int]]]:
        """The player of a `POST /api/players/me` body's key and the stored rows of the tables
        they sit at (every one in play, rematches included, then the last ended)."""
        if not isinstance(body, dict) or set(body) - {"key"}:
            raise BadRequest("the request body must be a JSON object with 'key'")
        player = self.room.people.known(body.get("key"))
        return player, self.room.store.player_tables(player.id, MAX_PLAYER_TABLES)

    def mine(self, body: Any, elsewhere: Mapping[str, dict[str, Any]] | None = None,
             found: tuple[PlayerRow, list[tuple[TableRow, int]]] | None = None) -> dict[str, Any]:
        """`POST /api/players/me`: the player of the body's key and the tables they sit at,
        each with `your_seats` and `your_turn`; `your_turn` lists the tables where one of their
        seats must act now (never a tutorial: its bots wait for nobody; an ended tutorial is not
        listed). With several processes, `elsewhere` holds the other processes' entries
        (`entries`) of their tables in play, and `found` the `player_tables` read."""
        player, rows = found or self.player_tables(body)
        out = []
        for row, steps in rows:
            if row.tutorial and row.ended is not None:
                continue  # a guided game over (played out or left) is gone from "Yours"
            table = self.room.tables.get(row.id)
            entry = (elsewhere or {}).get(row.id) if table is None else None
            out.append(entry or self.entry(player.id, row, steps, table))
        return {"player": {"name": player.name, "created": player.created}, "tables": out,
                "your_turn": [t["id"] for t in out if t["your_turn"]]}

    def entries(self, player_id: str, table_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The `mine` entries of those of `table_ids` that this process holds (asked by another)."""
        return {t.id: self.entry(player_id, t.row, t.step, t)
                for t in (self.room.tables.get(i) for i in table_ids) if t is not None}

    def entry(self, player_id: str, row: TableRow, steps: int, table: Table | None) -> dict[str, Any]:
        summary = table.summary() if table is not None else row_summary(row, steps)
        seats = [i for i, s in enumerate((table.row if table else row).seats) if s.player == player_id]
        summary["your_seats"] = seats
        to_act = table.state.current_player if table is not None and not table.is_over else None
        out_of_time = table is not None and table.clock is not None and to_act in table.clock.out
        # Out of time: the stand-in's move. A tutorial waits for nobody: never "Your turn".
        summary["your_turn"] = to_act in seats and not out_of_time and not row.tutorial
        return summary
