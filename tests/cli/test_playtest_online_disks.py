"""`playtest-online` on a disk that refuses it, and output names refused on the command line:
one line each, status 2 for the user's input (a read-only --db, an in-memory one, a bad --out
name), 1 for the machine (a full disk), and never a traceback."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from tests.cli.cli_runner import run

from playtable.web.server.playtests import playtests

COMMANDS = {
    "create": ["playtest-online", "create", "troll", "--variant", "default", "--games", "2"],
    "status": ["playtest-online", "status"],
    "export": ["playtest-online", "export", "someid", "--out", "people.parquet"],
}


def _refusing(message: str) -> Any:
    def refuse(self: Any, path: Any) -> None:
        raise sqlite3.OperationalError(message)

    return refuse


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("message", "code", "said"), [
    ("attempt to write a readonly database", 2, "read-only"),
    ("database or disk is full", 1, "no space left"),
])
def test_a_refusing_disk_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str,
                                     message: str, code: int, said: str) -> None:
    db = tmp_path / "tables.sqlite3"
    db.write_bytes(b"")  # status and export need the file to exist
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(playtests.PlaytestStore, "__init__", _refusing(message))
    outcome = run(*COMMANDS[command], "--db", str(db))
    assert outcome.code == code, outcome.err
    lines = outcome.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], outcome.err
    assert "Traceback" not in outcome.err and not outcome.out


@pytest.mark.parametrize("db", ["file:y?mode=memory", ":memory:", "file:tables.sqlite3"])
def test_a_playtest_stored_nowhere_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              db: str) -> None:
    """An SQLite URI or in-memory --db would print a share link to a playtest no server reads."""
    monkeypatch.chdir(tmp_path)
    outcome = run(*COMMANDS["create"], "--db", db)
    assert outcome.one_error_line(), outcome.err
    assert "/p/" not in outcome.out and "nowhere" in outcome.err
    assert not list(tmp_path.iterdir())


NOT_UTF8 = os.fsdecode(b"answers-\xff.html")


@pytest.mark.parametrize("argv", [
    ["playtest", "troll", "-n", "1", "--out"],
    ["sim", "troll", "-n", "1", "--out"],
])
@pytest.mark.parametrize("name", [NOT_UTF8, "a" * 235 + ".html", "b" * 250 + ".html"])
def test_an_out_name_the_run_cannot_keep_is_refused_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], name: str) -> None:
    """A non-UTF-8 name (Parquet records it as text) and a name of 240-255 bytes (no room for
    the run's NAME.journal.fragments) fail on the command line, not after the games."""
    from playtable.lab import runner

    def no_games(*args: Any, **kw: Any) -> Any:
        raise AssertionError("a game was played before the name was checked")

    monkeypatch.setattr(runner, "run_tasks", no_games)
    monkeypatch.chdir(tmp_path)
    outcome = run(*argv, name)
    assert outcome.one_error_line(), outcome.err
    assert "--out" in outcome.err
    assert not list(tmp_path.iterdir())
