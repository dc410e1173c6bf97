"""The table server's store and collector under several processes: an action's commit
waits for another process's write lock in short steps instead of SQLite's millisecond sleeps,
and a server process sets its garbage collector once it has started (collector.py)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from playtable.web.server.store.store import SeatRow, SqlStore, StoreError, TableRow


def _store_with_a_table(path: Path) -> SqlStore:
    store = SqlStore(path)
    store.create(TableRow("t1", "troll", None, {}, 1, [SeatRow("troll", "human")], "now"))
    return store


def _steps(path: Path) -> list[int]:
    with sqlite3.connect(path) as db:
        found = db.execute("SELECT step FROM actions WHERE table_id = 't1' ORDER BY step")
        return [step for (step,) in found]


def test_an_action_is_stored_once_another_process_lets_go_of_the_write_lock(tmp_path: Path) -> None:
    store = _store_with_a_table(tmp_path / "tables.sqlite3")
    other = sqlite3.connect(tmp_path / "tables.sqlite3", isolation_level=None, check_same_thread=False)
    try:
        other.execute("BEGIN IMMEDIATE")  # another server process in the middle of its commit
        other.execute("INSERT INTO actions (table_id, step, seat, action) VALUES ('t1', 1, 0, 'draw')")
        released = threading.Timer(0.05, lambda: other.execute("COMMIT"))
        released.start()
        store.append_action("t1", 2, 0, "move 3")  # waits in short steps, then commits
        released.join()
        assert _steps(tmp_path / "tables.sqlite3") == [1, 2]
    finally:
        other.close()
        store.close()


def test_an_action_fails_in_one_sentence_when_the_lock_is_never_let_go(tmp_path: Path) -> None:
    store = _store_with_a_table(tmp_path / "tables.sqlite3")
    store.db.APPEND_PATIENCE = 0.05  # type: ignore[attr-defined]
    other = sqlite3.connect(tmp_path / "tables.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreError, match="could not be written.*locked"):
            store.append_action("t1", 1, 0, "draw")
        other.execute("ROLLBACK")
        store.append_action("t1", 1, 0, "draw")  # nothing was half written
        assert _steps(tmp_path / "tables.sqlite3") == [1]
    finally:
        other.close()
        store.close()


def test_the_actions_connection_commits_without_fsync_as_the_store_does(tmp_path: Path) -> None:
    """`synchronous` is a connection's own setting: the actions' connection once had SQLite's
    default (FULL, an fsync a commit), which made every action wait for the disk."""
    store = SqlStore(tmp_path / "tables.sqlite3")
    try:
        normal = store.db.execute("PRAGMA synchronous").fetchone()
        assert normal == (1,)  # NORMAL
        assert store.db.appends.execute("PRAGMA synchronous").fetchone() == normal  # type: ignore[attr-defined]
    finally:
        store.close()


PROBE = """
import gc, json, sys
from starlette.testclient import TestClient
from playtable.web.server.app import create_app
from playtable.web.server.transport.processes import ServeSettings, build_app
from playtable.web.server.tables.room import Limits
import dataclasses
default = gc.get_threshold()
with TestClient(create_app(sys.argv[1] + "/a.sqlite3", workers=1)):
    untouched = (gc.get_threshold(), gc.get_freeze_count())
settings = ServeSettings(sys.argv[1] + "/b.sqlite3", 1, 20.0, sys.argv[1], None, [], None,
                         dataclasses.asdict(Limits()), 10.0)
with TestClient(build_app(settings)):
    served = (gc.get_threshold(), gc.get_freeze_count())
print(json.dumps({"default": default, "untouched": untouched, "served": served}))
"""


def test_a_server_process_sets_its_collector_once_started_and_a_tests_app_does_not(tmp_path: Path) -> None:
    from playtable.web.server.transport.collector import THRESHOLDS

    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], capture_output=True, text=True,
                          timeout=120, check=True)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["untouched"] == [seen["default"], 0]
    threshold, frozen = seen["served"]
    assert tuple(threshold) == THRESHOLDS and threshold != seen["default"]
    assert frozen > 10_000  # the modules and everything else the started server holds
