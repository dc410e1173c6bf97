"""The site's nodes in the store they share (docs/web.md, "Several machines"): each node's name,
the address the others reach it at, and its last heartbeat, on the database's clock (the
machines' own clocks may disagree; the one database's cannot). A node is live while it was seen
within `LIVE_SECONDS`; one stopped cleanly removes its row, one that died (kill -9, a machine
switched off) stops being live when its heartbeat is that old, and its row is forgotten later.
"""

from __future__ import annotations

from playtable.web.server.store.database import Database, StoreError

HEARTBEAT_SECONDS = 2.0
"""How often each node's processes write its heartbeat (and read who else is live)."""
LIVE_SECONDS = 6.0
"""A node not seen for this long is not asked any more (three heartbeats missed)."""
FORGET_SECONDS = 600.0
"""A node not seen for this long is removed from the store, and the sockets it counted with it."""


def clock(db: Database) -> str:
    """The database's clock in seconds since the epoch, as an SQL expression of its dialect."""
    if db.dialect == "postgresql":
        return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"
    return "((julianday('now') - 2440587.5) * 86400.0)"


def live_nodes(db: Database) -> str:
    """An SQL subquery: the names of the live nodes (one `?`: `LIVE_SECONDS`)."""
    return f"SELECT name FROM nodes WHERE seen > {clock(db)} - ?"


class NodeRegistry:
    """One node's row (`name`, `url`) on the store's connection `db` (autocommit)."""

    def __init__(self, db: Database, name: str, url: str) -> None:
        self.db, self.name, self.url = db, name, url

    def beat(self) -> dict[str, str]:
        """Write this node's heartbeat (registering it the first time) and read the other live
        nodes' addresses by name. StoreError when another live node has this name at another
        address: two machines given one name would each believe it holds the other's tables."""
        now = clock(self.db)
        with self.db.transaction("nodes"):
            self.check()
            self.db.execute(f"INSERT INTO nodes (name, url, seen) VALUES (?, ?, {now}) ON CONFLICT "
                            "(name) DO UPDATE SET url = excluded.url, seen = excluded.seen",
                            (self.name, self.url))
        rows = self.db.execute(f"SELECT name, url FROM nodes WHERE name != ? AND seen > {now} - ?",
                               (self.name, LIVE_SECONDS)).fetchall()
        return {str(name): str(url) for name, url in rows}

    def check(self) -> None:
        """StoreError when another live node has this node's name at another address (the same
        address is this node started again)."""
        found = self.db.execute(f"SELECT url, seen > {clock(self.db)} - ? FROM nodes WHERE name = ?",
                                (LIVE_SECONDS, self.name)).fetchone()
        if found is not None and found[0] != self.url and found[1]:
            raise StoreError(f"another node named {self.name!r} is live at {found[0]}: each node "
                             f"needs a name of its own (--node)")

    def forget_dead(self) -> None:
        """Remove the nodes unseen for `FORGET_SECONDS`, the sockets counted by nodes gone and
        the live tables they ran (`live_places.py`)."""
        self.db.execute(f"DELETE FROM nodes WHERE seen < {clock(self.db)} - ?", (FORGET_SECONDS,))
        self.db.execute("DELETE FROM address_sockets WHERE node != '' AND node NOT IN "
                        "(SELECT name FROM nodes)")
        self.db.execute("DELETE FROM live_places WHERE node NOT IN (SELECT name FROM nodes)")

    def leave(self) -> None:
        """This node stops cleanly: the others stop asking it at once."""
        self.db.execute("DELETE FROM nodes WHERE name = ?", (self.name,))
