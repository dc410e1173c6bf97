"""The routes of live tables (docs/web.md, "Live tables"): the page, the operator's API, and the
WebSocket through which a page follows a real table and, with the table's control token, enters
dice values, confirms the match and records.

Everything a client sends is checked here completely before a table sees it; a message that
fails gets one `error` message naming the problem and changes nothing. Watching is public;
starting, controlling and closing a table are the operator's (docs/web.md, "Live tables are
the operator's"): `POST /api/live` and `DELETE /api/live/{id}` take the operator's token as
`Authorization: Bearer TOKEN`, a page presents a token once with `{"type": "control", "token"}`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from playtable.core.errors import PlaytableError
from playtable.core.jsonio import parse_json
from playtable.core.params import resolve_params
from playtable.games.stardice import VARIANTS, StarDiceParams
from playtable.tableinput.dicemap import load_dice_map, parse_dice_map
from playtable.tableinput.samples import sample_file
from playtable.web.server.live.live import LiveConnection, LiveSpec, LiveTable, LiveTables
from playtable.web.server.live.operator import MAX_PRESENTED, bearer, token_matches
from playtable.web.server.transport.socket_pump import pump
from playtable.web.server.transport.wire import MAX_FRAME, error

LIVE_TYPES = ("set_value", "record", "sync", "match", "control")
CONTROL_TYPES = ("set_value", "record", "match")
"""What only a page that presented the table's control token (or the operator's) may send."""
MATCH_DOS = ("start", "call", "borg_off", "borg_on_frame", "unseen", "forfeit", "score")
FORFEIT_WHY = {"borg": "knocked the Borg die off the table", "touch": "touched the table",
               "concede": "concedes"}
"""Why a player forfeits (FR Other rules), as the page's buttons say it."""
MAX_DICE_MAP = 4096


class BadLive(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class LiveMessage:
    type: str
    die: str = ""
    value: int = 0
    on: bool = False
    do: str = ""
    seat: int = 0
    parity: str = ""
    why: str = ""
    token: str = ""


def parse_live_message(raw: str | bytes | None) -> LiveMessage:
    """One page message: set_value {die, value}, record {on}, match {do, ...}, control {token},
    or sync; else BadLive."""
    if not isinstance(raw, str):
        raise BadLive("send text frames of JSON, not binary frames")
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise BadLive(f"a message may be at most {MAX_FRAME} bytes")
    try:
        data = parse_json(raw, "the message")
    except PlaytableError as err:
        raise BadLive(str(err)) from None
    if not isinstance(data, dict) or data.get("type") not in LIVE_TYPES:
        raise BadLive(f"a message must be a JSON object whose 'type' is one of {', '.join(LIVE_TYPES)}")
    kind = data["type"]
    if kind == "set_value":
        die, value = data.get("die"), data.get("value")
        if not isinstance(die, str) or not 0 < len(die) <= 20 or not die.isprintable():
            raise BadLive("'die' must name a die of the table, like F.d20a or borg")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1000:
            raise BadLive("'value' must be a whole number, one of the die's faces")
        return LiveMessage("set_value", die, value)
    if kind == "match":
        return _match_message(data)
    if kind == "record":
        if not isinstance(data.get("on"), bool):
            raise BadLive("'on' must be true (start recording) or false (stop)")
        return LiveMessage("record", on=data["on"])
    if kind == "control":
        token = data.get("token")
        if not isinstance(token, str) or not 0 < len(token) <= MAX_PRESENTED:
            raise BadLive("'token' must be the table's control token")
        return LiveMessage("control", token=token)
    return LiveMessage("sync")


def _match_message(data: dict[str, Any]) -> LiveMessage:
    """A player's confirmation for the match: match {do, seat?, parity?, die?, why?}."""
    do = data.get("do")
    if do not in MATCH_DOS:
        raise BadLive(f"'do' must be one of {', '.join(MATCH_DOS)}")
    seat, parity, die, why = data.get("seat", 0), data.get("parity", ""), data.get("die", ""), ""
    if do in ("call", "forfeit") and (not isinstance(seat, int) or isinstance(seat, bool)
                                      or seat not in (0, 1)):
        raise BadLive("'seat' must be 0 (Federation) or 1 (Klingon)")
    if do == "call" and parity not in ("odd", "even"):
        raise BadLive("'parity' must be 'odd' or 'even'")
    if do == "unseen" and (not isinstance(die, str) or not 0 < len(die) <= 20
                           or not die.isprintable()):
        raise BadLive("'die' must name a die in the hand of the player to move, like F.d6a")
    if do == "forfeit":
        if data.get("why") not in FORFEIT_WHY:
            raise BadLive(f"'why' must be one of {', '.join(FORFEIT_WHY)}")
        why = FORFEIT_WHY[data["why"]]
    return LiveMessage("match", die=die if do == "unseen" else "", do=do,
                       seat=seat if do in ("call", "forfeit") else 0,
                       parity=parity if do == "call" else "", why=why)


def handle(table: LiveTable, conn: LiveConnection, msg: LiveMessage, operator: str | None) -> None:
    if msg.type == "control":
        conn.controls = token_matches(msg.token, table.control, operator)
        if conn.controls:
            conn.push({"type": "control", "granted": True})
        else:
            conn.push(error("forbidden", "that is not this table's control token"))
        return
    if msg.type in CONTROL_TYPES and not conn.controls:
        conn.push(error("forbidden", "only the table's operator may do that: open the page with "
                                     "its control link (the operator page lists it)"))
        return
    try:
        if msg.type == "match":
            table.act(msg.do, msg.seat, msg.parity, msg.die, msg.why)
        elif msg.type == "set_value":
            table.enter_value(msg.die, msg.value)
        elif msg.type == "record":
            if msg.on:
                table.start_recording()
            else:
                table.stop_recording()
        else:
            conn.push(table.welcome())
            if table.tuio.last_report is not None:
                conn.push_frame({"type": "frame", "seq": table.seq, "report": table.tuio.last_report})
    except PlaytableError as err:
        conn.push(error("bad_message", str(err)))


def spec_from_request(body: Any, tables: LiveTables) -> LiveSpec:
    """A live table's settings from the lobby's request; PlaytableError for anything wrong."""
    if not isinstance(body, dict):
        raise BadLive("the request body must be a JSON object")
    unknown = set(body) - {"tuio_port", "replay", "dice", "variant"}
    if unknown:
        raise BadLive(f"unknown field '{sorted(unknown)[0][:30]}'")
    port, replay = body.get("tuio_port"), body.get("replay")
    if port is not None and (not isinstance(port, int) or isinstance(port, bool)
                             or not (port == 0 or 1024 <= port <= 65535)):
        raise BadLive("'tuio_port' must be a UDP port from 1024 to 65535 (or 0: any free port)")
    if replay is not None and not isinstance(replay, str):
        raise BadLive("'replay' must be 'sample' or the name of a recording the lobby lists")
    if port is None and replay is None:
        raise BadLive("a live table needs a TUIO source: a 'tuio_port', a 'replay', or both")
    dice = body.get("dice", "sample")
    if not isinstance(dice, str) or len(dice) > MAX_DICE_MAP or not dice.strip():
        raise BadLive(f"'dice' must be 'sample' or a dice map of at most {MAX_DICE_MAP} characters")
    # a client never names a file: 'sample' is the shipped map, anything else is the map itself
    dice_map = load_dice_map(str(sample_file("dice"))) if dice == "sample" else parse_dice_map(dice)
    variant = body.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise BadLive("'variant' must be a Star Dice variant name")
    params = resolve_params(StarDiceParams, VARIANTS, variant) if variant else StarDiceParams()
    return LiveSpec(dice_map, params, "127.0.0.1", port,
                    tables.recording_path(replay) if replay is not None else None)


def _refused(operator: str | None) -> JSONResponse:
    if operator is None:
        return JSONResponse({"error": "this server starts no live tables from the web; its "
                             "operator starts them with playtable stardice table"}, status_code=403)
    return JSONResponse({"error": "live tables are the operator's: send the operator token that "
                         "the server printed at start (Authorization: Bearer TOKEN)"}, status_code=403)


def _listed(tables: LiveTables, operator: bool, there: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """This node's live tables, then the other nodes' (`there`; an id two nodes run, each a
    `main` from its command line, once: its page reaches this node's). A control link goes only
    to the page that presented the operator's token, and only for this node's tables: another
    node's table is controlled with that node's operator token, on its own page."""
    here = [{**t.summary(), **({"control": t.control} if operator else {})} for t in tables.tables.values()]
    known = {t["id"] for t in here}
    for summary in there:
        if summary["id"] not in known:
            known.add(summary["id"])
            here.append(summary)
    return here


def live_routes(get: Callable[[], LiveTables], page: Callable[[str], Callable[[Request], Any]],
                rate: float, operator: str | None = None,
                elsewhere: Callable[[], Awaitable[list[dict[str, Any]]]] | None = None) -> list[BaseRoute]:
    """The routes (`page(name)`: the route of a static page); `operator`: the operator's token
    (None: no table is started from the web); `elsewhere`: the summaries of the live tables the
    site's other nodes run (None: one machine)."""

    def is_operator(request: Request) -> bool:
        return token_matches(bearer(request.headers), operator)

    async def listing(request: Request) -> Response:
        tables = get()
        there = [] if elsewhere is None else await elsewhere()
        return JSONResponse({"tables": _listed(tables, is_operator(request), there),
                             "recordings": ["sample", *tables.recordings()]})

    async def create(request: Request) -> Response:
        if not is_operator(request):
            return _refused(operator)
        raw = await request.body()
        try:
            if len(raw) > 16 * 1024:
                raise BadLive("the request body is too large")
            body = parse_json(raw.decode("utf-8", "replace"), "the request body") if raw else {}
            table = await get().create(spec_from_request(body, get()))
        except BadLive as err:
            return JSONResponse({"error": err.message}, status_code=400)
        except PlaytableError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        return JSONResponse({**table.summary(), "control": table.control}, status_code=201)

    async def one(request: Request) -> Response:
        table = get().tables.get(request.path_params["live_id"])
        if table is None:
            return JSONResponse({"error": "there is no such live table"}, status_code=404)
        return JSONResponse(table.summary())

    async def close(request: Request) -> Response:
        table = get().tables.get(request.path_params["live_id"])
        if table is None or not token_matches(bearer(request.headers), table.control, operator):
            if table is None and is_operator(request):
                return JSONResponse({"error": "there is no such live table"}, status_code=404)
            return _refused(operator)
        await get().remove(table.id, "the operator closed this table")
        return Response(status_code=204)

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        table = get().tables.get(ws.path_params["live_id"])
        if table is None:
            wanted = ws.path_params["live_id"][:40]
            await ws.send_json(error("not_found", f"there is no live table '{wanted}'"))
            await ws.close(code=1008)
            return
        conn = table.connect()

        async def on_frame(raw: str | bytes | None) -> None:
            try:
                msg = parse_live_message(raw)
            except BadLive as bad:
                conn.push(error("bad_message", bad.message))
                return
            handle(table, conn, msg, operator)

        try:
            await pump(ws, conn, rate, on_frame)
        finally:
            table.leave(conn)

    return [
        Route("/live/{live_id}", page("live.html")),
        Route("/operator", page("operator.html")),
        Route("/api/live", listing, methods=["GET"]),
        Route("/api/live", create, methods=["POST"]),
        Route("/api/live/{live_id}", one, methods=["GET"]),
        Route("/api/live/{live_id}", close, methods=["DELETE"]),
        WebSocketRoute("/ws/live/{live_id}", socket),
    ]
