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
carries its playtable version, command and time as metadata (`file_info`). The columns and
the conversion of rows into them are in `columns.py`; the runner's workers use the same code to
hand over whole tables (`write_chunk`), so the process that owns the file does no work per row.

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
from typing import IO, TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from playtable import __version__
from playtable.core.errors import PlaytableError
from playtable.lab.columns import TableMaker, schema_for

if TYPE_CHECKING:
    from playtable.lab.chunks import Chunk

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

class ResultsError(PlaytableError):
    """A result file that cannot be read or a query that fails."""


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
    """Append rows (dicts from `runner.play_game`) to a Parquet file, chunk by chunk, or the
    chunks workers already turned into tables (`write_chunk`).

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
        self._maker: TableMaker | None = None
        self._pending: list[pa.Table] = []
        self._pending_rows = 0
        self._rows: list[dict[str, Any]] = []
        self._synced = 0.0
        self.rows_written = 0

    def _open(self, columns: pa.Schema) -> None:
        created = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        self._schema = columns.with_metadata(
            {
                "playtable.version": __version__,
                "playtable.command": self.command,
                "playtable.created": created,
            }
        )
        self._maker = TableMaker(self._schema)
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
            self._open(schema_for(rows))
        self._rows.extend(rows)
        if len(self._rows) >= TABLE_ROWS:
            self._table_up()
        if self._pending_rows >= ROW_GROUP_ROWS:
            self._flush()
        # The Parquet file is readable only once closed; the journal keeps every finished game
        # on disk meanwhile, so even a killed process loses none.
        self._journal_up("".join(json.dumps(row, default=str) + "\n" for row in rows), len(rows))

    def write_chunk(self, chunk: Chunk) -> None:
        """Append a worker's chunk: its table as it is when it has this file's columns (the
        parent then touches no row), else its rows one by one as `write` does."""
        if not chunk.count:
            return
        table = chunk.table
        if table is None or (self._schema is not None
                             and not table.schema.equals(self._schema, check_metadata=False)):
            self.write(chunk.rows())
            return
        if self._writer is None:
            self._open(table.schema)
        assert self._schema is not None
        self._table_up()  # rows written before go first
        self._pending.append(table.replace_schema_metadata(self._schema.metadata))
        self._pending_rows += table.num_rows
        if self._pending_rows >= ROW_GROUP_ROWS:
            self._flush()
        self._journal_up(chunk.journal, chunk.count)

    def _journal_up(self, text: str, count: int) -> None:
        assert self._journal is not None
        self._journal.write(text)
        self._journal.flush()
        now = time.monotonic()
        if now - self._synced >= JOURNAL_SYNC_SECONDS:
            os.fsync(self._journal.fileno())
            self._synced = now
        self.rows_written += count

    def _table_up(self) -> None:
        """Turn the gathered rows into one Arrow table, pending for the next row group."""
        if self._rows:
            assert self._maker is not None
            self._pending.append(self._maker.table(self._rows))
            self._pending_rows += len(self._rows)
            self._rows = []

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
    return [as_result_row(row) for row in table.to_pylist()]


def as_result_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row as read from a file made a result row again: events as a dict, and the game's
    metrics (`m_` columns and `extra_metrics`) as `metrics`. Changes and returns `row`."""
    events = row.get("events")
    if isinstance(events, list):
        row["events"] = dict(events)
    # A null m_ column means the game does not report that metric (files of other games).
    row["metrics"] = {k[2:]: v for k, v in row.items() if k.startswith("m_") and v is not None}
    extra = row.get("extra_metrics")
    if extra:
        row["metrics"].update(json.loads(extra))
    return row
