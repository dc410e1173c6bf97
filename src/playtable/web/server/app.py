"""The Starlette app: pages, the JSON API and the table WebSocket (docs/web.md is the contract).

Routes only translate between HTTP/WebSocket and the hub: every rule about tables lives in
`hub.py` and `tables.py`, every check of a client message in `wire.py`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from playtable.core.errors import PlaytableError
from playtable.core.jsonio import parse_json
from playtable.web.server.api import catalogue, record_response, replay_steps, rules_markdown
from playtable.web.server.bots import Workers
from playtable.web.server.hub import BadRequest, Hub
from playtable.web.server.live import LiveSpec, LiveTables
from playtable.web.server.live_routes import live_routes
from playtable.web.server.socket_pump import pump
from playtable.web.server.store import SqliteStore
from playtable.web.server.tables import Table
from playtable.web.server.wire import RATE_PER_SECOND, BadMessage, error, parse_client_message

STATIC = Path(str(resources.files("playtable.web") / "static"))


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")

    return page


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > 64 * 1024:
        raise BadRequest("the request body is too large")
    try:
        return parse_json(raw.decode("utf-8"), "the request body") if raw else {}
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8 text") from None
    except PlaytableError as err:
        raise BadRequest(str(err)) from None


def create_app(db: str | Path, workers: int = 1, rate: float = RATE_PER_SECOND,
               live: Sequence[LiveSpec] = (), record_dir: Path | None = None) -> Starlette:
    """The app over the SQLite file `db`, with `workers` bot/hint processes, allowing each
    connection `rate` messages a second (bursts of twice that). `live`: live tables (Star Dice
    on a real table, docs/web.md) started with the server, the first at /live/main; pages'
    recordings go to `record_dir` (None: pages cannot record)."""
    state: dict[str, Hub] = {}
    lives: dict[str, LiveTables] = {}

    def hub() -> Hub:
        return state["hub"]

    def live_tables() -> LiveTables:
        return lives["live"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        the_hub = Hub(SqliteStore(db), Workers(workers))
        the_hub.restore()
        for table in the_hub.tables.values():
            the_hub.schedule_bot(table)
            the_hub.arm_timer(table)
        state["hub"] = the_hub
        lives["live"] = LiveTables(record_dir)
        try:
            for k, spec in enumerate(live):
                await lives["live"].create(spec, "main" if k == 0 else f"main{k + 1}")
            yield
        finally:
            await lives["live"].close()
            the_hub.workers.close()
            the_hub.store.close()

    async def games(request: Request) -> Response:
        return JSONResponse({"games": catalogue()})

    async def rules(request: Request) -> Response:
        game_id = request.path_params["game"]
        text = rules_markdown(game_id)
        if text is None:
            return _error(f"there are no rules for game '{game_id[:40]}'", 404)
        return JSONResponse({"game": game_id, "markdown": text})

    async def create_table(request: Request) -> Response:
        table, tokens = await hub().create(await _body(request))
        seats = []
        for i, (seat, token) in enumerate(zip(table.row.seats, tokens, strict=True)):
            entry: dict[str, Any] = {"seat": i, "name": seat.name, "kind": seat.kind}
            if token is not None:
                entry["join_url"] = f"/t/{table.id}?seat={i}&token={token}"
            else:
                entry["agent"] = seat.agent
            seats.append(entry)
        return JSONResponse({"table_id": table.id, "watch_url": f"/t/{table.id}", "seats": seats},
                            status_code=201)

    async def list_tables(request: Request) -> Response:
        return JSONResponse({"tables": hub().listing(request.query_params.get("status"))})

    async def one_table(request: Request) -> Response:
        return JSONResponse(hub().get(request.path_params["table_id"]).summary())

    async def rematch(request: Request) -> Response:
        table = hub().get(request.path_params["table_id"])
        new, seat = await hub().rematch(table, await _body(request))
        return JSONResponse({"table_id": new.id, "seat": seat})

    def _seat_of(request: Request, table: Table) -> int | None:
        seat, token = request.query_params.get("seat"), request.query_params.get("token")
        if seat is not None and seat.isdigit() and len(seat) < 4 and table.token_ok(int(seat), token):
            return int(seat)
        return None

    async def replay(request: Request) -> Response:
        table = hub().get(request.path_params["table_id"])
        seat = _seat_of(request, table)
        wanted = request.query_params.get("seat", "")
        if seat is None and table.state.is_terminal and wanted.isdigit() and len(wanted) < 4 \
                and int(wanted) < len(table.row.seats):
            seat = int(wanted)  # once the game is over, every seat's view is open to everyone
        return JSONResponse({"steps": replay_steps(table, seat)})

    async def record(request: Request) -> Response:
        return record_response(hub().get(request.path_params["table_id"]), None, position=False)

    async def position(request: Request) -> Response:
        table = hub().get(request.path_params["table_id"])
        return record_response(table, request.query_params.get("step"), position=True)

    async def table_socket(ws: WebSocket) -> None:
        await ws.accept()
        table = hub().tables.get(ws.path_params["table_id"])
        if table is None:
            await ws.send_json(error("not_found", f"there is no table '{ws.path_params['table_id'][:40]}'"))
            await ws.close(code=1008)
            return
        conn, refusal = hub().connect(table, ws.query_params.get("seat"), ws.query_params.get("token"))
        if refusal:
            conn.push(error("forbidden", refusal))
        hub().greet(table, conn)

        async def on_frame(raw: str | bytes | None) -> None:
            try:
                msg = parse_client_message(raw)
            except BadMessage as bad:
                conn.push(error(bad.code, bad.message))
                return
            current = hub().tables.get(table.id)
            if current is not None:
                await hub().handle(current, conn, msg)

        try:
            await pump(ws, conn, rate, on_frame)
        finally:
            hub().disconnect(table, conn)

    async def bad_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, BadRequest)
        return _error(exc.message, exc.status)

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
        Route("/api/tables/{table_id}/replay", replay),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/tables/{table_id}/position", position),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        *live_routes(live_tables, _page("live.html"), rate),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={BadRequest: bad_request})
