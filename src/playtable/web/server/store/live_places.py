"""Which node runs each live Star Dice table, when several nodes share one store (docs/web.md,
"Several machines"). A live table lives in the memory of one node's process 0, with its UDP
listener (`live/live.py`), and its page may be served by any node: that node sends the table's
requests on (`transport/forward.py`) to the node this store names, at the address that node
registered itself (`node_registry.py`), never to one a client names. Only live nodes count: a
node that died stops being named with its heartbeat, and its rows go when it is forgotten.
"""

from __future__ import annotations

from playtable.web.server.store.database import Database
from playtable.web.server.store.node_registry import LIVE_SECONDS, clock

MAX_LIVE_ID = 40
"""A live table's id is at most this long (an id from a request is looked up only then)."""


class LivePlaces:
    """The live tables of one node (`node`, its name) on the store's connection `db`."""

    def __init__(self, db: Database, node: str) -> None:
        self.db, self.node = db, node

    def forget_mine(self) -> None:
        """This node's process 0 starts: the live tables it ran before died with it."""
        self.db.execute("DELETE FROM live_places WHERE node = ?", (self.node,))

    def here(self, live_id: str) -> None:
        """A live table now runs at this node."""
        self.db.execute("INSERT INTO live_places (live_id, node) VALUES (?, ?) ON CONFLICT "
                        "(live_id, node) DO NOTHING", (live_id, self.node))

    def gone(self, live_id: str) -> None:
        """A live table of this node closed."""
        self.db.execute("DELETE FROM live_places WHERE live_id = ? AND node = ?", (live_id, self.node))

    def url_of(self, live_id: str) -> str | None:
        """The address of a live node that runs `live_id` (this node's own if it is one of
        them; else the first by name: two nodes may each run a `main` from their command line),
        or None."""
        if len(live_id) > MAX_LIVE_ID:
            return None
        found = self.db.execute(
            "SELECT nodes.url FROM live_places JOIN nodes ON nodes.name = live_places.node WHERE "
            f"live_places.live_id = ? AND nodes.seen > {clock(self.db)} - ? "
            "ORDER BY nodes.name != ?, nodes.name LIMIT 1", (live_id, LIVE_SECONDS, self.node)).fetchone()
        return None if found is None else str(found[0])
