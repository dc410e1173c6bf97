"""Results on disk: one Parquet row per game, queried with DuckDB.

Columns of every row (see docs/lab.md for the full list and example queries):

    game, variant, seed, params (JSON text), agents (list of agent specs, one per seat),
    players, completed, error, length, win, draw, winner, winners (list), seat_names (list),
    returns (list), return_0,
    decisions (list, per seat), branching_mean, branching_max,
    events (map kind -> count), m_<name> for each of the game's `State.metrics()`

A writer fixes the `m_` columns from the first rows it is given (games report the same metrics
for every game); a metric that appears only later lands in `extra_metrics` (JSON text) instead
of being lost. Files are written under a temporary name and renamed when closed, so an existing
result file is never left half-written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from playtable.core.errors import PlaytableError

BASE_FIELDS: list[pa.Field] = [
    pa.field("game", pa.string()),
    pa.field("variant", pa.string()),
    pa.field("seed", pa.int64()),
    pa.field("params", pa.string()),
    pa.field("agents", pa.list_(pa.string())),
    pa.field("players", pa.int32()),
    pa.field("completed", pa.bool_()),
    pa.field("error", pa.string()),
    pa.field("length", pa.int64()),
    pa.field("win", pa.bool_()),
    pa.field("draw", pa.bool_()),
    pa.field("winner", pa.int32()),
    pa.field("winners", pa.list_(pa.int32())),
    pa.field("seat_names", pa.list_(pa.string())),
    pa.field("returns", pa.list_(pa.float64())),
    pa.field("return_0", pa.float64()),
    pa.field("decisions", pa.list_(pa.int64())),
    pa.field("branching_mean", pa.float64()),
    pa.field("branching_max", pa.int64()),
    pa.field("events", pa.map_(pa.string(), pa.int64())),
]
BASE_NAMES = [f.name for f in BASE_FIELDS]


class ResultsError(PlaytableError):
    """A result file that cannot be read or a query that fails."""


def _metric_type(value: Any) -> pa.DataType:
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int | float):
        return pa.float64()
    return pa.string()


class ResultWriter:
    """Append rows (dicts from `runner.play_game`) to a Parquet file, chunk by chunk."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.tmp = self.path.with_name(self.path.name + ".part")
        self.journal = journal_path(self.path)
        self._writer: pq.ParquetWriter | None = None
        self._schema: pa.Schema | None = None
        self._metric_names: list[str] = []
        self.rows_written = 0

    def _open(self, rows: Sequence[dict[str, Any]]) -> None:
        metric_types: dict[str, pa.DataType] = {}
        for row in rows:
            for key, value in row.get("metrics", {}).items():
                metric_types.setdefault(key, _metric_type(value))
        self._metric_names = list(metric_types)
        fields = list(BASE_FIELDS)
        fields += [pa.field(f"m_{k}", t) for k, t in metric_types.items()]
        fields.append(pa.field("extra_metrics", pa.string()))
        self._schema = pa.schema(fields)
        self.tmp.parent.mkdir(parents=True, exist_ok=True)
        if self.journal.exists():
            raise ResultsError(
                f"{self.journal} holds the games of a run that was killed; "
                f"recover them first (playtable.lab.storage.recover) or delete it"
            )
        self._writer = pq.ParquetWriter(str(self.tmp), self._schema)

    def write(self, rows: Sequence[dict[str, Any]]) -> None:
        if not rows:
            return
        if self._writer is None:
            self._open(rows)
        assert self._writer is not None and self._schema is not None
        columns: dict[str, list[Any]] = {name: [] for name in self._schema.names}
        for row in rows:
            for name in BASE_NAMES:
                value = row.get(name)
                if name == "events":
                    value = sorted((value or {}).items())
                columns[name].append(value)
            metrics = dict(row.get("metrics", {}))
            for key in self._metric_names:
                value = metrics.pop(key, None)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    value = float(value)
                elif value is not None and not isinstance(value, bool):
                    value = str(value)
                columns[f"m_{key}"].append(value)
            columns["extra_metrics"].append(json.dumps(metrics) if metrics else None)
        table = pa.table(columns, schema=self._schema)
        self._writer.write_table(table)
        # The Parquet file is readable only once closed; the journal keeps every finished game
        # on disk meanwhile, so even a killed process loses none.
        with self.journal.open("a", encoding="utf-8") as journal:
            for row in rows:
                journal.write(json.dumps(row, default=str) + "\n")
            journal.flush()
            os.fsync(journal.fileno())
        self.rows_written += len(rows)

    def close(self) -> None:
        """Finish the file and move it into place (nothing is written for zero rows)."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
            os.replace(self.tmp, self.path)
            self.journal.unlink(missing_ok=True)

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def journal_path(path: str | Path) -> Path:
    target = Path(path)
    return target.with_name(target.name + ".journal.jsonl")


def recover(path: str | Path, out: str | Path | None = None) -> int:
    """Turn the journal a killed run left beside `path` into a Parquet file (`out`, by default
    `path` itself when it does not exist yet, else `NAME.recovered.parquet`) and remove the
    journal. Returns the number of games recovered."""
    journal = journal_path(path)
    if not journal.exists():
        raise ResultsError(f"no journal {journal} to recover")
    rows = []
    for line in journal.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line cut short by the kill: everything before it is whole
    target = Path(out) if out else Path(path)
    if out is None and target.exists():
        target = target.with_name(target.stem + ".recovered.parquet")
    writer = ResultWriter(target)
    writer.journal = target.with_name(target.name + ".recovering.jsonl")
    writer.write(rows)
    writer.close()
    journal.unlink()
    Path(str(path) + ".part").unlink(missing_ok=True)
    return len(rows)


def _check_files(paths: Iterable[str | Path]) -> list[str]:
    out = []
    for p in paths:
        if not Path(p).is_file():
            raise ResultsError(f"no result file {p}")
        out.append(str(p))
    if not out:
        raise ResultsError("no result files given")
    return out


def connect(paths: Iterable[str | Path]) -> Any:
    """A DuckDB connection with a view `games` over the files (columns united by name, plus
    `filename`)."""
    import duckdb

    files = _check_files(paths)
    con = duckdb.connect()
    listing = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
    try:
        con.execute(
            f"CREATE VIEW games AS SELECT * FROM read_parquet([{listing}], union_by_name=true, filename=true)"
        )
    except duckdb.Error as err:
        raise ResultsError(f"cannot read the result files: {err}") from None
    return con


def query(sql: str, paths: Iterable[str | Path]) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run `sql` (which may use the view `games`) and return the column names and rows."""
    import duckdb

    con = connect(paths)
    try:
        result = con.execute(sql)
        columns = [d[0] for d in result.description] if result.description else []
        return columns, result.fetchall()
    except duckdb.Error as err:
        raise ResultsError(f"query failed: {str(err).splitlines()[0]}") from None
    finally:
        con.close()


def read_rows(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Every row of the files as dicts (events as dicts, m_ columns as they are)."""
    con = connect(paths)
    try:
        relation = con.sql("SELECT * FROM games")
        # DuckDB 2 names it to_arrow_table(); earlier versions arrow().
        fetch = getattr(relation, "to_arrow_table", None) or relation.arrow
        table = fetch()
    finally:
        con.close()
    rows: list[dict[str, Any]] = table.to_pylist()
    for row in rows:
        events = row.get("events")
        if isinstance(events, list):
            row["events"] = dict(events)
        # A null m_ column means the game does not report that metric (files of other games).
        row["metrics"] = {k[2:]: v for k, v in row.items() if k.startswith("m_") and v is not None}
        extra = row.get("extra_metrics")
        if extra:
            row["metrics"].update(json.loads(extra))
    return rows
