"""Several nodes of one site for tests (docs/web.md, "Several machines"): real servers that know
each other by the nodes' shared secret.

- `ThreadedNode`: a node's app (`create_app(..., node=..., locate=...)`) served by a real uvicorn
  on a loopback port in a thread of the test, so the test gives it its own `locate` (which node
  holds which table); it trusts 127.0.0.1's X-Forwarded-For as a node behind nginx does.
- `node_server`: a real `playtable serve --node NAME --node-url URL` subprocess.
- `NodesSite`: N such subprocesses on one database (the `postgres` fixture's) behind a real nginx
  running docs/deploy/nginx-nodes.conf itself (its upstream lines, listen lines and certificate
  paths swapped for the test's), with bounded start and stop, `kill` (SIGKILL) of one node and
  its `restart`.
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import uvicorn
from tests.web.server_process import ServerProcess, free_port

from playtable.web.server.app import create_app
from playtable.web.server.transport.forward import Locate
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

    def __init__(self, db: str | Path, name: str, locate: Locate | None, **options: Any) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        app = create_app(db, node=Node(name, self.url, SECRET), locate=locate, **options)
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


def nginx_available() -> bool:
    return shutil.which("nginx") is not None or Path("/usr/sbin/nginx").exists()
