"""What the routes share, one object a server (`create_app` puts it in `app.state.server`):
its settings, and the hub, the playtests and the live tables the app's lifespan opens."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from starlette.requests import HTTPConnection

from playtable.web.server.hub import Hub
from playtable.web.server.live.live import LiveSpec, LiveTables
from playtable.web.server.playtests.playtests import Playtests
from playtable.web.server.tables.past import PastCache
from playtable.web.server.tables.room import Limits
from playtable.web.server.transport.nodes import Locate, Node
from playtable.web.server.transport.owners import Owner
from playtable.web.server.transport.peers import Peers


@dataclass
class ServerContext:
    """`create_app`'s arguments (see there), and what its lifespan opens."""

    db: str | Path
    workers: int
    bot_seconds: float
    rate: float
    limits: Limits | None
    owner: Owner
    peers: Peers | None
    live: Sequence[LiveSpec]
    record_dir: Path | None
    tune_collector: bool
    base: str
    """The join and watch links' base (the public URL without its last slash; "" for relative)."""
    operator_token: str | None = None
    """What starts, controls and closes live tables (`live/operator.py`; None: none from the web)."""
    node: Node | None = None
    """This server's node among several machines' on one store (`nodes.py`; None: the only one)."""
    locate: Locate | None = None
    """Where a table is held among the nodes (the leases'; `nodes.Locate`)."""
    past: PastCache = field(default_factory=PastCache)
    opened_hub: Hub | None = None
    opened_playtests: Playtests | None = None
    opened_lives: LiveTables | None = None

    @property
    def hub(self) -> Hub:
        assert self.opened_hub is not None, "the app's lifespan has not started"
        return self.opened_hub

    @property
    def playtests(self) -> Playtests:
        assert self.opened_playtests is not None, "the app's lifespan has not started"
        return self.opened_playtests

    @property
    def lives(self) -> LiveTables:
        assert self.opened_lives is not None, "the app's lifespan has not started"
        return self.opened_lives


def server_of(connection: HTTPConnection) -> ServerContext:
    """The context of the app a request or WebSocket reached."""
    server = connection.app.state.server
    assert isinstance(server, ServerContext)
    return server
