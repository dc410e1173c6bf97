"""Ratings of people and bots, and personal bests at solitaire games.

Who is rated. Every person with a name (a `players` row: `people.py`) and every bot, one identity
per agent spec (`heuristic`, `ismcts:iterations=200`, ...), has a rating per game. A bot starts
from the rating measured in bot-against-bot games (`bot_ratings.json`, written by
`benchmarks/bot_ratings.py`), with its uncertainty raised to at least `BOT_SIGMA_FLOOR` so that
the games people play against it go on moving it; a person starts at the model's default.

Which tables count (`why_unrated`, `why_unfair`; docs/web.md "Ratings" and "Ratings that
cannot be farmed" say why): a game played to its end (not abandoned), of two sides or more, at
the game's standard rules (a variant or other parameters change the game, so they would change
what a rating means; only the wizard game's number of players may differ), with at least one
named person, every person's seat named, and not marked "not rated" by its creator. Each rated
person must have played it (`fair_play.played_themselves`: a move of their own, and no more of
the stand-in's than theirs), every bot must be a shipped level (a name of the game's seat
chooser, `available_agents`, not a spec with options), and no two sides may have been played
from one network. A table left for a rematch before its end, against a side of bots only, is
the leaving people's loss (bots cannot agree to stop); among people only it is not rated. A
bot's rating moves only with games played out: a forfeit on the clock or a left table rates the
people and leaves the bot as it was. A solitaire game the stand-in mostly played keeps no
personal best.

How. The Weng-Lin Bayesian rating (openskill's Plackett-Luce model) rates the game's sides
(`Game.sides`: every seat alone, or the wizard against the heroes), ranked by their returns. An
identity sitting on several seats of one side counts once; one sitting on two opposing sides
(a person playing every seat, a bot against itself) is not rated at that table. A side of several
identities is rated as one player whose skill is their mean (mu the mean, sigma^2 the mean
variance), and each member's mu moves by the side's change and its sigma shrinks by the side's
ratio. Openskill's own teams add their members' skills, which suits teams of equal size pooling
effort but not the wizard game, whose rules balance one wizard against 2-4 heroes: at the start,
openskill's sum gives three new heroes 99.8% against a new wizard, where bots' heroes win about
70% (wizard RULES.md §10).

What people see (`shown`): `1500 + 28 (mu - 25)`, with `± 2 x 28 sigma`. With settled
ratings, 28 points per unit of mu makes a 400-point gap about 10:1 odds in a two-player game, as
on the Elo scale (Plackett-Luce with beta 25/6: P = 1 / (1 + exp(-d / c)), c = sqrt(2) beta =
5.9, so odds of 10 are d = c ln 10 = 13.6 units). A newcomer shows 1500 ± 467. The leaderboard
ranks by `mu - 3 sigma` (openskill's ordinal), so a few lucky games do not top it.

Solitaire games (one seat: Angry Troll, Rotator, Star Dice's solitaire) are not rated: each
finished game's score goes to the person's history, by game and variant, and their best is shown
(seed 000 §4.2: the score gives "a sense of personal progress"). The score is the game's `score`
metric, else its return, and better is lower or higher as `Game.lower_score_is_better` says
(the lab's tournament reads a solitaire game the same way).
"""

from __future__ import annotations

import json
import logging
from functools import cache
from importlib import resources
from typing import Any

from openskill.models import PlackettLuce

from playtable.agents import available_agents
from playtable.core.errors import PlaytableError
from playtable.core.params import params_from_dict, resolve_params
from playtable.core.protocol import Game, params_as_dict
from playtable.web.server.people.fair_play import Moves, moves_by_seat, network_hash, played_themselves
from playtable.web.server.people.rating_store import (
    ESTABLISHED_GAMES,
    ESTABLISHED_OPPONENTS,
    RatingStore,
    Settlement,
    Skill,
    SoloScore,
    SqlRatingStore,
)
from playtable.web.server.store.leases import LeaseLost
from playtable.web.server.store.store import SeatRow, StoreError, TableStore
from playtable.web.server.tables.table_request import BadRequest, now
from playtable.web.server.tables.tables import Table

log = logging.getLogger("playtable.web")

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""
START_MU, START_SIGMA = 25.0, 25.0 / 3.0
CENTRE = 1500
POINTS_PER_MU = 28.0
BOT_SIGMA_FLOOR = 25.0 / 12.0
"""A quarter of a newcomer's uncertainty: a bot's measured rating is settled after hundreds of
games, and would hardly move for people's games without it."""
MAX_PAGE = 100
MAX_OFFSET = 10_000
MAX_SCORES = 50
BOT_RATINGS_FILE = "bot_ratings.json"
NETWORKS_REMEMBERED = 10_000


def shown(mu: float, sigma: float) -> dict[str, Any]:
    """The rating as people read it: a number on the familiar ~1500 scale and its ± (95%)."""
    return {"rating": round(CENTRE + POINTS_PER_MU * (mu - START_MU)),
            "uncertainty": round(2 * POINTS_PER_MU * sigma),
            "provisional": sigma > START_SIGMA * 0.75}


@cache
def bot_starts() -> dict[str, dict[str, dict[str, float]]]:
    """Game -> agent spec -> {mu, sigma, games}: the shipped bot-against-bot measurement (none
    before `benchmarks/bot_ratings.py` has written it: every bot then starts as a newcomer)."""
    source = resources.files("playtable.web.server.people") / BOT_RATINGS_FILE
    if not source.is_file():
        log.warning("no %s: every bot starts at a newcomer's rating", BOT_RATINGS_FILE)
        return {}
    data: dict[str, dict[str, dict[str, float]]] = json.loads(source.read_text(encoding="utf-8"))["games"]
    return data


def identity(seat: SeatRow) -> tuple[str, str] | None:
    """(kind, who) of a seat: its named person, its bot; None for a person without a name."""
    if seat.kind == "bot":
        return ("bot", seat.agent or "random")
    return ("player", seat.player) if seat.player else None


def fresh(game: str, kind: str, who: str) -> Skill:
    if kind == "bot":
        start = bot_starts().get(game, {}).get(who)
        if start is not None:
            return Skill(kind, who, start["mu"], max(start["sigma"], BOT_SIGMA_FLOOR))
    return Skill(kind, who, START_MU, START_SIGMA)


def standard_rules(game: Game[Any, Any], params: dict[str, Any]) -> bool:
    """Whether `params` are the game's default rules (its number of players apart)."""
    defaults = params_as_dict(game.default_params())
    if "players" in params:
        defaults = params_as_dict(params_from_dict(game.params_type, {"players": params["players"]}))
    return _plain(params) == _plain(defaults)


def _plain(values: dict[str, Any]) -> Any:
    """Parameters as stored (tuples become lists, as in the store's JSON)."""
    return json.loads(json.dumps(values))


def why_unrated(table: Table, choice: bool | None) -> str | None:
    """Why this table's end does not change ratings, or None if it does (a rated table)."""
    row = table.row
    if row.tutorial:  # a guided game: no rating, no personal best, whatever its end
        return "it was a tutorial"
    if not table.decided and left_returns(table) is None:  # played out, forfeited, or resigned
        return ("its people agreed to leave it for a rematch before its end" if table.left_unfinished
                else "the game did not reach its end")
    if choice is False:
        return "its creator chose a game that is not rated"
    solitaire = len(table.game.sides(params_from_dict(table.game.params_type, row.params))) < 2
    if solitaire and table.forfeited is not None:
        return "a game given up on the clock alone keeps no personal best"
    if solitaire and not played_themselves(moves_by_seat(row).get(0, Moves())):
        return "the stand-in bot played this game, so it keeps no personal best"
    if solitaire:
        return "a solitaire game keeps a personal best instead"
    if not standard_rules(table.game, row.params):
        return "it was played with other rules than the standard ones"
    people = [s for s in row.seats if s.kind == "human"]
    if not any(s.player for s in people):
        return "no named person played at it"
    if any(not s.player for s in people):
        return "a person played at it without a name"
    return None


def left_returns(table: Table) -> list[float] | None:
    """A table its people left for a rematch before its end, where a side had bots only: each
    seat's return as if the people's sides resigned (0) to the bots' (1). None otherwise (not
    left, or every side had a person: they all agreed to stop)."""
    if not table.left_unfinished:
        return None
    seats = table.row.seats
    sides = table.game.sides(params_from_dict(table.game.params_type, table.row.params))
    people = [any(seats[s].kind == "human" for s in side) for side in sides]
    if all(people):
        return None
    returns = [0.0] * len(seats)
    for side, has_people in zip(sides, people, strict=True):
        for s in side:
            returns[s] = 0.0 if has_people else 1.0
    return returns


def why_unfair(table: Table, networks: dict[int, set[str]]) -> str | None:
    """Why a table that could be rated is not, by who played it (`networks`: each person's
    seat's networks), or None."""
    row = table.row
    shipped = set(available_agents(table.game))
    odd = next((s.agent or "random" for s in row.seats if s.kind == "bot" and (s.agent or "random")
                not in shipped), None)
    if odd is not None:
        return f"a bot other than the shipped levels played ('{odd[:40]}')"
    moves = moves_by_seat(row)
    for player in {s.player for s in row.seats if s.kind == "human" and s.player}:
        mine = [moves.get(k) for k, s in enumerate(row.seats) if s.player == player]
        own = sum(m.own for m in mine if m)
        stood = sum(m.stand_in for m in mine if m)
        if not played_themselves(Moves(own, stood)):
            name = next(s.player_name for s in row.seats if s.player == player)
            return f"{name} did not play their own moves (the clock or the stand-in bot did)"
    sides = table.game.sides(params_from_dict(table.game.params_type, row.params))
    seen: dict[str, int] = {}
    for k, side in enumerate(sides):
        for network in {n for s in side for n in networks.get(s, set())}:
            if seen.setdefault(network, k) != k:
                return "two sides were played from one network"
    return None


def sides_of(table: Table) -> tuple[list[list[tuple[str, str]]], list[float]]:
    """The identities of each side (each once; one on two sides is dropped) and each side's
    return."""
    params = params_from_dict(table.game.params_type, table.row.params)
    sides = table.game.sides(params)
    returns = left_returns(table) or table.final_returns()
    who = [[identity(table.row.seats[s]) for s in side] for side in sides]
    owners: dict[tuple[str, str], set[int]] = {}
    for k, side in enumerate(who):
        for ident in side:
            if ident is not None:
                owners.setdefault(ident, set()).add(k)
    members = [sorted({i for i in side if i is not None and len(owners[i]) == 1}) for side in who]
    return members, [returns[side[0]] for side in sides]


def rate(sides: list[list[Skill]], returns: list[float]) -> list[list[Skill]]:
    """New skills for every member of every side (ranked by `returns`, higher first, ties
    equal): each side is one Plackett-Luce player whose skill is its members' mean."""
    means = [MODEL.rating(mu=sum(s.mu for s in side) / len(side),
                          sigma=(sum(s.sigma ** 2 for s in side) / len(side)) ** 0.5) for side in sides]
    order = sorted(set(returns), reverse=True)
    ranks = [float(order.index(r) + 1) for r in returns]
    after = MODEL.rate([[m] for m in means], ranks=ranks)
    best = order[0]
    out = []
    for side, before, (new,), value in zip(sides, means, after, returns, strict=True):
        won = value == best and len(set(returns)) > 1
        out.append([Skill(s.kind, s.who, s.mu + new.mu - before.mu, s.sigma * new.sigma / before.sigma,
                          s.games + 1, s.wins + int(won), s.name) for s in side])
    return out


def solo_score(table: Table) -> float:
    """The game's `score` metric, else its return (as the lab's tournament reads one)."""
    score = table.state.metrics().get("score")
    if isinstance(score, int | float) and not isinstance(score, bool):
        return float(score)
    return float(table.state.returns()[0])


def variant_key(table: Table) -> str:
    """The variant a solitaire score belongs to: the table's named variant (or "standard")
    when its parameters are that variant's, else "custom" (other settings, scored apart)."""
    name = table.row.variant
    game = table.game
    try:
        params = params_as_dict(resolve_params(game.params_type, game.variants, name))
    except PlaytableError:  # a variant renamed since: its scores stay apart
        return "custom"
    if "players" in table.row.params:
        params["players"] = table.row.params["players"]
    if _plain(params) != _plain(table.row.params):
        return "custom"
    return name or "standard"


class Ratings:
    """The ratings of one server, in front of its rating store."""

    def __init__(self, store: TableStore) -> None:
        db = getattr(store, "db", None)
        self.store: RatingStore | None = None if db is None else \
            SqlRatingStore(db, getattr(store, "fence", None))
        self._networks_seen: dict[tuple[str, int, str], None] = {}
        """(table, seat, network) already stored, oldest first: a move from a known network
        writes nothing."""

    # -- a table's end ------------------------------------------------------------------------
    def choose(self, table_id: str, rated: Any) -> None:
        """The creator's choice (`rated` in the request: true, false or absent)."""
        if rated is None:
            return
        if not isinstance(rated, bool):
            raise BadRequest("'rated' must be true or false")
        if self.store is not None and not rated:
            self.store.set_choice(table_id, rated)

    def choice(self, table_id: str) -> bool | None:
        return None if self.store is None else self.store.choice(table_id)

    def settle(self, table: Table) -> Settlement | None:
        """Count a table's end once: rate its sides, or keep its solitaire score. Called when
        the hub marks a table ended (again after a restart: the store counts it once)."""
        if self.store is None or self.store.settled(table.id) is not None:
            return None
        row = table.row
        why = why_unrated(table, self.store.choice(table.id))
        if why is None:
            why = why_unfair(table, self.store.networks(table.id))
        skills: list[Skill] = []
        scores: list[tuple[str, SoloScore]] = []
        changes: list[dict[str, Any]] = []
        met: list[tuple[str, str, str]] = []
        if why is None:
            why = self._rate(table, skills, changes, met)
        elif "solitaire" in why and row.seats[0].player:
            player = row.seats[0].player
            score = SoloScore(table.id, row.game, variant_key(table), solo_score(table),
                              table.state.returns()[0] >= 1.0, row.ended or now())
            scores.append((player, score))
            changes.append({"kind": "player", "who": player, "score": score.score,
                            "variant": score.variant})
        settlement = Settlement(why is None, why, changes)
        try:
            self.store.settle(table.id, row.game, settlement, skills, scores, now(), met)
        except LeaseLost:  # another node holds the table (let go here): it settles its end
            return None
        except StoreError as err:  # the table is settled at the next restart's end, or never
            log.error("table %s: ratings not saved: %s", table.id, err)
            return None
        return settlement

    def _rate(self, table: Table, skills: list[Skill], changes: list[dict[str, Any]],
              met: list[tuple[str, str, str]]) -> str | None:
        """Rate a table that counts: fill `skills` (to store), `changes` (before and after, for
        people to read) and `met` (each identity's opponents); why not, when no two sides had
        different players. A bot keeps its rating when a person's side lost by leaving (a
        forfeit on the clock, a table left for a rematch): only a game played out moves it."""
        assert self.store is not None
        game = table.row.game
        members, returns = sides_of(table)
        if sum(1 for m in members if m) < 2:
            return "no two sides had different players to rate"
        kept = [(m, r) for m, r in zip(members, returns, strict=True) if m]
        stored = self.store.skills(game, [i for m, _ in kept for i in m])
        before = [[stored.get(i) or fresh(game, *i) for i in m] for m, _ in kept]
        after = rate(before, [r for _, r in kept])
        old = {(s.kind, s.who): s for side in before for s in side}
        bots_stay = table.forfeited is not None or table.left_unfinished
        for k, side in enumerate(after):
            rivals = [f"{kind}:{who}" for j, (m, _) in enumerate(kept) if j != k for kind, who in m]
            for s in side:
                if s.kind == "bot" and bots_stay:
                    s = old[(s.kind, s.who)]
                else:
                    skills.append(s)
                    met.extend((s.kind, s.who, rival) for rival in rivals)
                was = old[(s.kind, s.who)]
                changes.append({"kind": s.kind, "who": s.who, "before": shown(was.mu, was.sigma),
                                "after": shown(s.mu, s.sigma)})
        return None

    def played_from(self, table_id: str, seat: int, address: str) -> None:
        """A person played a move at `seat` from `address` (the hub's hook at every person's
        move): its network is kept once per seat, so the table's end can tell whether two sides
        were played from one network. A failed write is logged: the move stands."""
        if self.store is None:
            return
        seen = (table_id, seat, network_hash(address))
        if seen in self._networks_seen:
            return
        self._networks_seen[seen] = None
        while len(self._networks_seen) > NETWORKS_REMEMBERED:
            self._networks_seen.pop(next(iter(self._networks_seen)))
        try:
            self.store.played_from(*seen)
        except StoreError as err:
            log.error("table %s: seat %d's network not saved: %s", table_id, seat, err)

    # -- what the routes show -------------------------------------------------------------------
    def table_rating(self, table: Table) -> dict[str, Any]:
        """`GET /api/tables/{id}/rating`: how the table's end counted, with names, and for a
        solitaire game the person's best in that game and variant."""
        settled = None if self.store is None else self.store.settled(table.id)
        if settled is None:
            return {"settled": False, "rated": None, "why": None, "seats": []}
        names = {("player", s.player): s.player_name for s in table.row.seats if s.player}
        out: dict[str, Any] = {"settled": True, "rated": settled.rated, "why": settled.why, "seats": []}
        for change in settled.changes:
            entry = {**change, "name": names.get((change["kind"], change["who"]), change["who"])
                     if change["kind"] == "player" else f"bot: {change['who']}"}
            if change["kind"] == "player":
                entry.pop("who")
            if "score" in change and self.store is not None:
                mine = self.store.bests(change["who"], {table.game.id: table.game.lower_score_is_better})
                best = next((b for b in mine if b["game"] == table.game.id
                             and b["variant"] == change["variant"]), None)
                entry["best"], entry["games"] = (best["best"], best["games"]) if best else (None, 0)
            out["seats"].append(entry)
        return out

    def board(self, game: Game[Any, Any], kind: str | None, offset: int, limit: int) -> dict[str, Any]:
        total, page = (0, []) if self.store is None else self.store.board(game.id, kind, offset, limit)
        entries = []
        for k, s in enumerate(page):
            entries.append({"rank": offset + k + 1, "kind": s.kind,
                            "name": s.name if s.kind == "player" else f"bot: {s.who}",
                            **({"agent": s.who} if s.kind == "bot" else {}),
                            **shown(s.mu, s.sigma), "games": s.games, "wins": s.wins})
        return {"game": game.id, "total": total, "offset": offset, "limit": limit, "entries": entries,
                "established": {"games": ESTABLISHED_GAMES, "opponents": ESTABLISHED_OPPONENTS}}

    def bots(self, game: Game[Any, Any], agents: list[str]) -> dict[str, Any]:
        """Each of the game's bots: its rating now (its measured start until it has played)."""
        stored = {} if self.store is None else self.store.skills(game.id, [("bot", a) for a in agents])
        out = {}
        for agent in agents:
            s = stored.get(("bot", agent)) or fresh(game.id, "bot", agent)
            measured = ("bot", agent) in stored or agent in bot_starts().get(game.id, {})
            out[agent] = {**shown(s.mu, s.sigma), "games": s.games, "measured": measured}
        return out

    def personal(self, player_id: str, games: dict[str, bool], game: str | None) -> dict[str, Any]:
        """A person's solitaire bests (per game and variant) and last scores."""
        if self.store is None:
            return {"bests": [], "history": []}
        history = self.store.scores(player_id, game, MAX_SCORES)
        bests = [b for b in self.store.bests(player_id, games) if game is None or b["game"] == game]
        return {"bests": bests, "history": [
            {"table_id": s.table_id, "game": s.game, "variant": s.variant, "score": s.score,
             "won": s.won, "ended": s.ended} for s in history]}


def bounded_int(text: str | None, name: str, default: int, low: int, high: int) -> int:
    """A query parameter that must be a whole number from `low` to `high` (default if absent)."""
    if text is None:
        return default
    if not (text.isascii() and text.isdecimal() and len(text) <= 6) or not low <= int(text) <= high:
        raise BadRequest(f"'{name}' must be a whole number from {low} to {high}")
    return int(text)

