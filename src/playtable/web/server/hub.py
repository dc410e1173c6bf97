"""All tables of one server: creating them (with seat tokens), restoring them from the store,
and everything a connection may ask of a table (act, undo, hint, sync, rematch).

The hub runs on the event loop. Each request is checked completely before anything changes;
an accepted action is written to the store (committed) before the table changes and before
any message goes out. Bots and hints run in worker processes (`bots.Workers`).

Facing strangers (docs/web.md, "Facing a network"): each client address may create a few tables
a minute, the server holds at most `Limits.tables` tables in play, a table nobody plays for
`Limits.idle_seconds` is ended as abandoned, and an ended table leaves memory (it is read back
from the store when someone asks for it), so neither memory nor a restart grows with history.
A bot that fails is tried again, then replaced for that move by the game's stand-in and then by
a random legal move, and the table is told: no table waits for ever on a bot.

People (issue 29, `people.py`): a seat remembers the player who sat there (taken from the Open
list, chosen as "mine" by the creator, or named by the page's `hello` on arrival); a player's key
opens their seats without a token, lists their tables ("Yours", "Your turn"), and a seat's
clock (`clocks.py`: real-time or come-back-later) runs only once the seat's person has arrived.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.errors import PlaytableError
from playtable.core.params import resolve_params
from playtable.core.protocol import Event, State
from playtable.core.registry import get_game
from playtable.web.server.address_rates import AddressRates, AddressSockets
from playtable.web.server.bot_queue import network_of, person_waiting
from playtable.web.server.bots import JobFailed, JobTimedOut, Workers, bot_seed
from playtable.web.server.clocks import FORFEIT, ClockKeeper, TableClock
from playtable.web.server.owners import Owner, owner_of
from playtable.web.server.people import People, check_key, valid_key
from playtable.web.server.ratings import Ratings
from playtable.web.server.seating import plan_seats, stand_in_agent
from playtable.web.server.store import PlayerRow, SeatRow, Snapshot, StoreError, TableRow, TableStore
from playtable.web.server.table_request import BadRequest, now, parse_seat, row_from_request
from playtable.web.server.tables import (
    SNAPSHOT_EVERY,
    Connection,
    Table,
    fresh_start,
    hash_token,
    paced_frames,
    row_summary,
)
from playtable.web.server.votes import SqliteVoteStore, Votes
from playtable.web.server.wire import RATE_PER_SECOND, ClientMessage, RateLimit, error

log = logging.getLogger("playtable.web")
MAX_LISTED = 100
MAX_PLAYER_TABLES = 100
"""Tables "Yours" lists: every one in play, then the ones that ended last."""
CREATIONS_WAITING = 256
"""Jobs waiting for the public worker past which a new table is refused (503). Generous: a
waiting creation costs nothing but its place, each address may create only a few a minute,
and a burst of honest players (web_load.py opens 50 tables at once) must not be refused."""
HINTS_WAITING = 8
"""Jobs of one network waiting for the bots' workers past which its hints are refused."""


class PlayedElsewhere(BadRequest):
    """A table in play in another of the server's processes (`serve --processes N`): only
    `owner`, that process, may read or change it (`playtests.py` asks it over the peers' line)."""

    def __init__(self, table_id: str, owner: int) -> None:
        super().__init__(f"table '{table_id}' is played in another server process", 409)
        self.owner = owner


@dataclass(frozen=True)
class Limits:
    """What strangers may make the server hold (`playtable serve` sets them)."""

    tables: int = 5000
    """Tables in play at once (not ended); past it new tables are refused (503)."""
    creations_per_minute: float = 20.0
    """Tables one client address may create a minute (bursts of as many)."""
    idle_seconds: float = 7 * 24 * 3600.0
    """A table with no move for this long is ended as abandoned."""
    ended_in_memory: int = 200
    """Ended tables kept in memory (the most recently used); others are read from the store."""
    connections: int = 5000
    """WebSockets open at once, over all tables."""
    connections_per_address: int = 100
    players_per_minute: float = 20.0
    """Names one client address may register or change a minute (bursts of as many)."""
    takes_per_minute: float | None = None
    """Open seats one client address may take a minute (None: as many as tables it may create)."""


def _rebuild(row: TableRow, snapshot: Snapshot | None = None) -> Table:
    """A stored table in memory: from its snapshot and the actions after it when it has one that
    can be read and replayed on (else, with a warning, from its whole record)."""
    if snapshot is not None:
        try:
            return Table(row, snapshot=snapshot)
        except PlaytableError as err:
            log.warning("table %s: its snapshot at step %d could not be used (%s); replaying its "
                        "whole record", row.id, snapshot.step, err)
    return Table(row, fresh_start(row))


class Hub:
    def __init__(self, store: TableStore, workers: Workers, limits: Limits | None = None,
                 rate: float = RATE_PER_SECOND, owner: Owner | None = None) -> None:
        self.store = store
        self.owner = owner or Owner()
        """Which tables are this process's (`owners.py`; all of them with one process)."""
        self.rate = rate
        """Messages a second each connection may send (its syncs are limited in proportion)."""
        self.workers = workers
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        """Every table in play, and the most recently used ended ones (`ended`)."""
        self.ended: OrderedDict[str, None] = OrderedDict()
        self.tasks: set[asyncio.Task[None]] = set()
        self.clocks = ClockKeeper(self._clock_ran_out, self._save_clock)
        """Each table's timer at its running clock's deadline (at most one: the seat to act)."""
        self.creations: dict[str, RateLimit] = {}
        self.takes: dict[str, RateLimit] = {}
        self.registrations: dict[str, RateLimit] = {}
        self.people = People(store)
        self.ratings = Ratings(store)
        self.votes = Votes(SqliteVoteStore(store.db))  # type: ignore[attr-defined]
        self.connections_by_address: dict[str, int] = {}
        self.open_connections = 0
        self._last_failure: dict[str, Exception] = {}
        self.shared_rates = AddressRates(store.db) if self.owner.count > 1 else None  # type: ignore[attr-defined]
        """Several processes count each address's tables, names and seats a minute together."""
        self.shared_sockets = None if self.owner.count == 1 else \
            AddressSockets(store.db, self.owner.index, self.owner.count)  # type: ignore[attr-defined]
        """...and the sockets each address holds open."""

    # -- tables -------------------------------------------------------------------------------
    def restore(self) -> None:
        """Rebuild every table still in play by replaying its record (startup, before serving).
        A table that cannot be rebuilt, or turns out to be over, is marked ended. With several
        processes each rebuilds only the tables it owns."""
        snapshots = self.store.running_snapshots()
        for row in self.store.load_running():
            if not self.owner.owns(row.id):
                continue
            try:
                table = _rebuild(row, snapshots.get(row.id))
            except PlaytableError as err:
                log.error("table %s cannot be rebuilt from its record: %s", row.id, err)
                self.store.mark_ended(row.id, now(), {"returns": None, "text": (
                    "This table could not be rebuilt after a restart: " + str(err)[:200])})
                continue
            self.tables[row.id] = table
            if table.is_over:
                self._mark_ended(table)

    def start(self) -> None:
        """Start every restored table's bots and clocks, and the watch for abandoned tables."""
        for table in list(self.tables.values()):
            self.schedule_bot(table)
            self.arm_timer(table, restarted=True)
        self._spawn(self._reap())

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def get(self, table_id: str) -> Table:
        """A table in memory (in play or recently ended); 404 otherwise (see `fetch`)."""
        table = self.tables.get(table_id)
        if table is None:
            raise BadRequest(f"there is no table '{table_id[:40]}'", 404)
        if table_id in self.ended:
            self.ended.move_to_end(table_id)
        return table

    async def fetch(self, table_id: str) -> Table:
        """Any table, an ended one read back from the store (rebuilt in a thread) if need be."""
        if table_id in self.tables:
            return self.get(table_id)
        if len(table_id) > 40:
            raise BadRequest(f"there is no table '{table_id[:40]}'", 404)
        row = self.store.load(table_id)
        if row is None:
            raise BadRequest(f"there is no table '{table_id[:40]}'", 404)
        if row.ended is None and not self.owner.owns(table_id):
            # In play in another process (a request the front routed elsewhere never gets here):
            # a copy here would go its own way.
            raise PlayedElsewhere(table_id, owner_of(table_id, self.owner.count))
        try:
            table = await asyncio.to_thread(_rebuild, row)
        except PlaytableError as err:
            raise BadRequest(f"table '{table_id}' cannot be rebuilt from its record: {err}", 500) from None
        if table_id not in self.tables:
            self.tables[table_id] = table
            self._remember_ended(table_id)
        return self.tables[table_id]

    def playing(self, status: str | None) -> list[dict[str, Any]]:
        """The summaries of this process's tables in play (of `status`), newest first."""
        if status not in (None, "open", "running", "finished"):
            raise BadRequest("'status' must be open, running or finished")
        playing = sorted((t for t in self.tables.values() if t.id not in self.ended),
                         key=lambda t: (t.row.created, t.id), reverse=True)
        return [t.summary() for t in playing if status is None or t.status == status][:MAX_LISTED]

    def listing(self, status: str | None,
                elsewhere: Sequence[list[dict[str, Any]]] = ()) -> list[dict[str, Any]]:
        """The lobby's list: the tables in play, newest first (this process's and, with several,
        `elsewhere`: each other process's `playing`), then the ones that ended last."""
        found = self.playing(status)
        if elsewhere:
            found = sorted([*found, *(s for part in elsewhere for s in part)],
                           key=lambda s: (s["created"], s["id"]), reverse=True)[:MAX_LISTED]
        if status in (None, "finished") and len(found) < MAX_LISTED:
            for row, steps in self.store.recent_ended(MAX_LISTED - len(found)):
                table = self.tables.get(row.id)
                found.append(table.summary() if table is not None else row_summary(row, steps))
        return found

    def _admit(self, client: str) -> None:
        """Refuse a new table when the server is full or this client makes them too fast."""
        if len(self.tables) - len(self.ended) >= self.limits.tables:
            raise BadRequest("the server holds as many tables as it may; try again later", 503)
        self._per_address("tables", self.creations, client, self.limits.creations_per_minute,
                     "too many new tables from your address; wait a minute")

    async def create(self, body: Any, client: str = "", rematch_of: Table | None = None,
                     carried: list[int | None] | None = None) -> tuple[Table, list[str | None]]:
        """A new table from a request body; returns it and each seat's token (None for bots).
        Seats marked `"mine"` are the body `key`'s player's. A rematch carries each seat's
        token and player over (`carried`: the old seat each new seat continues, None for an
        added bot; by default the old table's seat by seat)."""
        row, tokens, mine = row_from_request(body, trusted=rematch_of is not None,
                                             table_id=self.owner.new_table_id())
        rated = body.get("rated")
        if rated is not None and not isinstance(rated, bool):
            raise BadRequest("'rated' must be true or false (default: true where ratings apply)")
        creator = self.people.known(body.get("key")) if mine else None
        if body.get("key") is not None and not mine:
            check_key(body.get("key"))
        self._admit(client)
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
                new.token_hash, new.player, new.player_name = old.token_hash, old.player, old.player_name
                new.reserved = old.reserved or old.joined or old.player is not None
            tokens = [None] * len(tokens)
        # Generating a position can take seconds (Rotator's boards of a given difficulty are
        # solved), so it runs in the public worker, under its time limit, never in this process.
        if self.workers.public.waiting >= CREATIONS_WAITING:
            raise BadRequest("the server is busy making other tables; try again in a moment", 503)
        try:
            made = await self.workers.new_position(row.game, row.params, row.seed)
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
        table.network = network_of(client)
        try:
            self.store.create(row)
        except StoreError as err:
            log.error("table %s not created: %s", row.id, err)
            raise BadRequest("the server could not save the new table (its disk may be full); "
                             "nothing was created", 503) from None
        try:
            self.ratings.choose(row.id, rated)
        except StoreError as err:  # the table is made; only its "not rated" choice is lost
            log.error("table %s: its rated choice not saved: %s", row.id, err)
        self.tables[row.id] = table
        self.schedule_bot(table)
        self.arm_timer(table)
        return table, tokens

    async def rematch(self, table: Table, body: Any, client: str = "") -> tuple[Table | None, int | None]:
        """The table's rematch (made at the first request, the same one after) and the seat the
        asking player has there; (None, None) while it is a mid-game proposal others have not
        yet agreed to (`Table.propose`). With `"variant"` the rematch plays that named variant (the
        table menu's choice) with its own parameters, seats planned by `seating.plan_seats`."""
        if not isinstance(body, dict):
            raise BadRequest("the request body must be a JSON object with 'seat' and 'token' (or 'key')")
        seat = body.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not self.holds(table, seat, body):
            raise BadRequest("only a seated player with its token (or player key) can ask for a rematch", 403)
        variant = body.get("variant")
        if "variant" in body and (not isinstance(variant, str) or variant not in table.game.variants):
            known = ", ".join(sorted(table.game.variants)) or "none"
            raise BadRequest(f"'variant' must name one of {table.game.name}'s variants (known: {known})")
        if table.row.rematch is not None:
            again = await self.fetch(table.row.rematch)
            mine = table.row.seats[seat].token_hash
            return again, next((i for i, s in enumerate(again.row.seats) if s.token_hash == mine), None)
        if not table.state.is_terminal:
            # One player may not end a game others are playing (issue 27, class 5): mid-game, a
            # new game is a proposal until every other person who sat down asks for the same.
            missing = table.propose(seat, variant)
            if missing:
                return None, None
        # The one who asked first is seated first (a solitaire variant is theirs).
        asker = next((s for s, v in table.proposals.items() if v == variant), seat)
        old = table.row.seats
        if variant is None:
            # The variant's name is kept for the lobby; the full parameters fix every value anyway.
            # The wizard game's vote may seat its most evil player as the wizard (votes.py).
            plan = self.votes.rematch_plan(table) or plan_seats(len(old), len(old), asker)
            request: dict[str, Any] = {"game": table.row.game, "variant": table.row.variant,
                                       "params": table.row.params}
        else:
            params = resolve_params(table.game.params_type, table.game.variants, variant)
            plan = plan_seats(len(old), len(table.game.seat_names(params)), asker)
            request = {"game": table.row.game, "variant": variant, "params": {}}
        request["seats"] = [{"kind": "bot", "agent": stand_in_agent(table.game)} if o is None
                            else {"kind": old[o].kind, "agent": old[o].agent} for o in plan.new_from_old]
        request["clock"] = table.clock.settings.to_json() if table.clock is not None else None
        request["rated"] = self.ratings.choice(table.id)
        new, _ = await self.create(request, client, rematch_of=table, carried=plan.new_from_old)
        try:
            self.store.link_rematch(table.id, new.id)
        except StoreError as err:
            log.error("rematch %s of table %s not linked: %s", new.id, table.id, err)
            raise BadRequest("the server could not save the rematch (its disk may be full)", 503) from None
        table.row.rematch = new.id
        self.arm_timer(table)  # a table left unfinished stops its clocks
        if table.left_unfinished:
            self._mark_ended(table)
        message: dict[str, Any] = {"type": "rematch", "table_id": new.id}
        if variant is not None or plan.new_from_old != list(range(len(old))):
            message["seats"] = plan.old_to_new(len(old))
        table.broadcast(message)
        return new, plan.old_to_new(len(old))[seat]

    # -- connections --------------------------------------------------------------------------
    def connect(self, table: Table, seat_text: str | None, token: str | None,
                address: str = "") -> tuple[Connection | None, str | None]:
        """A connection for a seat (if the token is right) or a watcher; the second value is a
        refusal to report when a seat was asked for and not granted. No connection (None) when
        the server or this address has as many sockets open as it may."""
        open_here = self.connections_by_address.get(address, 0)
        too_many = None, "too many connections are open (from your address, or to this server)"
        per_address = self.limits.connections_per_address
        if open_here >= per_address or self.open_connections >= self.limits.connections:
            return too_many
        shared = self.shared_sockets
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
        conn = Connection(seat, self.rate)
        conn.address = address
        self.connections_by_address[address] = open_here + 1
        self.open_connections += 1
        table.connections.add(conn)
        if seat is not None:
            self._arrive(table, seat, conn)
        return conn, refusal

    def _arrive(self, table: Table, seat: int, conn: Connection) -> None:
        """A seat's person is here (through `conn`, greeted next): the first time, the seat is
        marked joined (it leaves the Open list) and, if it is their turn, their clock starts
        now and the table's other connections are told (`clock`)."""
        if table.row.seats[seat].joined:
            return
        try:
            self.store.mark_joined(table.id, seat)
        except StoreError as err:  # the seat is still played; only the lobby's "open" lags
            log.error("table %s: seat %d joined but not saved: %s", table.id, seat, err)
        table.row.seats[seat].joined = True
        if table.clock is not None and table.clock.waiting == seat:
            self.arm_timer(table)
            message = {"type": "clock", "step": table.step, "clock": table.clock_message()}
            for other in list(table.connections):
                if other is not conn:
                    other.push(message)

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
        player = self.people.find(key)
        return player is not None and player.id == table.row.seats[seat].player

    def hello(self, table: Table, conn: Connection, key: str, seat: int | None) -> None:
        """A page says whose it is (`{"type": "hello", "key", "seat"}`). A watcher asking for
        `seat` is seated there if that seat is this player's (their Join from "Yours" or "Your
        turn", no token in any URL); a seated connection whose seat has no player yet makes
        this player its player (someone opening a join link they were sent)."""
        player = self.people.find(key)
        if player is None:
            conn.push(error("unknown_player", "no player has this key: choose a name first"))
            return
        if conn.seat is None and seat is not None:
            if not (0 <= seat < len(table.row.seats) and table.row.seats[seat].player == player.id):
                conn.push(error("forbidden", "that seat is not yours: you are watching this table"))
                return
            conn.seat = seat
            self._arrive(table, seat, conn)
            self.greet(table, conn)
            return
        if conn.seat is not None and table.row.seats[conn.seat].player is None \
                and table.row.seats[conn.seat].kind == "human":
            try:
                self._seat_player(table, conn.seat, player)
            except StoreError as err:
                log.error("table %s: seat %d's player not saved: %s", table.id, conn.seat, err)
                conn.push(error("unavailable", "the server could not save your name on this seat"))

    def _seat_player(self, table: Table, seat: int, player: PlayerRow,
                     token_hash: str | None = None) -> None:
        """Seat `player` at `seat` (stored first), and tell the table who sits there now."""
        self.store.seat_player(table.id, seat, player, token_hash)
        row = table.row.seats[seat]
        row.player, row.player_name = player.id, player.name
        if token_hash is not None:
            row.token_hash = token_hash
        table.broadcast(table.seats_message())

    # -- people -----------------------------------------------------------------------------------
    def register(self, body: Any, client: str = "") -> tuple[PlayerRow, bool]:
        """`POST /api/players`: a name for a player key (a new player, or a new name); the seats
        of the player's tables in play take the new name."""
        if not isinstance(body, dict) or set(body) - {"key", "name"}:
            raise BadRequest("the request body must be a JSON object with 'name' and 'key'")
        self._per_address("names", self.registrations, client, self.limits.players_per_minute,
                     "too many names from your address; wait a minute")
        player, new = self.people.register(body.get("key"), body.get("name"))
        if not new:
            self._rename_seats(player)
        return player, new

    def renamed(self, player_id: str, name: str) -> None:
        """Another process renamed a player: this one's cached row and the seats of its tables
        in play take the new name."""
        self.people.renamed(player_id, name)
        self._rename_seats(PlayerRow(player_id, name, None, ""))

    def _rename_seats(self, player: PlayerRow) -> None:
        for table in self._tables_of(player):
            for i, seat in enumerate(table.row.seats):
                if seat.player == player.id and seat.player_name != player.name:
                    try:
                        self._seat_player(table, i, player)
                    except StoreError as err:
                        log.error("table %s: new name not saved: %s", table.id, err)

    def _tables_of(self, player: PlayerRow) -> list[Table]:
        """The tables in play (in memory) where `player` sits."""
        return [t for t in self.tables.values()
                if t.id not in self.ended and any(s.player == player.id for s in t.row.seats)]

    def player_tables(self, body: Any) -> tuple[PlayerRow, list[tuple[TableRow, int]]]:
        """The player of a `POST /api/players/me` body's key and the stored rows of the tables
        they sit at (every one in play, rematches included, then the last ended)."""
        if not isinstance(body, dict) or set(body) - {"key"}:
            raise BadRequest("the request body must be a JSON object with 'key'")
        player = self.people.known(body.get("key"))
        return player, self.store.player_tables(player.id, MAX_PLAYER_TABLES)

    def mine(self, body: Any, elsewhere: Mapping[str, dict[str, Any]] | None = None,
             found: tuple[PlayerRow, list[tuple[TableRow, int]]] | None = None) -> dict[str, Any]:
        """`POST /api/players/me`: the player of the body's key and the tables they sit at,
        each with `your_seats` and `your_turn`; `your_turn` lists the tables where one of their
        seats must act now. With several processes, `elsewhere` holds the other processes'
        entries (`entries`) of their tables in play, and `found` the `player_tables` read."""
        player, rows = found or self.player_tables(body)
        out = []
        for row, steps in rows:
            table = self.tables.get(row.id)
            entry = (elsewhere or {}).get(row.id) if table is None else None
            out.append(entry or self._entry(player.id, row, steps, table))
        return {"player": {"name": player.name, "created": player.created}, "tables": out,
                "your_turn": [t["id"] for t in out if t["your_turn"]]}

    def entries(self, player_id: str, table_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The `mine` entries of those of `table_ids` that this process holds (asked by another)."""
        return {t.id: self._entry(player_id, t.row, t.step, t)
                for t in (self.tables.get(i) for i in table_ids) if t is not None}

    def _entry(self, player_id: str, row: TableRow, steps: int, table: Table | None) -> dict[str, Any]:
        summary = table.summary() if table is not None else row_summary(row, steps)
        seats = [i for i, s in enumerate((table.row if table else row).seats) if s.player == player_id]
        summary["your_seats"] = seats
        to_act = table.state.current_player if table is not None and not table.is_over else None
        out_of_time = table is not None and table.clock is not None and to_act in table.clock.out
        summary["your_turn"] = to_act in seats and not out_of_time  # out of time: the stand-in's
        return summary

    async def take(self, table: Table, body: Any, client: str = "") -> tuple[int, str]:
        """`POST /api/tables/{id}/take`: the body key's player takes a free seat (`seat`, or the
        first free one) and gets a new token for it (the seat's first link, never used, stops
        working). Refused: a seat taken, joined or reserved (409; a reserved seat 403), a
        finished table, an unknown player (403), too many takes from one address (429)."""
        if not isinstance(body, dict) or set(body) - {"key", "seat"}:
            raise BadRequest("the request body must be a JSON object with 'key' and 'seat'")
        player = self.people.known(body.get("key"))
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
        if seat.kind != "human":
            raise BadRequest(f"{seat.name} is a bot's seat", 409)
        if seat.reserved and not seat.joined and seat.player is None:
            raise BadRequest(f"{seat.name} is kept for someone invited: only its link opens it", 403)
        if not seat.free:
            raise BadRequest(f"{seat.name} is taken", 409)
        rate = self.limits.takes_per_minute or self.limits.creations_per_minute
        self._per_address("seats", self.takes, client, rate,
                          "too many seats taken from your address; wait a minute")
        token = secrets.token_urlsafe(18)
        try:
            self._seat_player(table, wanted, player, hash_token(token))
        except StoreError as err:
            log.error("table %s: seat %d not taken: %s", table.id, wanted, err)
            raise BadRequest("the server could not save your seat (its disk may be full)", 503) from None
        return wanted, token

    def seat_invited(self, table: Table, seat: int, player: PlayerRow) -> str:
        """Seat `player` at a reserved seat nobody holds yet (the server's own invitation: a
        playtest seats its next tester so); the seat's new token. Refused (409) if the table is
        over or the seat is not a free reserved person's seat."""
        row = table.row.seats[seat]
        if table.is_over or row.kind != "human" or not row.reserved or row.joined or row.player is not None:
            raise BadRequest(f"{row.name} can no longer be taken", 409)
        token = secrets.token_urlsafe(18)
        self._seat_player(table, seat, player, hash_token(token))
        return token

    def greet(self, table: Table, conn: Connection) -> None:
        conn.push(table.welcome(conn.seat))
        conn.push(table.state_message(conn.seat, []))
        self.votes.send(table, conn)

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
            self.open_connections -= 1
            left = self.connections_by_address.get(conn.address, 1) - 1
            if left > 0:
                self.connections_by_address[conn.address] = left
            else:
                self.connections_by_address.pop(conn.address, None)
            if self.shared_sockets is not None:
                self.shared_sockets.closed(conn.address, left)
        conn.closed = True

    async def handle(self, table: Table, conn: Connection, msg: ClientMessage) -> None:
        if msg.type == "sync":
            self.sync(table, conn)
            return
        if msg.type == "hello":
            self.hello(table, conn, msg.key or "", msg.seat)
            return
        if msg.type == "chat" and conn.seat is not None:
            table.chat(conn.seat, msg.action or "")
            return
        if msg.type == "vote":
            self.votes.cast(table, conn, msg.seat)
            return
        if msg.type == "pace":  # how fast this page wants throws shown, from the next throw on
            conn.pace = msg.pace or "normal"
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
            await self.undo(table, conn)
        elif msg.type == "hint":
            await self.hint(table, conn)

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
            self.store.append_action(table.id, table.step + 1, seat, canonical, stand_in)
        except StoreError as err:
            log.error("table %s: action not saved: %s", table.id, err)
            if conn:
                conn.push(error("unavailable", "the server could not save your move (its disk may be "
                                               "full); nothing changed, try again later"))
            return False
        table.commit(seat, canonical, after, events, stand_in)
        if table.step % SNAPSHOT_EVERY == 0 and not table.is_over:
            self._save_snapshot(table)
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

    def _save_snapshot(self, table: Table) -> None:
        """Store the table's snapshot; if that fails, the record is still whole (a restart
        replays more of it), so play goes on."""
        snapshot = table.snapshot()
        if snapshot is None:
            return
        try:
            self.store.save_snapshot(table.id, snapshot)
        except StoreError as err:
            log.error("table %s: its snapshot not saved: %s", table.id, err)

    async def _stream(self, table: Table, motion: list[dict[str, Any]],
                      events: list[Event]) -> None:
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
            self.store.drop_last_action(table.id, step)
        except StoreError as err:
            log.error("table %s: undo not saved: %s", table.id, err)
            conn.push(error("unavailable", "the server could not save the undo; nothing changed"))
            return
        table.adopt(rebuilt)
        self.after_change(table, [Event("undo", "The last action was taken back.")])

    async def hint(self, table: Table, conn: Connection) -> None:
        step = table.step
        if table.is_over or table.state.current_player != conn.seat:
            conn.push(error("no_hint", "a hint is for the player whose turn it is"))
            return
        network = network_of(conn.address)
        if self.workers.bots.waiting_from(network) >= HINTS_WAITING:
            conn.push(error("no_hint", "the server is busy; ask for a hint again in a moment"))
            return
        try:
            found = await self.workers.hint(table.row.game, table.state.to_json(), network)
        except JobFailed as err:
            log.error("hint on table %s failed: %s", table.id, err)
            conn.push(error("no_hint", "the hint could not be worked out in time"))
            return
        if found is None:
            conn.push(error("no_hint", f"{table.game.name} has no hint for this position"))
            return
        action, text = found
        conn.push({"type": "hint", "step": step, "action": action, "text": text})

    def after_change(self, table: Table, events: list[Event]) -> None:
        self.schedule_bot(table)
        self.arm_timer(table)
        table.broadcast_state(events)
        if table.is_over:
            self.votes.send(table)
            self._mark_ended(table)

    # -- the end of tables ----------------------------------------------------------------------
    def _mark_ended(self, table: Table, result: dict[str, Any] | None = None) -> None:
        """Record that the table is over (so no restart rebuilds it) and let it leave memory."""
        if table.row.ended is not None:
            return
        self.arm_timer(table)  # every clock stops
        table.row.ended = now()
        table.row.result = result or table.result()
        self.ratings.settle(table)  # before the end is stored: a crash between them rates it at the restart
        try:
            self.store.mark_ended(table.id, table.row.ended, table.row.result)
        except StoreError as err:  # it is rebuilt at the next start and marked then
            log.error("table %s: its end not saved: %s", table.id, err)
        self._remember_ended(table.id)

    def _remember_ended(self, table_id: str) -> None:
        self.ended[table_id] = None
        self.ended.move_to_end(table_id)
        while len(self.ended) > self.limits.ended_in_memory:
            oldest = next(iter(self.ended))
            del self.ended[oldest]
            gone = self.tables.get(oldest)
            if gone is not None and not gone.connections:
                del self.tables[oldest]
            elif gone is not None:  # still watched: kept until its watchers leave
                self.ended[oldest] = None
                break

    async def _reap(self) -> None:
        """End the tables nobody has played for `idle_seconds`, checking every minute."""
        while True:
            await asyncio.sleep(min(60.0, self.limits.idle_seconds / 4))
            self.reap_idle(datetime.now(UTC))

    def reap_idle(self, at: datetime) -> list[str]:
        """End every table in play idle since before `at - idle_seconds`; their ids. A table
        whose clock runs is not idle: its deadline (up to 14 days a move, longer than the idle
        limit) decides what happens (clocks.py)."""
        cutoff = (at - timedelta(seconds=self.limits.idle_seconds)).timestamp()
        reaped = []
        for table in list(self.tables.values()):
            timed = table.clock is not None and table.clock.running is not None
            if table.row.ended is None and not table.is_over and table.last_activity < cutoff \
                    and not timed:
                table.abandoned = True
                table.broadcast_state([Event("abandoned", "Nobody played this table for too long: "
                                                          "it has been ended.")])
                self._mark_ended(table)
                reaped.append(table.id)
        return reaped

    # -- the clocks (clocks.py) ------------------------------------------------------------------
    def arm_timer(self, table: Table, restarted: bool = False) -> None:
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
        self.clocks.arm(table.id, clock, seat, table.step, arrived, restarted)

    def _save_clock(self, table_id: str, clock: TableClock) -> None:
        data = clock.to_json()
        table = self.tables.get(table_id)
        if table is not None:
            table.row.clock = data
        try:
            self.store.save_clock(table_id, data)
        except StoreError as err:  # the clock runs on; a restart finds it as it was last saved
            log.error("table %s: its clocks not saved: %s", table_id, err)

    def _clock_ran_out(self, table_id: str, seat: int, step: int, first: bool) -> None:
        """`seat`'s clock ran out at `step` (`first`: just now; else a real-time seat already out
        of time whose move came round again): the table does what it was set to do, the seat
        forfeits or the game's stand-in bot plays (the log names the bot, never the person)."""
        table = self.tables.get(table_id)
        if table is None or table.clock is None or table.step != step or table.is_over \
                or table.state.current_player != seat or table.bot_busy:
            return
        who = table.label(seat)
        if table.clock.settings.timeout == FORFEIT:
            table.forfeited = seat
            self._notice(table, f"{who}'s clock ran out: {who} forfeits the game.")
            self.after_change(table, [])  # stops the clocks, tells everyone, ends the table
            return
        agent = stand_in_agent(table.game)
        if first:
            moves = "this move" if table.clock.per_move else "every later move"
            self._notice(table, f"{who}'s clock ran out: the {agent} bot plays {moves} for them.")
        table.bot_busy = True
        self._spawn(self._bot_turn(table, seat, agent))

    # -- bots ---------------------------------------------------------------------------------
    def schedule_bot(self, table: Table) -> None:
        seat = table.bot_to_move()
        if seat is None or table.bot_busy:
            return
        table.bot_busy = True
        self._spawn(self._bot_turn(table, seat))

    async def _bot_turn(self, table: Table, seat: int, stand_in: str | None = None) -> None:
        """A bot seat's move, or (`stand_in`: the agent) a move of a person whose clock ran out.

        A bot that fails (raises, runs past its time, its worker dies, or it chooses an illegal
        action) is tried once more, then the game's stand-in bot plays that move, then a random
        legal move chosen here; the table is told each time, so it never waits silently."""
        step = table.step
        spec = stand_in or table.row.seats[seat].agent or "random"
        seed = bot_seed(table.row.seed, step)
        fallback = stand_in_agent(table.game)
        tries = [spec, spec] + ([fallback] if fallback != spec else [])
        played = False
        try:
            for attempt, agent in enumerate(tries):
                if table.step != step or table.is_over:
                    break
                if attempt == 1 and isinstance(self._last_failure.get(table.id), JobTimedOut):
                    continue  # a bot out of time would only run out of time again
                text = await self._ask_bot(table, agent, seed + attempt)
                if text is None or table.step != step or table.is_over:
                    continue
                if table.state.current_player != seat:
                    break
                table.bot_busy = False  # so the move's own after_change may start the next bot
                if self.act(table, seat, text, bot=agent):
                    played = True
                    if agent != spec:
                        self._notice(table, f"The {spec} bot of {table.label(seat)} failed; "
                                            f"the {agent} bot played this move instead.")
                    break
                table.bot_busy = True
                log.error("bot %s on table %s chose an illegal action %r", agent, table.id, text)
            if not played and table.step == step and not table.is_over \
                    and table.state.current_player == seat:
                played = self._random_move(table, seat, spec, seed)
        finally:
            self._last_failure.pop(table.id, None)
            if not played:
                table.bot_busy = False
        if not played:  # the move's own after_change (or its stream's end) starts the next bot
            self.schedule_bot(table)

    async def _ask_bot(self, table: Table, agent: str, seed: int) -> str | None:
        try:
            return await self.workers.bot_move(table.row.game, agent, table.state.to_json(), seed,
                                               table.network, table.id, lambda: person_waiting(table))
        except JobFailed as err:
            self._last_failure[table.id] = err
            log.error("bot %s on table %s failed: %s", agent, table.id, err)
        except PlaytableError as err:  # the position could not be sent (a game's bug)
            log.error("bot %s on table %s: the position cannot be saved: %s", agent, table.id, err)
        return None

    def _random_move(self, table: Table, seat: int, spec: str, seed: int) -> bool:
        """The last resort: a random legal move, chosen here (cheap: no search); whether it
        was played."""
        try:
            text = str(make_agent(table.game, "random").choose(table.state.clone(), Chance(seed)))
        except PlaytableError as err:
            log.error("table %s: not even a random move could be chosen: %s", table.id, err)
            self._notice(table, f"The {spec} bot of {table.label(seat)} cannot move; the "
                                "table has been ended.")
            table.abandoned = True
            table.broadcast_state([])
            self._mark_ended(table)
            return False
        table.bot_busy = False
        if self.act(table, seat, text, bot="random"):
            self._notice(table, f"The {spec} bot of {table.label(seat)} failed; a random "
                                "legal move was played instead.")
            return True
        table.bot_busy = True
        return False

    def _per_address(self, kind: str, buckets: dict[str, RateLimit], client: str, per_minute: float,
                     refusal: str) -> None:
        """`_per_address` below, counted for the whole server when it has several processes."""
        shared = None if self.shared_rates is None else self.shared_rates.allow(kind, client, per_minute)
        if shared is False:
            raise BadRequest(refusal, 429)
        if shared is None:
            _per_address(buckets, client, per_minute, refusal)

    def _notice(self, table: Table, text: str) -> None:
        """Tell every connection of the table something went wrong and what was done about it."""
        log.warning("table %s: %s", table.id, text)
        table.notice(text)


def _per_address(buckets: dict[str, RateLimit], client: str, per_minute: float, refusal: str) -> None:
    """Allow one more of something a client address may do `per_minute` times a minute (bursts
    of as many), or refuse it (429) with `refusal`."""
    bucket = buckets.setdefault(client, RateLimit(per_minute / 60.0, per_minute))
    if not bucket.allow():
        raise BadRequest(refusal, 429)
    if len(buckets) > 10_000:  # forget the addresses whose buckets are full again
        for key in [k for k, b in buckets.items() if b.full]:
            del buckets[key]
