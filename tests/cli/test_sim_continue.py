"""An interrupted `sim` (Ctrl-C or SIGTERM: the result file is completed with the games that
finished) is continued by the same command, as a killed one is resumed: the games already in
the file are kept and only the missing seeds are played."""

from __future__ import annotations

from pathlib import Path

from tests.cli.cli_runner import run

from playtable.lab.recovery import recovered_path
from playtable.lab.storage import read_rows

TOY = "tests.lab.lab_toygame:GAME"
KEPT = ("variant", "seed", "win", "return_0", "length", "m_total")


def _games(path: Path) -> list[tuple[object, ...]]:
    rows = read_rows([path])
    return sorted(tuple(row.get(key) for key in KEPT) for row in rows)


def test_the_same_command_continues_an_interrupted_run(tmp_path: Path) -> None:
    whole, out = tmp_path / "whole.parquet", tmp_path / "out.parquet"
    assert run("sim", TOY, "-n", "30", "--seed", "4", "-q", "--out", str(whole)).code == 0
    # what an interrupted run of the 30 games leaves: the first 12 of them, in a completed file
    assert run("sim", TOY, "-n", "12", "--seed", "4", "-q", "--out", str(out)).code == 0
    again = run("sim", TOY, "-n", "30", "--seed", "4", "--out", str(out))
    assert again.code == 0, again.err
    assert "continuing an interrupted run: its 12 games" in again.err
    assert _games(out) == _games(whole) and len(_games(out)) == 30
    assert not recovered_path(out).exists()


def test_a_finished_file_or_another_runs_file_still_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "out.parquet"
    assert run("sim", TOY, "-n", "10", "-q", "--out", str(out)).code == 0
    finished = run("sim", TOY, "-n", "10", "-q", "--out", str(out))
    assert finished.code == 2 and "pass --force" in finished.err
    other = run("sim", TOY, "-n", "20", "--seed", "100", "-q", "--out", str(out))
    assert other.code == 2 and "pass --force" in other.err
    assert len(read_rows([out])) == 10 and not recovered_path(out).exists()
