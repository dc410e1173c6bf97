"""A player's install ("Install and interfaces"): without the `lab` and `rl` extras the
games, positions and simulations without a result file work, and every command that needs an
extra says which in one line with exit status 2, writing nothing. The extras' modules are made
unimportable by `tests/light_install.py`, in a child process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tests" / "light_install.py"


def _playtable(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RUNNER), *args],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_playing_needs_no_extra(tmp_path: Path) -> None:
    done = _playtable(tmp_path, "state", "new", "troll", "--seed", "3", "--out", "p.json")
    assert done.returncode == 0, done.stderr
    done = _playtable(tmp_path, "state", "apply", "troll", "p.json", "stomp")
    assert done.returncode in (0, 2) and len(done.stderr.strip().splitlines()) <= 1
    done = _playtable(tmp_path, "sim", "troll", "-n", "3", "-q", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 3


@pytest.mark.parametrize(
    "args",
    [
        ["sim", "troll", "-n", "3", "-q", "--out", "r.parquet"],
        ["compare", "troll", "--variant", "a:", "--variant", "b:", "-n", "2", "-q"],
        ["query", "SELECT 1", "r.parquet"],
        ["report", "r.parquet"],
        ["tournament", "troll", "--agent", "random", "--agent", "heuristic", "-n", "2"],
        ["stardice", "battle", "--seed", "1", "--out", "t.png"],
    ],
)
def test_commands_that_need_the_lab_say_so_in_one_line(tmp_path: Path, args: list[str]) -> None:
    done = _playtable(tmp_path, *args)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'playtable[lab]'" in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_the_rl_package_names_its_extra(tmp_path: Path) -> None:
    code = f"import runpy; runpy.run_path({str(RUNNER)!r}); import playtable.rl"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "pip install 'playtable[rl]'" in done.stderr.strip().splitlines()[-1]
