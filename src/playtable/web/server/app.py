"""The Starlette app: pages, the JSON API and the table WebSocket (docs/web.md is the contract).

`create_app` only assembles: the routes live in the route modules of their rooms
(`tables.table_routes`, `tables.past_routes`, `people.player_routes`, `people.rating_routes`,
`playtests.playtest_routes`, `live.live_routes`, `tables.board_routes`,
`transport.table_socket`), each reading the server's context (`context.ServerContext`). Routes
only translate between HTTP/WebSocket and the hub: every rule about tables lives in the hub's
rooms, every check of a client message in `wire.py`, of a new table's request in
`table_request.py`, and what every request must be before a route sees it (Host, Origin,
content type, size, the security headers) in `guard.py`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from playtable.web.server.bots.bots import BOT_SECONDS, Workers
from playtable.web.server.context import ServerContext
from playtable.web.server.hub import Hub
from playtable.web.server.live.live import LiveSpec, LiveTables
from playtable.web.server.live.live_routes import live_routes
from playtable.web.server.people.player_routes import player_routes
from playtable.web.server.people.rating_routes import rating_routes
from playtable.web.server.playtests.playtest_routes import playtest_routes
from playtable.web.server.playtests.playtests import Playtests, PlaytestStore
from playtable.web.server.store.live_places import LivePlaces
from playtable.web.server.store.node_registry import NodeRegistry
from playtable.web.server.store.rate_limits import RATE_PER_SECOND
from playtable.web.server.store.store import SqlStore
from playtable.web.server.tables.board_routes import board_routes
from playtable.web.server.tables.past_routes import past_routes
from playtable.web.server.tables.room import Limits
from playtable.web.server.tables.table_routes import table_routes
from playtable.web.server.transport import collector
from playtable.web.server.transport.api_budget import ApiBudget
from playtable.web.server.transport.forward import Forward, ForwardLimits
from playtable.web.server.transport.guard import Guard, Policy
from playtable.web.server.transport.http import EXCEPTION_HANDLERS, STATIC, client_of, page, read_body
from playtable.web.server.transport.networks import IPV6_PREFIX
from playtable.web.server.transport.node_peers import NodePeers
from playtable.web.server.transport.node_routes import node_routes
from playtable.web.server.transport.nodes import Locate, Node
from playtable.web.server.transport.owners import Owner, OwnerCheck
from playtable.web.server.transport.peer_answers import answer_peer
from playtable.web.server.transport.peers import Peers
from playtable.web.server.transport.table_socket import table_socket


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Open the hub (its tables restored and started), the playtests and the live tables, and
    close them when the server stops."""
    server: ServerContext = app.state.server
    store, node = SqlStore(server.db), server.node
    hub = Hub(store, Workers(server.workers, server.bot_seconds), server.limits, server.rate,
              server.owner, node)
    hub.restore()
    hub.start()
    server.opened_hub = hub
    server.past.budgets = hub.budgets  # shared by the processes when there are several
    peers = server.peers
    ask_owner = None if peers is None else peers.ask_owner
    server.opened_playtests = Playtests(hub, PlaytestStore(server.db), ask_owner)
    lives = server.opened_lives = LiveTables(server.record_dir, places=None if node is None or (
        server.owner.index != 0) else LivePlaces(store.db, node.name))  # process 0's live tables
    if peers is not None:
        await peers.start(functools.partial(answer_peer, server), None if node is None else NodePeers(
            node, NodeRegistry(store.db, node.name, node.url), server.locate))
    try:
        for k, spec in enumerate(server.live):
            await lives.create(spec, "main" if k == 0 else f"main{k + 1}")
        if server.tune_collector:  # a server process's own (it changes the whole interpreter)
            collector.settle()
        yield
    finally:
        await lives.close()
        if peers is not None:
            await peers.close()
        for task in list(hub.tasks):
            task.cancel()
        hub.workers.close()
        hub.store.close()
        server.playtests.store.close()


async def live_elsewhere(server: ServerContext) -> list[dict[str, Any]]:
    """The live tables the site's other live nodes run (their process 0's summaries); a node
    that is down or slow is left out for the moment (`NodePeers.ask`); one answer serves every
    request for a second (`peers.SharedAnswers`)."""
    nodes = None if server.peers is None else server.peers.nodes
    if server.peers is None or nodes is None:
        return []
    answers = await server.peers.shared.get("live", lambda: nodes.ask({"ask": "live"}))
    return [summary for answer in answers if isinstance(answer, list)
            for summary in answer if isinstance(summary, dict) and isinstance(summary.get("id"), str)]


def routes(server: ServerContext) -> list[BaseRoute]:
    """Every route of the app, room by room."""
    return [
        Route("/", page("index.html")),
        Route("/t/{table_id}", page("table.html")),
        Route("/t/{table_id}/replay", page("replay.html")),
        *table_routes(),
        *player_routes(),
        *past_routes(),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        *live_routes(lambda: server.lives, page, server.rate, server.operator_token,
                     None if server.node is None else functools.partial(live_elsewhere, server)),
        *rating_routes(lambda: server.hub, read_body),
        *playtest_routes(lambda: server.playtests, page("playtest.html"), read_body, client_of),
        *board_routes(lambda: server.hub.workers, read_body, client_of, page("editor.html")),
        *(node_routes() if server.node is not None else ()),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]


def create_app(db: str | Path, workers: int = 1, rate: float = RATE_PER_SECOND,
               live: Sequence[LiveSpec] = (), record_dir: Path | None = None,
               policy: Policy | None = None, limits: Limits | None = None,
               public_url: str | None = None, bot_seconds: float = BOT_SECONDS,
               owner: Owner | None = None, peers: Peers | None = None,
               tune_collector: bool = False, operator_token: str | None = None,
               node: Node | None = None, locate: Locate | None = None,
               forward_limits: ForwardLimits | None = None) -> ASGIApp:
    """The app over the SQLite file `db`, with `workers` bot/hint processes, allowing each
    connection `rate` messages a second (bursts of twice that). `live`: live tables (Star Dice
    on a real table, docs/web.md) started with the server, the first at /live/main; pages'
    recordings go to `record_dir` (None: pages cannot record). `policy`: who may reach it
    (`guard.Policy`; default: loopback names and IP addresses); `limits`: what strangers may make
    it hold (`room.Limits`); `public_url`: the base of the join and watch links it hands out;
    `bot_seconds`: the longest a bot move or hint may take. `owner`: this process's number
    among several table-owning ones (`processes.py`; default: the only one), `peers`: its line
    to the others, for what one process's memory cannot answer alone. `tune_collector`: set
    the garbage collector for a long-running server once it has started (`collector.settle`;
    `playtable serve` does, an app made in another program, a test's, leaves it alone).
    `operator_token`: what starts, controls and closes live tables (`live/operator.py`; None: no
    live table is started from the web). `node`: this server's node among several machines'
    on one shared store (`nodes.py`; None: the only server on its store); `locate`: which node
    holds a table (the leases'), where its requests are sent on (`forward.py`) and its owner's
    questions asked (`node_peers.py`) (None with a node: the leases', `leasing.Leasing.locate`);
    `forward_limits`: what its forwarding may hold at once (`forward.ForwardLimits`)."""
    owner = owner or Owner()
    if node is not None and peers is None:  # one process: its questions go to the other nodes
        peers = Peers(owner)
    server = ServerContext(db, workers, bot_seconds, rate, limits, owner, peers, live, record_dir,
                           tune_collector, (public_url or "").rstrip("/"), operator_token, node, locate)
    if node is not None and locate is None:  # the leases say where a table is held
        async def held_at(table_id: str) -> str | None:
            return await server.hub.leases.locate(table_id)

        server.locate = locate = held_at

    async def live_at(live_id: str) -> str | None:
        """Where a live table runs: here (None) when this process has it, else the store's word."""
        if live_id in server.lives.tables or node is None:
            return None
        return LivePlaces(server.hub.store.db, node.name).url_of(live_id)  # type: ignore[attr-defined]
    app = Starlette(routes=routes(server), lifespan=lifespan, exception_handlers=EXCEPTION_HANDLERS)
    app.state.server = server
    inner: ASGIApp = app if owner.count == 1 else OwnerCheck(app, owner)
    policy = policy or Policy.of(public_url=public_url)
    if node is not None:  # the other nodes reach this one under its --node-url's name
        policy = dataclasses.replace(policy, allowed_hosts=policy.allowed_hosts | {
            (urlsplit(node.url).hostname or "").lower()})
    limits = limits or Limits()
    guarded = Guard(ApiBudget(inner, limits.api_requests_per_minute, limits.ipv6_prefix), policy)
    if node is None:
        return guarded
    return Forward(guarded, node, locate, forward_limits,
                   IPV6_PREFIX if limits is None else limits.ipv6_prefix, live_at)
