"""The tables each network and each person keeps in play (docs/web.md, "Fair use").

The server holds at most `Limits.tables` tables in play; without a bound per network one home
network fills them all and every stranger after it is refused for as long as the tables stay
(the idle rule's week). So a table in play is written down with the network that made it
(`networks.network_of`) and, when the request named a known player, that person: a network
keeps at most `Limits.tables_per_network` real tables in play, a person at most
`Limits.tables_per_person`, and tutorials (a guided game of one person, made by one click) have
a budget of their own, `Limits.tutorials_per_network`, so neither crowds the other out.

The rows live in the database every table-owning process shares, so the count is the whole
server's, and a restart keeps it. A table's row is written when its creation is admitted (before
its position is made), and goes when the table ends or its creation fails; rows of tables that
ended meanwhile (a crash between two writes) are dropped at the start (`forget_ended`).
A budget never fails a request on its own: if the file cannot answer, the table is made.
"""

from __future__ import annotations

import logging

from playtable.web.server.store.database import Database, DatabaseError

log = logging.getLogger("playtable.web")


class TablesInPlay:
    """Who made each table in play, in the store's database (`db`: its autocommit connection)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.tutorials = {row[0] for row in
                          db.execute("SELECT table_id FROM tables_in_play WHERE tutorial = 1")}
        """The tutorials in play, in memory: the reaper asks of every table, every half minute."""

    def reserve(self, table_id: str, network: str, person: str | None, tutorial: bool,
                per_network: int, per_person: int) -> str | None:
        """Count `table_id` as in play for `network` (and `person`, if known) if neither has
        its budget of this kind in play already (`per_network`, `per_person`); else why not.
        Counted and written in one transaction, so concurrent creations (of this process, whose
        tables take a while to make, or of others) never pass a budget together."""
        what = "tutorials" if tutorial else "tables"
        try:
            with self.db.transaction("tables_in_play"):
                (by_network,) = self.db.execute(
                    "SELECT COUNT(*) FROM tables_in_play WHERE network = ? AND tutorial = ?",
                    (network, int(tutorial))).fetchone()
                if by_network >= per_network:
                    return (f"your network has {by_network} {what} in play, as many as it may; "
                            "finish or leave one (a table nobody plays ends by itself) and try again")
                by_person = 0 if person is None else self.db.execute(
                    "SELECT COUNT(*) FROM tables_in_play WHERE person = ? AND tutorial = ?",
                    (person, int(tutorial))).fetchone()[0]
                if by_person >= per_person:
                    return (f"you have {by_person} {what} in play, as many as one person may; "
                            "finish or leave one and try again")
                self.db.execute("INSERT INTO tables_in_play VALUES (?, ?, ?, ?) ON CONFLICT (table_id) "
                                "DO UPDATE SET network = excluded.network, person = excluded.person, "
                                "tutorial = excluded.tutorial", (table_id, network, person, int(tutorial)))
        except DatabaseError as err:  # the table is made; it only goes uncounted
            log.error("table %s: the tables in play per network cannot be counted (%s)", table_id, err)
        if tutorial:
            self.tutorials.add(table_id)
        return None

    def ended(self, table_id: str) -> None:
        self.tutorials.discard(table_id)
        try:
            self.db.execute("DELETE FROM tables_in_play WHERE table_id = ?", (table_id,))
        except DatabaseError as err:  # dropped at the next start (`forget_ended`)
            log.error("table %s: still counted as in play (%s)", table_id, err)

    def forget_ended(self) -> None:
        """Drop the rows of tables the store has as ended (or has not at all)."""
        try:
            self.db.execute("DELETE FROM tables_in_play WHERE table_id NOT IN "
                            "(SELECT id FROM tables WHERE ended IS NULL)")
        except DatabaseError as err:
            log.error("the tables in play could not be tidied (%s)", err)
