"""The room every concern of the hub works in: the server's tables and what they share (the
store, the workers, the limits, people, ratings, votes, each network's budgets, the tables in
play and the taken seats), finding a table
in memory or reading it back, and the calls one concern makes of another, which the hub routes
to the concern that owns them (`hub.Hub`).

Facing strangers (docs/web.md, "Facing a network" and "Fair use"): each client network may
create a few tables a minute and keep a few in play (`in_play.py`), the server holds at most
`Limits.tables` tables in play, and an ended table leaves memory (it is read back from the store when someone
asks for it), so neither memory nor a restart grows with history.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playtable.core.errors import PlaytableError
from playtable.core.protocol import Event
from playtable.web.server.bots.bots import Workers
from playtable.web.server.people.people import People
from playtable.web.server.people.ratings import Ratings
from playtable.web.server.people.seat_claims import SeatClaims
from playtable.web.server.store.address_rates import AddressSockets
from playtable.web.server.store.rate_limits import RATE_PER_SECOND, Budgets, SharedBuckets
from playtable.web.server.store.store import PlayerRow, SeatRow, Snapshot, TableRow, TableStore
from playtable.web.server.tables.in_play import TablesInPlay
from playtable.web.server.tables.proposals import SqlProposalStore, other_people
from playtable.web.server.tables.table_request import BadRequest, now
from playtable.web.server.tables.tables import Connection, Table, fresh_start, row_summary
from playtable.web.server.tables.votes import SqlVoteStore, Votes
from playtable.web.server.transport.api_budget import API_REQUESTS_PER_MINUTE
from playtable.web.server.transport.networks import IPV6_PREFIX
from playtable.web.server.transport.nodes import Node
from playtable.web.server.transport.owners import Owner, owner_of

log = logging.getLogger("playtable.web")
MAX_LISTED = 100


class PlayedElsewhere(BadRequest):
    """A table in play in another of the server's processes (`serve --processes N`): only
    `owner`, that process, may read or change it (`playtests.py` asks it over the peers' line)."""

    def __init__(self, table_id: str, owner: int) -> None:
        super().__init__(f"table '{table_id}' is played in another server process", 409)
        self.owner = owner


class HeldElsewhere(BadRequest):
    """A running table another node holds (`leasing.py`): only that node, at `url`, may read or
    change it (a request the nodes' forwarding sent on never gets here)."""

    def __init__(self, table_id: str, url: str) -> None:
        super().__init__(f"table '{table_id}' is played on another node", 409)
        self.url = url


@dataclass(frozen=True)
class Limits:
    """What strangers may make the server hold (`playtable serve` sets them)."""

    tables: int = 5000
    """Tables in play at once (not ended); past it new tables are refused (503)."""
    creations_per_minute: float = 20.0
    """Tables one client network may create a minute (bursts of as many; tutorials apart)."""
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
    """Open seats one client network may take a minute (None: as many as tables it may create)."""
    ipv6_prefix: int = IPV6_PREFIX
    """The IPv6 prefix length of one client network (`networks.network_of`; `--ipv6-prefix`)."""
    api_requests_per_minute: float = API_REQUESTS_PER_MINUTE
    """Requests to /api/ one client network may make a minute, bursts of as many (`api_budget.py`)."""
    tables_per_network: int = 20
    """Tables (not tutorials) one network may keep in play at once (`in_play.py`)."""
    tables_per_person: int = 10
    """Tables one known person (the request's player key) may keep in play at once."""
    tutorials_per_network: int = 5
    """Tutorials one network may keep in play at once (a person has as many)."""
    unarrived_seconds: float = 600.0
    """A table no person ever arrived at, or a tutorial nobody has open, ends after this long."""
    take_seconds: float = 120.0
    """A seat taken from the Open list whose person does not connect goes back after this long."""


def rebuilt(row: TableRow, snapshot: Snapshot | None = None) -> Table | PlaytableError:
    """A stored running table in memory (`_rebuild`), or why it cannot be rebuilt: made in a
    thread when the server is serving (`leasing.py`), put in place by `Room.keep`."""
    try:
        return _rebuild(row, snapshot)
    except PlaytableError as err:
        return err


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


class Room:
    """What the hub's concerns share. The methods at the end are the calls between concerns:
    the hub (a `Room`) routes each to the concern that owns it."""

    def __init__(self, store: TableStore, workers: Workers, limits: Limits | None = None,
                 rate: float = RATE_PER_SECOND, owner: Owner | None = None,
                 node: Node | None = None) -> None:
        self.store = store
        self.owner = owner or Owner()
        """Which tables are this process's (`owners.py`; all of them with one process)."""
        self.node = node
        """This server's node among several on the store (`nodes.py`): then a running table is
        this process's while it holds its lease (`leasing.py`); None: the only server."""
        # Others serve from this store too (this node's other processes, other nodes): what a
        # network may do is counted in the store, for all of them.
        shared = self.owner.count > 1 or node is not None
        self.rate = rate
        """Messages a second each connection may send (its syncs are limited in proportion)."""
        self.workers = workers
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        """Every table in play, and the most recently used ended ones (`ended`)."""
        self.ended: OrderedDict[str, None] = OrderedDict()
        self.tasks: set[asyncio.Task[None]] = set()
        self.people = People(store)
        self.ratings = Ratings(store)
        self.votes = Votes(SqlVoteStore(store.db))  # type: ignore[attr-defined]
        self.proposals = SqlProposalStore(store.db, store.fence)  # type: ignore[attr-defined]
        """The open mid-game proposals of the tables in play (`Proposals.keep_in`)."""
        self.budgets = Budgets(SharedBuckets(store.db) if shared else None)  # type: ignore[attr-defined]
        """Each network's tables, names, seats and pasts a minute (`rate_limits.py`): several
        processes, and several nodes, count them together, in the shared store."""
        self.in_play = TablesInPlay(store.db)  # type: ignore[attr-defined]
        """Who made each table in play, for the per-network and per-person budgets."""
        self.claims = SeatClaims()
        """Seats taken from the Open list whose person has not arrived yet (`seat_claims.py`)."""
        self.shared_sockets = None if not shared else AddressSockets(
            store.db, self.owner.index, self.owner.count, node.name if node else "")  # type: ignore[attr-defined]
        """...and the sockets each address holds open."""

    # -- the tables in memory, and read back --------------------------------------------------
    def restore(self) -> None:
        """Rebuild every table still in play by replaying its record (startup, before serving).
        A table that cannot be rebuilt, or turns out to be over, is marked ended. With several
        processes each rebuilds only the tables it owns; with a node, only those whose lease it
        takes (`leasing.Leasing.restore`), never every running table of the store."""
        self.in_play.forget_ended()
        if self.node is not None:
            self.restore_held()
            return
        snapshots = self.store.running_snapshots()
        asks = self.proposals.every()
        for row in self.store.load_running():
            if self.owner.owns(row.id):
                self.keep(row, rebuilt(row, snapshots.get(row.id)), asks.pop(row.id, []))
            else:
                asks.pop(row.id, None)
        for table_id in asks:  # decided, though a failure kept its row: asks nobody now
            if self.owner.owns(table_id):
                self.proposals.clear(table_id)

    def keep(self, row: TableRow, table: Table | PlaytableError,
             asks: list[tuple[int, str | None]] | None = None) -> Table | None:
        """A running table rebuilt from its record (`rebuilt`) in memory, with its open proposal
        (`asks`, None: read from the store); one that could not be rebuilt is marked ended
        (None), one that turns out to be over is ended."""
        if isinstance(table, PlaytableError):
            log.error("table %s cannot be rebuilt from its record: %s", row.id, table)
            self.store.mark_ended(row.id, now(), {"returns": None, "text": (
                "This table could not be rebuilt after a restart: " + str(table)[:200])})
            return None
        self.tables[row.id] = table
        table.proposals.keep_in(self.proposals, row.id)
        if table.is_over:
            self.mark_ended(table)
        elif row.rematch is None:
            found = self.proposals.of(row.id) if asks is None else asks
            table.proposals.restore(found, functools.partial(other_people, row.seats))
        return table

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
        if self.node is not None and self.owner.owns(table_id):
            elsewhere = await self.locate(table_id)  # taken over here if its lease had expired
            if table_id in self.tables:
                return self.get(table_id)
            if elsewhere is not None:
                raise HeldElsewhere(table_id, elsewhere)
        row = self.store.load(table_id)
        if row is None:
            raise BadRequest(f"there is no table '{table_id[:40]}'", 404)
        if row.ended is None and not self.owner.owns(table_id):
            # In play in another process (a request the front routed elsewhere never gets here):
            # a copy here would go its own way.
            raise PlayedElsewhere(table_id, owner_of(table_id, self.owner.count))
        if row.ended is None and self.node is not None:  # its lease changed hands meanwhile
            raise BadRequest(f"table '{table_id}' is moving between nodes; try again", 503)
        try:
            table = await asyncio.to_thread(_rebuild, row)
        except PlaytableError as err:
            raise BadRequest(f"table '{table_id}' cannot be rebuilt from its record: {err}", 500) from None
        if table_id not in self.tables:
            self.tables[table_id] = table
            self.remember_ended(table_id)
        return self.tables[table_id]

    def remember_ended(self, table_id: str) -> None:
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

    def playing(self, status: str | None) -> list[dict[str, Any]]:
        """The summaries of this process's tables in play (of `status`), newest first. A
        tutorial's table is its person's own guided game: listed under their "Yours" only
        (players.py), never to strangers."""
        if status not in (None, "open", "running", "finished"):
            raise BadRequest("'status' must be open, running or finished")
        playing = sorted((t for t in self.tables.values() if t.id not in self.ended and not t.row.tutorial),
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

    # -- what every concern may use -----------------------------------------------------------
    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def notice(self, table: Table, text: str) -> None:
        """Tell every connection of the table something went wrong and what was done about it."""
        log.warning("table %s: %s", table.id, text)
        table.notice(text)

    def per_network(self, kind: str, client: str, per_minute: float, refusal: str) -> None:
        """Allow one more of something a client network may do `per_minute` times a minute
        (bursts of as many), or refuse it (429) with `refusal`; counted for the whole server
        when it has several processes (`rate_limits.Budgets`)."""
        if not self.budgets.allow(kind, client, per_minute):
            raise BadRequest(refusal, 429)

    # -- the calls between concerns (the hub routes each to its owner) -------------------------
    async def create(self, body: Any, client: str = "", rematch_of: Table | None = None,
                     carried: list[int | None] | None = None, tutorial: str | None = None,
                     present: Sequence[SeatRow] = ()) -> tuple[Table, list[str | None]]:
        raise NotImplementedError  # creation.Creation.create

    def act(self, table: Table, seat: int, text: str, conn: Connection | None = None,
            bot: str | None = None) -> bool:
        raise NotImplementedError  # play.Play.act

    def after_change(self, table: Table, events: list[Event]) -> None:
        raise NotImplementedError  # play.Play.after_change

    def mark_ended(self, table: Table, result: dict[str, Any] | None = None) -> None:
        raise NotImplementedError  # ends.Ends.mark_ended

    def arm_timer(self, table: Table, restarted: bool = False) -> None:
        raise NotImplementedError  # clock_watch.ClockWatch.arm

    def schedule_bot(self, table: Table) -> None:
        raise NotImplementedError  # bots.bot_turns.BotTurns.schedule

    async def bot_turn(self, table: Table, seat: int, stand_in: str | None = None) -> None:
        raise NotImplementedError  # bots.bot_turns.BotTurns.turn

    def holds(self, table: Table, seat: int, proof: Mapping[str, Any]) -> bool:
        raise NotImplementedError  # people.sitting.Sitting.holds

    def arrive(self, table: Table, seat: int, conn: Connection) -> None:
        raise NotImplementedError  # people.sitting.Sitting.arrive

    def seat_player(self, table: Table, seat: int, player: PlayerRow,
                    token_hash: str | None = None) -> None:
        raise NotImplementedError  # people.sitting.Sitting.seat_player

    def greet(self, table: Table, conn: Connection) -> None:
        raise NotImplementedError  # transport.connections.Connections.greet

    def restore_held(self) -> None:
        raise NotImplementedError  # tables.leasing.Leasing.restore

    async def locate(self, table_id: str) -> str | None:
        raise NotImplementedError  # tables.leasing.Leasing.locate

