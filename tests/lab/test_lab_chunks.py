"""Workers hand over whole chunks (journal lines, an Arrow table, a running
summary) and the batch sizes adapt; none of it changes what a run writes or reports."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from tests.cli.cli_runner import run_captured as _run

from playtable.lab.chunks import Chunk, ChunkSpec, encode
from playtable.lab.metrics import RunningSummary, summarize
from playtable.lab.runner import MAX_BATCH, Arm, Batcher, RunOptions, run_tasks
from playtable.lab.storage import ResultWriter, read_rows

TOY = "tests.lab.lab_toygame:GAME"


def _arm() -> Arm:
    from tests.lab.lab_toygame import ToyParams

    return Arm.build(TOY, ToyParams(), ["greedy:samples=2"])


def _same(a: Any, b: Any) -> bool:
    """Equal, floats up to rounding (a merged summary adds its sums in another order)."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def test_merged_chunk_summaries_equal_the_summary_of_the_rows() -> None:
    rows = run_tasks([(_arm(), s) for s in range(40)])
    merged = RunningSummary()
    for i in range(0, 40, 7):
        merged.merge(encode(rows[i:i + 7], ChunkSpec()).summary)
    assert _same(merged.result(), summarize(rows))


def test_a_file_from_chunks_equals_a_file_from_rows(tmp_path: Path) -> None:
    """Writer: chunks are appended as the workers' tables, yet the file holds what `write`
    makes of the same rows; a chunk whose columns differ (a metric seen only later) goes in
    row by row, into `extra_metrics`."""
    rows = run_tasks([(_arm(), s) for s in range(30)])
    late = [dict(r, metrics={**r["metrics"], "late": 1.5}) for r in rows[20:]]
    with ResultWriter(tmp_path / "rows.parquet") as writer:
        writer.write(rows[:20])
        writer.write(late)
    spec = ChunkSpec(table=True, journal=True)
    with ResultWriter(tmp_path / "chunks.parquet") as writer:
        writer.write_chunk(encode(rows[:8], spec))
        writer.write(rows[8:11])  # rows (a resumed run's) and chunks mix in order
        writer.write_chunk(encode(rows[11:20], spec))
        writer.write_chunk(encode(late, spec))
    by_rows = read_rows([tmp_path / "rows.parquet"])
    by_chunks = read_rows([tmp_path / "chunks.parquet"])
    for row in by_rows + by_chunks:
        row.pop("filename")
    assert by_chunks == by_rows
    assert [r["seed"] for r in by_chunks] == list(range(30))
    assert by_chunks[25]["metrics"]["late"] == 1.5


def test_a_chunk_reads_back_its_rows_from_its_journal_lines() -> None:
    rows = run_tasks([(_arm(), s) for s in range(5)])
    chunk = encode(rows, ChunkSpec(table=True, journal=True))
    assert chunk.kept is None and chunk.count == 5
    assert [r["seed"] for r in chunk.rows()] == list(range(5))
    assert chunk.wins == {"default": [sum(r["win"] for r in rows), 5]}


def test_chunks_come_in_task_order_from_any_number_of_workers() -> None:
    tasks = [(_arm(), s) for s in range(30)]
    got: dict[int, list[Chunk]] = {1: [], 2: []}
    for workers in (1, 2):
        options = RunOptions(workers=workers, batch_size=4, on_chunk=got[workers].append,
                             chunk_spec=ChunkSpec(journal=True))
        run_tasks(tasks, options)
    one = [r for c in got[1] for r in c.rows()]
    two = [r for c in got[2] for r in c.rows()]
    assert [r["seed"] for r in two] == list(range(30))
    assert [r["seed"] for r in one] == list(range(30))
    assert sum(c.count for c in got[2]) == 30


def test_batch_sizes_adapt_to_the_speed_of_the_games() -> None:
    """Batcher: small first batches, then about BATCH_SECONDS of play per batch, fewer towards
    the end, never above MAX_BATCH; every task once, in order."""
    tasks = [(_arm(), s) for s in range(100_000)]
    batcher = Batcher(tasks, len(tasks), workers=2, fixed=None, spec=None)
    first = next(batcher)
    assert len(first[1]) == 32
    batcher.played(32, 32 * 1e-6)  # very fast games: the cap holds
    assert batcher.size == MAX_BATCH
    batcher.played(10_000, 100.0)  # slow ones (10 ms each): 25 games make a quarter second
    assert batcher.size == pytest.approx(25, abs=2)
    seeds = [s for _, batch, _ in batcher for _, s in batch]
    assert [s for _, s in first[1]] + seeds == list(range(100_000))
    fixed = Batcher(tasks[:10], 10, workers=2, fixed=3, spec=None)
    fixed.played(3, 1e-9)
    assert [len(b) for _, b, _ in fixed] == [3, 3, 3, 1]


def test_sim_with_two_workers_writes_what_one_worker_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.parquet"
        code, _, err = _run(capsys, "sim", TOY, "-n", "40", "--workers", workers, "--out", str(out))
        assert code == 0, err
        assert "40 rows written" in err
        rows = read_rows([out])
        for row in rows:
            row.pop("filename")
        files.append(rows)
    assert files[0] == files[1]
