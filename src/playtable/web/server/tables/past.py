"""A table's past for anyone who asks (the replay viewer's steps, the record, a position):
computed in the `public` worker, never on the event loop, at most once per table, step and view
(a finished table's past never changes, and a running table's only grows), kept in a cache of
bounded size, and refused with 503 when too many strangers' requests are already waiting.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable

from playtable.web.server.store.rate_limits import Budgets

CACHE_BYTES = 64 * 1024 * 1024
"""The encoded replays and positions kept, in bytes (the least recently used go first)."""
MAX_WAITING = 8
"""Requests that may wait for the public worker at once; past that a request gets 503."""
PER_ADDRESS_PER_MINUTE = 30.0
"""Pasts one client network may fetch a minute (bursts of as many): even from the cache, a long
game's replay is megabytes to send, and a loop of them takes the server's time from players.
With several table-owning processes the count is the whole server's (`budgets`)."""


class Busy(Exception):
    """Too many requests for the past are waiting: the client should try again later."""


class PastCache:
    def __init__(self, limit: int = CACHE_BYTES, max_waiting: int = MAX_WAITING,
                 per_minute: float = PER_ADDRESS_PER_MINUTE) -> None:
        self.limit, self.max_waiting = limit, max_waiting
        self.per_minute = per_minute
        self.budgets = Budgets()
        """Replaced by the hub's (`rate_limits.Budgets`): with several processes a network then
        gets `per_minute` from all of them together, as its tables and names a minute do."""
        self.kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self.size = 0
        self.pending: dict[Hashable, asyncio.Future[bytes]] = {}

    def admit(self, network: str) -> bool:
        """Whether `network` (`networks.network_of`) may fetch another past now."""
        return self.budgets.allow("pasts", network, self.per_minute)

    async def get(self, key: Hashable, compute: Callable[[], Awaitable[bytes]]) -> bytes:
        """The bytes for `key`, from the cache, from the same computation already running, or
        computed now (Busy when too many are already waiting)."""
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
            return found
        running = self.pending.get(key)
        if running is not None:
            return await asyncio.shield(running)
        if len(self.pending) >= self.max_waiting:
            raise Busy("the server is busy rebuilding other tables' pasts; try again in a moment")
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.pending[key] = future
        try:
            data = await compute()
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: waiters re-raise it, nobody else must log it
            raise
        finally:
            self.pending.pop(key, None)
        future.set_result(data)
        self._keep(key, data)
        return data

    def _keep(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.limit:
            return
        self.kept[key] = data
        self.size += len(data)
        while self.size > self.limit:
            _, dropped = self.kept.popitem(last=False)
            self.size -= len(dropped)
