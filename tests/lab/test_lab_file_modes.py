"""Files playtable writes for a user have the permissions the user's umask gives new
files: reports, playtest pages, plots, positions and result files were `-rw-------`
whatever the umask, because the atomic writes went through mkstemp. A file replaced keeps its
own permissions."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from playtable.core.files import open_atomic, write_atomic
from playtable.lab.storage import ResultWriter

TOY = "tests.lab.lab_toygame:GAME"


@pytest.fixture
def umask() -> Iterator[None]:
    before = os.umask(0o022)
    os.umask(before)
    yield
    os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_new_files_follow_the_umask(tmp_path: Path, umask: None, mask: int, expected: int) -> None:
    os.umask(mask)
    write_atomic(tmp_path / "page.html", "<html></html>")
    with open_atomic(tmp_path / "plot.png", ".png") as handle:
        handle.write(b"\x89PNG")
    from tests.lab.lab_toygame import ToyParams

    from playtable.lab.runner import Arm, run_tasks

    with ResultWriter(tmp_path / "r.parquet") as writer:
        writer.write(run_tasks([(Arm.build(TOY, ToyParams(), ["random"]), s) for s in range(2)]))
    for name in ("page.html", "plot.png", "r.parquet"):
        assert _mode(tmp_path / name) == expected, name
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path, umask: None) -> None:
    os.umask(0o022)
    private = tmp_path / "position.json"
    private.write_text("{}")
    private.chmod(0o600)
    write_atomic(private, "{\"new\": 1}")
    assert _mode(private) == 0o600 and private.read_text() == "{\"new\": 1}"


def test_the_cli_writes_positions_reports_and_pages_readable(tmp_path: Path, umask: None,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli.cli_runner import run_captured

    os.umask(0o022)
    position = tmp_path / "p.json"
    results = tmp_path / "r.parquet"
    page = tmp_path / "report.html"
    assert run_captured(capsys, "state", "new", "troll", "--seed", "1", "--out", str(position))[0] == 0
    assert run_captured(capsys, "sim", TOY, "-n", "3", "-q", "--out", str(results))[0] == 0
    assert run_captured(capsys, "report", str(results), "--out", str(page))[0] == 0
    for path in (position, results, page):
        assert _mode(path) == 0o644, path.name
