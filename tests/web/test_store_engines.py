"""The store on both engines (docs/web.md, "On PostgreSQL"): the layout's versions, a database
newer than the code refused, the missing extra named, `playtable db copy` from SQLite to
PostgreSQL checked table by table, a whole game on a real server over PostgreSQL through a
restart, and a PostgreSQL backup (`pg_dump`) restored into a database the server reads."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx2
import pytest
from tests.cli.cli_runner import run
from tests.pg_server import BIN, PgServer
from tests.web.server_process import start_server
from tests.web.wire_client import Client, create_table, join_query

from playtable.web.server.people.rating_store import Settlement, Skill, SoloScore, SqlRatingStore
from playtable.web.server.playtests.playtest_spec import DEFAULT_QUESTIONS, check_spec
from playtable.web.server.playtests.playtests import PlaytestStore
from playtable.web.server.store import schema
from playtable.web.server.store.address_rates import AddressSockets
from playtable.web.server.store.copy import counts
from playtable.web.server.store.database import StoreError
from playtable.web.server.store.rate_limits import SharedBuckets
from playtable.web.server.store.schema import LATEST, opened, table_names
from playtable.web.server.store.store import PlayerRow, SeatRow, Snapshot, SqlStore, TableRow
from playtable.web.server.tables.in_play import TablesInPlay
from playtable.web.server.tables.proposals import SqlProposalStore
from playtable.web.server.tables.votes import SqlVoteStore


def test_a_new_database_has_every_table_at_the_latest_layout(db_where: str | Path) -> None:
    db = opened(db_where)
    try:
        assert schema.version(db) == LATEST
        assert set(table_names()) <= db.tables()
        assert len(table_names()) == 20
    finally:
        db.close()


def test_a_new_layout_step_is_applied_in_place_once_and_keeps_the_rows(
        db_where: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SqlStore(db_where)
    store.add_player(PlayerRow("p1", "Ann", "a" * 64, "2026-12-06"))
    store.close()
    applied = []

    def add_a_column(db: Any) -> None:
        applied.append(db.dialect)
        db.execute("ALTER TABLE players ADD COLUMN motto TEXT")

    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, add_a_column])
    monkeypatch.setattr(schema, "LATEST", LATEST + 1)
    for _ in range(2):  # the second opening finds the step done
        store = SqlStore(db_where)
        try:
            assert schema.version(store.db) == LATEST + 1
            assert "motto" in store.db.columns("players")
            assert store.find_player("a" * 64) == PlayerRow("p1", "Ann", "a" * 64, "2026-12-06")
        finally:
            store.close()
    assert len(applied) == 1


def _open_at_once(where: str | Path, openers: int = 4) -> list[Any]:
    """`openers` threads open the database at `where` together; their connections, or the first
    failure, raised here in the test's thread."""
    barrier = threading.Barrier(openers)
    opened_ones: list[Any] = []
    failures: list[BaseException] = []

    def open_it() -> None:
        barrier.wait(timeout=30)
        try:
            opened_ones.append(opened(where))
        except BaseException as err:  # noqa: BLE001  # reported below, in the test's thread
            failures.append(err)

    threads = [threading.Thread(target=open_it) for _ in range(openers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    if failures:
        for db in opened_ones:
            db.close()
        raise failures[0]
    return opened_ones


def test_processes_opening_a_new_database_at_once_lay_it_out_once(db_where: str | Path) -> None:
    """`serve --processes N` (and nodes on one PostgreSQL) open a new database together: one
    connection at a time upgrades it, the others then find it done."""
    opened_ones = _open_at_once(db_where)
    try:
        assert len(opened_ones) == 4
        assert [schema.version(db) for db in opened_ones] == [LATEST] * 4
        assert opened_ones[0].execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 1
    finally:
        for db in opened_ones:
            db.close()


def test_a_new_sqlite_file_opened_by_many_at_once_is_never_locked(tmp_path: Path) -> None:
    """Switching a new file to the write-ahead log takes its exclusive lock, and SQLite refuses
    the others at once rather than waiting: before the switch was tried again, 5-9% of new
    files opened by four together failed with "database is locked"."""
    for attempt in range(60):
        opened_ones = _open_at_once(tmp_path / f"new-{attempt}.db")
        try:
            assert {db.execute("PRAGMA journal_mode").fetchone()[0] for db in opened_ones} == {"wal"}
        finally:
            for db in opened_ones:
                db.close()


def test_a_database_newer_than_the_code_is_refused_in_one_line(db_where: str | Path) -> None:
    db = opened(db_where)
    db.execute("UPDATE schema_version SET version = ?", (LATEST + 1,))
    db.close()
    with pytest.raises(StoreError, match=f"layout version {LATEST + 1}, newer than this playtable's"):
        SqlStore(db_where)
    refused = run("serve", "--db", str(db_where), "--port", "0")
    assert refused.code == 2 and refused.one_error_line(), refused
    assert "newer than this playtable's" in refused.err and "Traceback" not in refused.err


def test_the_tables_commits_on_postgresql_wait_for_no_disk_as_on_sqlite(postgres: PgServer) -> None:
    """`synchronous_commit=off` on the tables' store: SQLite's `synchronous=NORMAL` (a crash of
    the server process loses nothing; only the database machine's own crash may lose the last
    commits); the playtests' connection keeps the default, as on SQLite."""
    url = postgres.database()
    store, playtests = SqlStore(url), PlaytestStore(url)
    try:
        assert store.db.execute("SHOW synchronous_commit").fetchone() == ("off",)
        assert playtests.db.execute("SHOW synchronous_commit").fetchone() == ("on",)
    finally:
        store.close()
        playtests.close()


def test_a_postgresql_url_without_psycopg_names_the_extra_in_one_line() -> None:
    program = ("import sys; sys.modules['psycopg'] = None; from playtable.cli import main; "
               "main(['serve', '--db', 'postgresql://nobody@127.0.0.1:9/none', '--port', '0'])")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: a PostgreSQL database (--db postgresql://...) needs the 'server' extra (psycopg not "
        "installed): pip install 'playtable[server]'"]


def test_a_junk_database_url_is_refused_in_one_line(tmp_path: Path) -> None:
    refused = run("serve", "--db", "mysql://somewhere/db", "--port", "0")
    assert refused.code == 2 and "postgresql://" in refused.err, refused


def _fill(where: str | Path) -> None:
    """A database with rows in every table of the layout."""
    store = SqlStore(where)
    people = [PlayerRow(f"p{k}", name, f"{k}" * 64, f"2026-12-0{k}")
              for k, name in enumerate(["Ann", "Bo"], 1)]
    for person in people:
        store.add_player(person)
    seats = [SeatRow("human", "a", token_hash="t" * 64, joined=True), SeatRow("bot", "b", agent="random")]
    for k in range(3):
        row = TableRow(f"tab{k}", "troll", None, {"x": k}, 2**40 + k, seats, f"2026-12-06T0{k}:00:00+00:00")
        row.actions = [(0, "draw"), (None, "roll 3")]
        row.stand_ins = {2: "random"}
        store.create(row)
        store.seat_player(row.id, 0, people[k % 2])
    store.append_action("tab0", 3, 0, "move 1")
    store.count_hint("tab0", 0)
    store.count_chat("tab0", 0)
    store.save_snapshot("tab0", Snapshot(2, {"state": [1, 2]}))
    store.mark_ended("tab2", "2026-12-06T05:00:00+00:00", {"winner": 0})
    db = store.db
    ratings = SqlRatingStore(db)
    ratings.set_choice("tab1", False)
    ratings.played_from("tab1", 0, "net1")
    ratings.settle("tab2", "troll", Settlement(True, None, [{"kind": "player", "who": "p1"}]),
                   [Skill("player", "p1", 26.5, 7.25, 1, 1), Skill("bot", "random", 23.0, 8.0, 1, 0)],
                   [("p1", SoloScore("tab2", "troll", "standard", 12.5, True, "2026-12-06"))], "2026-12-06",
                   [("player", "p1", "bot:random"), ("bot", "random", "player:p1")])
    SqlVoteStore(db).add("tab2", 0, 1)
    SqlProposalStore(db).ask("tab1", 0, "battle", 1)
    TablesInPlay(db).reserve("tab0", "net1", "p1", False, 20, 10)
    SharedBuckets(db).allow("tables", "net1", 20)
    AddressSockets(db, 0, 2).open("10.0.0.1", 0, 5)
    store.close()
    playtests = PlaytestStore(where)
    spec = check_spec("rotator", ["easy"], 4, 100, None, list(DEFAULT_QUESTIONS), "t")
    pid = playtests.create(spec, random.Random(3))
    for slot in playtests.slots(pid)[:2]:
        playtests.take(slot, f"tab{slot.slot}", "p2", 0, "net2")
        playtests.join(slot, "p1", 1, "net1")
    playtests.answer(playtests.testers(pid)[0], {"fun": "4"})
    playtests.close()


def _everything(where: str | Path) -> dict[str, list[Any]]:
    db = opened(where)
    try:
        found = {}
        for table in table_names():
            columns = [c for c in db.columns(table) if c != "rowid"]
            order = "rowid" if table in schema.ORDERED else ", ".join(columns)
            found[table] = [tuple(r) for r in db.execute(f"SELECT {', '.join(columns)} FROM {table} "
                                                         f"ORDER BY {order}")]
        return found
    finally:
        db.close()


def test_db_copy_moves_every_table_from_sqlite_to_postgresql(tmp_path: Path, postgres: PgServer) -> None:
    source = tmp_path / "tables.sqlite3"
    _fill(source)
    target = postgres.database()
    done = run("db", "copy", str(source), target)
    assert done.code == 0, done
    assert "copied" in done.err and "every table's count matches" in done.err
    assert all(f"{table}: " in done.err for table in table_names())  # progress, table by table
    before, after = _everything(source), _everything(target)
    assert all(before[table] for table in table_names()), "the source has rows in every table"
    assert after == before
    # what the server reads back is the same: a table with its record, a player, a playtest's testers
    for where in (source, target):
        store = SqlStore(where)
        try:
            assert store.load("tab0") is not None and store.load("tab0").actions[-1] == (0, "move 1")
        finally:
            store.close()
    playtests = [PlaytestStore(source), PlaytestStore(target)]
    pid = playtests[0].ids()[0][0]
    seated = [[t.player_id for t in store.testers(pid)] for store in playtests]
    assert seated[0] == seated[1] == ["p2", "p1", "p2", "p1"]
    for store in playtests:
        store.close()

    again = run("db", "copy", str(source), target)  # a destination with rows is refused...
    assert again.code == 2 and again.one_error_line() and "--replace" in again.err, again
    replaced = run("db", "copy", str(source), target, "--replace")  # ...unless told
    assert replaced.code == 0 and _everything(target) == before, replaced
    db = opened(target)
    assert counts(db) == {table: len(rows) for table, rows in before.items()}
    db.close()


def test_db_copy_refuses_what_it_cannot_copy_in_one_line(tmp_path: Path) -> None:
    missing = run("db", "copy", str(tmp_path / "none.sqlite3"), str(tmp_path / "b.sqlite3"))
    assert missing.code == 2 and missing.one_error_line() and "no database" in missing.err, missing
    _fill(tmp_path / "a.sqlite3")
    same = run("db", "copy", str(tmp_path / "a.sqlite3"), str(tmp_path / "a.sqlite3"))
    assert same.code == 2 and "the same database" in same.err, same
    unreachable = run("db", "copy", str(tmp_path / "a.sqlite3"), "postgresql://nobody@127.0.0.1:9/none")
    assert unreachable.code == 2 and unreachable.one_error_line(), unreachable
    assert "postgresql://nobody@127.0.0.1:9/none cannot be used" in unreachable.err


def _actions_in_postgresql(url: str, table_id: str) -> int:
    import psycopg

    with psycopg.connect(url) as db:
        return int(db.execute("SELECT count(*) FROM actions WHERE table_id = %s", (table_id,)).fetchone()[0])  # type: ignore[index]


def test_a_whole_game_over_postgresql_survives_a_restart(postgres: PgServer) -> None:
    """A real `playtable serve --db postgresql://...`: a game played to its end over WebSocket,
    one left mid-game; after a restart both read back as they were and the second goes on."""
    url = postgres.database()
    with start_server(url) as server:
        finished = create_table(server.url, game="rotator", params={"board": "easy"}, seed=3)
        going = create_table(server.url, game="troll", variant="plus-one", seed=17)
        rng = random.Random(4)
        with Client(server.ws_url, finished["table_id"], join_query(finished)) as player:
            _, state = player.greet()
            for _ in range(400):
                if state["terminal"]:
                    break
                state = player.act(rng.choice(state["legal"])["action"], state["step"])
                assert state["type"] == "state", state
            assert state["terminal"]
        end_step = state["step"]
        with Client(server.ws_url, going["table_id"], join_query(going)) as player:
            _, state = player.greet()
            for _ in range(5):
                state = player.act(state["legal"][0]["action"], state["step"])
            before = state

        server.kill()
        server.restart()

        assert _actions_in_postgresql(url, finished["table_id"]) == end_step  # not in a file
        summary = httpx2.get(f"{server.url}/api/tables/{finished['table_id']}", timeout=10).json()
        assert summary["status"] == "finished" and summary["step"] == end_step
        with Client(server.ws_url, going["table_id"], join_query(going)) as player:
            _, after = player.greet()
            assert (after["step"], after["observation"], after["legal"]) == \
                (before["step"], before["observation"], before["legal"])
            assert player.act(after["legal"][0]["action"], after["step"])["step"] == after["step"] + 1


def test_a_pg_dump_backup_restores_into_a_database_the_server_reads(tmp_path: Path,
                                                                    postgres: PgServer) -> None:
    source = postgres.database()
    _fill(source)
    backup = tmp_path / "tables.dump"
    dumped = subprocess.run([str(BIN / "pg_dump"), "--format=custom", f"--file={backup}", source],
                            capture_output=True, text=True, timeout=60, check=False)
    assert dumped.returncode == 0, dumped.stderr
    restored = postgres.database()
    done = subprocess.run([str(BIN / "pg_restore"), "--no-owner", f"--dbname={restored}", str(backup)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert _everything(restored) == _everything(source)
    store = SqlStore(restored)  # at the layout's version: nothing to upgrade, and it writes
    try:
        assert schema.version(store.db) == LATEST
        store.append_action("tab1", 3, 0, "after the restore")
        assert store.load("tab1").actions[-1] == (0, "after the restore")  # type: ignore[union-attr]
    finally:
        store.close()
