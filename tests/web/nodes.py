"""Several nodes of one site for tests (docs/web.md, "Several machines"): real servers that know
each other by the nodes' shared secret.

- `ThreadedNode`: a node's app (`create_app(..., node=..., locate=...)`) served by a real uvicorn
  on a loopback port in a thread of the test, so the test gives it its own `locate` (which node
  holds which table); it trusts 127.0.0.1's X-Forwarded-For as a node behind nginx does.
- `node_server`: a real `playtable serve --node NAME --node-url URL` subprocess.
- `NodesSite`: N such subprocesses on one database (the `postgres` fixture's) behind a real nginx
  running docs/deploy/nginx-nodes.conf itself (its upstream lines, listen lines and certificate
  paths swapped for the test's), with bounded start and stop, `kill` (SIGKILL) of one node and
  its `restart`; `holders` reads who holds which running table, `node_of` a holder's node.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import uvicorn
from tests.web.server_process import ServerProcess, free_port
from tests.web.test_nginx import NAME, REPO, Proxy, swapped

from playtable.web.server.app import create_app
from playtable.web.server.store.schema import opened
from playtable.web.server.transport.forward import ForwardLimits, Locate
from playtable.web.server.transport.nodes import NODE_SECRET_ENV, Node

SECRET = "the-nodes-secret-of-the-tests-0123456789"
NODE_ENV = {NODE_SECRET_ENV: SECRET}
START_SECONDS = 20.0


def node_server(db: str | Path, name: str, extra_args: tuple[str, ...] = (),
                port: int | None = None) -> ServerProcess:
    """A `playtable serve --node NAME` subprocess (not started) at its own loopback port."""
    port = port or free_port()
    return ServerProcess(db, port, extra_args=("--node", name, "--node-url", f"http://127.0.0.1:{port}",
                                               *extra_args), env=NODE_ENV)


class ThreadedNode:
    """A node's app under a real uvicorn in a thread (see the module's documentation)."""

    def __init__(self, db: str | Path, name: str, locate: Locate | None,
                 limits: ForwardLimits | None = None, **options: Any) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        node = Node(name, self.url, SECRET)
        app = create_app(db, node=node, locate=locate, forward_limits=limits, **options)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws="websockets-sansio", ws_max_size=1 << 20, lifespan="on",
                                proxy_headers=True, forwarded_allow_ips="127.0.0.1")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name=f"node-{name}", daemon=True)

    def __enter__(self) -> ThreadedNode:
        self.thread.start()
        deadline = time.monotonic() + START_SECONDS
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the node at {self.url} did not start within {START_SECONDS} s")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


NODES_CONFIG = REPO / "docs" / "deploy" / "nginx-nodes.conf"
DOCUMENTED_NODES = [f"server 10.0.0.{i}:8000 max_fails=1 fail_timeout=10s;" for i in (2, 3, 4)]
"""The nodes' `server` lines as the site lists them: the test's nodes take their places."""


class NodesProxy(Proxy):
    """nginx running docs/deploy/nginx-nodes.conf in front of the nodes at `node_ports`."""

    def __init__(self, tmp: Path, node_ports: list[int], https_port: int) -> None:
        assert 1 <= len(node_ports) <= len(DOCUMENTED_NODES), "the site lists three nodes"
        self.node_ports = node_ports
        super().__init__(tmp, 0, https_port)

    def site_text(self, upstream: int, https_port: int, key: Path) -> str:
        swaps = {line: line.replace(f"10.0.0.{index + 2}:8000", f"127.0.0.1:{self.node_ports[index]}")
                 if index < len(self.node_ports) else "" for index, line in enumerate(DOCUMENTED_NODES)}
        return swapped(NODES_CONFIG, swaps, self.http_port, https_port, self.cert, key)


class NodesSite:
    """`count` nodes on the database `db` behind nginx (see the module's documentation); the
    nodes run as the site runs them, trusting nginx's X-Forwarded-For (`--forwarded-allow-ips`)
    and with the public URL nginx serves."""

    def __init__(self, tmp: Path, db: str, count: int = 2, extra_args: tuple[str, ...] = ()) -> None:
        self.tmp, self.https_port = tmp, free_port()
        self.public_url = f"https://{NAME}:{self.https_port}"
        options = ("--public-url", self.public_url, "--forwarded-allow-ips", "127.0.0.1",
                   "--rate-limit", "1000", *extra_args)
        self.nodes = [node_server(db, f"node-{i}", options) for i in range(count)]
        self.proxy: NodesProxy | None = None

    def __enter__(self) -> NodesSite:
        try:
            for node in self.nodes:
                node.start()
            self.proxy = NodesProxy(self.tmp, [node.port for node in self.nodes], self.https_port)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def kill(self, index: int) -> None:
        """SIGKILL one node, as a crash of its machine."""
        self.nodes[index].kill()

    def restart(self, index: int) -> None:
        """Start one node again (killed or not) on its port and database."""
        self.nodes[index].restart()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        for node in self.nodes:
            node.__exit__(None, None, None)


def holders(db: str) -> dict[str, str]:
    """Each leased table's holder (`NAME/PROCESS`), read from the store itself (either engine)."""
    database = opened(db)
    try:
        return dict(database.execute("SELECT table_id, holder FROM leases").fetchall())
    finally:
        database.close()


def node_of(holder: str) -> str:
    """The node's name in a lease's holder (`node-1/0`: node-1's process 0)."""
    return holder.split("/", 1)[0]
