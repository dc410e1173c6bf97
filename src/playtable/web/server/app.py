"""The Starlette app: pages, the JSON API and the table WebSocket (docs/web.md is the contract).

Routes only translate between HTTP/WebSocket and the hub: every rule about tables lives in
`hub.py` and `tables.py`, every check of a client message in `wire.py`, of a new table's
request in `table_request.py`, and what every request must be before a route sees it (Host,
Origin, content type, size, the security headers) in `guard.py`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp
from starlette.websockets import WebSocket

from playtable.core.errors import PlaytableError
from playtable.core.jsonio import parse_json
from playtable.web.server import collector
from playtable.web.server.api import catalogue, record_response, rules_markdown
from playtable.web.server.board_routes import board_routes
from playtable.web.server.bots import BOT_SECONDS, JobFailed, Workers
from playtable.web.server.guard import MAX_BODY, BodyTooLarge, Guard, Policy
from playtable.web.server.hub import Hub, Limits
from playtable.web.server.live import LiveSpec, LiveTables
from playtable.web.server.live_routes import live_routes
from playtable.web.server.owners import Owner, OwnerCheck
from playtable.web.server.past import Busy, PastCache
from playtable.web.server.peers import Peers
from playtable.web.server.playtest_routes import playtest_routes
from playtable.web.server.playtests import Playtests, PlaytestStore
from playtable.web.server.rating_routes import rating_routes
from playtable.web.server.socket_pump import pump
from playtable.web.server.store import PlayerRow, SqliteStore
from playtable.web.server.table_request import BadRequest, parse_seat
from playtable.web.server.tables import Table
from playtable.web.server.tutorials import shipped, tutorial_request
from playtable.web.server.wire import RATE_PER_SECOND, BadMessage, error, parse_client_message

log = logging.getLogger("playtable.web")

STATIC = Path(str(resources.files("playtable.web") / "static"))


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")

    return page


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _client(request: Request | WebSocket) -> str:
    """The client's address (the proxy's X-Forwarded-For when uvicorn is told to trust it)."""
    return request.client.host if request.client else ""


async def _body(request: Request) -> Any:
    raw = b""
    async for chunk in request.stream():  # the guard ends a body past MAX_BODY as it streams
        raw += chunk
        if len(raw) > MAX_BODY:
            raise BodyTooLarge(MAX_BODY)
    try:
        return parse_json(raw.decode("utf-8"), "the request body") if raw else {}
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8 text") from None
    except PlaytableError as err:
        raise BadRequest(str(err)) from None


def create_app(db: str | Path, workers: int = 1, rate: float = RATE_PER_SECOND,
               live: Sequence[LiveSpec] = (), record_dir: Path | None = None,
               policy: Policy | None = None, limits: Limits | None = None,
               public_url: str | None = None, bot_seconds: float = BOT_SECONDS,
               owner: Owner | None = None, peers: Peers | None = None,
               tune_collector: bool = False, operator_token: str | None = None) -> Guard:
    """The app over the SQLite file `db`, with `workers` bot/hint processes, allowing each
    connection `rate` messages a second (bursts of twice that). `live`: live tables (Star Dice
    on a real table, docs/web.md) started with the server, the first at /live/main; pages'
    recordings go to `record_dir` (None: pages cannot record). `policy`: who may reach it
    (`guard.Policy`; default: loopback names and IP addresses); `limits`: what strangers may make
    it hold (`hub.Limits`); `public_url`: the base of the join and watch links it hands out;
    `bot_seconds`: the longest a bot move or hint may take. `owner`: this process's number
    among several table-owning ones (`processes.py`; default: the only one), `peers`: its line
    to the others, for what one process's memory cannot answer alone. `tune_collector`: set
    the garbage collector for a long-running server once it has started (`collector.settle`;
    `playtable serve` does, an app made in another program, a test's, leaves it alone).
    `operator_token`: what starts, controls and closes live tables (`operator.py`; None: no
    live table is started from the web)."""
    owner = owner or Owner()
    state: dict[str, Hub] = {}
    lives: dict[str, LiveTables] = {}
    tests: dict[str, Playtests] = {}
    past = PastCache()
    base = (public_url or "").rstrip("/")
    policy = policy or Policy.of(public_url=public_url)

    def hub() -> Hub:
        return state["hub"]

    def live_tables() -> LiveTables:
        return lives["live"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        the_hub = Hub(SqliteStore(db), Workers(workers, bot_seconds), limits, rate, owner)
        the_hub.restore()
        the_hub.start()
        state["hub"] = the_hub
        past.shared_rates = the_hub.shared_rates  # None with one process
        tests["playtests"] = Playtests(the_hub, PlaytestStore(db), None if peers is None else peers.ask_one)
        lives["live"] = LiveTables(record_dir)
        if peers is not None:
            await peers.start(answer_peer)
        try:
            for k, spec in enumerate(live):
                await lives["live"].create(spec, "main" if k == 0 else f"main{k + 1}")
            if tune_collector:  # a server process's own (it changes the whole interpreter)
                collector.settle()
            yield
        finally:
            await lives["live"].close()
            if peers is not None:
                await peers.close()
            for task in list(the_hub.tasks):
                task.cancel()
            the_hub.workers.close()
            the_hub.store.close()
            tests["playtests"].store.close()

    async def answer_peer(question: dict[str, Any]) -> Any:
        """What another table-owning process asks of this one's memory (`peers.Peers`)."""
        if question["ask"] == "playing":
            return hub().playing(question["status"])
        if question["ask"] == "mine":
            return hub().entries(question["player"], question["tables"])
        if question["ask"] == "renamed":
            hub().renamed(question["player"], question["name"])
            return {}
        if question["ask"] == "table_status":  # of a playtest's table this process plays
            table = await hub().fetch(question["table"])
            return {"over": table.is_over, "terminal": bool(table.state.is_terminal)}
        if question["ask"] == "seat_invited":  # a playtest's next tester, at such a table
            table = await hub().fetch(question["table"])
            player = PlayerRow(question["player"], question["name"], None, "")
            try:
                return {"token": hub().seat_invited(table, int(question["seat"]), player)}
            except BadRequest as refused:
                return {"refused": refused.message}
        raise ValueError(f"unknown question {question['ask']!r}")

    async def games(request: Request) -> Response:
        return JSONResponse({"games": catalogue()})

    async def rules(request: Request) -> Response:
        game_id = request.path_params["game"]
        text = rules_markdown(game_id)
        if text is None:
            return _error(f"there are no rules for game '{game_id[:40]}'", 404)
        return JSONResponse({"game": game_id, "markdown": text})

    async def create_table(request: Request) -> Response:
        table, tokens = await hub().create(await _body(request), _client(request))
        seats = []
        for i, (seat, token) in enumerate(zip(table.row.seats, tokens, strict=True)):
            entry: dict[str, Any] = {"seat": i, "name": seat.name, "kind": seat.kind}
            if token is not None:
                entry["join_url"] = f"{base}/t/{table.id}?seat={i}&token={token}"
                entry["reserved"], entry["player"] = seat.reserved, seat.player_name
            else:
                entry["agent"] = seat.agent
            seats.append(entry)
        return JSONResponse({"table_id": table.id, "watch_url": f"{base}/t/{table.id}", "seats": seats},
                            status_code=201)

    async def tutorials(request: Request) -> Response:
        return JSONResponse({"tutorials": [t.listing() for t in shipped().values()]})

    async def start_tutorial(request: Request) -> Response:
        # Only a shipped tutorial's name: its game, deal and seats come from the script, and
        # its table counts against the address's tables a minute like any other.
        tutorial, body = tutorial_request(await _body(request))
        table, tokens = await hub().create(body, _client(request))
        seat = tutorial.seat
        return JSONResponse({"table_id": table.id, "seat": seat, "tutorial": tutorial.name,
                             "join_url": f"{base}/t/{table.id}?seat={seat}&token={tokens[seat]}"
                                         f"&tutorial={tutorial.name}"}, status_code=201)

    async def register(request: Request) -> Response:
        player, new = hub().register(await _body(request), _client(request))
        if peers is not None and not new:
            await peers.ask({"ask": "renamed", "player": player.id, "name": player.name})
        return JSONResponse({"player": {"name": player.name, "created": player.created}},
                            status_code=201 if new else 200)

    async def me(request: Request) -> Response:
        body = await _body(request)
        if peers is None:
            return JSONResponse(hub().mine(body))
        player, rows = found = hub().player_tables(body)
        away = [row.id for row, _ in rows if row.ended is None and not owner.owns(row.id)]
        elsewhere: dict[str, Any] = {}
        if away:
            for part in await peers.ask({"ask": "mine", "player": player.id, "tables": away}):
                elsewhere.update(part)
        return JSONResponse(hub().mine(body, elsewhere, found))

    async def take(request: Request) -> Response:
        table = await hub().fetch(request.path_params["table_id"])
        seat, token = await hub().take(table, await _body(request), _client(request))
        return JSONResponse({"table_id": table.id, "seat": seat, "name": table.row.seats[seat].name,
                             "join_url": f"{base}/t/{table.id}?seat={seat}&token={token}"})

    async def list_tables(request: Request) -> Response:
        status = request.query_params.get("status")
        if peers is None:
            return JSONResponse({"tables": hub().listing(status)})
        hub().playing(status)  # a wrong status is refused before anyone is asked
        return JSONResponse({"tables": hub().listing(status, await peers.ask({"ask": "playing",
                                                                              "status": status}))})

    async def one_table(request: Request) -> Response:
        return JSONResponse((await hub().fetch(request.path_params["table_id"])).summary())

    async def rematch(request: Request) -> Response:
        table = await hub().fetch(request.path_params["table_id"])
        new, seat = await hub().rematch(table, await _body(request), _client(request))
        if new is None:  # a mid-game proposal: the others are asked (docs/web.md, rematch)
            return JSONResponse({"table_id": None, "seat": None, "proposed": True,
                                 "waiting_for": table.awaiting_agreement}, status_code=202)
        return JSONResponse({"table_id": new.id, "seat": seat})

    def _seat_of(request: Request, table: Table) -> int | None:
        """The seat a request may see: its `seat` with that seat's `token`, or with the seat's
        player key in the `X-Player-Key` header (never in the URL)."""
        seat = parse_seat(request.query_params.get("seat"))
        proof = {"token": request.query_params.get("token"), "key": request.headers.get("x-player-key")}
        if seat is not None and hub().holds(table, seat, proof):
            return seat
        return None

    async def _past(request: Request, key: tuple[Any, ...], compute: Any,
                    name: str | None = None) -> Response:
        if not past.admit(_client(request)):
            return _error("too many replays and positions from your address; wait a minute", 429)
        try:
            data = await past.get(key, compute)
        except Busy as busy:
            return _error(str(busy), 503)
        except JobFailed as err:
            log.error("%s failed: %s", key, err)
            return _error("this table's past could not be rebuilt in time", 503)
        headers = {"Content-Disposition": f'attachment; filename="{name}"'} if name else None
        return Response(data, media_type="application/json", headers=headers)

    async def replay(request: Request) -> Response:
        table = await hub().fetch(request.path_params["table_id"])
        seat = _seat_of(request, table)
        wanted = parse_seat(request.query_params.get("seat"))
        if seat is None and table.state.is_terminal and wanted is not None \
                and wanted < len(table.row.seats):
            seat = wanted  # once the game is over, every seat's view is open to everyone
        row, hidden = table.row, table.hidden_texts
        actions, stand_ins = list(row.actions), dict(row.stand_ins)
        return await _past(
            request, ("replay", table.id, table.version, table.step, seat, hidden),
            lambda: hub().workers.replay(row.game, row.params, row.seed, actions, seat, hidden, stand_ins))

    async def record(request: Request) -> Response:
        return record_response(await hub().fetch(request.path_params["table_id"]))

    async def position(request: Request) -> Response:
        table = await hub().fetch(request.path_params["table_id"])
        refusal = record_response(table)
        if refusal.status_code != 200:
            return refusal
        text = request.query_params.get("step") or ""
        step = int(text) if text.isascii() and text.isdecimal() and len(text) <= 6 else None
        if step is None or step > table.step:
            return _error(f"'step' must be a whole number from 0 to {table.step}")
        row = table.row
        actions = [text for _, text in row.actions[:step]]
        return await _past(request, ("position", table.id, step),
                           lambda: hub().workers.position(row.game, row.params, row.seed, actions),
                           f"{row.game}-{row.id}-step{step}.json")

    async def table_socket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table = await hub().fetch(ws.path_params["table_id"])
        except BadRequest as bad:
            await ws.send_json(error("not_found", bad.message))
            await ws.close(code=1008)
            return
        conn, refusal = hub().connect(table, ws.query_params.get("seat"), ws.query_params.get("token"),
                                      _client(ws))
        if conn is None:
            await ws.send_json(error("too_many", refusal or ""))
            await ws.close(code=1013)
            return
        if refusal:
            conn.push(error("forbidden", refusal))
        hub().greet(table, conn)

        async def on_frame(raw: str | bytes | None) -> None:
            try:
                msg = parse_client_message(raw)
            except BadMessage as bad:
                conn.push(error(bad.code, bad.message))
                return
            await hub().handle(table, conn, msg)

        try:
            await pump(ws, conn, rate, on_frame)
        finally:
            hub().disconnect(table, conn)

    async def bad_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, BadRequest)
        return _error(exc.message, exc.status)

    async def too_large(request: Request, exc: Exception) -> Response:
        answer = _error(str(exc), 413)
        answer.headers["connection"] = "close"  # the rest of the body is not read
        return answer

    async def server_error(request: Request, exc: Exception) -> Response:
        # Never a traceback or a plain-text page: one sentence, and the details in the log.
        log.error("error serving %s %s", request.method, request.url.path, exc_info=exc)
        return _error("the server met an error it did not expect; it is logged", 500)

    routes = [
        Route("/", _page("index.html")),
        Route("/t/{table_id}", _page("table.html")),
        Route("/t/{table_id}/replay", _page("replay.html")),
        Route("/api/games", games),
        Route("/api/games/{game}/rules", rules),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", one_table),
        Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/take", take, methods=["POST"]),
        Route("/api/tutorials", tutorials, methods=["GET"]),
        Route("/api/tutorials", start_tutorial, methods=["POST"]),
        Route("/api/players", register, methods=["POST"]),
        Route("/api/players/me", me, methods=["POST"]),
        Route("/api/tables/{table_id}/replay", replay),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/tables/{table_id}/position", position),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        *live_routes(live_tables, _page, rate, operator_token),
        *rating_routes(hub, _body),
        *playtest_routes(lambda: tests["playtests"], _page("playtest.html"), _body, _client),
        *board_routes(lambda: hub().workers, _body, _client, _page("editor.html")),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    app: ASGIApp = Starlette(routes=routes, lifespan=lifespan,
                             exception_handlers={BadRequest: bad_request, BodyTooLarge: too_large,
                                                 Exception: server_error})
    return Guard(app if owner.count == 1 else OwnerCheck(app, owner), policy)
