"""The parent's share of a `sim` run: writing result rows to Parquet, per row, as `sim` does.

    .venv/bin/python benchmarks/lab_writer.py [--rows 8000] [--batch 32]

Rows of random troll games (played first, not timed) are handed to `storage.ResultWriter` in
batches of `--batch`: as rows (`write`, what the parent did with every batch before the chunked hand-over
and still does with the rows of a resumed run), and as the chunks workers now encode
(`chunks.encode`, not timed: the workers' work) taken by `write_chunk`, plus the merge of each
chunk's summary, which is all `sim`'s parent does per batch. Two passes each (the first pays the
imports and first-use costs, so the second is the figure): CPU microseconds per row (this
process) and wall microseconds per row (which adds waiting for the disk).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from playtable.core.registry import get_game
from playtable.lab.chunks import ChunkSpec, encode
from playtable.lab.metrics import RunningSummary
from playtable.lab.runner import Arm, play_game
from playtable.lab.storage import ResultWriter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=8000)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()
    game = get_game("troll")
    arm = Arm.build("troll", game.default_params(), ["random"])
    rows = [play_game(arm, seed) for seed in range(args.rows)]
    batches = [rows[i:i + args.batch] for i in range(0, len(rows), args.batch)]
    spec = ChunkSpec(table=True, journal=True)
    chunks = [encode(batch, spec) for batch in batches]
    print("| handed over as | pass | rows | batch | CPU us/row | wall us/row |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("rows", "chunks"):
            for number in (1, 2):
                summary = RunningSummary()
                cpu, wall = time.process_time(), time.perf_counter()
                with ResultWriter(Path(tmp) / f"{kind}{number}.parquet") as writer:
                    if kind == "rows":
                        for batch in batches:
                            writer.write(batch)
                            summary.add(batch)
                    else:
                        for chunk in chunks:
                            writer.write_chunk(chunk)
                            summary.merge(chunk.summary)
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                print(f"| {kind} | {number} | {len(rows):,} | {args.batch} | {1e6 * cpu / len(rows):.1f} "
                      f"| {1e6 * wall / len(rows):.1f} |")


if __name__ == "__main__":
    main()
