"""A table's mid-game proposals to leave its game for a new one (docs/web.md, rematch): who asked
for which variant, whose agreement the last one waits for, and the open proposal as the pages show
it. Each ask is stored (`SqlProposalStore`, `schema._layout_proposals`), so a restart keeps an open proposal
for a come-back-later table; a decided one (kept playing, or the rematch made) is deleted. On a
site of nodes each write is fenced by the table's lease, as every write that changes a table is
(`store.SqlStore.fence`): a node that no longer holds the table writes no proposal for it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from playtable.web.server.store.database import Database, StoreError
from playtable.web.server.store.leases import Fence, LeaseLost

log = logging.getLogger("playtable.web")


def other_people(seats: Sequence[Any], seat: int) -> list[int]:
    """The seats (`SeatRow`s) of the people other than `seat`'s who sat down at a table: a
    proposal asks them."""
    mine = seats[seat].token_hash
    return [i for i, s in enumerate(seats) if s.kind == "human" and s.joined and s.token_hash != mine]


class SqlProposalStore:
    """The asks of open proposals, one row per table and asking seat, in the tables' database;
    `asked` orders them (the last one is the proposal the others are asked to agree to). `fence`:
    the tables' store's (`SqlStore.fence`); None: a plain transaction (no lease to check)."""

    def __init__(self, db: Database, fence: Fence | None = None) -> None:
        self.db = db
        self.fence = fence

    def _changing(self, table_id: str, once_ended: bool = False) -> AbstractContextManager[None]:
        if self.fence is None:
            return self.db.transaction()
        return self.fence(table_id, once_ended=once_ended)

    def ask(self, table_id: str, seat: int, variant: str | None, order: int) -> None:
        """Store an ask (StoreError: nothing stored; LeaseLost: another node holds the table)."""
        try:
            with self._changing(table_id):
                self.db.execute(
                    "INSERT INTO proposals (table_id, seat, variant, asked) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (table_id, seat) DO UPDATE SET variant = excluded.variant, "
                    "asked = excluded.asked", (table_id, seat, variant, order))
        except LeaseLost:
            raise
        except StoreError as err:
            raise StoreError(f"the proposal could not be saved ({err})") from None

    def clear(self, table_id: str) -> None:
        # also once the table has ended: its end released the lease, and decided its proposals
        with self._changing(table_id, once_ended=True):
            self.db.execute("DELETE FROM proposals WHERE table_id = ?", (table_id,))

    def of(self, table_id: str) -> list[tuple[int, str | None]]:
        """One table's asks (seat, variant), in the order they were made (a table taken over
        from another node, `leasing.py`)."""
        return [(int(seat), variant) for seat, variant in self.db.execute(
            "SELECT seat, variant FROM proposals WHERE table_id = ? ORDER BY asked", (table_id,))]

    def every(self) -> dict[str, list[tuple[int, str | None]]]:
        """Table -> its asks (seat, variant), in the order they were made."""
        found: dict[str, list[tuple[int, str | None]]] = {}
        for table_id, seat, variant in self.db.execute(
                "SELECT table_id, seat, variant FROM proposals ORDER BY table_id, asked"):
            found.setdefault(str(table_id), []).append((int(seat), variant))
        return found


class Proposals:
    def __init__(self) -> None:
        self.asked: dict[int, str | None] = {}
        """Seat -> the variant it asked for (None: the same game)."""
        self.waiting: list[int] = []
        """The seats whose people have not yet agreed to the last proposal."""
        self.proposer: int | None = None
        """The seat that made the last proposal."""
        self.store: SqlProposalStore | None = None
        self.table_id = ""
        """Where each ask is kept (`keep_in`; None: in memory only, a table not in play)."""
        self.made = 0
        """Asks made at this table (their order in the store)."""

    def keep_in(self, store: SqlProposalStore, table_id: str) -> None:
        self.store, self.table_id = store, table_id

    def ask(self, seat: int, variant: str | None, others: list[int]) -> list[int]:
        """Seat `seat` asks for `variant`; `others` are the seats of the other people who sat
        down. The seats that have not asked for the same (empty: everyone agrees). Stored
        first: a StoreError changes nothing."""
        if self.store is not None:
            self.store.ask(self.table_id, seat, variant, self.made + 1)
        self.made += 1
        self.asked[seat] = variant
        self.proposer = seat
        self.waiting = self._not_agreed(others, variant)
        return self.waiting

    def _not_agreed(self, others: list[int], variant: str | None) -> list[int]:
        return [i for i in others if i not in self.asked or self.asked[i] != variant]

    def restore(self, asks: list[tuple[int, str | None]], others: Callable[[int], list[int]]) -> None:
        """The stored asks, oldest first, after a restart; `others(seat)` as in `ask`. The
        last ask is the open proposal, waiting for whoever has not asked for the same now."""
        for seat, variant in asks:
            self.asked[seat] = variant
        self.made = len(asks)
        if asks:
            self.proposer, variant = asks[-1]
            self.waiting = self._not_agreed(others(self.proposer), variant)

    def asks(self, seat: int) -> bool:
        """Whether `seat` may answer the open proposal: its asker (taking it back) or a seat it
        waits for. Not one who agreed already, nor one who sat down after it was made: the
        pages offer them no "Keep playing" either."""
        return seat == self.proposer or seat in self.waiting

    def told(self, label: Callable[[int], str], titles: Mapping[str, str]) -> dict[str, Any] | None:
        """The open proposal as a page shows it, `label` naming a seat and `titles` the game's
        variant titles; None when nobody is left to agree."""
        seat = self.proposer
        if seat is None or not self.waiting:
            return None
        variant = self.asked.get(seat)
        return {"seat": seat, "name": label(seat), "variant": variant,
                "variant_title": titles.get(variant, variant) if variant else None,
                "waiting_for": list(self.waiting)}

    def drop(self) -> None:
        """The proposals are decided (someone kept playing, or the new game was made): every
        one is gone, from the store too (a failure there is logged: the next start clears a
        proposal of a table already decided, `Room.restore`)."""
        self.asked.clear()
        self.waiting = []
        self.proposer = None
        if self.store is not None and self.made:
            try:
                self.store.clear(self.table_id)
            except StoreError as err:
                log.error("table %s: its decided proposal not cleared: %s", self.table_id, err)
        self.made = 0
