"""Results on disk: one Parquet row per game, queried with DuckDB.

Columns of every row (see docs/lab.md for the full list and example queries):

    game, variant, seed, params (JSON text), agents (list of agent specs, one per seat),
    players, completed, error, length, win, draw, winner, winners (list), seat_names (list),
    returns (list), return_0,
    decisions (list, per seat), branching_mean, branching_max,
    events (map kind -> count), m_<name> for each of the game's `State.metrics()`

    p_<name> for each game parameter (typed: pandas and SQL use them without parsing `params`)
    actions (list of action texts, only in files of `sim --keep-records`)

A writer fixes the `m_` and `p_` columns from the first rows it is given (games report the same
metrics for every game); a metric that appears only later lands in `extra_metrics` (JSON text)
instead of being lost. Rows are buffered into row groups of `ROW_GROUP_ROWS` (small row groups
made files 9x larger and queries 8x slower: `benchmarks/lab_parquet.py`); meanwhile the journal
beside the file keeps every finished game, so a killed run loses none (`recovery.py`). The file
carries its playtable version, command and time as metadata (`file_info`).

Files are written under a temporary name and renamed when closed, so an existing result file is
never left half-written. The temporary file and the journal are created with O_EXCL|O_NOFOLLOW:
a symlink planted at their names is never followed.
"""

from __future__ import annotations

import datetime
import glob
import json
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any

import pyarrow as pa
import pyarrow.parquet as pq

from playtable import __version__
from playtable.core.errors import PlaytableError

JOURNAL_SYNC_SECONDS = 1.0
"""The journal is flushed to the operating system after every batch, so a killed process loses
no game, and synced to the disk at most this often, so a power cut loses at most about this
long of games. A sync after every batch cost about 10 ms: 300 us a game for batches of 32 fast
games, more than playing them, which kept the parent process from keeping up with 2 workers."""

ROW_GROUP_ROWS = 65_536
"""Rows per Parquet row group: 20 times smaller files and 35-60 times faster queries than the
32-row groups of the runner's batches (benchmarks/lab_parquet.py)."""

TABLE_ROWS = 4096
"""Rows gathered as Python lists before they become one Arrow table: making a table costs a few
milliseconds whatever its size, which per batch of 32 fast games was most of the parent's work."""

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


def _param_type(value: Any) -> pa.DataType:
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int):
        return pa.int64()
    if isinstance(value, float):
        return pa.float64()
    return pa.string()


def _param_value(value: Any, kind: pa.DataType) -> Any:
    """The value in its column's type, or None when it does not fit (it stays in `params`)."""
    if kind == pa.bool_():
        return value if isinstance(value, bool) else None
    if kind == pa.int64():
        return (
            value if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63 else None
        )
    if kind == pa.float64():
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def create_exclusive(path: Path, append: bool = False) -> int:
    """A new file at `path` for writing, never through a symlink and never an existing file."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    if append:
        flags |= os.O_APPEND
    try:
        return os.open(path, flags, 0o644)
    except FileExistsError:
        raise ResultsError(
            f"{path} already exists (a symlink or a file left there); remove it first"
        ) from None
    except OSError as err:
        raise ResultsError(f"cannot create {path}: {err.strerror or err}") from None


class ResultWriter:
    """Append rows (dicts from `runner.play_game`) to a Parquet file, chunk by chunk.

    `command` (the command line that made the file) goes into the file's metadata."""

    def __init__(self, path: str | Path, command: str = "") -> None:
        self.path = Path(path)
        self.tmp = self.path.with_name(self.path.name + ".part")
        self.journal = journal_path(self.path)
        self.command = command
        self._file: IO[bytes] | None = None
        self._journal: IO[str] | None = None
        self._writer: pq.ParquetWriter | None = None
        self._schema: pa.Schema | None = None
        self._metric_names: list[str] = []
        self._param_types: dict[str, pa.DataType] = {}
        self._with_actions = False
        self._pending: list[pa.Table] = []
        self._pending_rows = 0
        self._columns: dict[str, list[Any]] = {}
        self._column_rows = 0
        self._params_seen: dict[str, dict[str, Any]] = {}
        self._synced = 0.0
        self.rows_written = 0

    def _open(self, rows: Sequence[dict[str, Any]]) -> None:
        metric_types: dict[str, pa.DataType] = {}
        for row in rows:
            for key, value in row.get("metrics", {}).items():
                metric_types.setdefault(key, _metric_type(value))
        self._metric_names = list(metric_types)
        for row in rows:
            for key, value in _params_of(row).items():
                self._param_types.setdefault(key, _param_type(value))
        fields = list(BASE_FIELDS)
        fields += [pa.field(f"m_{k}", t) for k, t in metric_types.items()]
        fields.append(pa.field("extra_metrics", pa.string()))
        fields += [pa.field(f"p_{k}", t) for k, t in self._param_types.items()]
        # Each game's action texts, when the run keeps records (`sim --keep-records`).
        self._with_actions = any("actions" in row for row in rows)
        if self._with_actions:
            fields.append(pa.field("actions", pa.list_(pa.string())))
        created = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        self._schema = pa.schema(fields).with_metadata(
            {
                "playtable.version": __version__,
                "playtable.command": self.command,
                "playtable.created": created,
            }
        )
        if self.journal.exists() or self.journal.is_symlink():
            raise ResultsError(
                f"{self.journal} holds the games of a run that was killed; "
                f"recover them first (playtable.lab.recovery.recover) or delete it"
            )
        if not self.path.parent.is_dir():
            raise ResultsError(f"no directory {self.path.parent} for {self.path.name}")
        # A stale temporary file (or a symlink planted there) is removed, never written through.
        if self.tmp.is_symlink() or self.tmp.exists():
            self.tmp.unlink()
        self._file = os.fdopen(create_exclusive(self.tmp), "wb")
        self._journal = os.fdopen(create_exclusive(self.journal, append=True), "w", encoding="utf-8")
        self._writer = pq.ParquetWriter(self._file, self._schema)

    def write(self, rows: Sequence[dict[str, Any]]) -> None:
        if not rows:
            return
        if self._writer is None:
            self._open(rows)
        assert self._writer is not None and self._schema is not None and self._journal is not None
        if not self._columns:
            self._columns = {name: [] for name in self._schema.names}
        columns = self._columns
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
            if self._with_actions:
                columns["actions"].append(row.get("actions"))
            raw = row.get("params")  # JSON text, the same for every row of an arm: parsed once
            params = self._params_seen.get(raw) if isinstance(raw, str) else None
            if params is None:
                params = _params_of(row)
                if isinstance(raw, str):
                    self._params_seen[raw] = params
            for key, kind in self._param_types.items():
                columns[f"p_{key}"].append(_param_value(params[key], kind) if key in params else None)
        self._column_rows += len(rows)
        if self._column_rows >= TABLE_ROWS:
            self._table_up()
        if self._pending_rows >= ROW_GROUP_ROWS:
            self._flush()
        # The Parquet file is readable only once closed; the journal keeps every finished game
        # on disk meanwhile, so even a killed process loses none.
        for row in rows:
            self._journal.write(json.dumps(row, default=str) + "\n")
        self._journal.flush()
        now = time.monotonic()
        if now - self._synced >= JOURNAL_SYNC_SECONDS:
            os.fsync(self._journal.fileno())
            self._synced = now
        self.rows_written += len(rows)

    def _table_up(self) -> None:
        """Turn the gathered rows into one Arrow table, pending for the next row group."""
        if self._column_rows:
            self._pending.append(pa.table(self._columns, schema=self._schema))
            self._pending_rows += self._column_rows
        self._columns = {}
        self._column_rows = 0

    def _flush(self) -> None:
        self._table_up()
        if self._pending and self._writer is not None:
            table = pa.concat_tables(self._pending)
            self._writer.write_table(table, row_group_size=ROW_GROUP_ROWS)
        self._pending = []
        self._pending_rows = 0

    def close(self) -> None:
        """Finish the file and move it into place (nothing is written for zero rows)."""
        if self._writer is not None:
            self._flush()
            self._writer.close()
            self._writer = None
            assert self._file is not None and self._journal is not None
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._journal.close()
            os.replace(self.tmp, self.path)
            self.journal.unlink(missing_ok=True)

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _params_of(row: dict[str, Any]) -> dict[str, Any]:
    params = row.get("params")
    if isinstance(params, str):
        try:
            params = json.loads(params)
        except json.JSONDecodeError:
            return {}
    return params if isinstance(params, dict) else {}


def file_info(path: str | Path) -> dict[str, str]:
    """The playtable metadata of a result file (version, command, created), and its rows."""
    try:
        meta = pq.read_metadata(str(path))
    except (OSError, pa.ArrowException) as err:
        raise ResultsError(f"{path} is not a Parquet result file: {str(err).splitlines()[0]}") from None
    raw = meta.metadata or {}
    info = {
        k.decode()[len("playtable.") :]: v.decode() for k, v in raw.items() if k.startswith(b"playtable.")
    }
    info["rows"] = str(meta.num_rows)
    return info


def row_count(path: str | Path) -> int:
    """The number of rows the Parquet file at `path` holds (0 when there is no file)."""
    if not Path(path).is_file():
        return 0
    return int(file_info(path)["rows"])


def journal_path(path: str | Path) -> Path:
    target = Path(path)
    return target.with_name(target.name + ".journal.jsonl")


def expand(paths: Iterable[str | Path]) -> list[str]:
    """The result files named by `paths`, each a file or a glob pattern (`runs/*.parquet`,
    `**` for subfolders), in sorted order per pattern; one clear error for none."""
    out: list[str] = []
    for p in paths:
        text = str(p)
        if glob.has_magic(text):
            matches = sorted(m for m in glob.glob(text, recursive=True) if Path(m).is_file())
            if not matches:
                raise ResultsError(f"no result file matches {text}")
            out.extend(matches)
        elif not Path(text).is_file():
            raise ResultsError(f"no result file {text}")
        else:
            out.append(text)
    if not out:
        raise ResultsError("no result files given")
    return list(dict.fromkeys(out))


def connect(paths: Iterable[str | Path]) -> Any:
    """A DuckDB connection with a view `games` over the files (columns united by name, plus
    `filename`)."""
    import duckdb

    files = expand(paths)
    con = duckdb.connect()
    listing = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
    try:
        con.execute(
            f"CREATE VIEW games AS SELECT * FROM read_parquet([{listing}], union_by_name=true, filename=true)"
        )
    except duckdb.Error as err:
        con.close()
        raise ResultsError(f"cannot read the result files: {str(err).splitlines()[0]}") from None
    return con


def query(sql: str, paths: Iterable[str | Path]) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run `sql` (which may use the view `games`) and return the column names and rows."""
    import duckdb

    con = connect(paths)
    try:
        result = con.execute(sql)
        if result is None or not result.description:  # no statement, or one that returns nothing
            return [], []
        columns = [d[0] for d in result.description]
        return columns, result.fetchall()
    except duckdb.Error as err:
        raise ResultsError(f"query failed: {str(err).splitlines()[0]}") from None
    finally:
        con.close()


def read_rows(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Every row of the files as dicts (events as dicts, m_ columns as they are)."""
    import duckdb

    con = connect(paths)
    try:
        relation = con.sql("SELECT * FROM games")
        # DuckDB 2 names it to_arrow_table(); earlier versions arrow().
        fetch = getattr(relation, "to_arrow_table", None) or relation.arrow
        table = fetch()
    except duckdb.Error as err:  # a damaged file is found only when its pages are read
        raise ResultsError(f"cannot read the result files: {str(err).splitlines()[0]}") from None
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
