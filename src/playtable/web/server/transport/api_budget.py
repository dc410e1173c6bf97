"""Every client network's budget of API requests (docs/web.md, "Fair use"): the server's event
loop is shared by everyone at its tables, and an API request costs it 0.4-3 ms of CPU (the
lobby's list of tables in play the most), so one client asking back to back would otherwise
hold most of it. Each network (`networks.network_of`, an IPv6 /64 as one) may make
`per_minute` requests to `/api/` a minute, in bursts of as many; past that it is answered 429
with `Retry-After` as the guard refuses (its connection closed: a body it was sending is not
read), before any route runs. Pages and static files are not counted: they cost
little, and a school's page loads come from one address. WebSockets have their own limits (the
messages of each socket, the sockets of each address).

The buckets are this process's (`rate_limits.Budgets` in memory): asking a shared store at
every request would cost more than most requests do. With `serve --processes N` or several
nodes a network can so spend N budgets, still a bounded share.
"""

from __future__ import annotations

import math

from playtable.web.server.store.rate_limits import Budgets
from playtable.web.server.transport.guard import ASGIApp, Receive, Scope, Send, send_json
from playtable.web.server.transport.networks import network_of

API_REQUESTS_PER_MINUTE = 1200.0
"""The default budget: 20 requests a second on average, and a burst of 1,200 (a lobby's first
load makes about five)."""


class ApiBudget:
    """The middleware (see the module's documentation)."""

    def __init__(self, app: ASGIApp, per_minute: float, ipv6_prefix: int) -> None:
        self.app, self.per_minute, self.ipv6_prefix = app, per_minute, ipv6_prefix
        self.budgets = Budgets()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope.get("path", "").startswith("/api/"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        network = network_of(client[0] if client else "", self.ipv6_prefix)
        if self.budgets.allow("api", network, self.per_minute):
            await self.app(scope, receive, send)
            return
        wait = max(1, math.ceil(60.0 / self.per_minute))
        await send_json(send, 429, {"error": f"too many requests from your network; wait {wait} s"},
                        ((b"retry-after", str(wait).encode()),))
