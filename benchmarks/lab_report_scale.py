"""`playtable report` at size ("The lab at the sizes it promises"): time and peak memory.

    .venv/bin/python benchmarks/lab_report_scale.py [--rows 20000 100000 ...] [--game troll]

Plays `--source` real games of each of two variants (random agent; seeds 0..source-1, the same
seeds for both, so the report's paired table has work), then writes a result file of N rows in
the sim schema (`columns.schema_for`, the file metadata of `ResultWriter`): those games repeated
under new seeds, seed s of one variant paired with seed s of the other, in row groups of
`storage.ROW_GROUP_ROWS`. Each file is reported by `playtable report FILE --out ... --force` in
a child process of its own (imports included, as a user runs it); the table gives its wall
time and peak resident memory (the child's `ru_maxrss`). The target: 1,000,000 rows in
under 30 s and 500 MB (`--rows 1000000`).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from playtable import __version__
from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.lab.columns import TableMaker, schema_for
from playtable.lab.runner import Arm, run_tasks
from playtable.lab.storage import ROW_GROUP_ROWS

VARIANTS = {"troll": ("final", "plus-one"), "wizard": ("final", "beta"), "stardice": ("final", "battle"),
            "rotator": ("final", "final")}


def source_table(game_id: str, games: int) -> pa.Table:
    """The real games every synthetic row copies: `games` seeds of each of two variants."""
    game = get_game(game_id)
    arms = []
    for k, name in enumerate(VARIANTS.get(game_id, ("final", "final"))):
        params = resolve_params(game.params_type, game.variants, None if name == "final" else name)
        arms.append(Arm.build(game_id, params, ["random"], label=f"{name}" if k == 0 else f"{name}-{k}"))
    rows = run_tasks([(arm, s) for arm in arms for s in range(games)])
    return TableMaker(schema_for(rows)).table(rows)


def write_file(source: pa.Table, rows: int, path: Path) -> None:
    """`rows` rows: the source's rows again and again, each copy under seeds of its own."""
    seeds = source.column("seed").to_pylist()
    span = max(seeds) + 1
    metadata = {"playtable.version": __version__, "playtable.command": "benchmarks/lab_report_scale.py"}
    with pq.ParquetWriter(path, source.schema.with_metadata(metadata)) as writer:
        written = copy = 0
        while written < rows:
            part = source.slice(0, min(source.num_rows, rows - written))
            shifted = pa.array([s + copy * span for s in seeds[: part.num_rows]], pa.int64())
            part = part.set_column(part.schema.get_field_index("seed"), "seed", shifted)
            writer.write_table(part, row_group_size=ROW_GROUP_ROWS)
            written += part.num_rows
            copy += 1


def report(path: Path, out: Path) -> tuple[float, float, str]:
    """Run `playtable report` in a child: (wall seconds, peak RSS in MB, the last line it printed)."""
    code = "import sys; from playtable.cli import main; main(sys.argv[1:])"
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code, "report", str(path), "--out", str(out), "--force"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    output = child.stdout.read() if child.stdout else ""
    if status != 0:
        raise SystemExit(f"report failed (status {status}):\n{output}")
    return seconds, usage.ru_maxrss / 1024, output.strip().splitlines()[-1] if output.strip() else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[20_000])
    parser.add_argument("--game", default="troll", choices=sorted(VARIANTS))
    parser.add_argument("--source", type=int, default=500, help="Real games per variant the rows copy.")
    parser.add_argument("--keep", type=Path, default=None, help="Keep the files in this folder.")
    args = parser.parse_args()
    source = source_table(args.game, args.source)
    print(f"`playtable report` on synthetic {args.game} files (two variants, {args.source} real games "
          f"each, repeated under new seeds); one child process a file")
    print()
    print("| rows | file MB | report s | peak RSS MB | s per 100k rows |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for rows in args.rows:
            path = folder / f"{args.game}-{rows}.parquet"
            write_file(source, rows, path)
            seconds, peak, _ = report(path, folder / f"{args.game}-{rows}.html")
            print(f"| {rows:,} | {path.stat().st_size / 1e6:.1f} | {seconds:.1f} | {peak:.0f} | "
                  f"{100_000 * seconds / rows:.1f} |", flush=True)
            if args.keep is None:
                path.unlink()


if __name__ == "__main__":
    main()
