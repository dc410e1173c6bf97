"""Seats and tables that wait for someone who never comes (docs/web.md, "Fair use").

A seat taken from the Open list (`POST /api/tables/ID/take`) leaves the list at once; if its
person never connects, the table waits for them (its clock only runs once they arrive) and
nobody else may sit there. So a taken seat is claimed for `Limits.take_seconds`: a person who
connects in time keeps it; otherwise it goes back to Open, its new token stops working, and the
next taker gets a new one. The claims are this process's memory (the table's owner's): after a
restart a taken seat nobody joined waits no more than its table does (below).

A table no person ever arrived at (a person's seat, none ever joined) ends as abandoned once it
is `Limits.unarrived_seconds` old, and so does a tutorial nobody has had open for that long: the
week-long idle rule is for games people play, not for tables made and left.
"""

from __future__ import annotations

from datetime import datetime

from playtable.web.server.store.store import TableRow


class SeatClaims:
    """Seats taken and not yet joined, with the time (seconds since the epoch) each is due back."""

    def __init__(self) -> None:
        self.due: dict[tuple[str, int], float] = {}

    def claim(self, table_id: str, seat: int, until: float) -> None:
        self.due[table_id, seat] = until

    def arrived(self, table_id: str, seat: int) -> None:
        self.due.pop((table_id, seat), None)

    def expired(self, at: float) -> list[tuple[str, int]]:
        """The claims due back by `at` (forgotten here: the caller frees them)."""
        gone = [claim for claim, until in self.due.items() if until <= at]
        for claim in gone:
            del self.due[claim]
        return gone


def nobody_arrived(row: TableRow, before: float) -> bool:
    """Whether `row` has a person's seat, nobody ever joined any, and it was made before
    `before` (seconds since the epoch). A table of bots only has nobody to wait for."""
    people = [s for s in row.seats if s.kind == "human"]
    return bool(people) and not any(s.joined for s in people) \
        and datetime.fromisoformat(row.created).timestamp() < before
