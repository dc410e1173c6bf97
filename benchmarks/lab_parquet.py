"""Result files: row-group size against file size and query time.

    .venv/bin/python benchmarks/lab_parquet.py [--rows 200000] [--repeat 5]

Plays 2,000 troll games (random agent) once, then writes the same N rows (the games repeated
under new seeds) twice in the result files' columns: in 32-row groups (what the runner's
batches gave before) and in `ROW_GROUP_ROWS`-row groups (now). For each file: size, write time, and the
median time of three DuckDB queries over `repeat` runs (one process, 2 threads).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from rich.console import Console
from rich.table import Table

from playtable.core.registry import get_game
from playtable.lab import storage
from playtable.lab.columns import TableMaker, schema_for
from playtable.lab.runner import Arm, run_tasks

QUERIES = {
    "win rate by variant": "SELECT variant, avg(win::int) FROM games GROUP BY variant",
    "length quartiles": "SELECT quantile_cont(length, [0.25, 0.5, 0.75]) FROM games",
    "events of long games": "SELECT sum(events['stomp']) FROM games WHERE length > 20",
}


def write(rows: list[dict[str, Any]], path: Path, group: int) -> float:
    """The rows as a result file (the writer's columns and metadata) in row groups of `group`.
    (`ResultWriter` itself always writes ROW_GROUP_ROWS and journals each one; written directly
    here so that only the row-group size differs.)"""
    started = time.perf_counter()
    maker = TableMaker(schema_for(rows).with_metadata(storage.file_metadata("benchmarks/lab_parquet.py")))
    table = pa.concat_tables([maker.table(rows[i : i + 4096]) for i in range(0, len(rows), 4096)])
    pq.write_table(table, path, row_group_size=group)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game = get_game("troll")
    arm = Arm.build("troll", game.params_type(), ["random"])
    base = run_tasks([(arm, s) for s in range(2000)])
    rows = [{**base[i % len(base)], "seed": i} for i in range(args.rows)]
    table = Table(title=f"{args.rows:,} result rows: row-group size, file size and DuckDB query time")
    for col in ("row groups of", "groups", "file MB", "write s", *(f"{q} ms" for q in QUERIES)):
        table.add_column(col, justify="right")
    with tempfile.TemporaryDirectory() as folder:
        for group in (32, storage.ROW_GROUP_ROWS):
            path = Path(folder) / f"g{group}.parquet"
            seconds = write(rows, path, group)
            timings = []
            for sql in QUERIES.values():
                runs = []
                for _ in range(args.repeat):
                    started = time.perf_counter()
                    storage.query(sql, [path])
                    runs.append(time.perf_counter() - started)
                timings.append(statistics.median(runs) * 1000)
            meta = pq.read_metadata(path)
            table.add_row(f"{group:,}", f"{meta.num_row_groups:,}", f"{path.stat().st_size / 1e6:.1f}",
                          f"{seconds:.1f}", *(f"{t:.1f}" for t in timings))
    Console().print(table)


if __name__ == "__main__":
    main()
