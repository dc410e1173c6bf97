"""One table-owning worker process of `playtable serve --processes N` (docs/web.md, "Beyond one
process"; the front that starts it is `front.py`).

A worker is today's whole server (its own hub, bot workers and store connection over the shared
SQLite file) without a listening socket: the front hands it each connection it owns as a file
descriptor over a Unix socket (SCM_RIGHTS), the request still unread in the kernel (the front
only peeked at it), and the worker adopts it with `loop.connect_accepted_socket` and uvicorn's
own HTTP protocol, so everything after (every WebSocket frame) goes straight from the client to
its owner. A later request on a kept-alive connection that belongs to another worker is answered
with a redirect to the same address and the connection closed (`owners.OwnerCheck`): the client
asks again on a new connection, which the front routes.

What one worker's memory cannot answer alone (the lobby's list of tables in play, a player's
tables and whose turn it is, a player's new name on seats of tables in play) it asks the other
workers (`peers.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import socket
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from playtable.web.server.transport.nodes import Node
from playtable.web.server.transport.owners import Owner
from playtable.web.server.transport.peers import Peers

log = logging.getLogger("playtable.web")


@dataclass
class ServeSettings:
    """What `playtable serve` was told, as every worker needs it (sent to each as JSON)."""

    db: str
    workers: int = 1
    rate_limit: float = 20.0
    record_dir: str | None = None
    public_url: str | None = None
    allowed_hosts: list[str] = field(default_factory=list)
    forwarded_allow_ips: str | None = None
    limits: dict[str, Any] = field(default_factory=dict)
    bot_seconds: float = 30.0
    node_name: str | None = None
    """This server's node among several machines' (`nodes.Node`; None: the only one). Its
    secret is not here: the workers' command line carries these settings."""
    node_url: str | None = None

    def node(self) -> Node | None:
        """This server's node, its secret from the environment (`nodes.NODE_SECRET_ENV`)."""
        if self.node_name is None:
            return None
        return Node.from_environment(self.node_name, self.node_url or "")

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ServeSettings:
        return cls(**json.loads(text))


def uvicorn_options(forwarded_allow_ips: str | None) -> dict[str, Any]:
    """uvicorn's settings for the table server, one process or many."""
    # 1 MiB is the transport's hard limit; the app answers frames over 16 KiB with an error.
    return {"log_level": "warning", "ws_max_size": 1 << 20, "ws": "websockets-sansio",
            "proxy_headers": forwarded_allow_ips is not None,
            "forwarded_allow_ips": forwarded_allow_ips or None, "server_header": False,
            "limit_concurrency": 6000, "timeout_keep_alive": 10,
            "h11_max_incomplete_event_size": 16 * 1024}


def divided_limits(limits: Any, count: int) -> Any:
    """One worker's share of what the whole server may hold (`hub.Limits`): the tables in play
    and the open sockets are held in each worker's memory, so each worker takes 1/count of them
    (rounded up). The per-address rates of tables, names and seats a minute stay whole: the
    workers count them together in the store (`rate_limits.py`); the per-address socket
    limit stays whole in each worker (docs/web.md, "Beyond one process", says why)."""
    return replace(limits, tables=math.ceil(limits.tables / count),
                   connections=math.ceil(limits.connections / count))


def build_app(settings: ServeSettings, owner: Owner | None = None, peers: Peers | None = None) -> Any:
    """The app one process serves (the only one with `--processes 1`, `owner` None)."""
    from playtable.web.server.app import create_app
    from playtable.web.server.live.operator import from_environment
    from playtable.web.server.tables.room import Limits
    from playtable.web.server.transport.guard import Policy

    limits = Limits(**settings.limits)
    if owner is not None and owner.count > 1:
        limits = divided_limits(limits, owner.count)
    return create_app(settings.db, settings.workers, settings.rate_limit,
                      record_dir=Path(settings.record_dir) if settings.record_dir else None,
                      policy=Policy.of(tuple(settings.allowed_hosts), settings.public_url),
                      limits=limits, public_url=settings.public_url,
                      bot_seconds=settings.bot_seconds, owner=owner, peers=peers, tune_collector=True,
                      operator_token=from_environment(), node=settings.node())


async def _adopt(server: Any, channel: socket.socket) -> None:
    """Take each connection the front hands over (one byte and one descriptor a message) into
    uvicorn's protocol, as its own listening socket would; the front closing the channel stops
    the worker."""
    loop = asyncio.get_running_loop()
    while not server.started:
        if server.should_exit:
            return
        await asyncio.sleep(0.02)
    config = server.config

    def protocol() -> asyncio.Protocol:
        made: asyncio.Protocol = config.http_protocol_class(
            config=config, server_state=server.server_state, app_state=server.lifespan.state, _loop=loop)
        return made

    async def adopt(fd: int) -> None:
        sock = socket.socket(fileno=fd)
        try:
            sock.setblocking(False)
            await loop.connect_accepted_socket(protocol, sock)
        except OSError as err:  # the client left meanwhile
            log.info("a handed-over connection could not be adopted: %s", err)
            sock.close()

    readable = asyncio.Event()
    loop.add_reader(channel.fileno(), readable.set)
    try:
        while not server.should_exit:
            await readable.wait()
            readable.clear()
            while True:
                try:
                    message, fds, _flags, _address = socket.recv_fds(channel, 16, 8)
                except BlockingIOError:
                    break
                if not message and not fds:  # the front is gone
                    server.should_exit = True
                    return
                for fd in fds:
                    loop.create_task(adopt(fd))
    finally:
        loop.remove_reader(channel.fileno())


async def _serve_worker(server: Any, channel_fd: int) -> None:
    channel = socket.socket(fileno=channel_fd)
    channel.setblocking(False)
    adopting = asyncio.get_running_loop().create_task(_adopt(server, channel))
    try:
        await server.serve(sockets=[])
    finally:
        adopting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await adopting
        channel.close()


def worker_main(argv: list[str]) -> None:
    """`python -m playtable.web.server.transport.processes INDEX COUNT CHANNEL_FD PEER_DIR SETTINGS_JSON`."""
    index, count, channel_fd = int(argv[0]), int(argv[1]), int(argv[2])
    settings = ServeSettings.from_json(argv[4])
    logging.basicConfig(level=logging.WARNING, format=f"worker {index}: %(levelname)s %(name)s: %(message)s")
    import uvicorn

    owner = Owner(index, count)
    config = uvicorn.Config(build_app(settings, owner, Peers(owner, Path(argv[3]))),
                            **uvicorn_options(settings.forwarded_allow_ips))
    # On the event loop `uvicorn.run` chooses with one process (uvloop where it is installed):
    # a WebSocket round trip costs the server about half the CPU on it
    # (benchmarks/websocket_floor.py).
    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(_serve_worker(uvicorn.Server(config), channel_fd))


if __name__ == "__main__":
    worker_main(sys.argv[1:])
