"""Fuzzing the lab's file entry points (Tests): `query` and `report` on arbitrary
files and SQL, and `sim` / `compare` writing where anything may already lie (a file, a planted
symlink, a stale temporary file, a garbage journal or recovered file). Whatever happens: exit 0
or 2, one line on error, no file touched on error, and never a write through a symlink."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.cli.cli_runner import run_captured

from playtable.cli import main

TOY = "tests.lab.lab_toygame:GAME"
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code, _, err = run_captured(capsys, *args)
    return code, err


def _snapshot(folder: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for path in sorted(folder.iterdir()):
        out[path.name] = ("link", os.readlink(path)) if path.is_symlink() else path.read_bytes()
    return out


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("sample") / "s.parquet"
    main(["sim", TOY, "-n", "6", "-q", "--out", str(path)])
    return path.read_bytes()


_sql = st.one_of(
    st.sampled_from(
        [
            "SELECT count(*) FROM games",
            "SELECT seed, win FROM games",
            "SELECT nope FROM games",
            "DROP TABLE games",
            "",
            "SELECT * FROM read_csv('/etc/passwd')",
            ";;",
            "SELECT 1/0",
        ]
    ),
    st.text(max_size=40),
)


@FUZZ
@given(
    content=st.one_of(st.binary(max_size=200), st.just(b"PAR1"), st.integers(0, 2000)),
    sql=_sql,
    fmt=st.sampled_from(["table", "csv", "json"]),
)
def test_query_and_report_on_any_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    sample: bytes,
    content: bytes | int,
    sql: str,
    fmt: str,
) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    data = sample[:content] + b"\x00" * 3 + sample[content + 3 :] if isinstance(content, int) else content
    (folder / "r.parquet").write_bytes(data)
    before = _snapshot(folder)
    code, err = _run(capsys, "query", sql, str(folder / "r.parquet"), "--format", fmt)
    assert code in (0, 2) and (code == 0 or len(err.strip().splitlines()) == 1), err
    assert _snapshot(folder) == before
    code, err = _run(capsys, "report", str(folder / "*.parquet"), "--out", str(folder / "page.html"))
    assert code in (0, 2) and (code == 0 or len(err.strip().splitlines()) == 1), err
    if code == 2:
        assert _snapshot(folder) == before
    shutil.rmtree(folder)


_planted = st.fixed_dictionaries(
    {},
    optional={
        "r.parquet": st.sampled_from(["bytes", "link"]),
        "r.parquet.part": st.sampled_from(["bytes", "link"]),
        "r.parquet.journal.jsonl": st.sampled_from(["bytes", "link", "garbage-json", "killed-run"]),
        "r.recovered.parquet": st.sampled_from(["bytes", "link", "sample"]),
    },
)


@FUZZ
@given(planted=_planted, force=st.booleans(), command=st.sampled_from(["sim", "compare"]))
def test_sim_and_compare_outputs_whatever_lies_there(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    sample: bytes,
    planted: dict[str, str],
    force: bool,
    command: str,
) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    victim = tmp_path / "victim.txt"
    victim.write_text("never overwrite me")
    for name, kind in planted.items():
        path = folder / name
        if kind == "link":
            path.symlink_to(victim)
        elif kind == "bytes":
            path.write_bytes(b"\x00garbage\xff\n")
        elif kind == "garbage-json":
            path.write_text('{"variant": "default", "seed": "x"}\n[1, 2]\n')
        elif kind == "sample":
            path.write_bytes(sample)
        else:  # what a killed `sim TOY -n 4` leaves
            from tests.lab.lab_toygame import ToyParams

            from playtable.lab.runner import Arm, run_tasks
            from playtable.lab.storage import ResultWriter

            writer = ResultWriter(folder / "r.parquet")
            writer.journal = path
            writer.tmp = folder / "scratch.part"
            writer.write(run_tasks([(Arm.build(TOY, ToyParams(), ["random"]), s) for s in range(2)]))
    before = _snapshot(folder)
    out = str(folder / "r.parquet")
    args = (
        ["sim", TOY, "-n", "4"]
        if command == "sim"
        else ["compare", TOY, "--variant", "a:", "--variant", "b:target=30", "-n", "2"]
    )
    code, err = _run(capsys, *args, "-q", "--out", out, *(["--force"] if force else []))
    errors = [line for line in err.splitlines() if line.startswith("error")]
    assert code in (0, 2), err
    assert victim.read_text() == "never overwrite me"
    if code == 2:
        assert len(errors) == 1 and len(err.strip().splitlines()) == 1, err
        assert _snapshot(folder) == before
    else:
        assert not errors and pq.read_metadata(out).num_rows == 4
    shutil.rmtree(folder)
