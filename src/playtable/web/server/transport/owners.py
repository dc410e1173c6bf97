"""Which of a server's N table-owning processes owns what (docs/web.md, "Beyond one process").

A table belongs to the process whose number is `crc32(table id) % N`: the id alone says where
its connections go, so the front needs no lookup and no shared state. The creating process draws
ids until one is its own, so a new table (and a rematch, made by the process that holds the old
table) stays where it was made. A playtest is routed by its id the same way (its tester slots are
handed out under a lock held in one process), and the live tables (Star Dice on a real table,
held in memory with their TUIO listener) all belong to process 0. Anything else (pages, the lobby's
lists, new tables, names) may be served by any process.

A request that reaches the wrong process anyway (a later request on a kept-alive connection)
is redirected by `OwnerCheck`. With N = 1 everything is process 0's, an id is drawn once and
nothing is checked: one process is today's server.
"""

from __future__ import annotations

import secrets
import zlib
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

MAX_PROCESSES = 64
TABLE_ID_BYTES = 6
"""A table id is `secrets.token_urlsafe(6)`: 8 URL-safe characters."""

_ROUTED = ("/ws/tables/", "/api/tables/", "/api/playtests/")
"""Paths whose next segment is the id of a table or a playtest."""
_LIVE = ("/ws/live/", "/api/live")
_PAGES = ("/t/", "/p/")
"""A table's page (and its replay) and a playtest's page: any process can serve them (static
files), but the requests the page then makes belong to the table's (the playtest's) owner."""


def owner_of(key: str, count: int) -> int:
    """The process (0..count-1) that owns a table or playtest id: stable across processes and
    restarts (crc32, not Python's salted `hash`)."""
    return zlib.crc32(key.encode("utf-8", "surrogatepass")) % count


def routed_key(path: str) -> str | None:
    """The table or playtest id a request for `path` names (its owner must serve it), or None
    (`/ws/tables/ID`, `/api/tables/ID/...`, `/api/playtests/ID...`: the id is the next segment)."""
    for prefix in _ROUTED:
        if path.startswith(prefix):
            return path[len(prefix):].split("/", 1)[0] or None
    return None


def live_key(path: str) -> str | None:
    """The live table a request for `path` names (`/ws/live/ID`, `/api/live/ID`), or None."""
    for prefix in ("/ws/live/", "/api/live/"):
        if path.startswith(prefix):
            return path[len(prefix):].split("/", 1)[0] or None
    return None


def route(path: str, count: int) -> int | None:
    """The process a request for `path` must reach, or None when any process may serve it."""
    if count == 1:
        return 0
    key = routed_key(path)
    if key is not None:
        return owner_of(key, count)
    if path.startswith(_LIVE):
        return 0
    return None


def preferred(path: str, referer: str | None, count: int) -> int | None:
    """The process a new connection is handed to (the front): the owner of what its first
    request names (`route`), else the owner of the table or playtest whose page it asks for or
    was asked from (its Referer's path), so that every connection of a table's page reaches the
    owner and the page's kept-alive connections need no redirect; None: any process."""
    where = route(path, count)
    if where is not None:
        return where
    for candidate in (path, referer or ""):
        for prefix in _PAGES:
            if candidate.startswith(prefix):
                key = candidate[len(prefix):].split("/", 1)[0]
                if key:
                    return owner_of(key, count)
    return None


@dataclass(frozen=True)
class Owner:
    """This process's number among `count` table-owning processes."""

    index: int = 0
    count: int = 1

    def __post_init__(self) -> None:
        if not (1 <= self.count <= MAX_PROCESSES and 0 <= self.index < self.count):
            raise ValueError(f"process {self.index} of {self.count} is not a valid owner")

    def owns(self, key: str) -> bool:
        return self.count == 1 or owner_of(key, self.count) == self.index

    def serves(self, path: str) -> bool:
        """Whether a request for `path` belongs here (else it goes to `route(path, count)`)."""
        where = route(path, self.count)
        return where is None or where == self.index

    def new_table_id(self) -> str:
        """A fresh table id this process owns (about `count` draws on average)."""
        while True:
            table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
            if self.owns(table_id):
                return table_id


class OwnerCheck:
    """ASGI middleware in each worker: a request that belongs to another worker (it came on a
    connection kept alive from an earlier request) is answered with a redirect to the same
    address and `Connection: close`, so the client's next try is a new connection the front
    routes to the owner. Browsers open a WebSocket on a connection of its own, so a WebSocket
    always arrives first on its connection and is routed; one that does not is refused."""

    def __init__(self, app: ASGIApp, owner: Owner) -> None:
        self.app, self.owner = app, owner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.owner.serves(scope["path"]):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1013})
            return
        target = scope.get("raw_path") or scope["path"].encode()
        if scope.get("query_string"):
            target += b"?" + scope["query_string"]
        await send({"type": "http.response.start", "status": 307,
                    "headers": [(b"location", target), (b"connection", b"close"),
                                (b"content-length", b"0"), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": b""})
