"""The wizard game's vote for "the most evil player", on its end screen.

Seed 003, 8 Nov "Preparation": "The players decide who will play the wizard and who shall be the
heroes, if the players can't agree on who should be the wizard, vote on who the most evil player
is and that player is the wizard (You can't vote for yourself)." The vote chooses the next game's
wizard, so it belongs where the next game is asked for: the end screen, beside the rematch.

Rules (docs/web.md, "The end screen"), checked here before anything is stored:

- only at a table of a game the seed gives the vote to (`VOTE_GAMES`), once its game is over
  (not a table abandoned or left unfinished);
- only a seated person votes (a person's seat, through a connection its token or player key
  opened), once; never for their own seat (the seed's rule), for any other seat, a bot's too (a
  bot may then be the wizard);
- who voted is shown at once, the tally only when every person who sat at the table (a person's
  seat that was joined) has voted; from then on every page gets it, a reload too (the votes are
  stored, `SqlVoteStore`);
- the most evil player is the seat with the most votes; a tie names nobody;
- the rematch seats the most evil player as the wizard (seat 0), the old wizard in their place.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

from playtable.web.server.store.database import Conflict, Database, StoreError
from playtable.web.server.tables.seating import SeatPlan
from playtable.web.server.tables.tables import Connection, Table
from playtable.web.server.transport.wire import error

VOTE_GAMES = {"wizard": 0}
"""Games with the seed's vote, and the seat the most evil player takes at the rematch."""

class SqlVoteStore:
    """The votes, one row per table and voting seat, in the tables' own database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add(self, table_id: str, voter: int, choice: int) -> bool:
        """Store a vote; False when this seat has already voted at this table (nothing changes)."""
        at = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with self.db.transaction():
                self.db.execute("INSERT INTO votes (table_id, voter, choice, at) VALUES (?, ?, ?, ?)",
                                (table_id, voter, choice, at))
        except Conflict:
            return False
        except StoreError as err:
            raise StoreError(f"the vote could not be saved ({err})") from None
        return True

    def of(self, table_id: str) -> dict[int, int]:
        """Voting seat -> the seat it voted for."""
        rows = self.db.execute("SELECT voter, choice FROM votes WHERE table_id = ?", (table_id,))
        return {int(voter): int(choice) for voter, choice in rows}


class Votes:
    """The votes of every table, read from the store once per table and kept (a table has at
    most one row per seat)."""

    def __init__(self, store: SqlVoteStore) -> None:
        self.store = store
        self.cache: dict[str, dict[int, int]] = {}

    @staticmethod
    def applies(table: Table) -> bool:
        return table.row.game in VOTE_GAMES and table.state.is_terminal

    def of(self, table: Table) -> dict[int, int]:
        found = self.cache.get(table.id)
        if found is None:
            found = self.cache[table.id] = self.store.of(table.id)
            if len(self.cache) > 10_000:  # forget the oldest tables' votes (read again if asked)
                del self.cache[next(iter(self.cache))]
        return found

    @staticmethod
    def voters(table: Table) -> list[int]:
        """The seats whose people vote: every person's seat someone sat down at."""
        return [i for i, s in enumerate(table.row.seats) if s.kind == "human" and s.joined]

    def most_evil(self, table: Table) -> int | None:
        """The seat voted the most evil once everyone has voted (None: not yet, or a tie)."""
        votes = self.of(table)
        if not self.applies(table) or not votes or not set(self.voters(table)) <= set(votes):
            return None
        ranked = Counter(votes.values()).most_common()
        if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
            return None
        return ranked[0][0]

    def view(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The `vote` message for a connection at `seat` (None: a watcher)."""
        votes = self.of(table)
        voters = self.voters(table)
        done = bool(votes) and set(voters) <= set(votes)
        return {
            "type": "vote",
            "voters": voters,
            "voted": sorted(votes),
            "mine": votes.get(seat) if seat is not None else None,
            "can_vote": seat in voters and seat not in votes,
            "tally": dict(Counter(votes.values())) if done else None,
            "most_evil": self.most_evil(table) if done else None,
        }

    def send(self, table: Table, conn: Connection | None = None) -> None:
        """Tell `conn` (None: every connection of the table) where the vote stands (nothing at a
        table no person sat at: nobody votes there)."""
        if not self.applies(table) or not self.voters(table):
            return
        for target in [conn] if conn is not None else list(table.connections):
            target.push(self.view(table, target.seat))

    def cast(self, table: Table, conn: Connection, choice: int | None) -> None:
        """A vote from `conn`'s seat for seat `choice`, checked, stored, then told to everyone."""
        seat = conn.seat
        refusal = None
        if not self.applies(table):
            refusal = "there is no vote at this table, or its game is not over yet"
        elif seat is None or seat not in self.voters(table):
            refusal = "only a person seated at this table votes"
        elif choice is None or not 0 <= choice < len(table.row.seats):
            refusal = f"vote for a seat from 0 to {len(table.row.seats) - 1}"
        elif choice == seat:
            refusal = "you can't vote for yourself (seed 003, 8 Nov)"
        elif seat in self.of(table):
            refusal = "you have already voted"
        if refusal is not None:
            conn.push(error("no_vote", refusal))
            return
        assert seat is not None and choice is not None
        try:
            stored = self.store.add(table.id, seat, choice)
        except StoreError:
            conn.push(error("unavailable", "the server could not save your vote; try again"))
            return
        if not stored:  # voted meanwhile from another page of the same seat
            self.cache.pop(table.id, None)
            conn.push(error("no_vote", "you have already voted"))
            return
        self.of(table)[seat] = choice
        self.send(table)

    def rematch_plan(self, table: Table) -> SeatPlan | None:
        """The rematch's seats when the vote named a most evil player who is not already the
        wizard: they swap seats with the wizard (None: every seat stays)."""
        evil = self.most_evil(table)
        wizard = VOTE_GAMES.get(table.row.game)
        if evil is None or wizard is None or evil == wizard:
            return None
        order: list[int | None] = list(range(len(table.row.seats)))
        order[wizard], order[evil] = evil, wizard
        return SeatPlan(order)
