"""Where ratings and personal scores live: the `RatingStore` interface and its SQL store, in the
tables' own database (the logic is `ratings.py`; the tables' layout is `store/schema.py`):

- `ratings`: one row per (game, rated identity): the Weng-Lin skill `mu` and its uncertainty
  `sigma`, games played and won, when last changed. An identity is a kind and an id: a person
  (`player`, a `players.id`) or a bot (`bot`, its agent spec). A real account system would point
  its accounts at `players.id` (store.py), so ratings carry over unchanged.
- `rated_tables`: each table whose end was settled, once: rated or not and why, and each seat's
  rating before and after. Its primary key is what makes a table count once, however often its
  end is seen (a second end, a restart that rebuilds a table already rated).
- `table_choices`: the creator's "not rated" choice, made when the table is created.
- `solo_scores`: a person's score in each finished solitaire game (by game and variant), for
  their personal best and history.
- `rating_opponents`: each different opponent (a side's other identities, `kind:who`) a rated
  identity has met at a game, and `ratings.opponents` their number: a person is on the
  leaderboard once established (`ESTABLISHED_GAMES` against `ESTABLISHED_OPPONENTS`).
- `seat_networks`: the network hashes (`fair_play.network_hash`) each person's seat was played
  from, so that a table whose sides share a network is not rated, a restart between included.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from playtable.web.server.store.database import Database, DatabaseError, StoreError
from playtable.web.server.store.leases import Fence

ESTABLISHED_GAMES = 5
ESTABLISHED_OPPONENTS = 3
"""A person is provisional, and off the leaderboard, until they have played this many rated
games of a game against this many different opponents (docs/web.md "Ratings that cannot be
farmed"); a bot's rating is measured before it is shipped."""


@dataclass
class Skill:
    """One identity's rating at one game."""

    kind: str  # "player" or "bot"
    who: str  # a players.id, or a bot's agent spec
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    name: str = ""
    """What people read: the player's current name, or the bot's agent spec."""
    opponents: int = 0
    """The different identities it has met at this game in rated games."""


@dataclass
class Settlement:
    """How a table's end counted: rated or not (and why not), and each seat's change."""

    rated: bool
    why: str | None
    changes: list[dict[str, Any]]


@dataclass
class SoloScore:
    table_id: str
    game: str
    variant: str
    score: float
    won: bool
    ended: str


class RatingStore(Protocol):
    def skills(self, game: str, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Skill]:
        """The stored skills of these (kind, who) identities at `game` (missing ones absent)."""

    def settled(self, table_id: str) -> Settlement | None: ...

    def settle(self, table_id: str, game: str, settlement: Settlement, skills: list[Skill],
               scores: list[tuple[str, SoloScore]], at: str,
               met: list[tuple[str, str, str]] | None = None) -> bool:
        """Record the table's end and write the new skills and scores in one transaction;
        False (nothing written) if the table was settled already. `met`: (kind, who, opponent)
        for each rated identity and each `kind:who` it played against."""

    def played_from(self, table_id: str, seat: int, network: str) -> None:
        """A person's move at `seat` came from `network` (a `fair_play.network_hash`)."""

    def networks(self, table_id: str) -> dict[int, set[str]]:
        """Seat -> the networks its person played from."""

    def set_choice(self, table_id: str, rated: bool) -> None: ...

    def choice(self, table_id: str) -> bool | None: ...

    def board(self, game: str, kind: str | None, offset: int, limit: int) -> tuple[int, list[Skill]]:
        """(how many established identities are rated at `game`, the page of them from
        `offset`), best first by `mu - 3 sigma`; `kind`: only players or only bots. A person
        still provisional (`ESTABLISHED_GAMES`, `ESTABLISHED_OPPONENTS`) is not on it."""

    def scores(self, player_id: str, game: str | None, limit: int) -> list[SoloScore]:
        """The player's last solitaire scores, newest first."""

    def bests(self, player_id: str, lower_better: dict[str, bool]) -> list[dict[str, Any]]:
        """Per game and variant: the best score, games played, wins, the last game's time."""


_OPPONENTS_OF = ("(SELECT COUNT(*) FROM rating_opponents o WHERE o.game = ? AND o.kind = ? "
                 "AND o.who = ?)")
ESTABLISHED = (f"(r.kind = 'bot' OR (r.games >= {ESTABLISHED_GAMES} "
               f"AND r.opponents >= {ESTABLISHED_OPPONENTS}))")


class SqlRatingStore:
    """The ratings' tables in the tables' database (the same connection, on the event loop:
    every statement is an indexed lookup or a bounded page)."""

    def __init__(self, db: Database, fence: Fence | None = None) -> None:
        self.db = db
        self.fence = fence
        """The tables' store's (`SqlStore.fence`): on a site of nodes a table's settlement is
        written only by the node holding the table (None: a plain transaction)."""

    def skills(self, game: str, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Skill]:
        found: dict[tuple[str, str], Skill] = {}
        for kind, who in keys:
            row = self.db.execute(
                "SELECT mu, sigma, games, wins, opponents FROM ratings "
                "WHERE game = ? AND kind = ? AND who = ?",
                (game, kind, who)).fetchone()
            if row is not None:
                mu, sigma, games, wins, opponents = row
                found[(kind, who)] = Skill(kind, who, mu, sigma, games, wins, opponents=opponents)
        return found

    def settled(self, table_id: str) -> Settlement | None:
        row = self.db.execute("SELECT rated, why, changes FROM rated_tables WHERE table_id = ?",
                              (table_id,)).fetchone()
        return None if row is None else Settlement(bool(row[0]), row[1], json.loads(row[2]))

    def settle(self, table_id: str, game: str, settlement: Settlement, skills: list[Skill],
               scores: list[tuple[str, SoloScore]], at: str,
               met: list[tuple[str, str, str]] | None = None) -> bool:
        settling = self.db.transaction("rated_tables") if self.fence is None else \
            self.fence(table_id, "rated_tables")
        try:
            with settling:
                inserted = self.db.execute(
                    "INSERT INTO rated_tables VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (table_id, game, int(settlement.rated), settlement.why, at,
                     json.dumps(settlement.changes))).rowcount
                if not inserted:
                    return False
                self.db.executemany("INSERT INTO rating_opponents VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                    [(game, kind, who, opponent) for kind, who, opponent in met or []])
                self.db.executemany(
                    "INSERT INTO ratings (game, kind, who, mu, sigma, games, wins, updated, opponents) "
                    f"SELECT ?, ?, ?, ?, ?, ?, ?, ?, {_OPPONENTS_OF} WHERE true "  # WHERE: SQLite's parser
                    "ON CONFLICT (game, kind, who) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "games = excluded.games, wins = excluded.wins, updated = excluded.updated, "
                    "opponents = excluded.opponents",
                    [(game, s.kind, s.who, s.mu, s.sigma, s.games, s.wins, at, game, s.kind, s.who)
                     for s in skills])
                self.db.executemany(
                    "INSERT INTO solo_scores VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    [(s.table_id, player, s.game, s.variant, s.score, int(s.won), s.ended)
                     for player, s in scores])
            return True
        except DatabaseError as err:
            raise StoreError(f"the ratings could not be written ({err})") from None

    def played_from(self, table_id: str, seat: int, network: str) -> None:
        try:
            self.db.execute("INSERT INTO seat_networks VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                            (table_id, seat, network))
        except DatabaseError as err:
            raise StoreError(f"a seat's network could not be written ({err})") from None

    def networks(self, table_id: str) -> dict[int, set[str]]:
        out: dict[int, set[str]] = {}
        for seat, network in self.db.execute("SELECT seat, network FROM seat_networks WHERE table_id = ?",
                                             (table_id,)):
            out.setdefault(seat, set()).add(network)
        return out

    def set_choice(self, table_id: str, rated: bool) -> None:
        try:
            self.db.execute("INSERT INTO table_choices VALUES (?, ?) ON CONFLICT (table_id) "
                            "DO UPDATE SET rated = excluded.rated", (table_id, int(rated)))
        except DatabaseError as err:
            raise StoreError(f"the table's rated choice could not be written ({err})") from None

    def choice(self, table_id: str) -> bool | None:
        row = self.db.execute("SELECT rated FROM table_choices WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else bool(row[0])

    def board(self, game: str, kind: str | None, offset: int, limit: int) -> tuple[int, list[Skill]]:
        where, args = f"r.game = ? AND {ESTABLISHED}", [game]
        if kind is not None:
            where += " AND r.kind = ?"
            args.append(kind)
        (total,) = self.db.execute(f"SELECT COUNT(*) FROM ratings r WHERE {where}", args).fetchone()
        rows = self.db.execute(
            "SELECT r.kind, r.who, r.mu, r.sigma, r.games, r.wins, COALESCE(p.name, r.who), r.opponents "
            "FROM ratings r LEFT JOIN players p ON r.kind = 'player' AND p.id = r.who "
            f"WHERE {where} ORDER BY r.mu - 3 * r.sigma DESC, r.who LIMIT ? OFFSET ?",
            [*args, limit, offset]).fetchall()
        return total, [Skill(*row) for row in rows]

    def scores(self, player_id: str, game: str | None, limit: int) -> list[SoloScore]:
        where, args = "player_id = ?", [player_id]
        if game is not None:
            where += " AND game = ?"
            args.append(game)
        rows = self.db.execute(
            "SELECT table_id, game, variant, score, won, ended FROM solo_scores "
            f"WHERE {where} ORDER BY ended DESC, table_id LIMIT ?", [*args, limit]).fetchall()
        return [SoloScore(t, g, v, s, bool(w), e) for t, g, v, s, w, e in rows]

    def bests(self, player_id: str, lower_better: dict[str, bool]) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT game, variant, MIN(score), MAX(score), COUNT(*), SUM(won), MAX(ended) "
            "FROM solo_scores WHERE player_id = ? GROUP BY game, variant ORDER BY MAX(ended) DESC",
            (player_id,)).fetchall()
        return [{"game": game, "variant": variant,
                 "best": low if lower_better.get(game, False) else high,
                 "games": games, "wins": wins, "last": last}
                for game, variant, low, high, games, wins, last in rows]
