"""A server's place among several machines' servers on one shared store (docs/web.md, "Several
machines"): `playtable serve --node NAME --node-url URL`, each node a whole server (with or
without `--processes`) behind a proxy that hashes the table id.

A node is named (unique among the site's nodes, kept in the store beside the tables it holds),
reachable by the other nodes at its own address (`url`: the site's private network, never the
public address people open), and shares one secret with the others (`secret`, from the
environment, as the operator's token is: a process's command line is readable by any local
user). The secret is what lets a request between nodes (a request sent on to a table's owner, a
question to another node) be believed: a client on the public side never has it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

Locate = Callable[[str], Awaitable[str | None]]
"""A table or playtest id -> the base URL (`Node.url`) of the live node that holds it, or None:
serve it here (the leases' `hub.leases.locate`; forwarding and the questions to a table's owner
both ask it)."""
NODE_SECRET_ENV = "PLAYTABLE_NODE_SECRET"
"""The environment variable the nodes' shared secret comes from (`serve` refuses `--node` without
it, and hands it to its worker processes in their environment)."""
NAME_SHAPE = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
"""A node's name: what a systemd unit or a host name would be called, at most 32 characters."""
SECRET_SHAPE = re.compile(r"^[A-Za-z0-9_-]{32,128}$")
"""The shared secret: at least 32 URL-safe characters (`secrets.token_urlsafe(24)` is 32)."""


class NodeError(ValueError):
    """A node's name, address or secret that cannot be used (said in one line)."""


@dataclass(frozen=True)
class Node:
    """This server's identity among the site's nodes."""

    name: str
    url: str
    """The base address the other nodes reach this one at (`http://10.0.0.2:8000`, no path)."""
    secret: str

    def __post_init__(self) -> None:
        if not NAME_SHAPE.match(self.name):
            raise NodeError(f"a node's name is 1 to 32 of a-z, 0-9 and -, starting with a letter "
                            f"or digit, not {self.name!r}")
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") \
                or parts.query or parts.fragment or parts.username:
            raise NodeError(f"a node's address is http(s)://HOST:PORT with no path, not {self.url!r}")
        if not SECRET_SHAPE.match(self.secret):
            raise NodeError(f"the nodes' shared secret (${NODE_SECRET_ENV}) is 32 to 128 characters "
                            f"of A-Z, a-z, 0-9, _ and -")
        object.__setattr__(self, "url", self.url.rstrip("/"))

    @classmethod
    def from_environment(cls, name: str, url: str) -> Node:
        """This node, its secret taken from `NODE_SECRET_ENV` (NodeError when it is missing)."""
        secret = os.environ.get(NODE_SECRET_ENV, "")
        if not secret:
            raise NodeError(f"--node needs the nodes' shared secret in ${NODE_SECRET_ENV} (the same "
                            f"on every node; make one with: python3 -c 'import secrets; "
                            f"print(secrets.token_urlsafe(32))')")
        return cls(name, url, secret)
