"""A batch of finished games as a worker hands it over, ready for the parent to take in bulk.

With `RunOptions.on_chunk` (what `sim` uses), a worker plays a batch of seeds and encodes it
once: the rows as an Arrow table of the file's columns (`columns.py`), the same as the Arrow IPC
message the result file's journal appends for recovery (`storage`), the running summary of these
games (`metrics.RunningSummary`, merged by the parent) and the wins per variant for the progress
bar. The parent then writes one string, appends one table and merges one summary per batch,
instead of doing all of that per row while the workers wait for it (`benchmarks/sim_scaling.py`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from playtable.lab.metrics import RunningSummary


@dataclass(frozen=True)
class ChunkSpec:
    """What the workers encode besides the summary (only wanted when a result file is
    written): the Arrow table, and the journal's bytes (the table's IPC message; JSON lines of
    the rows when no table is made)."""

    table: bool = False
    journal: bool = False


@dataclass
class Chunk:
    count: int
    summary: RunningSummary
    wins: dict[str, list[int]] = field(default_factory=dict)
    """variant label -> [wins, games] (the progress bar's running win rates)."""
    journal: str = ""
    """The rows as JSON lines, when the chunk has no table (`ChunkSpec(journal=True)` alone)."""
    ipc: bytes = b""
    """The table as Arrow IPC messages (`columns.ipc_message`), for the result file's journal."""
    table: Any = None
    """A pyarrow Table of the rows (schema `columns.schema_for(rows)`), or None."""
    seconds: float = 0.0
    """The worker's time to play the batch (the runner sizes the next batches from it)."""
    kept: list[dict[str, Any]] | None = None

    def rows(self) -> list[dict[str, Any]]:
        """The rows themselves: kept when the chunk was made in this process, else read back
        from its JSON lines or its table (as a result file's rows read back)."""
        if self.kept is not None:
            return self.kept
        if self.journal:
            return [json.loads(line) for line in self.journal.splitlines()]
        if self.table is not None:
            from playtable.lab.columns import as_result_row

            return [as_result_row(row) for row in self.table.to_pylist()]
        if self.count:
            raise ValueError("this chunk kept neither its rows, its JSON lines nor its table (ChunkSpec)")
        return []


def encode(rows: Sequence[dict[str, Any]], spec: ChunkSpec, seconds: float = 0.0,
           keep: bool = False) -> Chunk:
    """The chunk of `rows` (a worker's batch). `keep` holds on to the rows themselves (the
    chunk does not leave this process, so nothing is saved by dropping them)."""
    wins: dict[str, list[int]] = {}
    for row in rows:
        arm = wins.setdefault(str(row.get("variant", "")), [0, 0])
        arm[0] += bool(row.get("win"))
        arm[1] += 1
    chunk = Chunk(len(rows), RunningSummary().add(rows), wins, seconds=seconds)
    if spec.table and rows:
        from playtable.lab.columns import TableMaker, ipc_message, schema_for

        chunk.table = TableMaker(schema_for(rows)).table(rows)
        if spec.journal and not keep:
            chunk.ipc = ipc_message(chunk.table)
    elif spec.journal:
        chunk.journal = "".join(json.dumps(row, default=str) + "\n" for row in rows)
    if keep:
        chunk.kept = list(rows)
    return chunk
