"""A table's rematch: made at the first request (the same one after), and mid-game a proposal
until every other person who sat down asks for the same (`Table.propose`); with a `variant`,
the table menu's choice, its seats planned by `seating.plan_seats`."""

from __future__ import annotations

import logging
from typing import Any

from playtable.core.params import resolve_params
from playtable.web.server.store.leases import LeaseLost
from playtable.web.server.store.store import StoreError
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.seating import plan_seats, stand_in_agent
from playtable.web.server.tables.table_request import BadRequest
from playtable.web.server.tables.tables import Connection, Table
from playtable.web.server.transport.wire import error

log = logging.getLogger("playtable.web")


class Rematches:
    def __init__(self, room: Room) -> None:
        self.room = room

    async def rematch(self, table: Table, body: Any, client: str = "") -> tuple[Table | None, int | None]:
        """The table's rematch (made at the first request, the same one after) and the seat the
        asking player has there; (None, None) while it is a mid-game proposal others have not
        yet agreed to (`Table.propose`). With `"variant"` the rematch plays that named variant (the
        table menu's choice) with its own parameters, seats planned by `seating.plan_seats`."""
        room = self.room
        if not isinstance(body, dict):
            raise BadRequest("the request body must be a JSON object with 'seat' and 'token' (or 'key')")
        seat = body.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not room.holds(table, seat, body):
            raise BadRequest("only a seated player with its token (or player key) can ask for a rematch", 403)
        variant = body.get("variant")
        if "variant" in body and (not isinstance(variant, str) or variant not in table.game.variants):
            known = ", ".join(sorted(table.game.variants)) or "none"
            raise BadRequest(f"'variant' must name one of {table.game.name}'s variants (known: {known})")
        if table.row.rematch is not None:
            again = await room.fetch(table.row.rematch)
            mine = table.row.seats[seat].token_hash
            return again, next((i for i, s in enumerate(again.row.seats) if s.token_hash == mine), None)
        if not table.state.is_terminal:
            # One player may not end a game others are playing: mid-game, a new game is a
            # proposal until every other person who sat down asks for the same. Each one is
            # written and told to every page: a network's budget of them is as of new tables.
            room.per_network("proposals", client, room.limits.creations_per_minute,
                             "too many new games proposed from your network; wait a minute")
            try:
                missing = table.propose(seat, variant)
            except LeaseLost:  # let go here: asked again, the request reaches the table's node
                raise BadRequest("this table is now served by another server; nothing changed, "
                                 "try again", 503) from None
            except StoreError as err:
                log.error("table %s: a proposal not saved: %s", table.id, err)
                raise BadRequest("the server could not save your proposal (its disk may be full); "
                                 "try again", 503) from None
            if missing:
                return None, None
        # The one who asked first is seated first (a solitaire variant is theirs).
        asker = next((s for s, v in table.proposals.asked.items() if v == variant), seat)
        old = table.row.seats
        if variant is None:
            # The variant's name is kept for the lobby; the full parameters fix every value anyway.
            # The wizard game's vote may seat its most evil player as the wizard (votes.py).
            plan = room.votes.rematch_plan(table) or plan_seats(len(old), len(old), asker)
            request: dict[str, Any] = {"game": table.row.game, "variant": table.row.variant,
                                       "params": table.row.params}
        else:
            params = resolve_params(table.game.params_type, table.game.variants, variant)
            plan = plan_seats(len(old), len(table.game.seat_names(params)), asker)
            request = {"game": table.row.game, "variant": variant, "params": {}}
        request["seats"] = [{"kind": "bot", "agent": stand_in_agent(table.game)} if o is None
                            else {"kind": old[o].kind, "agent": old[o].agent} for o in plan.new_from_old]
        request["clock"] = table.clock.settings.to_json() if table.clock is not None else None
        request["rated"] = room.ratings.choice(table.id)
        new, _ = await room.create(request, client, rematch_of=table, carried=plan.new_from_old,
                                   present=[old[s] for s in {seat, *table.proposals.asked}])
        try:
            room.store.link_rematch(table.id, new.id)
        except StoreError as err:
            log.error("rematch %s of table %s not linked: %s", new.id, table.id, err)
            raise BadRequest("the server could not save the rematch (its disk may be full)", 503) from None
        table.row.rematch = new.id
        table.proposals.drop()  # decided: a restart does not ask again
        room.arm_timer(table)  # a table left unfinished stops its clocks
        if table.left_unfinished:
            room.mark_ended(table)
        message: dict[str, Any] = {"type": "rematch", "table_id": new.id}
        if variant is not None or plan.new_from_old != list(range(len(old))):
            message["seats"] = plan.old_to_new(len(old))
        table.broadcast(message)
        return new, plan.old_to_new(len(old))[seat]

    @staticmethod
    def keep_playing(table: Table, seat: int, conn: Connection) -> None:
        """Seat `seat` declines the open proposal, or its asker takes it back: everyone is told.
        Nothing happens with none open; a seat it does not ask is refused (`Proposals.asks`)."""
        if table.open_proposal() is None:
            return
        if not table.proposals.asks(seat):
            conn.push(error("not_asked", "this proposal does not wait for you: only its asker and "
                                         "the people it asks answer it"))
            return
        table.proposals.drop()
        table.broadcast({"type": "rematch_declined", "seat": seat, "name": table.label(seat)})
