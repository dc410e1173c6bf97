"""The sockets each client network holds open, counted over a server's table-owning processes
(`serve --processes N`, docs/web.md, "Beyond one process") in the database they share, so
that spreading sockets over the processes gains nothing. What a network may do a minute (make
tables, take seats, choose names) is counted by `rate_limits.py`.
"""

from __future__ import annotations

import logging

from playtable.web.server.store.database import Database, DatabaseError
from playtable.web.server.store.node_registry import LIVE_SECONDS, live_nodes

log = logging.getLogger("playtable.web")



class AddressSockets:
    """The WebSockets each client address holds open, counted over all the table-owning processes
    (`Limits.connections_per_address` is the whole server's, not each process's: otherwise an
    address could open the limit at every process by choosing tables that each one owns).

    A row per (address, node, process) holding that process's own count, written as a whole
    number (never incremented), so a write that failed is put right by the next one. A process
    starting (the server's start, or a dead worker replaced: its sockets died with it) deletes its
    own rows, and those of processes its node no longer has (`--processes` lowered since). With
    several nodes (`node`: this one's name; "" without), only live nodes' rows count: a dead
    node's sockets died with it (`node_registry.py` forgets its rows later)."""

    def __init__(self, db: Database, process: int, processes: int, node: str = "") -> None:
        self.db = db
        self.process, self.node = process, node
        self.db.execute("DELETE FROM address_sockets WHERE node = ? AND (process = ? OR process >= ?)",
                        (node, process, processes))

    def open(self, address: str, here: int, limit: int) -> bool | None:
        """Whether `address`, with `here` sockets open at this process, may open one more here
        (`limit` over the whole server); if so it is counted. None if the store cannot say (the
        caller falls back on this process's own count)."""
        try:
            with self.db.transaction("address_sockets"):
                (elsewhere,) = self.db.execute(
                    "SELECT COALESCE(SUM(open), 0) FROM address_sockets WHERE address = ? AND NOT "
                    f"(node = ? AND process = ?) AND (node = '' OR node IN ({live_nodes(self.db)}))",
                    (address, self.node, self.process, LIVE_SECONDS)).fetchone()
                if elsewhere + here >= limit:
                    return False
                self._count(address, here + 1)
        except DatabaseError as err:
            log.error("the shared count of open sockets cannot be read (%s); this process's own applies", err)
            return None
        return True

    def _count(self, address: str, here: int) -> None:
        self.db.execute("INSERT INTO address_sockets (address, node, process, open) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (address, node, process) DO UPDATE SET open = excluded.open",
                        (address, self.node, self.process, here))

    def closed(self, address: str, here: int) -> None:
        """A socket of `address` closed here; `here` are still open at this process."""
        try:
            if here > 0:
                self._count(address, here)
            else:
                self.db.execute("DELETE FROM address_sockets WHERE address = ? AND node = ? AND process = ?",
                                (address, self.node, self.process))
        except DatabaseError as err:  # the next socket of this address here writes the count again
            log.error("a closed socket could not be counted off (%s)", err)
