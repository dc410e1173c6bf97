"""All tables of one server: creating them (with seat tokens), restoring them from the store,
and everything a connection may ask of a table (act, undo, hint, sync, rematch).

The hub runs on the event loop. Each request is checked completely before anything changes;
an accepted action is written to the store (committed) before the table changes and before
any message goes out. Bots and hints run in worker processes (`bots.Workers`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from playtable.agents import available_agents, make_agent
from playtable.core.errors import BadParameter, PlaytableError
from playtable.core.params import params_from_dict, resolve_params
from playtable.core.protocol import Event, State, params_as_dict
from playtable.core.registry import game_ids, get_game
from playtable.web.server.bots import Workers
from playtable.web.server.seating import plan_seats, stand_in_agent
from playtable.web.server.store import SeatRow, TableRow, TableStore
from playtable.web.server.tables import Connection, Table, hash_token
from playtable.web.server.wire import ClientMessage, error

log = logging.getLogger("playtable.web")
MAX_LISTED = 100


class BadRequest(Exception):
    """A request that cannot be served; `status` is the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def _new_state(game_id: str, params_values: Mapping[str, Any], seed: int) -> State:
    game = get_game(game_id)
    state: State = game.new_state(params_from_dict(game.params_type, params_values), seed)
    return state


class Hub:
    def __init__(self, store: TableStore, workers: Workers) -> None:
        self.store = store
        self.workers = workers
        self.tables: dict[str, Table] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.timers: dict[str, asyncio.Task[None]] = {}
        """Each table's running turn timer (at most one: the seat to move)."""

    # -- tables -------------------------------------------------------------------------------
    def restore(self) -> None:
        """Rebuild every stored table by replaying its record (startup, before serving)."""
        for row in self.store.load_all():
            try:
                self.tables[row.id] = Table(row, _new_state(row.game, row.params, row.seed))
            except PlaytableError as err:
                log.error("table %s cannot be rebuilt from its record: %s", row.id, err)

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise BadRequest(f"there is no table '{table_id[:40]}'", 404)
        return table

    def listing(self, status: str | None) -> list[dict[str, Any]]:
        if status not in (None, "open", "running", "finished"):
            raise BadRequest("'status' must be open, running or finished")
        rows = sorted(self.tables.values(), key=lambda t: (t.row.created, t.id), reverse=True)
        return [t.summary() for t in rows if status is None or t.status == status][:MAX_LISTED]

    async def create(self, body: Any, rematch_of: Table | None = None,
                     carried: list[str | None] | None = None) -> tuple[Table, list[str | None]]:
        """A new table from a request body; returns it and each seat's token (None for bots).
        A rematch carries each seat's token over (`carried`: the token hash of each new seat,
        by default the old table's seat by seat)."""
        row, tokens = self._row_from_request(body)
        if rematch_of is not None:
            row.rematch_of = rematch_of.id
            hashes = carried if carried is not None else [s.token_hash for s in rematch_of.row.seats]
            for new, old_hash in zip(row.seats, hashes, strict=True):
                new.token_hash = old_hash
            tokens = [None] * len(tokens)
        # Generating a position can be slow (Rotator's boards of a given difficulty are solved).
        try:
            start = await asyncio.to_thread(_new_state, row.game, row.params, row.seed)
        except PlaytableError as err:
            raise BadRequest(str(err)) from None
        table = Table(row, start)
        self.store.create(row)
        self.tables[row.id] = table
        self.schedule_bot(table)
        self.arm_timer(table)
        return table, tokens

    def _row_from_request(self, body: Any) -> tuple[TableRow, list[str | None]]:
        if not isinstance(body, dict):
            raise BadRequest("the request body must be a JSON object")
        game_id = body.get("game")
        if game_id not in game_ids():
            raise BadRequest(f"unknown game {game_id!r} (known: {', '.join(game_ids())})")
        game = get_game(game_id)
        variant, values = body.get("variant"), body.get("params") or {}
        if variant is not None and not isinstance(variant, str):
            raise BadRequest("'variant' must be a variant name or null")
        if not isinstance(values, dict) or not all(isinstance(k, str) for k in values):
            raise BadRequest("'params' must be an object of parameter names to values")
        players = body.get("players")
        if players is not None:
            if "players" not in {f for f in params_as_dict(game.default_params())}:
                raise BadRequest(f"{game.name} has no choice of player count")
            values = {**values, "players": players}
        try:
            params = resolve_params(game.params_type, game.variants, variant or None)
            params = params_from_dict(game.params_type, values, params)
        except BadParameter as err:
            raise BadRequest(str(err)) from None
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise BadRequest("'seed' must be a whole number from 0 to 2^63-1, or null")
        names = game.seat_names(params)
        seats, tokens = self._seats(game, body.get("seats"), names)
        timer = body.get("turn_timer")
        if timer is not None:
            if isinstance(timer, bool) or not isinstance(timer, int | float) or not 1 <= timer <= 3600:
                raise BadRequest("'turn_timer' must be a number of seconds from 1 to 3600, or null (off)")
            for seat in seats:
                if seat.kind == "human":
                    seat.stand_in_after = float(timer)
        row = TableRow(secrets.token_urlsafe(6), game_id, variant or None, params_as_dict(params), seed,
                       seats, datetime.now(UTC).isoformat(timespec="milliseconds"))
        return row, tokens

    def _seats(self, game: Any, requested: Any, names: list[str]) -> tuple[list[SeatRow], list[str | None]]:
        if requested is None:
            requested = [{"kind": "human"} for _ in names]
        if not isinstance(requested, list) or len(requested) != len(names):
            raise BadRequest(f"'seats' must list {len(names)} seat(s) for these settings")
        seats: list[SeatRow] = []
        tokens: list[str | None] = []
        for name, seat in zip(names, requested, strict=True):
            if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot"):
                raise BadRequest('each seat must be {"kind": "human"} or {"kind": "bot", "agent": NAME}')
            if seat["kind"] == "human":
                token = secrets.token_urlsafe(18)
                seats.append(SeatRow("human", name, None, hash_token(token)))
                tokens.append(token)
                continue
            agent = seat.get("agent")
            if not isinstance(agent, str):
                raise BadRequest(f"a bot seat needs an 'agent' (known: {', '.join(available_agents(game))})")
            try:
                make_agent(game, agent)
            except PlaytableError as err:
                raise BadRequest(str(err)) from None
            seats.append(SeatRow("bot", name, agent))
            tokens.append(None)
        return seats, tokens

    async def rematch(self, table: Table, body: Any) -> tuple[Table, int | None]:
        """The table's rematch (made at the first request, the same one after) and the seat the
        asking player has there. With `"variant"` the rematch plays that named variant (the
        table menu's choice) with its own parameters, seats planned by `seating.plan_seats`."""
        if not isinstance(body, dict):
            raise BadRequest("the request body must be a JSON object with 'seat' and 'token'")
        seat, token = body.get("seat"), body.get("token")
        if not isinstance(seat, int) or not isinstance(token, str) or not table.token_ok(seat, token):
            raise BadRequest("only a seated player with its token can ask for a rematch", 403)
        variant = body.get("variant")
        if "variant" in body and (not isinstance(variant, str) or variant not in table.game.variants):
            known = ", ".join(sorted(table.game.variants)) or "none"
            raise BadRequest(f"'variant' must name one of {table.game.name}'s variants (known: {known})")
        if table.row.rematch is not None and table.row.rematch in self.tables:
            again = self.tables[table.row.rematch]
            mine = table.row.seats[seat].token_hash
            return again, next((i for i, s in enumerate(again.row.seats) if s.token_hash == mine), None)
        old = table.row.seats
        if variant is None:
            # The variant's name is kept for the lobby; the full parameters fix every value anyway.
            plan = plan_seats(len(old), len(old), seat)
            request: dict[str, Any] = {"game": table.row.game, "variant": table.row.variant,
                                       "params": table.row.params}
        else:
            params = resolve_params(table.game.params_type, table.game.variants, variant)
            plan = plan_seats(len(old), len(table.game.seat_names(params)), seat)
            request = {"game": table.row.game, "variant": variant, "params": {}}
        request["seats"] = [{"kind": "bot", "agent": stand_in_agent(table.game)} if o is None
                            else {"kind": old[o].kind, "agent": old[o].agent} for o in plan.new_from_old]
        request["turn_timer"] = table.turn_timer()
        carried = [None if o is None else old[o].token_hash for o in plan.new_from_old]
        new, _ = await self.create(request, rematch_of=table, carried=carried)
        table.row.rematch = new.id
        self.store.link_rematch(table.id, new.id)
        self.arm_timer(table)  # a table left unfinished has no turn timer any more
        message: dict[str, Any] = {"type": "rematch", "table_id": new.id}
        if variant is not None:
            message["seats"] = plan.old_to_new(len(old))
        table.broadcast(message)
        return new, plan.old_to_new(len(old))[seat]

    # -- connections --------------------------------------------------------------------------
    def connect(self, table: Table, seat_text: str | None,
                token: str | None) -> tuple[Connection, str | None]:
        """A connection for a seat (if the token is right) or a watcher; the second value is a
        refusal to report when a seat was asked for and not granted."""
        refusal = None
        seat: int | None = None
        if seat_text is not None:
            n = int(seat_text) if seat_text.isdigit() and len(seat_text) < 4 else -1
            if table.token_ok(n, token):
                seat = n
            else:
                refusal = "the seat token was refused (wrong token or seat): you are watching this table"
        conn = Connection(seat)
        table.connections.add(conn)
        if seat is not None and not table.row.seats[seat].joined:
            self.store.mark_joined(table.id, seat)
            table.row.seats[seat].joined = True
        return conn, refusal

    def greet(self, table: Table, conn: Connection) -> None:
        conn.push(table.welcome(conn.seat))
        conn.push(table.state_message(conn.seat, []))

    def disconnect(self, table: Table, conn: Connection) -> None:
        table.connections.discard(conn)
        conn.closed = True

    async def handle(self, table: Table, conn: Connection, msg: ClientMessage) -> None:
        if msg.type == "sync":
            self.greet(table, conn)
            return
        if msg.type == "chat" and conn.seat is not None:
            table.chat(conn.seat, msg.action or "")
            return
        if conn.seat is None:
            conn.push(error("forbidden", "you are watching this table; only a seated player with "
                                         "its token can act"))
            return
        if msg.step != table.step:
            conn.push(error("stale", f"the table is at step {table.step}, not {msg.step}"))
            conn.push(table.state_message(conn.seat, []))
            return
        if msg.type == "act":
            self.act(table, conn.seat, msg.action or "", conn)
        elif msg.type == "undo":
            self.undo(table, conn)
        elif msg.type == "hint":
            await self.hint(table, conn)

    def act(self, table: Table, seat: int, text: str, conn: Connection | None = None) -> bool:
        state = table.state
        if table.is_over or state.current_player != seat:
            why = ("the players moved to a new table" if table.left_unfinished
                   else "the game is over" if state.is_terminal else "it is not your turn")
            if conn:
                conn.push(error("illegal", f"'{text[:60]}' cannot be played: {why}"))
            return False
        try:
            canonical, after, events = table.try_action(text)
        except PlaytableError as err:
            if conn:
                conn.push(error("illegal", str(err)))
            return False
        self.store.append_action(table.id, table.step + 1, seat, canonical)
        table.commit(seat, canonical, after, events)
        motion = after.motion()
        if motion:
            # A live table (Star Dice): the motion is streamed first, then the new state goes
            # out, so every page animates the throw before it shows where the dice came to rest.
            task = asyncio.get_running_loop().create_task(self._stream(table, motion, events))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        else:
            self.after_change(table, events)
        return True

    async def _stream(self, table: Table, motion: list[dict[str, Any]],
                      events: list[Event]) -> None:
        """Send the motion's frames as `frame` messages at their own pace (real time), then the
        state. The table has already moved on in the store: a page joining meanwhile gets it."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        step = table.step
        for i, frame in enumerate(motion):
            wait = start + frame["t"] - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            table.stream_frame({"type": "frame", "step": step, "last": i == len(motion) - 1,
                                **frame})
        if table.step == step:
            self.after_change(table, events)

    def undo(self, table: Table, conn: Connection) -> None:
        if not table.can_undo(conn.seat):
            conn.push(error("no_undo", "the last action cannot be taken back (it was not yours, or "
                                       "it drew a card, rolled a die or revealed something)"))
            return
        self.store.drop_last_action(table.id, table.step)
        table.rebuild_without_last()
        self.after_change(table, [Event("undo", "The last action was taken back.")])

    async def hint(self, table: Table, conn: Connection) -> None:
        step = table.step
        if table.is_over or table.state.current_player != conn.seat:
            conn.push(error("no_hint", "a hint is for the player whose turn it is"))
            return
        found = await self.workers.hint(table.row.game, table.state.to_json())
        if found is None:
            conn.push(error("no_hint", f"{table.game.name} has no hint for this position"))
            return
        action, text = found
        conn.push({"type": "hint", "step": step, "action": action, "text": text})

    def after_change(self, table: Table, events: list[Event]) -> None:
        self.schedule_bot(table)
        self.arm_timer(table)
        table.broadcast_state(events)

    # -- the turn timer -------------------------------------------------------------------------
    def arm_timer(self, table: Table) -> None:
        """Start the turn timer of the person to move, if the table has one (off by default):
        when it runs out with the game still at this step, a bot plays that one turn for them."""
        old = self.timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        state = table.state
        if table.is_over or table.bot_to_move() is not None:
            return
        seat = state.current_player
        limit = table.row.seats[seat].stand_in_after
        if not limit:
            return
        task = asyncio.get_running_loop().create_task(self._stand_in(table, seat, table.step, limit))
        self.timers[table.id] = task

    async def _stand_in(self, table: Table, seat: int, step: int, limit: float) -> None:
        await asyncio.sleep(limit)
        if table.step != step or table.is_over or table.state.current_player != seat \
                or table.bot_busy:
            return
        self.timers.pop(table.id, None)
        table.bot_busy = True
        await self._bot_turn(table, seat, stand_in_agent(table.game))

    # -- bots ---------------------------------------------------------------------------------
    def schedule_bot(self, table: Table) -> None:
        seat = table.bot_to_move()
        if seat is None or table.bot_busy:
            return
        table.bot_busy = True
        task = asyncio.get_running_loop().create_task(self._bot_turn(table, seat))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _bot_turn(self, table: Table, seat: int, stand_in: str | None = None) -> None:
        """A bot seat's move, or (`stand_in`: the agent) one turn of a person whose timer ran out."""
        step = table.step
        spec = stand_in or table.row.seats[seat].agent or "random"
        try:
            text = await self.workers.bot_move(table.row.game, spec, table.state.to_json(),
                                               (table.row.seed * 1_000_003 + step) % 2**62)
        except Exception:  # a crashed worker must not take the table down; it is logged
            log.exception("bot %s on table %s failed", spec, table.id)
            table.bot_busy = False
            return
        table.bot_busy = False
        if table.step != step or (table.bot_to_move() if stand_in is None
                                  else table.state.current_player) != seat:
            self.schedule_bot(table)
            return
        if not self.act(table, seat, text):
            log.error("bot %s on table %s chose an illegal action %r", spec, table.id, text)
