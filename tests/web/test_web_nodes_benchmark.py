"""benchmarks/web_nodes.py's own arithmetic and readings, without a server: the projection for N
machines, /proc/PID/stat's CPU times (a process's own, its descendants', and the children it has
reaped, as PostgreSQL's ended backends are counted) and PostgreSQL's pid from its data folder."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
BURN = "import time\nwhile time.process_time() < 0.4: pass\n"


@pytest.fixture(scope="module")
def web_nodes() -> Any:
    sys.path.insert(0, str(BENCHMARKS))  # its own imports: web_load, server_profile
    try:
        spec = importlib.util.spec_from_file_location("web_nodes", BENCHMARKS / "web_nodes.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["web_nodes"] = module  # its dataclass looks its module up there
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_projection_is_capped_by_postgresql_where_the_machines_pass_it(web_nodes: Any) -> None:
    got = web_nodes.project(node_ms=2.0, pg_ms=0.5, commits_per_action=1.5, cores=16, pg_cores=8,
                            machines=(1, 2, 3))
    assert got["per_machine"] == pytest.approx(8000)  # 16 cores / 2 ms
    assert got["ceiling"] == pytest.approx(16000)  # 8 cores / 0.5 ms
    assert got["machines_at_ceiling"] == pytest.approx(2.0)
    rows = got["rows"]
    assert [r["offered"] for r in rows] == pytest.approx([8000, 16000, 24000])
    assert [r["served"] for r in rows] == pytest.approx([8000, 16000, 16000])
    assert [r["pg_cores_busy"] for r in rows] == pytest.approx([4, 8, 8])
    assert [r["commits_per_s"] for r in rows] == pytest.approx([12000, 24000, 24000])
    assert [r["pg_bound"] for r in rows] == [False, False, True]


def test_stat_times_are_read_after_a_command_name_holding_spaces_and_parentheses(web_nodes: Any) -> None:
    line = "4242 (postgres: x (y) z) S 1 4242 4242 0 -1 4194560 10 20 30 40 111 222 333 444 20 0 1 0\n"
    times = web_nodes.parse_stat(line)
    assert (times.utime, times.stime, times.cutime, times.cstime) == (111, 222, 333, 444)


def test_a_tree_counts_its_descendants_and_with_reaped_the_children_it_waited_for(web_nodes: Any) -> None:
    # A parent that runs a CPU-burning child to its end (and so has reaped it), then starts a
    # second burner that stays alive, and says so: as a postmaster whose backends come and go.
    parent = textwrap.dedent(f"""
        import subprocess, sys, time
        subprocess.run([sys.executable, "-c", {BURN!r}], check=True)
        alive = subprocess.Popen([sys.executable, "-c", {BURN + "time.sleep(60)"!r}])
        time.sleep(0.2)
        while True:
            with open(f"/proc/{{alive.pid}}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            if int(fields[11]) + int(fields[12]) >= 38:
                break
            time.sleep(0.05)
        print("ready", flush=True)
        time.sleep(60)
    """)
    process = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        alive_only = web_nodes.tree_cpu_seconds(process.pid)
        with_reaped = web_nodes.tree_cpu_seconds(process.pid, reaped=True)
    finally:
        for pid in web_nodes._descendants(process.pid):
            subprocess.run(["kill", "-9", str(pid)], check=False)
        process.kill()
        process.wait(timeout=10)
    assert 0.38 <= alive_only < 0.38 + 0.35  # the live burner, the parent's own start-up
    assert with_reaped - alive_only >= 0.38  # and the ended burner, in the parent's cutime


def test_postgresql_s_pid_is_the_first_line_of_postmaster_pid(web_nodes: Any, tmp_path: Path) -> None:
    (tmp_path / "postmaster.pid").write_text("31337\n/var/lib/postgresql/data\n1733460000\n5432\n")
    assert web_nodes.postmaster_pid(tmp_path) == 31337
