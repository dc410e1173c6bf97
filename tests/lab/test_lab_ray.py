"""The Ray backend against a local Ray instance ("Measured": the Ray backend runs in the
test suite against a local Ray instance; the local backend stays the default and needs no Ray).

`playtable sim --backend ray` runs as a person would run it, but inside a network namespace that
has only loopback (`loopback_only.py`), because a local Ray binds to every address the machine has
and this workplace allows loopback traffic only. Skipped when Ray (the extra `playtable[ray]`,
installed by `make setup`) is missing or the namespace cannot be made (not root)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

LOOPBACK_ONLY = Path(__file__).with_name("loopback_only.py")
SIM = [sys.executable, "-m", "playtable", "sim", "troll", "--agent", "heuristic", "-n", "12", "--seed", "40"]


def _env() -> dict[str, str]:
    return {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "COLUMNS": "100"}


def test_ray_backend_writes_the_rows_of_the_local_backend(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    local, remote = tmp_path / "local.parquet", tmp_path / "ray.parquet"
    done = subprocess.run([*SIM, "--workers", "2", "--out", str(local), "-q"], env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    command = [*SIM, "--backend", "ray", "--workers", "2", "--out", str(remote)]
    done = subprocess.run([sys.executable, str(LOOPBACK_ONLY), *command], env=_env(),
                          capture_output=True, text=True, timeout=300)
    if done.returncode == 77:
        pytest.skip(done.stderr.strip())
    assert done.returncode == 0, done.stderr
    assert "win rate" in done.stdout and "12 games in" in done.stderr
    assert pq.read_table(remote).to_pylist() == pq.read_table(local).to_pylist()


def test_the_local_backend_needs_no_ray_and_the_ray_backend_says_what_is_missing(tmp_path: Path) -> None:
    # `sys.modules["ray"] = None` makes `import ray` fail as if Ray were not installed.
    script = (
        "import sys; sys.modules['ray'] = None\n"
        "from playtable.cli import main\n"
        "main(sys.argv[1:])\n"
    )
    out = tmp_path / "local.parquet"
    done = subprocess.run([sys.executable, "-c", script, *SIM[3:], "--out", str(out), "-q"],
                          env=_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert pq.read_table(out).num_rows == 12
    done = subprocess.run([sys.executable, "-c", script, *SIM[3:], "--backend", "ray"],
                          env=_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert "pip install 'playtable[ray]'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
