"""Results on disk: one Parquet row per game, queried with DuckDB.

Columns of every row (see docs/lab.md for the full list and example queries):

    game, variant, seed, params (JSON text), agents (list of agent specs, one per seat),
    players, completed, error, length, win, draw, winner, winners (list), seat_names (list),
    returns (list), return_0,
    decisions (list, per seat), branching_mean, branching_max,
    events (map kind -> count), lead_changes, winner_behind, drama, decided_at (the game-quality
    measures of `quality.py`; since schema 2), m_<name> for each of the game's `State.metrics()`

    p_<name> for each game parameter (typed: pandas and SQL use them without parsing `params`)
    actions (list of action texts, only in files of `sim --keep-records`)

A writer fixes the `m_` and `p_` columns from the first rows it is given (games report the same
metrics for every game); a metric that appears only later lands in `extra_metrics` (JSON text)
instead of being lost. Rows are buffered into row groups of `ROW_GROUP_ROWS` (small row groups
made files 9x larger and queries 8x slower: `benchmarks/lab_parquet.py`). The file carries its
playtable version, command, time and the version of its columns (`SCHEMA_VERSION`) as metadata
(`file_info`); a file of a newer schema is refused with one line, one without a version is of
the first. The columns and the conversion of rows into them are in `columns.py`; the runner's
workers use the same code to hand over whole tables (`write_chunk`), so the process that owns
the file does no work per row.

**The journal.** A Parquet file is readable only once closed, so while a run writes `FILE`
its journal keeps every finished game and a killed run loses none (`recovery.py` reads it back):

* `FILE.journal`, the tail: the games since the last fragment, batch by batch, as an Arrow IPC
  stream with zstd-compressed buffers (the workers encode their batches, `chunks.py`, so the
  parent only appends bytes), flushed after every batch and synced at most every
  `JOURNAL_SYNC_SECONDS`;
* `FILE.journal.fragments/NNNNNN.parquet`: each row group, once written to the file, is also
  written as a small complete Parquet file (under a temporary name, synced, then renamed), and
  the tail starts again with the games after it (a new tail renamed over the old one).

So the journal costs about what the result does (fragments are its row groups again, about 27
bytes a troll game; the tail holds at most a row group's games, about 90-230 bytes each), where
the JSON journal of earlier versions took about 1 KB a game for the whole run
(`benchmarks/lab_scratch.py`). A game may sit in a fragment and in the tail at once for a
moment; recovery keeps the first copy of each (variant, seed). A JSON-lines journal an earlier
version left (`FILE.journal.jsonl`) is still recovered.

Files are written under a temporary name and renamed when closed, so an existing result file is
never left half-written. The temporary file and the journal's files are created with
O_EXCL|O_NOFOLLOW (its folder with mkdir): a symlink planted at their names is never followed.
"""

from __future__ import annotations

import datetime
import glob
import os
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from playtable import __version__
from playtable.core.errors import PlaytableError
from playtable.core.files import check_name
from playtable.lab.columns import TableMaker, as_result_row, ipc_message, schema_for

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

SCHEMA_VERSION = 2
"""The version of the result files' columns, in each file's metadata (`playtable.schema`). Raise
it when a column changes meaning or type, so an older playtable refuses the file in one line
instead of misreading it; files without the key (before it existed) are version 1.

2: the game-quality columns `lead_changes`, `winner_behind`, `drama`, `decided_at` (`quality.py`).
Files of version 1 lack them and read as before: their rows have the columns empty (NULL, None)."""

SCHEMA_KEY = "playtable.schema"

class ResultsError(PlaytableError):
    """A result file that cannot be read or a query that fails."""


def create_exclusive(path: Path, append: bool = False) -> int:
    """A new file at `path` for writing, never through a symlink and never an existing file."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    if append:
        flags |= os.O_APPEND
    try:
        return os.open(path, flags, 0o666)  # the kernel applies the umask
    except FileExistsError:
        raise ResultsError(
            f"{path} already exists (a symlink or a file left there); remove it first"
        ) from None
    except OSError as err:
        raise ResultsError(f"cannot create {path}: {err.strerror or err}") from None


def file_metadata(command: str = "") -> dict[str, str]:
    """The playtable metadata of a new result file."""
    return {
        "playtable.version": __version__,
        "playtable.command": command,
        "playtable.created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        SCHEMA_KEY: str(SCHEMA_VERSION),
    }


def _sync_folder(folder: Path) -> None:
    """Make a rename or a removal in `folder` durable."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class ResultWriter:
    """Append rows (dicts from `runner.play_game`) to a Parquet file, chunk by chunk, or the
    chunks workers already turned into tables (`write_chunk`), journaling every game (see the
    module's docstring).

    `command` (the command line that made the file) goes into the file's metadata."""

    def __init__(self, path: str | Path, command: str = "") -> None:
        self.path = Path(path)
        self.tmp = self.path.with_name(self.path.name + ".part")
        self.journal = journal_file(self.path)
        self.command = command
        self._file: IO[bytes] | None = None
        self._tail: IO[bytes] | None = None
        self._writer: pq.ParquetWriter | None = None
        self._schema: pa.Schema | None = None
        self._maker: TableMaker | None = None
        self._pending: list[pa.Table] = []
        self._pending_rows = 0
        self._fragments = 0
        self._synced = 0.0
        self.rows_written = 0
        for companion in companions(self.path):  # a name too long fails now, not after hours
            check_name(companion, "cannot write", ResultsError)

    @property
    def fragments(self) -> Path:
        return fragments_folder(self.journal)

    def _open(self, columns: pa.Schema) -> None:
        self._schema = columns.with_metadata(file_metadata(self.command))
        self._maker = TableMaker(self._schema)
        for journal in (self.journal, legacy_journal_path(self.path), self.fragments):
            if journal.exists() or journal.is_symlink():
                raise ResultsError(
                    f"{journal} holds the games of a run that was killed; "
                    f"recover them first (playtable.lab.recovery.recover) or delete it"
                )
        if not self.path.parent.is_dir():
            raise ResultsError(f"no directory {self.path.parent} for {self.path.name}")
        # A stale temporary file (or a symlink planted there) is removed, never written through.
        if self.tmp.is_symlink() or self.tmp.exists():
            self.tmp.unlink()
        self._file = os.fdopen(create_exclusive(self.tmp), "wb")
        self._writer = pq.ParquetWriter(self._file, self._schema)
        self._tail = self._new_tail(self.journal)

    def _new_tail(self, path: Path) -> IO[bytes]:
        """A new tail at `path`: the stream's schema, then batches appended."""
        assert self._schema is not None
        tail = os.fdopen(create_exclusive(path), "wb")
        tail.write(self._schema.serialize().to_pybytes())
        return tail

    def write(self, rows: Sequence[dict[str, Any]]) -> None:
        if not rows:
            return
        if self._writer is None:
            self._open(schema_for(rows))
        assert self._maker is not None
        self._append(self._maker.table(rows), None)

    def write_chunk(self, chunk: Chunk) -> None:
        """Append a worker's chunk: its table and journal bytes as they are when it has this
        file's columns (the parent then touches no row), else its rows as `write` does."""
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
        self._append(table.replace_schema_metadata(self._schema.metadata), chunk.ipc or None)

    def _append(self, table: pa.Table, message: bytes | None) -> None:
        """Journal `table` (its IPC message, made here unless the worker made it), then keep it
        for the next row group."""
        assert self._tail is not None
        self._tail.write(message if message is not None else ipc_message(table))
        self._tail.flush()
        now = time.monotonic()
        if now - self._synced >= JOURNAL_SYNC_SECONDS:
            os.fsync(self._tail.fileno())
            self._synced = now
        self._pending.append(table)
        self._pending_rows += table.num_rows
        self.rows_written += table.num_rows
        if self._pending_rows >= ROW_GROUP_ROWS:
            self._flush()

    def _flush(self, last: bool = False) -> None:
        """Write the pending games as row groups of the file; but for the last call, the full
        row groups also become a fragment of the journal and the tail starts again with the
        rest."""
        if not self._pending or self._writer is None:
            return
        table = pa.concat_tables(self._pending)
        full = table.num_rows if last else table.num_rows - table.num_rows % ROW_GROUP_ROWS
        group, rest = table.slice(0, full), table.slice(full)
        self._pending, self._pending_rows = ([rest] if rest.num_rows else []), rest.num_rows
        if not full:
            return
        self._writer.write_table(group, row_group_size=ROW_GROUP_ROWS)
        if last:
            return
        # The fragment (complete and synced before it gets its name), then a new tail with the
        # rest renamed over the old one: every game stays on disk at each step.
        folder = self.fragments
        if not self._fragments:
            try:
                os.mkdir(folder, 0o755)  # never through a symlink: mkdir does not follow one
            except OSError as err:
                raise ResultsError(f"cannot create {folder}: {err.strerror or err}") from None
        fragment = folder / f"{self._fragments:06d}.parquet"
        scratch = fragment.with_name(fragment.name + ".part")
        with os.fdopen(create_exclusive(scratch), "wb") as handle:
            pq.write_table(group, handle, row_group_size=ROW_GROUP_ROWS)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(scratch, fragment)
        _sync_folder(folder)
        self._fragments += 1
        fresh = self.journal.with_name(self.journal.name + ".new")
        if fresh.is_symlink() or fresh.exists():
            fresh.unlink()  # left by a run killed here; a symlink is removed, never followed
        old, self._tail = self._tail, self._new_tail(fresh)
        if rest.num_rows:
            self._tail.write(ipc_message(rest))
        self._tail.flush()
        os.fsync(self._tail.fileno())
        os.replace(fresh, self.journal)
        _sync_folder(self.journal.parent)
        if old is not None:
            old.close()

    def close(self) -> None:
        """Finish the file and move it into place (nothing is written for zero rows), then
        remove the journal."""
        if self._writer is not None:
            self._flush(last=True)
            self._writer.close()
            self._writer = None
            assert self._file is not None and self._tail is not None
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._tail.close()
            os.replace(self.tmp, self.path)
            remove_journal(self.journal)

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


JOURNAL_PIECE = re.compile(r"^\d{6}\.parquet(\.part)?$")
"""The files a journal's fragments folder holds: fragments, and one being written."""


def remove_journal(journal: Path) -> None:
    """Remove a journal: the tail and its fragments folder (a folder holding anything else is
    left, and refused in one line)."""
    folder = fragments_folder(journal)
    if folder.is_dir() and not folder.is_symlink():
        for entry in folder.iterdir():
            if JOURNAL_PIECE.match(entry.name) and not entry.is_dir():
                entry.unlink()
        try:
            folder.rmdir()
        except OSError:
            raise ResultsError(f"{folder} holds files playtable did not write; move them away") from None
    elif folder.is_symlink():
        folder.unlink()
    journal.unlink(missing_ok=True)


def file_info(path: str | Path) -> dict[str, str]:
    """The playtable metadata of a result file (version, command, created, schema), and its
    rows. A file of a schema newer than this playtable reads is refused (`check_schema`)."""
    try:
        meta = pq.read_metadata(str(path))
    except (OSError, pa.ArrowException) as err:
        raise ResultsError(f"{path} is not a Parquet result file: {str(err).splitlines()[0]}") from None
    raw = meta.metadata or {}
    info = {
        k.decode()[len("playtable.") :]: v.decode(errors="replace")
        for k, v in raw.items() if k.startswith(b"playtable.")
    }
    info.setdefault("schema", "1")
    check_schema(path, info["schema"])
    info["rows"] = str(meta.num_rows)
    return info


def check_schema(path: str | Path, version: str | None) -> None:
    """Raise ResultsError, in one line, unless `version` (a file's `playtable.schema`; None for a
    file without one, which is version 1) is a schema this playtable reads."""
    if version is None:
        return
    text = version.strip()
    if not text.isdigit():
        raise ResultsError(f"{path}: unknown result schema version {version[:20]!r} (this playtable "
                           f"reads versions 1 to {SCHEMA_VERSION})")
    if int(text) > SCHEMA_VERSION:
        raise ResultsError(f"{path} has result schema version {int(text)}, newer than this playtable "
                           f"reads (1 to {SCHEMA_VERSION}): upgrade playtable ({__version__}) to read it")


def check_schemas(files: Sequence[str]) -> None:
    """`check_schema` for each of `files` (a file that is not Parquet is left to the reader)."""
    for name in files:
        try:
            raw = pq.read_metadata(name).metadata or {}
        except (OSError, pa.ArrowException):
            continue
        value = raw.get(SCHEMA_KEY.encode())
        check_schema(name, None if value is None else value.decode(errors="replace"))


def row_count(path: str | Path) -> int:
    """The number of rows the Parquet file at `path` holds (0 when there is no file)."""
    if not Path(path).is_file():
        return 0
    return int(file_info(path)["rows"])


def journal_file(path: str | Path) -> Path:
    """Where a run writing `path` keeps its journal's tail: `FILE.journal`."""
    target = Path(path)
    return target.with_name(target.name + ".journal")


def companions(path: str | Path) -> list[Path]:
    """Every name a run writing `path` uses beside it: the temporary file, the journal's tail
    (and the new tail that replaces it) and its fragments."""
    journal = journal_file(path)
    folder = fragments_folder(journal)
    return [Path(str(path) + ".part"), journal, journal.with_name(journal.name + ".new"), folder,
            folder / "000000.parquet.part"]


def fragments_folder(journal: Path) -> Path:
    """Where the journal `journal` keeps its fragments: `FILE.journal.fragments`."""
    return journal.with_name(journal.name + ".fragments")


def legacy_journal_path(path: str | Path) -> Path:
    """The journal of earlier versions: `FILE.journal.jsonl`, a JSON line a game."""
    target = Path(path)
    return target.with_name(target.name + ".journal.jsonl")


def journal_path(path: str | Path) -> Path:
    """The journal a killed run writing `path` left: an earlier version's `FILE.journal.jsonl`
    when there is one (a symlink too), else `FILE.journal` (which may not exist; its fragments
    are in `fragments_folder`)."""
    legacy = legacy_journal_path(path)
    if legacy.exists() or legacy.is_symlink():
        return legacy
    return journal_file(path)


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
    check_schemas(files)
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
