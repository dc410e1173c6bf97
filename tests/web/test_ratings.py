"""Ratings and personal bests (docs/web.md "Ratings"): a rated table's end moves its
people's and bots' ratings the right way, the wizard's heroes are rated as one side, an unrated
table changes nothing, a table counts once however often its end is seen (a restart too), a
solitaire game keeps a score history and a best, and every new route refuses what is out of
bounds. Games are played to their end by the random bot in-process, so every result is real."""

from __future__ import annotations

import secrets
from functools import cache
from pathlib import Path
from typing import Any, cast

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import create, in_process_app

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.params import params_from_dict
from playtable.core.protocol import params_as_dict
from playtable.core.registry import get_game
from playtable.web.server.hub import Hub
from playtable.web.server.people.people import hash_key
from playtable.web.server.people.ratings import START_MU, Ratings, fresh, shown
from playtable.web.server.store.store import PlayerRow, SeatRow, SqlStore, TableRow
from playtable.web.server.tables.tables import Table


@cache
def random_game(game_id: str, seed: int, values: tuple[tuple[str, Any], ...] = ()) -> tuple[str, ...]:
    """The actions of a whole game played by the random bot (the same every time for a seed)."""
    game = get_game(game_id)
    state = game.new_state(params_from_dict(game.params_type, dict(values)), seed)
    agent, rng = make_agent(game, "random"), Chance(seed)
    actions = []
    while not state.is_terminal:
        text = str(agent.choose(state.clone(), rng))
        state.apply_text(text)
        actions.append(text)
    return tuple(actions)


def finished_row(game_id: str, seed: int, seats: list[SeatRow], table_id: str,
                 values: tuple[tuple[str, Any], ...] = (), variant: str | None = None) -> TableRow:
    game = get_game(game_id)
    params = params_as_dict(params_from_dict(game.params_type, dict(values)))
    for seat, name in zip(seats, game.seat_names(params_from_dict(game.params_type, dict(values))),
                          strict=True):
        seat.name = name
    return TableRow(table_id, game_id, variant, params, seed, seats, "2026-11-27T09:00:00.000+00:00",
                    actions=list(seated_actions(game_id, seed, values)))


@cache
def seated_actions(game_id: str, seed: int, values: tuple[tuple[str, Any], ...] = ()) -> tuple[
        tuple[int | None, str], ...]:
    """The random bot's whole game, each action with the seat that played it (as the hub stores
    a person's own move), so each person's seat has moves of its own."""
    game = get_game(game_id)
    state = game.new_state(params_from_dict(game.params_type, dict(values)), seed)
    out: list[tuple[int | None, str]] = []
    for text in random_game(game_id, seed, values):
        seat = state.current_player
        out.append((seat if seat >= 0 else None, text))
        state.apply_text(text)
    return tuple(out)


def table_of(row: TableRow) -> Table:
    game = get_game(row.game)
    return Table(row, game.new_state(params_from_dict(game.params_type, row.params), row.seed))


def person(player: str) -> SeatRow:
    return SeatRow("human", "seat", player=player, player_name=player.title(), joined=True)


def bot(agent: str = "random") -> SeatRow:
    return SeatRow("bot", "seat", agent)


@pytest.fixture
def store(db_where: str | Path) -> Any:
    opened = SqlStore(db_where)
    for name in ("alice", "bob", "carol"):
        opened.add_player(PlayerRow(name, name.title(), hash_key(name * 15), "2026-11-27"))
    yield opened
    opened.close()


STARDICE_WON_BY_SEAT_0 = 2
"""Star Dice, standard rules: the random bot's game on this seed is won by seat 0 (48 actions)."""
WIZARD_HEROES_WIN = 1
"""The wizard game, 4 players: the random bot's heroes win on this seed (141 actions)."""


def skill(ratings: Ratings, game: str, kind: str, who: str) -> Any:
    assert ratings.store is not None
    return ratings.store.skills(game, [(kind, who)]).get((kind, who))


def test_a_rated_two_player_game_moves_the_winner_up_and_the_loser_down(store: SqlStore) -> None:
    row = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("alice"), bot("random")], "sd1")
    table = table_of(row)
    assert table.state.returns() == [1.0, 0.0]
    ratings = Ratings(store)
    starting_bot = skill(ratings, "stardice", "bot", "random")
    assert starting_bot is None  # never played on this server: starts from the shipped measurement
    settled = ratings.settle(table)
    assert settled is not None and settled.rated and settled.why is None
    alice = skill(ratings, "stardice", "player", "alice")
    random_bot = skill(ratings, "stardice", "bot", "random")
    assert alice.mu > START_MU and alice.games == 1 and alice.wins == 1
    before = fresh("stardice", "bot", "random")
    assert random_bot.mu < before.mu and random_bot.games == 1 and random_bot.wins == 0
    assert alice.sigma < before.sigma or alice.sigma < 25 / 3  # more is known about both
    changes = {c["who"]: c for c in settled.changes}
    assert changes["alice"]["after"]["rating"] > changes["alice"]["before"]["rating"] == 1500


def test_the_wizards_heroes_are_rated_as_one_side(store: SqlStore) -> None:
    values = (("players", 4),)
    seats = [bot("heuristic"), person("alice"), person("bob"), person("carol")]
    table = table_of(finished_row("wizard", WIZARD_HEROES_WIN, seats, "wz1", values))
    assert table.state.returns() == [0.0, 1.0, 1.0, 1.0]
    ratings = Ratings(store)
    assert ratings.settle(table) is not None
    heroes = [skill(ratings, "wizard", "player", p) for p in ("alice", "bob", "carol")]
    # Equal newcomers on the winning side move up together, by the same amount.
    assert all(h.mu > START_MU and h.wins == 1 for h in heroes)
    assert len({round(h.mu, 9) for h in heroes}) == 1
    assert skill(ratings, "wizard", "bot", "heuristic").mu < fresh("wizard", "bot", "heuristic").mu
    # A side made of one bot in three seats is one identity playing one game.
    lone = table_of(finished_row("wizard", WIZARD_HEROES_WIN, [person("alice"), bot(), bot(), bot()], "wz2",
                                 values))
    assert ratings.settle(lone) is not None
    assert skill(ratings, "wizard", "bot", "random").games == 1
    assert skill(ratings, "wizard", "player", "alice").games == 2


def test_the_side_is_its_members_mean_not_their_sum() -> None:
    """Openskill's own teams add their members' skills: three newcomers would be nearly sure to
    beat one. Rated as their mean, the heroes' win against an equal wizard moves each of them as
    much as a one-against-one win would."""
    from playtable.web.server.people.rating_store import Skill
    from playtable.web.server.people.ratings import rate

    def newcomer(name: str) -> Skill:
        return Skill("player", name, START_MU, 25 / 3)

    (_,), three = rate([[newcomer("w")], [newcomer("a"), newcomer("b"), newcomer("c")]], [0.0, 1.0])
    (_,), (one,) = rate([[newcomer("w")], [newcomer("a")]], [0.0, 1.0])
    assert [round(h.mu, 9) for h in three] == [round(one.mu, 9)] * 3


@pytest.mark.parametrize("why, build", [
    ("its creator chose", lambda: finished_row("stardice", STARDICE_WON_BY_SEAT_0,
                                               [person("alice"), bot()], "u1")),
    ("other rules", lambda: finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("alice"), bot()], "u2",
                                         (("war_target", 30),))),
    ("without a name", lambda: finished_row("stardice", STARDICE_WON_BY_SEAT_0,
                                            [person("alice"), SeatRow("human", "klingon")], "u3")),
    ("no named person", lambda: finished_row("stardice", STARDICE_WON_BY_SEAT_0,
                                             [bot("greedy"), bot()], "u4")),
    ("no two sides", lambda: finished_row("stardice", STARDICE_WON_BY_SEAT_0,
                                          [person("alice"), person("alice")], "u5")),
])
def test_an_unrated_table_changes_no_rating(store: SqlStore, why: str, build: Any) -> None:
    row = build()
    ratings = Ratings(store)
    if row.id == "u1":
        ratings.choose(row.id, False)
    if row.id == "u2":
        assert random_game("stardice", STARDICE_WON_BY_SEAT_0, (("war_target", 30),))
    table = table_of(row)
    settled = ratings.settle(table)
    assert settled is not None and not settled.rated and why in (settled.why or "")
    assert ratings.store is not None
    assert ratings.store.board("stardice", None, 0, 100) == (0, [])


def test_a_table_counts_once_ended_twice_or_rebuilt_after_a_restart(store: SqlStore) -> None:
    hub = Hub(store, cast(Any, None))
    row = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("alice"), bot()], "once")
    store.create(TableRow(row.id, row.game, row.variant, row.params, row.seed, row.seats, row.created))
    for k, (seat, text) in enumerate(row.actions, start=1):
        store.append_action(row.id, k, seat, text)
    # The server stopped after rating the table and before storing its end (the hook rates first).
    settled = hub.ratings.settle(table_of(store.load("once") or row))
    assert settled is not None and settled.rated, settled
    first = skill(hub.ratings, "stardice", "player", "alice")
    restarted = Hub(store, cast(Any, None))
    restarted.restore()  # rebuilds the table, finds it over and marks it ended: rated already
    table = restarted.tables["once"]
    assert table.row.ended is not None
    restarted.mark_ended(table)
    table.row.ended = None
    restarted.mark_ended(table)  # ended a second time
    again = skill(restarted.ratings, "stardice", "player", "alice")
    assert (again.mu, again.games) == (first.mu, first.games) == (first.mu, 1)


def test_a_solitaire_game_keeps_each_score_and_the_best(store: SqlStore) -> None:
    ratings = Ratings(store)
    troll = get_game("troll")
    played = []
    for seed in (0, 1, 2):
        row = finished_row("troll", seed, [person("alice")], f"troll{seed}", variant=None)
        row.ended = f"2026-11-27T09:0{seed}:00.000+00:00"
        table = table_of(row)
        settled = ratings.settle(table)
        assert settled is not None and not settled.rated and "personal best" in (settled.why or "")
        played.append(table.state.metrics()["score"])
    mine = ratings.personal("alice", {"troll": troll.lower_score_is_better}, None)
    assert [h["score"] for h in mine["history"]] == [float(s) for s in reversed(played)]
    assert mine["bests"] == [{"game": "troll", "variant": "standard", "best": float(min(played)), "games": 3,
                              "wins": sum(1 for s in played if s == 0), "last": mine["bests"][0]["last"]}]
    # A variant's scores are kept apart from the standard rules'.
    easier = finished_row("troll", 3, [person("alice")], "troll-easier", variant="plus-one",
                          values=tuple(get_game("troll").variants["plus-one"].items()))
    ratings.settle(table_of(easier))
    kept = {b["variant"] for b in ratings.personal("alice", {"troll": True}, "troll")["bests"]}
    assert kept == {"standard", "plus-one"}
    # A table its creator made unrated (a tutorial's guided game) keeps no score either.
    guided = finished_row("troll", 4, [person("alice")], "troll-guided")
    ratings.choose(guided.id, False)
    assert ratings.settle(table_of(guided)) is not None
    assert len(ratings.personal("alice", {"troll": True}, "troll")["history"]) == 4
    assert ratings.store is not None and ratings.store.board("troll", None, 0, 10) == (0, [])


# -- the routes, over a database whose tables ended before the server started --------------------

KEY = {name: secrets.token_urlsafe(32) for name in ("alice", "bob")}


@pytest.fixture(scope="module")
def rated_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server restarted over tables whose records reached their end: its restart rates them.
    Shared by the tests below, which only read."""
    db = tmp_path_factory.mktemp("rated") / "tables.sqlite3"
    stored = SqlStore(db)
    for name, key in KEY.items():
        stored.add_player(PlayerRow(name, name.title(), hash_key(key), "2026-11-27"))
    rows = [finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("alice"), bot()], "sd-rated"),
            finished_row("troll", 0, [person("alice")], "troll-alone")]
    for row in rows:
        stored.create(row)
    stored.close()
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as test_client:
        yield test_client


def test_the_leaderboard_lists_people_and_bots_best_first(rated_client: TestClient) -> None:
    board = rated_client.get("/api/leaderboard?game=stardice").json()
    assert board["total"] == 1 and board["offset"] == 0 and board["limit"] == 50
    # Alice has one rated game: provisional, not on the board yet (docs/web.md "Ratings that
    # cannot be farmed"); the bot's rating was measured before it shipped.
    assert [e["name"] for e in board["entries"]] == ["bot: random"]
    only_bots = rated_client.get("/api/leaderboard?game=stardice&kind=bot&limit=1").json()
    assert [e["name"] for e in only_bots["entries"]] == ["bot: random"]
    assert rated_client.get("/api/leaderboard?game=stardice&kind=player").json()["entries"] == []
    second = rated_client.get("/api/leaderboard?game=stardice&offset=1&limit=1").json()
    assert second["entries"] == [] and second["total"] == 1
    assert rated_client.get("/api/leaderboard?game=wizard").json() == {
        "game": "wizard", "total": 0, "offset": 0, "limit": 50, "entries": [],
        "established": {"games": 5, "opponents": 3}}


def test_the_leaderboard_refuses_what_is_out_of_bounds(rated_client: TestClient) -> None:
    for query in ["", "game=chess", "game=stardice&limit=0", "game=stardice&limit=101",
                  "game=stardice&offset=-1", "game=stardice&offset=10001", "game=stardice&limit=1e2",
                  "game=stardice&limit=%C2%B2", "game=stardice&kind=everyone", "game=stardice&sort=mu",
                  "game=stardice&limit=" + "9" * 5000]:
        answer = rated_client.get(f"/api/leaderboard?{query}")
        assert answer.status_code == 400 and answer.json()["error"], query
    assert rated_client.get("/api/leaderboard?game=stardice&limit=100&offset=10000").json()["entries"] == []


def test_a_tables_rating_and_each_bots_rating(rated_client: TestClient) -> None:
    rated = rated_client.get("/api/tables/sd-rated/rating").json()
    assert rated["settled"] and rated["rated"] and rated["why"] is None
    alice = next(s for s in rated["seats"] if s["name"] == "Alice")
    assert alice["after"]["rating"] > alice["before"]["rating"] and "who" not in alice  # no player id
    assert next(s for s in rated["seats"] if s["name"] == "bot: random")["after"]["rating"] < \
        next(s for s in rated["seats"] if s["name"] == "bot: random")["before"]["rating"]
    alone = rated_client.get("/api/tables/troll-alone/rating").json()
    assert not alone["rated"] and alone["seats"][0]["best"] == alone["seats"][0]["score"]
    assert alone["seats"][0]["games"] == 1
    bots = rated_client.get("/api/games/stardice/bots").json()["bots"]
    assert bots["random"]["games"] == 1 and set(bots) >= {"random", "greedy", "search"}
    assert rated_client.get("/api/games/chess/bots").status_code == 400
    assert rated_client.get("/api/tables/nope/rating").status_code == 404


def test_my_scores_need_my_key(rated_client: TestClient) -> None:
    mine = rated_client.post("/api/players/me/scores", json={"key": KEY["alice"]}).json()
    assert mine["player"]["name"] == "Alice" and [h["table_id"] for h in mine["history"]] == ["troll-alone"]
    assert mine["bests"][0]["game"] == "troll"
    assert rated_client.post("/api/players/me/scores", json={"key": KEY["bob"], "game": "troll"}).json()[
        "history"] == []
    for body, status in [({"key": secrets.token_urlsafe(32)}, 403), ({"key": "short"}, 400),
                         ({"key": KEY["alice"], "game": "chess"}, 400),
                         ({"key": KEY["alice"], "limit": 5}, 400), ([], 400)]:
        assert rated_client.post("/api/players/me/scores", json=body).status_code == status


def test_the_rated_choice_is_checked_and_kept(rated_client: TestClient) -> None:
    body = {"game": "stardice", "seats": [{"kind": "human"}, {"kind": "bot", "agent": "random"}]}
    for wrong in ("yes", 1, 0, []):
        answer = rated_client.post("/api/tables", json={**body, "rated": wrong})
        assert answer.status_code == 400 and "'rated'" in answer.json()["error"]
    made = create(rated_client, **body, rated=False)
    assert rated_client.get(f"/api/tables/{made['table_id']}/rating").json() == {
        "settled": False, "rated": None, "why": None, "seats": []}


def test_the_shown_scale() -> None:
    assert shown(25.0, 25 / 3) == {"rating": 1500, "uncertainty": 467, "provisional": True}
    assert shown(25.0 + 400 / 28, 1.0)["rating"] == 1900
