"""A public server one stranger cannot game (docs/web.md "Ratings that cannot be farmed",
"Names", "Playtest slots"): a rated game is one its rated people played themselves, between
different people, against shipped bot levels only, and a bot's rating moves only with games
played out; a newcomer is off the leaderboard until established; a name is one person's up to
case, width and look-alike letters; a playtest's slots go round fairly and its export marks the
games nobody really played. Every game here is real: the random bot's, replayed."""

from __future__ import annotations

import gc
import random
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from tests.web.conftest import create, in_process_app, seat_query
from tests.web.hub_support import running_hub
from tests.web.test_people import greet, receive_until
from tests.web.test_playtests import play_out
from tests.web.test_playtests import spec as playtest_spec
from tests.web.test_ratings import (
    STARDICE_WON_BY_SEAT_0,
    bot,
    finished_row,
    person,
    skill,
    table_of,
)

from playtable.cli import cli
from playtable.web.server.people.fair_play import network_hash
from playtable.web.server.people.people import hash_key
from playtable.web.server.people.ratings import Ratings, fresh
from playtable.web.server.playtests.playtests import Playtests, PlaytestStore
from playtable.web.server.store.schema import opened
from playtable.web.server.store.store import NameTaken, PlayerRow, SqlStore, TableRow
from playtable.web.server.transport.networks import network_of

PEOPLE = ("alice", "bob", "carol", "dave", "erin", "farmer")


@pytest.fixture
def store(db_where: str | Path) -> Any:
    opened = SqlStore(db_where)
    for name in PEOPLE:
        opened.add_player(PlayerRow(name, name.title(), hash_key(name * 15), "2026-11-27"))
    yield opened
    opened.close()


def cut(row: TableRow, steps: int) -> TableRow:
    """The row's first `steps` actions only: a game stopped there."""
    row.actions = row.actions[:steps]
    return row


def forfeited(row: TableRow, seat: int) -> TableRow:
    """The row as the hub stores a table whose `seat` ran out of time at a table set to forfeit."""
    row.ended, row.result = "2026-11-27T09:05:00.000+00:00", {"forfeit": seat, "returns": None}
    return row


def register(client: TestClient, name: str) -> tuple[int, str]:
    """(the status of registering `name` for a new key, that key)."""
    key = secrets.token_urlsafe(32)
    return client.post("/api/players", json={"key": key, "name": name}).status_code, key


def first_move_of(row: TableRow, seat: int) -> int:
    return next(k for k, (s, _) in enumerate(row.actions) if s == seat)


# -- ratings (class 4) ----------------------------------------------------------------------------

def test_a_forfeit_before_ones_first_move_or_a_game_the_stand_in_played_is_not_rated(
        store: SqlStore) -> None:
    ratings = Ratings(store)
    # The farmer's throwaway opponent sits down and lets a 5-s clock run out before moving.
    row = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("farmer"), person("bob")], "farm")
    row = forfeited(cut(row, first_move_of(row, 1)), 1)
    settled = ratings.settle(table_of(row))
    assert settled is not None and not settled.rated and "Bob did not play" in (settled.why or "")
    # A 5-s clock with the stand-in: the bot plays every move of Alice's seat, and wins.
    stood = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("alice"), bot()], "stood")
    stood.stand_ins = {k: "random" for k, (s, _) in enumerate(stood.actions, start=1) if s == 0}
    settled = ratings.settle(table_of(stood))
    assert settled is not None and not settled.rated and "Alice did not play" in (settled.why or "")
    # Mostly the stand-in's: still not Alice's game; half and half is.
    mine = [k for k, (s, _) in enumerate(stood.actions, start=1) if s == 0]
    stood.id, stood.stand_ins = "mostly", {k: "random" for k in mine[len(mine) // 2 - 1:]}
    assert not (ratings.settle(table_of(stood)) or pytest.fail()).rated
    stood.id, stood.stand_ins = "half", {k: "random" for k in mine[len(mine) // 2:]}
    assert (ratings.settle(table_of(stood)) or pytest.fail()).rated
    assert skill(ratings, "stardice", "player", "farmer") is None
    # Nor does a solitaire game the stand-in played make a personal best.
    alone = finished_row("troll", 0, [person("alice")], "alone")
    alone.stand_ins = {k: "random" for k, (s, _) in enumerate(alone.actions, start=1) if s == 0}
    settled = ratings.settle(table_of(alone))
    assert settled is not None and "stand-in" in (settled.why or "") and settled.changes == []
    assert ratings.personal("alice", {"troll": True}, "troll")["history"] == []


def test_two_sides_from_one_network_are_not_rated(store: SqlStore) -> None:
    ratings = Ratings(store)
    row = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("farmer"), person("bob")], "home")
    ratings.played_from(row.id, 0, "2001:db8:1:2::5")
    ratings.played_from(row.id, 1, "2001:db8:1:2:aaaa::9")  # another address of the same /64
    settled = ratings.settle(table_of(row))
    assert settled is not None and not settled.rated and "one network" in (settled.why or "")
    apart = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("farmer"), person("bob")], "apart")
    ratings.played_from(apart.id, 0, "198.51.100.7")
    ratings.played_from(apart.id, 1, "203.0.113.9")
    assert (ratings.settle(table_of(apart)) or pytest.fail()).rated
    assert network_of("::ffff:198.51.100.7") == "198.51.100.7"
    assert network_hash("2001:db8:1:2::5") == network_hash("2001:db8:1:2:ffff::1") \
        != network_hash("2001:db8:1:3::5")


def test_a_persons_move_over_the_socket_keeps_the_network_it_came_from(client: TestClient) -> None:
    """The hook in the table's play (tables/play.py): a move a person sends through the table's
    socket records, for that seat, the network it came from (TestClient's host name here)."""
    _, alice = register(client, "Alice")
    created = create(client, game="troll", seed=13, key=alice, seats=[{"kind": "human", "mine": True}])
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as ws:
        _, state = greet(ws)
        assert state["your_turn"]
        ws.send_json({"type": "act", "action": state["legal"][0]["action"], "step": 0})
        assert receive_until(ws, "state")["step"] == 1
    rating_store = running_hub().ratings.store
    assert rating_store is not None
    assert rating_store.networks(table) == {0: {network_hash("testclient")}}


def test_only_shipped_bot_levels_are_rated(store: SqlStore) -> None:
    ratings = Ratings(store)
    seats = [person("alice"), bot("ismcts:iterations=7")]
    row = finished_row("stardice", STARDICE_WON_BY_SEAT_0, seats, "odd")
    settled = ratings.settle(table_of(row))
    assert settled is not None and not settled.rated and "shipped levels" in (settled.why or "")
    assert skill(ratings, "stardice", "bot", "ismcts:iterations=7") is None
    assert skill(ratings, "stardice", "player", "alice") is None


def test_a_forfeit_or_a_left_table_is_the_persons_loss_and_leaves_the_bots_rating(store: SqlStore) -> None:
    ratings = Ratings(store)
    before = fresh("stardice", "bot", "random")
    # Alice played, then let her clock run out: her loss; the bot did not earn anything.
    row = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("alice"), bot()], "ff")
    row = forfeited(cut(row, first_move_of(row, 0) + 6), 0)
    settled = ratings.settle(table_of(row))
    assert settled is not None and settled.rated, settled
    alice = skill(ratings, "stardice", "player", "alice")
    assert alice.mu < 25.0 and alice.games == 1
    assert skill(ratings, "stardice", "bot", "random") is None  # kept as it was: still the shipped one
    random_bot = next(c for c in settled.changes if c["kind"] == "bot")
    assert random_bot["before"] == random_bot["after"]
    # Bob, losing, asks for a rematch mid-game against the bot: he resigned, not escaped.
    left = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [bot(), person("bob")], "left")
    left = cut(left, first_move_of(left, 1) + 6)
    left.rematch = "next"
    left.ended = "2026-11-27T09:05:00.000+00:00"
    settled = ratings.settle(table_of(left))
    assert settled is not None and settled.rated, settled
    bob = skill(ratings, "stardice", "player", "bob")
    assert bob.mu < 25.0 and bob.wins == 0
    assert skill(ratings, "stardice", "bot", "random") is None
    assert ratings.bots(table_of(left).game, ["random"])["random"]["rating"] == \
        round(1500 + 28 * (before.mu - 25))
    # Two people who both agree to leave their table are not rated.
    both = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("carol"), person("dave")], "both")
    both = cut(both, 20)
    both.rematch = "again"
    settled = ratings.settle(table_of(both))
    assert settled is not None and not settled.rated and "agreed to leave" in (settled.why or "")


def test_a_newcomer_is_off_the_leaderboard_until_established(store: SqlStore) -> None:
    ratings = Ratings(store)
    assert ratings.store is not None
    opponents = ["bob", "carol", "dave", "bob", "carol"]
    for k, opponent in enumerate(opponents):
        row = finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("alice"), person(opponent)], f"g{k}")
        ratings.played_from(row.id, 0, "198.51.100.7")
        ratings.played_from(row.id, 1, f"203.0.113.{k}")
        assert (ratings.settle(table_of(row)) or pytest.fail()).rated
        players = [s.who for s in ratings.store.board("stardice", "player", 0, 100)[1]]
        assert ("alice" in players) == (k == len(opponents) - 1), (k, players)
    alice = skill(ratings, "stardice", "player", "alice")
    assert (alice.games, alice.opponents) == (5, 3)
    assert ratings.store.board("stardice", "player", 0, 100)[0] == 1  # bob, carol, dave: provisional


def test_an_older_database_counts_its_rated_opponents_once(tmp_path: Path) -> None:
    """A database from before opponents were counted gains the column and the pairs from its
    rated tables' changes, so established people stay on the board."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE ratings (game TEXT NOT NULL, kind TEXT NOT NULL, who TEXT NOT NULL, mu REAL NOT NULL,
            sigma REAL NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL, updated TEXT NOT NULL,
            PRIMARY KEY (game, kind, who));
        CREATE TABLE rated_tables (table_id TEXT PRIMARY KEY, game TEXT NOT NULL, rated INTEGER NOT NULL,
            why TEXT, settled TEXT NOT NULL, changes TEXT NOT NULL);""")
    for k, other in enumerate(["b", "c", "d", "b", "c"]):
        db.execute("INSERT INTO rated_tables VALUES (?, 'stardice', 1, NULL, 'x', ?)",
                   (f"t{k}", f'[{{"kind": "player", "who": "a"}}, {{"kind": "player", "who": "{other}"}}]'))
    db.execute("INSERT INTO ratings VALUES ('stardice', 'player', 'a', 30, 2, 5, 5, 'x')")
    db.commit()
    db.close()
    opened = SqlStore(path)
    try:
        ratings = Ratings(opened)
        assert ratings.store is not None
        assert [s.who for s in ratings.store.board("stardice", None, 0, 10)[1]] == ["a"]
        assert skill(ratings, "stardice", "player", "a").opponents == 3
    finally:
        opened.close()


# -- names (class 5) -------------------------------------------------------------------------------

def test_a_name_is_one_persons_up_to_case_width_and_look_alikes(client: TestClient) -> None:
    alice = secrets.token_urlsafe(32)
    assert client.post("/api/players", json={"key": alice, "name": "Alice"}).status_code == 201
    for copy in ("Alice", "alice", "ALICE", "\u0410lice", "\uff21\uff4c\uff49\uff43\uff45", "AIice", "A1ice",
                 "\U0001d400lice"):
        answer = client.post("/api/players", json={"key": secrets.token_urlsafe(32), "name": copy})
        assert answer.status_code == 409 and "taken" in answer.json()["error"], copy
    # Alice may write her own name another way; a name nobody holds is anyone's.
    assert client.post("/api/players", json={"key": alice, "name": "ALICE"}).status_code == 200
    assert register(client, "Alicia")[0] == 201
    # Nobody's name reads as a bot's on the leaderboard.
    for bot_like in ("bot: random", "BOT:search", "bot : heuristic"):
        answer = client.post("/api/players", json={"key": secrets.token_urlsafe(32), "name": bot_like})
        assert answer.status_code == 400 and "bot" in answer.json()["error"], bot_like
    # A name given up is free again; its new holder keeps it.
    assert client.post("/api/players", json={"key": alice, "name": "Alice Liddell"}).status_code == 200
    assert register(client, "alice")[0] == 201
    assert client.post("/api/players", json={"key": alice, "name": "Alice"}).status_code == 409


def test_the_store_keeps_names_unique_across_processes(db_where: str | Path) -> None:
    first, second = SqlStore(db_where), SqlStore(db_where)
    try:
        first.add_player(PlayerRow("p1", "Bob", hash_key("1" * 43), "2026-11-27"))
        with pytest.raises(NameTaken):
            second.add_player(PlayerRow("p2", "B\u043eb", hash_key("2" * 43), "2026-11-27"))
        second.add_player(PlayerRow("p2", "Rob", hash_key("2" * 43), "2026-11-27"))
        with pytest.raises(NameTaken):
            second.rename_player("p2", "BOB")
    finally:
        first.close()
        second.close()


def test_an_older_database_keeps_the_first_of_clashing_names(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT, params TEXT NOT NULL,
            seed INTEGER NOT NULL, seats TEXT NOT NULL, created TEXT NOT NULL, rematch TEXT, rematch_of TEXT);
        CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL, key_hash TEXT UNIQUE,
            created TEXT NOT NULL);""")
    db.executemany("INSERT INTO players VALUES (?, ?, ?, ?)", [
        ("late", "Alice", "h3", "2026-11-03"), ("first", "Alice", "h1", "2026-11-01"),
        ("cyrillic", "\u0410lice", "h2", "2026-11-02"), ("two", "Alice 2", "h4", "2026-11-04"),
        ("bob", "Bob", "h5", "2026-11-05")])
    db.commit()
    db.close()
    opened = SqlStore(path)
    try:
        names = {player: (opened.find_player(h) or pytest.fail()).name
                 for player, h in [("first", "h1"), ("cyrillic", "h2"), ("late", "h3"), ("two", "h4"),
                                   ("bob", "h5")]}
        assert names == {"first": "Alice", "cyrillic": "\u0410lice 2", "late": "Alice 3", "two": "Alice 2 2",
                         "bob": "Bob"}
        with pytest.raises(NameTaken):
            opened.add_player(PlayerRow("new", "alice", "h6", "2026-11-06"))
    finally:
        opened.close()
    again = SqlStore(path)  # opened again: nothing changes twice
    try:
        assert (again.find_player("h3") or pytest.fail()).name == "Alice 3"
    finally:
        again.close()


# -- playtest slots (class 6) -----------------------------------------------------------------------

def new_playtest(db: str | Path, games: int) -> tuple[str | Path, str]:
    """A tables' database holding a new Rotator playtest of `games` games, and its id."""
    store = PlaytestStore(db)
    playtest_id = store.create(playtest_spec(games=games), random.Random(1))
    store.close()
    return db, playtest_id


def _playtests() -> Playtests:
    """The playtests of the app running in this process (as `hub_support.running_hub` finds its hub)."""
    found = [o for o in gc.get_objects() if type(o) is Playtests and not o.hub.workers.play.closed]
    assert found, "no app with playtests in this process"
    return found[-1]


def test_one_network_cannot_take_every_slot_and_an_unbegun_slot_goes_back(db_where: str | Path) -> None:
    db, pid = new_playtest(db_where, 6)
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        # A stranger with five names from one network: two slots of six, then 429.
        strangers = [register(client, f"Troll {k}")[1] for k in range(5)]
        answers = [client.post(f"/api/playtests/{pid}/play", json={"key": key}) for key in strangers]
        assert [a.status_code for a in answers] == [201, 201, 429, 429, 429]
        assert "your network" in answers[2].json()["error"]
        assert client.get(f"/api/playtests/{pid}").json()["taken"] == 2
        # An honest tester from elsewhere gets a game.
        honest = register(client, "Hana")[1]
        seated = client.portal.call(_playtests().play, pid, {"key": honest}, "198.51.100.7")
        assert seated["table_id"] not in {a.json()["table_id"] for a in answers[:2]}
        # The stranger's two tables are never begun: minutes later their slots go back.
        raw = opened(db)
        raw.execute("UPDATE playtest_testers SET assigned = '2026-01-01T00:00:00.000+00:00' "
                    "WHERE network != ?", (network_hash("198.51.100.7"),))
        raw.close()
        other = register(client, "Ivo")[1]
        client.portal.call(_playtests().play, pid, {"key": other}, "203.0.113.8")
        for taken in answers[:2]:
            assert client.get(f"/api/tables/{taken.json()['table_id']}").json()["status"] == "finished"
        assert client.post(f"/api/playtests/{pid}/me", json={"key": strangers[0]}).json()["last"] is None
        assert client.get(f"/api/playtests/{pid}").json()["taken"] == 2  # Hana's and Ivo's
        assert client.get(f"/api/tables/{seated['table_id']}").json()["status"] != "finished"


def test_a_game_played_in_no_time_is_marked_in_the_export(tmp_path: Path, db_where: str | Path) -> None:
    db, pid = new_playtest(db_where, 2)
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        key = register(client, "Quick")[1]
        seated = client.post(f"/api/playtests/{pid}/play", json={"key": key}).json()
        play_out(client, seated["path"], random.Random(3))  # the troll's game: over in a moment
        assert client.post(f"/api/playtests/{pid}/answers", json={
            "key": key, "table_id": seated["table_id"], "answers": {"fun": 5}}).status_code == 200
    out = tmp_path / "people.parquet"
    result = CliRunner().invoke(cli, ["playtest-online", "export", pid, "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0 and "1 marked suspect" in result.output, result.output
    (row,) = pq.read_table(out).to_pylist()
    assert row["testers"] == ["Quick"] and "less than 30 s" in row["suspect"]
    # The same game played by a person taking their time is not marked.
    raw = opened(db)
    raw.execute("UPDATE tables SET created = '2026-01-01T00:00:00.000+00:00' WHERE id = ?",
                (seated["table_id"],))
    raw.close()
    CliRunner().invoke(cli, ["playtest-online", "export", pid, "--db", str(db), "--out", str(out), "--force"])
    (row,) = pq.read_table(out).to_pylist()
    assert row["suspect"] is None or "less than 30 s" not in row["suspect"]
