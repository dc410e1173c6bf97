"""The server's front door: what every HTTP request and WebSocket handshake must be before any
route sees it, and the headers every answer carries (docs/web.md, "Facing a network").

- **Host** must be one the operator allowed (`--allowed-hosts`, the `--public-url`'s host) or,
  by default, a loopback name or an IP address written as such. A DNS-rebinding page reaches
  the server under its own domain name, which is in no such list, so it gets 400 and nothing
  else.
- **Origin**, when a browser sends one (every WebSocket handshake, every cross-site POST), must
  be this server's own (the Host it was reached under, or the public URL): another site's page
  cannot drive the API or open a table socket blind.
- **Bodies** of POSTs are `application/json` (a `text/plain` POST is what a foreign form or
  `fetch` may send without a CORS preflight: 415) and at most `max_body` bytes: a larger
  `Content-Length` is refused before reading, and a body without one is counted as it streams
  and cut off at the limit (413).
- **Headers**: a strict Content-Security-Policy (scripts, styles and connections from this
  origin only; no frames), `nosniff`, `no-referrer` (seat tokens sit in page URLs), no framing,
  and `no-store` on the API (its answers carry seat tokens).

A pure ASGI middleware, so WebSocket handshakes pass through the same checks as requests.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024
"""The largest request body any route reads, in bytes."""

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; font-src 'self'; media-src 'self'; manifest-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


def host_name(host_header: str) -> str:
    """The name part of a Host header (`example.org:8000` -> `example.org`, `[::1]:80` -> `::1`),
    lower-cased; '' when it cannot be read."""
    text = host_header.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        return text[1:end] if end > 0 else ""
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Policy:
    """Who may reach the server. `allowed_hosts`: names (no port) the Host header may carry
    besides loopback names and IP literals; a leading `.` allows subdomains, `*` anything
    (not recommended). `public_url`: the address people use (behind a proxy), whose host and
    origin are allowed too."""

    allowed_hosts: frozenset[str] = frozenset()
    public_url: str | None = None
    max_body: int = MAX_BODY
    public_origin: str | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.public_url:
            parts = urlsplit(self.public_url)
            object.__setattr__(self, "public_origin", f"{parts.scheme}://{parts.netloc}".lower())
            object.__setattr__(self, "allowed_hosts",
                               self.allowed_hosts | {(parts.hostname or "").lower()})

    @classmethod
    def of(cls, hosts: Iterable[str] = (), public_url: str | None = None) -> Policy:
        return cls(frozenset(h.strip().lower() for h in hosts if h.strip()), public_url)

    def host_ok(self, host_header: str) -> bool:
        name = host_name(host_header)
        if not name:
            return False
        if name in LOOPBACK_NAMES or _is_ip(name) or "*" in self.allowed_hosts:
            return True
        return any(name == h or (h.startswith(".") and (name.endswith(h) or name == h[1:]))
                   for h in self.allowed_hosts)

    def origin_ok(self, origin: str, host_header: str) -> bool:
        """Same origin: the Origin's host and port are the Host the request came under, or the
        public URL's origin."""
        origin = origin.strip().lower()
        if self.public_origin is not None and origin == self.public_origin:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc == host_header.strip().lower()


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


class Guard:
    """The middleware (see the module's documentation)."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        host = headers.get("host", "")
        refusal = self._refusal(kind, scope, headers, host)
        if refusal is not None:
            status, message = refusal
            if kind == "websocket":
                # Refused during the handshake: the browser sees a failed connection (403).
                await send({"type": "websocket.http.response.start", "status": status,
                            "headers": [(b"content-type", b"application/json")]})
                await send({"type": "websocket.http.response.body",
                            "body": json.dumps({"error": message}).encode()})
                return
            await send_json(send, status, {"error": message})
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        api = scope.get("path", "").startswith("/api/")
        await self.app(scope, self._capped(receive, send), self._decorate(send, api))

    def _refusal(self, kind: str, scope: Scope, headers: dict[str, str],
                 host: str) -> tuple[int, str] | None:
        if not self.policy.host_ok(host):
            return 400, ("this server is not reached under that name (Host header); its operator "
                         "may allow it with --allowed-hosts")
        origin = headers.get("origin")
        unsafe = kind == "websocket" or scope.get("method", "GET") not in ("GET", "HEAD", "OPTIONS")
        if unsafe and origin is not None and not self.policy.origin_ok(origin, host):
            return 403, "requests from another site's pages are refused (Origin)"
        if kind == "http" and scope.get("method") == "POST":
            content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            length = headers.get("content-length", "0").strip() or "0"
            if not length.isdigit():
                return 400, "the Content-Length header is not a number"
            if int(length) > 0 and content_type != "application/json":
                return 415, "a request body must be JSON, sent as Content-Type: application/json"
            if int(length) > self.policy.max_body:
                return 413, f"the request body is too large (at most {self.policy.max_body} bytes)"
            if "transfer-encoding" in headers and content_type != "application/json":
                return 415, "a request body must be JSON, sent as Content-Type: application/json"
        return None

    def _capped(self, receive: Receive, send: Send) -> Receive:
        """`receive` that ends a body past the limit: the route reading it gets an empty,
        finished body and the client 413 (counted as the chunks arrive, never buffered)."""
        limit, seen = self.policy.max_body, 0

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        return capped

    def _decorate(self, send: Send, api: bool) -> Send:
        async def decorated(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = list(SECURITY_HEADERS)
                if api:
                    extra.append((b"cache-control", b"no-store"))
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in extra if h[0] not in present)]
            await send(message)

        return decorated


class BodyTooLarge(Exception):
    """Raised from `receive` when a streamed body passes the limit; the app answers 413."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body is too large (at most {limit} bytes)")
        self.limit = limit


async def send_json(send: Send, status: int, body: dict[str, Any],
                    headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """A JSON answer that closes its connection, with the security headers (and `headers`)."""
    data = json.dumps(body).encode()
    # A refused request's connection is closed, so a body it was still sending is not read on.
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close"),
                            (b"content-length", str(len(data)).encode()), *SECURITY_HEADERS, *headers]})
    await send({"type": "http.response.body", "body": data})
