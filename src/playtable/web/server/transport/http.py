"""What every HTTP route shares: the static pages, the client's network, a request's JSON body
(bounded as it streams) and the answers to errors (one JSON sentence, never a traceback)."""

from __future__ import annotations

import logging
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.websockets import WebSocket

from playtable.core.errors import PlaytableError
from playtable.core.jsonio import parse_json
from playtable.web.server.context import server_of
from playtable.web.server.tables.table_request import BadRequest
from playtable.web.server.transport.guard import MAX_BODY, BodyTooLarge
from playtable.web.server.transport.networks import IPV6_PREFIX, network_of

log = logging.getLogger("playtable.web")

STATIC = Path(str(resources.files("playtable.web") / "static"))


def page(name: str) -> Any:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")

    return page


def json_error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def client_of(request: Request | WebSocket) -> str:
    """The client's network, whose budgets every request spends (`networks.py`): that of its
    address (the proxy's X-Forwarded-For when uvicorn is told to trust it)."""
    address = request.client.host if request.client else ""
    limits = server_of(request).limits
    return network_of(address, IPV6_PREFIX if limits is None else limits.ipv6_prefix)


async def read_body(request: Request) -> Any:
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


async def bad_request(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadRequest)
    return json_error(exc.message, exc.status)


async def too_large(request: Request, exc: Exception) -> Response:
    answer = json_error(str(exc), 413)
    answer.headers["connection"] = "close"  # the rest of the body is not read
    return answer


async def server_error(request: Request, exc: Exception) -> Response:
    # Never a traceback or a plain-text page: one sentence, and the details in the log.
    log.error("error serving %s %s", request.method, request.url.path, exc_info=exc)
    return json_error("the server met an error it did not expect; it is logged", 500)


EXCEPTION_HANDLERS = {BadRequest: bad_request, BodyTooLarge: too_large, Exception: server_error}
"""The app's answers to what a route raises."""
