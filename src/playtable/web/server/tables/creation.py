"""Making a table (with seat tokens): the admission of strangers' new tables, then its start,
made in the public worker, and its row in the store (docs/web.md, "Facing a network" and "Fair
use": each client network may create a few tables a minute and keep a few in play, tutorials
apart (`in_play.py`), and the server holds at most `Limits.tables`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from playtable.core.errors import PlaytableError
from playtable.core.protocol import Event, State
from playtable.core.registry import get_game
from playtable.web.server.bots.bots import JobFailed
from playtable.web.server.people.people import check_key, valid_key
from playtable.web.server.store.store import SeatRow, StoreError, TableRow
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.table_request import BadRequest, row_from_request
from playtable.web.server.tables.tables import Table

log = logging.getLogger("playtable.web")
CREATIONS_WAITING = 256
"""Jobs waiting for the public worker past which a new table is refused (503). Generous: a
waiting creation costs nothing but its place, each address may create only a few a minute,
and a burst of honest players (web_load.py opens 50 tables at once) must not be refused."""


class Creation:
    def __init__(self, room: Room) -> None:
        self.room = room

    def admit(self, table_id: str, client: str, person: str | None, tutorial: bool) -> None:
        """Refuse a new table when the server is full, this client's network makes them too
        fast, or it (or the person) keeps as many in play as it may (docs/web.md, "Fair use");
        else count `table_id` as in play (`create` gives its place back if it is not made)."""
        room = self.room
        if len(room.tables) - len(room.ended) >= room.limits.tables:
            raise BadRequest("the server holds as many tables as it may; try again later", 503)
        limits = room.limits
        room.per_network("tutorials" if tutorial else "tables", client, limits.creations_per_minute,
                         "too many new tables from your network; wait a minute")
        refusal = room.in_play.reserve(
            table_id, client, person, tutorial,
            limits.tutorials_per_network if tutorial else limits.tables_per_network,
            limits.tutorials_per_network if tutorial else limits.tables_per_person)
        if refusal is not None:
            raise BadRequest(refusal, 429)

    async def create(self, body: Any, client: str = "", rematch_of: Table | None = None,
                     carried: list[int | None] | None = None, tutorial: str | None = None,
                     present: Sequence[SeatRow] = ()) -> tuple[Table, list[str | None]]:
        """A new table from a request body; returns it and each seat's token (None for bots).
        `client`: the asking network; `tutorial`: the shipped tutorial whose table this is
        (budgeted apart, `TableRow.tutorial`);
        `present`: the old seats of the people who asked for this rematch.
        Seats marked `"mine"` are the body `key`'s player's. A rematch carries each seat's
        token and player over (`carried`: the old seat each new seat continues, None for an
        added bot; by default the old table's seat by seat)."""
        room = self.room
        row, tokens, mine = row_from_request(body, trusted=rematch_of is not None,
                                             table_id=room.owner.new_table_id())
        rated = body.get("rated")
        if rated is not None and not isinstance(rated, bool):
            raise BadRequest("'rated' must be true or false (default: true where ratings apply)")
        creator = room.people.known(body.get("key")) if mine else None
        if body.get("key") is not None and not mine:
            check_key(body.get("key"))
        person = room.people.find(body["key"]) if valid_key(body.get("key")) else None
        self.admit(row.id, client, person.id if person else None, tutorial is not None)
        row.tutorial = tutorial
        for seat in mine:
            assert creator is not None
            row.seats[seat].player, row.seats[seat].player_name = creator.id, creator.name
        if rematch_of is not None:
            row.rematch_of = rematch_of.id
            olds: list[SeatRow | None] = [rematch_of.row.seats[o] if o is not None else None
                                          for o in (carried if carried is not None
                                                    else range(len(rematch_of.row.seats)))]
            for new, old in zip(row.seats, olds, strict=True):
                if old is None:
                    continue
                # The same people sit down again: their tokens and names carry over, and a seat
                # someone sat at is kept for them (never offered to strangers in the Open list).
                # A seat whose person never arrived is offered afresh (seat_claims.py).
                if old.joined or any(old is asked for asked in present):
                    new.token_hash, new.player, new.player_name = old.token_hash, old.player, old.player_name
                    new.reserved = True
            tokens = [None] * len(tokens)
        try:
            table = await self.made(row)
        except BaseException:
            room.in_play.ended(row.id)  # nothing was made: its place in play is given back
            raise
        table.network = client  # whose fair share of the bots' time its bots use (bot_queue.py)
        try:
            room.ratings.choose(row.id, rated)
        except StoreError as err:  # the table is made; only its "not rated" choice is lost
            log.error("table %s: its rated choice not saved: %s", row.id, err)
        room.tables[row.id] = table
        room.schedule_bot(table)
        room.arm_timer(table)
        return table, tokens

    async def made(self, row: TableRow) -> Table:
        """The new table of `row`, its start made and the row stored; BadRequest if either
        cannot be done."""
        room = self.room
        # Generating a position can take seconds (Rotator's boards of a given difficulty are
        # solved), so it runs in the public worker, under its time limit, never in this process.
        if room.workers.public.waiting >= CREATIONS_WAITING:
            raise BadRequest("the server is busy making other tables; try again in a moment", 503)
        try:
            made = await room.workers.new_position(row.game, row.params, row.seed)
            if "error" in made:
                raise BadRequest(made["error"])
            start: State = get_game(row.game).state_from_json(made["position"])
            start.setup_events = [Event.from_json(e) for e in made["setup_events"]]
        except JobFailed as err:
            log.error("table %s not made: %s", row.id, err)
            raise BadRequest("the table's start could not be made in time; try other settings", 503) from None
        except PlaytableError as err:
            raise BadRequest(str(err)) from None
        table = Table(row, start)
        table.proposals.keep_in(room.proposals, row.id)
        try:
            room.store.create(row)
        except StoreError as err:
            log.error("table %s not created: %s", row.id, err)
            raise BadRequest("the server could not save the new table (its disk may be full); "
                             "nothing was created", 503) from None
        return table
