"""The lab's files. Results are never lost (recovery is cumulative
and a killed run resumes at its first missing seed; the printed row count is the file's), temp
files never follow a planted symlink, existing outputs need --force, `sim` streams, Parquet
files have large row groups, metadata and typed parameter columns, and `query` takes globs."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from tests.cli.cli_runner import run_captured as _run

from playtable import __version__
from playtable.lab.recovery import recover, recovered_path
from playtable.lab.runner import Arm, Interrupted, RunOptions, run_tasks
from playtable.lab.storage import ResultWriter, file_info, journal_path, read_rows

TOY = "tests.lab.lab_toygame:GAME"


def _arm() -> Arm:
    from tests.lab.lab_toygame import ToyParams

    return Arm.build(TOY, ToyParams(), ["random"])


def _killed_run(out: Path, seeds: range) -> None:
    """What a `sim --out OUT` killed outright leaves: a journal (and an unreadable .part)."""
    ResultWriter(out).write(run_tasks([(_arm(), s) for s in seeds]))


def test_a_run_killed_twice_loses_nothing_and_resumes_at_the_first_missing_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.parquet"
    _killed_run(out, range(0, 3))
    assert recover(out, recovered_path(out)) == 3  # the first rerun saved them...
    _killed_run(out, range(0, 6))  # ...and was killed too, after writing them and seeds 3..5
    code, _, err = _run(capsys, "sim", TOY, "-n", "10", "--out", str(out))  # notes: not --quiet
    assert code == 0, err
    assert "resuming: 6 games" in err and "4 games in" in err  # only seeds 6..9 were played
    assert "10 rows written" in err
    rows = read_rows([out])
    assert sorted(r["seed"] for r in rows) == list(range(10))
    assert not recovered_path(out).exists() and not journal_path(out).exists()
    fresh = run_tasks([(_arm(), s) for s in range(10)])
    assert [(r["seed"], r["win"], r["length"]) for r in sorted(rows, key=lambda r: r["seed"])] == [
        (r["seed"], r["win"], r["length"]) for r in fresh
    ]


def test_recovered_games_of_another_run_are_never_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Games of another run, in the journal or in the recovered file: refused in one line
    before anything is touched."""
    out = tmp_path / "r.parquet"
    _killed_run(out, range(0, 3))
    before = journal_path(out).read_bytes()
    code, _, err = _run(capsys, "sim", TOY, "-n", "5", "-q", "--param", "target=20", "--out", str(out))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "another run" in err
    assert journal_path(out).read_bytes() == before and not out.exists()
    assert not recovered_path(out).exists()
    recover(out, recovered_path(out))
    code, _, err = _run(capsys, "sim", TOY, "-n", "5", "-q", "--param", "target=20", "--out", str(out))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "another run" in err
    assert len(read_rows([recovered_path(out)])) == 3 and not out.exists()


def test_printed_row_count_is_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.parquet"
    code, _, err = _run(
        capsys,
        "compare",
        TOY,
        "--variant",
        "a:",
        "--variant",
        "b:target=30",
        "-n",
        "7",
        "--out",
        str(out),
    )
    assert code == 0, err
    assert f"{pq.read_metadata(out).num_rows} rows written" in err and "14 rows written" in err


def test_existing_outputs_are_refused_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.parquet"
    out.write_bytes(b"precious")
    for args in (["sim", TOY, "-n", "3"], ["compare", TOY, "--variant", "a:", "--variant", "b:", "-n", "3"]):
        code, _, err = _run(capsys, *args, "-q", "--out", str(out))
        assert code == 2 and "--force" in err and len(err.strip().splitlines()) == 1
        assert out.read_bytes() == b"precious"
    code, _, err = _run(capsys, "sim", TOY, "-n", "3", "-q", "--out", str(out), "--force")
    assert code == 0 and pq.read_metadata(out).num_rows == 3
    report = tmp_path / "report.html"
    report.write_text("mine")
    code, _, err = _run(capsys, "report", str(out), "--out", str(report))
    assert code == 2 and "--force" in err and report.read_text() == "mine"
    code, _, err = _run(capsys, "report", str(out), "--out", str(report), "--force")
    assert code == 0 and "<html" in report.read_text()


@pytest.mark.parametrize("planted", [".part", ".journal.jsonl"])
def test_planted_symlinks_are_never_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], planted: str
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("do not overwrite")
    out = tmp_path / "r.parquet"
    (tmp_path / ("r.parquet" + planted)).symlink_to(victim)
    code, _, err = _run(capsys, "sim", TOY, "-n", "3", "-q", "--out", str(out))
    assert code in (0, 2) and len([ln for ln in err.splitlines() if ln.startswith("error")]) <= 1
    assert victim.read_text() == "do not overwrite"
    if code == 0:
        assert pq.read_metadata(out).num_rows == 3


def test_report_never_writes_through_a_planted_tmp_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.parquet"
    assert _run(capsys, "sim", TOY, "-n", "3", "-q", "--out", str(out))[0] == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("do not overwrite")
    (tmp_path / "report.html.tmp").symlink_to(victim)
    code, _, err = _run(capsys, "report", str(out), "--out", str(tmp_path / "report.html"))
    assert code == 0, err
    assert victim.read_text() == "do not overwrite"


def test_runner_reads_tasks_lazily() -> None:
    """A practically endless task stream: the run starts at once and holds no task list."""
    arm = _arm()
    seen: list[int] = []

    def stop_after_three_batches(rows: list[dict[str, Any]]) -> None:
        seen.append(len(rows))
        if len(seen) == 3:
            raise KeyboardInterrupt

    endless = ((arm, s) for s in itertools.count())
    with pytest.raises(Interrupted) as stop:
        run_tasks(endless, RunOptions(batch_size=4, on_rows=stop_after_three_batches), keep_rows=False)
    assert seen == [4, 4, 4] and stop.value.rows == []


def test_sim_of_a_hundred_million_games_starts_in_bounded_memory(tmp_path: Path) -> None:
    """`sim -n 100000000` used to die of MemoryError building its task list before any game."""
    import os
    import resource
    import signal
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "big.parquet"
    cmd = [
        sys.executable,
        "-c",
        "from playtable.cli import main; main()",
        "sim",
        TOY,
        "-n",
        "100000000",
        "--out",
        str(out),
        "-q",
    ]
    proc = subprocess.Popen(
        cmd,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    journal = journal_path(out)
    deadline = time.monotonic() + 60
    while not (journal.exists() and journal.stat().st_size > 100_000) and time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak_kb < 1_000_000  # a list of 10^8 tasks alone would take several GB
    rows = pq.read_metadata(out).num_rows
    assert rows > 0 and f"{rows} rows written".encode() in err


def test_parquet_files_have_large_row_groups_metadata_and_typed_parameters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.parquet"
    code, _, err = _run(capsys, "sim", TOY, "-n", "200", "--param", "target=30", "-q", "--out", str(out))
    assert code == 0, err
    meta = pq.read_metadata(out)
    assert meta.num_row_groups == 1 and meta.num_rows == 200  # runner batches are far smaller
    info = file_info(out)
    assert info["version"] == __version__ and "sim" in info["command"] and info["created"][:2] == "20"
    frame = pq.read_table(out).to_pandas()
    assert str(frame["p_target"].dtype) == "int64" and set(frame["p_target"]) == {30}
    assert str(frame["p_players"].dtype) == "int64"


def test_query_takes_globs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, n in (("a", 3), ("b", 5)):
        assert (
            _run(capsys, "sim", TOY, "-n", str(n), "-q", "--out", str(tmp_path / f"{name}.parquet"))[0] == 0
        )
    code, text, err = _run(
        capsys, "query", "SELECT count(*) AS n FROM games", str(tmp_path / "*.parquet"), "--format", "csv"
    )
    assert code == 0, err
    assert text.split() == ["n", "8"]
    code, _, err = _run(capsys, "query", "SELECT 1", str(tmp_path / "nothing-*.parquet"))
    assert code == 2 and "no result file matches" in err and len(err.strip().splitlines()) == 1
