"""A request that reaches a node which does not hold its table is sent on to the node that does
(docs/web.md, "Several machines"): the proxy in front of the nodes hashes the table id, but a
table stays with the node that holds it when nodes come and go, so its requests may land on
another one. `Forward` is the outermost ASGI middleware of a node (`create_app(..., node=...)`):

- **Out**: a request naming a table or playtest (`owners.routed_key`: `/ws/tables/ID`,
  `/api/tables/ID/...`, `/api/playtests/ID...`) asks `locate(ID)`, one naming a live table
  (`owners.live_key`: `/ws/live/ID`, `/api/live/ID`) `locate_live(ID)`; a URL (another live
  node's `Node.url`, as the store has it: never an address a client named) sends the request
  there, HTTP through one kept-alive httpx2 client, a WebSocket through the `websockets` client,
  both directions, close codes passed on. None serves it here.
- **Bounded**: a body is read up to the server's own limit (`guard.MAX_BODY`, else 413) before
  it travels; connecting and reading have timeouts; at most `ForwardLimits.requests` HTTP
  forwards and `ForwardLimits.sockets` forwarded WebSockets are open at once in this process,
  and one client network (`networks.network_of`, of the address uvicorn reports: behind the
  proxy its X-Forwarded-For, believed only from `--forwarded-allow-ips`) holds at most a
  quarter of each (`requests_per_network`, `sockets_per_network`), so that one network cannot
  lock everyone else out of the tables that moved (more: 503 / close 1013 at once, nothing
  queued).
- **Unreachable owner**: HTTP 503 with Retry-After, a WebSocket accepted and closed with 1013
  ("try again later"); the table's page reconnects with its backoff (`static/js/connection.js`).
- **In**: the owner must see the client's address (every per-address and per-network budget is
  spent by it), and the Host and Origin the client sent (the guard checks them). The forwarding
  node sends them in `x-playtable-node-*` headers with an HMAC-SHA256 of them (and of the
  method, the target and the time) under the nodes' shared secret; the owner believes them only
  when the HMAC is right and at most `SIGNATURE_SECONDS` old, and strips every such header from
  every request first, so a client's own is ignored. An HMAC rather than the secret itself: the
  secret never travels, even over a private network in clear, and a captured request cannot be
  replayed with another address, path or time. A forwarded request is served where it arrives,
  never sent on again (one hop: two nodes that disagree cannot bounce a request between them).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.typing import Origin, Subprotocol

from playtable.web.server.transport.guard import (
    MAX_BODY,
    SECURITY_HEADERS,
    ASGIApp,
    Message,
    Receive,
    Scope,
    Send,
    send_json,
)
from playtable.web.server.transport.networks import IPV6_PREFIX, network_of
from playtable.web.server.transport.nodes import Locate, Node
from playtable.web.server.transport.owners import live_key, routed_key

if TYPE_CHECKING:  # imported where a request is sent on: httpx2 is the `server` extra's
    import httpx2

log = logging.getLogger("playtable.web")


PREFIX = b"x-playtable-node-"
CLIENT, HOST, ORIGIN, SCHEME, TIME, SIGNATURE = (
    PREFIX + name for name in (b"client", b"host", b"origin", b"scheme", b"time", b"signature"))
SIGNATURE_SECONDS = 60.0
"""How old a forwarded request's signature may be (the nodes' clocks are kept by NTP)."""
FORWARDED = "playtable.forwarded"
"""The scope key set on a request another node forwarded here (it is never sent on again)."""
RETRY_AFTER = b"2"
TRY_AGAIN_LATER = 1013
"""The WebSocket close code for "the table's node is unreachable now" (RFC 6455 §7.4.1's
registry): the page's connection reconnects with its backoff."""
MAX_MESSAGE = 1 << 20
"""The largest WebSocket message either way, as the server's own (`processes.uvicorn_options`)."""
HOP_BY_HOP = frozenset({b"connection", b"keep-alive", b"proxy-authenticate", b"proxy-authorization",
                        b"te", b"trailer", b"trailers", b"transfer-encoding", b"upgrade", b"host",
                        b"content-length", b"x-forwarded-for", b"x-forwarded-proto", b"forwarded"})
"""Headers that describe one connection, not the request, and the front proxy's word on the
client (already in the scope; the owner has the signed one): never passed on."""
UNREACHABLE = "the table's server cannot be reached just now; try again in a moment"
BUSY = ("this server is sending on as many requests for tables held elsewhere as it may (from your "
        "network, or in all); try again in a moment")


@dataclass(frozen=True)
class ForwardLimits:
    """What one process's forwarding may hold at once, and for how long."""

    requests: int = 64
    """HTTP requests being forwarded at once."""
    sockets: int = 1024
    """Forwarded WebSockets open at once (each a table's page being played or watched)."""
    requests_per_network: int = 16
    """Of `requests`, what one client network may hold at once (a quarter: four networks at
    least share the bound, as the other shared things are budgeted, docs/web.md "Fair use")."""
    sockets_per_network: int = 256
    """Of `sockets`, what one client network may hold open at once (a quarter)."""
    connect_seconds: float = 3.0
    body_seconds: float = 10.0
    """The longest a client may take to send a request's body (at most `max_body` bytes): a
    body sent a byte at a time would hold its slot for as long as the client liked."""
    read_seconds: float = 45.0
    """The longest an owner may take to answer (longer than a bot's move, `app.BOT_SECONDS`)."""
    max_body: int = MAX_BODY


class Slots:
    """What is held at once of one bound (`total`), of which one client network may hold
    `per_network`: a slot is taken at once or refused, never waited for."""

    def __init__(self, total: int, per_network: int) -> None:
        self.total, self.per_network = total, per_network
        self.held = 0
        self.by_network: dict[str, int] = {}

    def take(self, network: str) -> bool:
        """Whether `network` may hold one more slot; if so it is counted."""
        mine = self.by_network.get(network, 0)
        if self.held >= self.total or mine >= self.per_network:
            return False
        self.held += 1
        self.by_network[network] = mine + 1
        return True

    def give(self, network: str) -> None:
        """A slot `network` took is given back."""
        self.held -= 1
        left = self.by_network.get(network, 1) - 1
        if left > 0:
            self.by_network[network] = left
        else:
            self.by_network.pop(network, None)


def sign(secret: str, fields: Iterable[bytes]) -> bytes:
    """The HMAC-SHA256 (hex) of `fields` joined by newlines (none of them holds one)."""
    return hmac.new(secret.encode(), b"\n".join(fields), hashlib.sha256).hexdigest().encode()


def _target(scope: Scope) -> bytes:
    target: bytes = scope.get("raw_path") or scope["path"].encode()
    query: bytes = scope.get("query_string", b"")
    return target + b"?" + query if query else target


def _signed_fields(scope: Scope, values: dict[bytes, bytes]) -> list[bytes]:
    method = scope.get("method", "GET").encode() if scope["type"] == "http" else b"WEBSOCKET"
    return [values.get(name, b"") for name in (CLIENT, HOST, ORIGIN, SCHEME, TIME)] + \
        [method, _target(scope)]


def forwarded_headers(scope: Scope, secret: str, now: float | None = None) -> list[tuple[bytes, bytes]]:
    """The signed headers that tell the owner who the client is (see the module's documentation)."""
    client = scope.get("client") or ("", 0)
    headers = dict(scope.get("headers", []))
    values = {CLIENT: str(client[0]).encode(), HOST: headers.get(b"host", b""),
              ORIGIN: headers.get(b"origin", b""), SCHEME: scope.get("scheme", "http").encode(),
              TIME: str(int(now if now is not None else time.time())).encode()}
    return [*values.items(), (SIGNATURE, sign(secret, _signed_fields(scope, values)))]


def believe(scope: Scope, secret: str, now: float | None = None) -> Scope:
    """`scope` without any `x-playtable-node-*` header; when they carry a right and recent
    signature, with the client's address, Host, Origin and scheme they name, marked FORWARDED."""
    headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
    if not any(name.startswith(PREFIX) for name, _ in headers):
        return scope
    values = {name: value for name, value in headers if name.startswith(PREFIX)}
    kept = [(name, value) for name, value in headers if not name.startswith(PREFIX)]
    scope = {**scope, "headers": kept}
    try:
        age = abs((now if now is not None else time.time()) - int(values.get(TIME, b"")))
    except ValueError:
        return scope
    expected = sign(secret, _signed_fields(scope, values))
    if age > SIGNATURE_SECONDS or not hmac.compare_digest(expected, values.get(SIGNATURE, b"")):
        return scope
    replaced = {b"host": values[HOST], b"origin": values[ORIGIN]}
    kept = [(n, v) for n, v in kept if n not in replaced]
    kept += [(n, v) for n, v in replaced.items() if v]
    return {**scope, "headers": kept, "client": (values[CLIENT].decode("latin-1"), 0),
            "scheme": values[SCHEME].decode("latin-1") or scope.get("scheme", "http"),
            FORWARDED: True}


def _passed_on(scope: Scope, extra_drop: frozenset[bytes] = frozenset()) -> list[tuple[bytes, bytes]]:
    return [(name, value) for name, value in scope.get("headers", [])
            if name not in HOP_BY_HOP and name not in extra_drop]


async def _unreachable(send: Send, why: str = UNREACHABLE) -> None:
    """503 with Retry-After: the owner cannot be reached, or this node is busy (`why`)."""
    data = b'{"error": "' + why.encode() + b'"}'
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"), (b"retry-after", RETRY_AFTER),
                            (b"content-length", str(len(data)).encode()),
                            (b"cache-control", b"no-store"), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": data})


class Forward:
    """The middleware (see the module's documentation). `locate` None: nothing is sent on, but
    requests other nodes forward here are still believed. `ipv6_prefix`: the length of one
    client network's IPv6 prefix (`--ipv6-prefix`), whose share of the bounds it holds.
    `locate_live`: which node runs a live table (None: every live table is served here)."""

    def __init__(self, app: ASGIApp, node: Node, locate: Locate | None,
                 limits: ForwardLimits | None = None, ipv6_prefix: int = IPV6_PREFIX,
                 locate_live: Locate | None = None) -> None:
        self.app, self.node, self.locate, self.locate_live = app, node, locate, locate_live
        self.limits = limits or ForwardLimits()
        self.ipv6_prefix = ipv6_prefix
        self.requests = Slots(self.limits.requests, self.limits.requests_per_network)
        self.sockets = Slots(self.limits.sockets, self.limits.sockets_per_network)
        self._client: httpx2.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, self._closing(receive), send)
            return
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope = believe(scope, self.node.secret)
        try:
            owner = await self._owner(scope)
        except Exception:  # the store cannot say now who holds the table: as an unreachable owner
            log.exception("no node could be found for %s", scope["path"])
            await self._unreachable(scope, receive, send)
            return
        if owner is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await self._forward_http(owner, scope, receive, send)
        else:
            await self._forward_socket(owner, scope, receive, send)

    @staticmethod
    async def _unreachable(scope: Scope, receive: Receive, send: Send) -> None:
        """503 with Retry-After, or a socket closed with 1013: try again in a moment."""
        if scope["type"] == "http":
            await _unreachable(send)
        elif (await receive())["type"] == "websocket.connect":
            await _close_socket(send, TRY_AGAIN_LATER, "the table's server is unreachable")

    def _network(self, scope: Scope) -> str:
        """The client's network: of the address uvicorn reports (behind the proxy its
        X-Forwarded-For, believed only from `--forwarded-allow-ips`), never of a header the
        client sent itself (a request carrying the nodes' signed headers is never sent on)."""
        client = scope.get("client") or ("", 0)
        return network_of(str(client[0]), self.ipv6_prefix)

    async def _owner(self, scope: Scope) -> str | None:
        """The URL of the node this request must be sent to, or None: serve it here."""
        if scope.get(FORWARDED):
            return None
        key, locate = routed_key(scope["path"]), self.locate
        if key is None:
            key, locate = live_key(scope["path"]), self.locate_live
        if key is None or locate is None:
            return None
        where = await locate(key)
        return None if where is None or where.rstrip("/") == self.node.url else where.rstrip("/")

    def _closing(self, receive: Receive) -> Receive:
        """The lifespan's receive, closing the HTTP client's connections when the server stops."""
        async def wrapped() -> Message:
            message = await receive()
            if message["type"] == "lifespan.shutdown" and self._client is not None:
                await self._client.aclose()
                self._client = None
            return message
        return wrapped

    @property
    def client(self) -> httpx2.AsyncClient:
        import httpx2

        if self._client is None:  # made in the server's event loop, on the first forward
            timeout = httpx2.Timeout(self.limits.read_seconds, connect=self.limits.connect_seconds,
                                    pool=self.limits.connect_seconds)
            self._client = httpx2.AsyncClient(
                timeout=timeout, trust_env=False, follow_redirects=False,
                limits=httpx2.Limits(max_connections=self.limits.requests,
                                    max_keepalive_connections=self.limits.requests))
        return self._client

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The request's body, or None past `max_body` (the rest is not read)."""
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return body
            body += message.get("body", b"")
            if len(body) > self.limits.max_body:
                return None
            if not message.get("more_body"):
                return body

    async def _forward_http(self, owner: str, scope: Scope, receive: Receive, send: Send) -> None:
        declared = dict(scope.get("headers", [])).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > self.limits.max_body:  # refused before reading
            await send_json(send, 413, {"error": f"the body is over {self.limits.max_body} bytes"})
            return
        network = self._network(scope)
        if not self.requests.take(network):
            await _unreachable(send, BUSY)
            return
        try:
            try:
                async with asyncio.timeout(self.limits.body_seconds):
                    body = await self._read_body(receive)
            except TimeoutError:
                await send_json(send, 408, {"error": "the request's body did not arrive in time"})
                return
            if body is None:
                await send_json(send, 413, {"error": f"the body is over {self.limits.max_body} bytes"})
                return
            answer = await self._send_on(owner, scope, body, send)
            if answer is None:
                return
            try:
                await send({"type": "http.response.start", "status": answer.status_code,
                            "headers": [(n, v) for n, v in answer.headers.raw
                                        if n.lower() not in HOP_BY_HOP - {b"content-length"}]})
                async for chunk in answer.aiter_raw():
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                await send({"type": "http.response.body", "body": b""})
            finally:
                await answer.aclose()
        finally:
            self.requests.give(network)

    async def _send_on(self, owner: str, scope: Scope, body: bytes, send: Send) -> httpx2.Response | None:
        """The owner's answer, its body still to stream; None when it could not be had (503 or
        504 answered). An owner with several processes answers a request that reached the wrong
        one of them on a kept-alive connection with a redirect to the same address and
        `Connection: close` (`owners.OwnerCheck`): sent once more, on a new connection."""
        import httpx2

        target = _target(scope)
        headers = _passed_on(scope) + forwarded_headers(scope, self.node.secret)
        for attempt in range(2):
            request = self.client.build_request(scope["method"], owner + target.decode("latin-1"),
                                                headers=headers, content=body)
            try:
                answer = await self.client.send(request, stream=True)
            except (httpx2.ReadTimeout, httpx2.WriteTimeout):  # reached, but too slow
                await send_json(send, 504, {"error": "the table's server did not answer in time"})
                return None
            except httpx2.TransportError as err:  # refused, unreachable, or gone mid-request
                log.warning("a request for %s could not reach its node %s: %r", scope["path"], owner, err)
                await _unreachable(send)
                return None
            if attempt == 0 and answer.status_code == 307 and \
                    answer.headers.get("location", "").encode("latin-1") == target:
                await answer.aclose()
                continue
            return answer
        return answer

    async def _forward_socket(self, owner: str, scope: Scope, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        network = self._network(scope)
        if not self.sockets.take(network):
            await _close_socket(send, TRY_AGAIN_LATER, "this server is busy; try again in a moment")
            return
        try:
            upstream = await self._open_upstream(owner, scope, send)
            if upstream is not None:
                async with upstream:
                    await _pump(upstream, receive, send)
        finally:
            self.sockets.give(network)

    async def _open_upstream(self, owner: str, scope: Scope, send: Send) -> ClientConnection | None:
        """The owner's socket for this one, accepted here; None when the owner refused it (its
        refusal passed back) or could not be reached (closed with 1013)."""
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        drop = frozenset({b"origin", b"sec-websocket-key", b"sec-websocket-version",
                          b"sec-websocket-extensions", b"sec-websocket-protocol", b"user-agent"})
        url = "ws" + owner.removeprefix("http") + _target(scope).decode("latin-1")
        try:
            upstream = await connect(
                url, origin=Origin(origin.decode("latin-1")) if origin else None,
                subprotocols=[Subprotocol(p) for p in scope.get("subprotocols", [])] or None,
                additional_headers=[(n.decode("latin-1"), v.decode("latin-1")) for n, v in
                                    _passed_on(scope, drop) + forwarded_headers(scope, self.node.secret)],
                user_agent_header=headers.get(b"user-agent", b"").decode("latin-1") or None,
                proxy=None, open_timeout=self.limits.connect_seconds, max_size=MAX_MESSAGE,
                close_timeout=self.limits.connect_seconds)
        except InvalidStatus as refused:  # the owner's own answer (403, 404...): passed back
            await send({"type": "websocket.http.response.start",
                        "status": refused.response.status_code,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "websocket.http.response.body", "body": refused.response.body or b""})
            return None
        except (OSError, TimeoutError, InvalidHandshake) as err:  # the page retries (its backoff)
            log.warning("a socket of %s could not reach its node %s: %r", scope["path"], owner, err)
            await _close_socket(send, TRY_AGAIN_LATER, "the table's server is unreachable")
            return None
        await send({"type": "websocket.accept", "subprotocol": upstream.subprotocol})
        return upstream


async def _close_socket(send: Send, code: int, reason: str) -> None:
    """Accepted, then closed with `code`: a close before the accept would reach the browser as a
    failed handshake (1006), and the page could not tell "try again later" from a refusal."""
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": reason})


async def _pump(upstream: ClientConnection, receive: Receive, send: Send) -> None:
    """Messages both ways until one side closes; its close code goes on to the other."""
    async def from_client() -> None:
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                code = int(message.get("code") or 1000)
                await upstream.close(code if code not in (1005, 1006, 1015) else 1001)
                return
            if message["type"] == "websocket.receive":
                text, data = message.get("text"), message.get("bytes")
                await upstream.send(text if text is not None else data or b"")

    async def from_owner() -> None:
        try:
            async for message in upstream:
                key = "text" if isinstance(message, str) else "bytes"
                await send({"type": "websocket.send", key: message})
        except ConnectionClosed:
            pass
        closing = upstream.close_code if upstream.close_code not in (None, 1005, 1006) else TRY_AGAIN_LATER
        with suppress(Exception):  # the client may be gone already
            await send({"type": "websocket.close", "code": closing, "reason": upstream.close_reason or ""})

    tasks = [asyncio.ensure_future(from_client()), asyncio.ensure_future(from_owner())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with suppress(asyncio.CancelledError, Exception):
                await task
