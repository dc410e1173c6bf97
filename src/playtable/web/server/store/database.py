"""The one database layer under the server's store: a connection to SQLite (a file, the embedded
default) or to PostgreSQL (a `postgresql://` URL, the `server` extra), and the few places where
the two engines' SQL differs, so that every module of the store writes its SQL once.

The store's modules write SQL both engines read: `?` placeholders (PostgreSQL's `%s` is made
here), `INSERT ... ON CONFLICT (...) DO UPDATE/NOTHING` instead of SQLite's `INSERT OR
REPLACE/IGNORE`, `DOUBLE PRECISION` and `BIGINT` where a column needs them. What differs stays
here: a transaction that must be the only writer (SQLite's `BEGIN IMMEDIATE`, a table lock in
PostgreSQL), `group_concat`, SQLite's own `WITHOUT ROWID` and its implicit rowid (a table whose
`CREATE` says `/* rowid */` gets an identity column of that name in PostgreSQL), the checks of a
file's pages, and SQLite's write-ahead log kept by a checkpoint thread. A driver's error becomes
`DatabaseError` (`Conflict` for a unique key), so callers never import a driver.
"""

from __future__ import annotations

import contextlib
import logging
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from playtable.core.errors import PlaytableError

log = logging.getLogger("playtable.web")

POSTGRES_SCHEMES = ("postgresql", "postgres")
T = TypeVar("T")


class StoreError(PlaytableError):
    """The store cannot be opened or written (not a database, unreadable, disk full, a server
    out of reach); the message says which database and why, in one sentence."""


class DatabaseError(StoreError):
    """A statement failed; the message is the engine's."""


class Conflict(DatabaseError):
    """A row refused by a unique or primary key."""


def is_postgres(where: str | Path) -> bool:
    return isinstance(where, str) and urlsplit(where).scheme in POSTGRES_SCHEMES


def shown(where: str | Path) -> str:
    """The database as a message may name it: a URL without its password."""
    if not is_postgres(where):
        return str(where)
    parts = urlsplit(str(where))
    if parts.password is None:
        return str(where)
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def connect(where: str | Path, serving: bool = False) -> Database:
    """A connection to `where`: a `postgresql://` URL, else an SQLite file's path. `serving`:
    the tables' store of a running server (SQLite: a second connection for the actions'
    commits, and the checkpoint thread)."""
    if is_postgres(where):
        from playtable.core.extras import require

        require("server", "a PostgreSQL database (--db postgresql://...)")
        return PostgresDatabase(str(where), serving)
    return SqliteDatabase(Path(where), serving)


class Database:
    """What the store's modules use of a connection (autocommit: each statement outside a
    `transaction` commits on its own)."""

    dialect = ""
    shown = ""
    now = ""
    """SQL for the database's clock now, in UTC seconds since the epoch (a lease's expiry is
    in the database's clock, never in the nodes' own: `leases.py`)."""
    share_lock = ""
    """What ends a SELECT that must keep the rows it read from changing until its statement or
    transaction ends (PostgreSQL's `FOR SHARE`; SQLite has one writer at a time anyway)."""

    def execute(self, sql: str, args: Any = ()) -> Any:
        """Run one statement; its cursor (iterate it, `fetchone`, `fetchall`, `rowcount`)."""
        raise NotImplementedError

    def executemany(self, sql: str, rows: Any) -> None:
        raise NotImplementedError

    def execute_promptly(self, sql: str, args: Any) -> int:
        """A write made in play (an action, a snapshot), on the event loop: never sleeps longer
        than another process's commit holds the database. The rows it wrote."""
        return int(self.execute(sql, args).rowcount)

    def script(self, sql: str) -> None:
        """Run `;`-separated statements (a schema's), without parameters."""
        for statement in sql.split(";"):
            if statement.strip():
                self.execute(statement)

    def transaction(self, *locking: str) -> contextlib.AbstractContextManager[None]:
        """One transaction; `locking`: the tables it reads then writes, so that no other
        connection writes them in between (two processes never both spend the last token)."""
        raise NotImplementedError

    def upgrading(self) -> contextlib.AbstractContextManager[None]:
        """The transaction of a schema upgrade: one connection at a time, whatever it touches."""
        raise NotImplementedError

    def tables(self) -> set[str]:
        raise NotImplementedError

    def columns(self, table: str) -> list[str]:
        raise NotImplementedError

    def group_concat(self, expression: str) -> str:
        """SQL joining `expression`'s values of a group with commas."""
        return f"group_concat({expression})"

    def verify(self) -> None:
        """StoreError unless the database reads back."""

    def close(self) -> None:
        raise NotImplementedError


def _while_busy(run: Callable[[], T], pause: float, longest: float, patience: float) -> T:
    """`run()`, tried again while SQLite answers that another connection holds the lock it
    needs (`SQLITE_BUSY`), for `patience` seconds in all: after `pause` seconds, then twice as
    long each time up to `longest`. Any other error, or busy past the patience, is raised."""
    deadline = time.monotonic() + patience
    while True:
        try:
            return run()
        except sqlite3.OperationalError as err:
            if err.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(2 * pause, longest)


class SqliteDatabase(Database):
    """An SQLite file in WAL mode. The tables' store (`serving`) sets `synchronous=NORMAL`, which
    keeps every committed transaction through a crash of the server process (kill -9); only a
    power loss may lose the last ones. Its commits then only append to the write-ahead log (no
    fsync), so they are cheap enough to run on the event loop; copying the log back into the
    database (a checkpoint, which does fsync) runs in a background thread once a second instead
    of inside whichever commit fills the log, so a slow disk never stalls the tables."""

    dialect = "sqlite"
    now = "((julianday('now') - 2440587.5) * 86400.0)"
    CHECKPOINT_EVERY = 1.0
    APPEND_PATIENCE = 5.0
    """Seconds an action's commit waits for another process's write lock before it fails."""

    def __init__(self, path: Path, serving: bool = False) -> None:
        self.path, self.shown, self.serving = path, str(path), serving
        self.appends: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists() and not path.is_file():
                raise StoreError(f"{path} is not a regular file")
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA busy_timeout=5000")
            self._into_write_ahead_log()
            if serving:
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.execute("PRAGMA wal_autocheckpoint=0")
                # an action's commit, the one write of every move, on a connection of its own that
                # never sleeps in SQLite (`execute_promptly`); every other write keeps the default
                self.appends = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                               timeout=0)
                self.appends.execute("PRAGMA synchronous=NORMAL")  # a connection's own setting
        except sqlite3.DatabaseError as err:
            if getattr(err, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_CORRUPT:
                raise self._damaged([str(err)]) from None
            raise StoreError(f"{path} cannot be used as the tables' database: {err} "
                             "(is it a playtable database? give another file with --db)") from None
        except OSError as err:
            raise StoreError(f"{path} cannot be opened: {err.strerror or err}") from None
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if serving:
            self._checkpointer = threading.Thread(target=self._checkpoints, name="sqlite-checkpoint",
                                                  daemon=True)
            self._checkpointer.start()

    def _into_write_ahead_log(self) -> None:
        """`PRAGMA journal_mode=WAL`, tried again while another connection holds the file's
        lock. Switching a new file to the log takes its exclusive lock, and SQLite answers
        "database is locked" at once instead of waiting the busy timeout: of new files opened
        by four connections together (`serve --processes N`, nodes), 5-9% failed so. The
        switch is made once per file; later it finds "wal"."""
        _while_busy(lambda: self.db.execute("PRAGMA journal_mode=WAL"), 1e-3, 0.05, self.APPEND_PATIENCE)

    def execute(self, sql: str, args: Any = ()) -> Any:
        try:
            return self.db.execute(sql, args)
        except sqlite3.IntegrityError as err:
            raise Conflict(str(err)) from err
        except sqlite3.Error as err:
            raise DatabaseError(str(err)) from err

    def executemany(self, sql: str, rows: Any) -> None:
        try:
            self.db.executemany(sql, rows)
        except sqlite3.IntegrityError as err:
            raise Conflict(str(err)) from err
        except sqlite3.Error as err:
            raise DatabaseError(str(err)) from err

    def execute_promptly(self, sql: str, args: Any) -> int:
        """On the connection that never waits (`timeout=0`), trying again after 50 us, 100 us,
        ... (1 ms at most) while another process holds the write lock, for `APPEND_PATIENCE`
        seconds in all. SQLite's own wait (a connection's `timeout`) first sleeps a whole
        millisecond, twenty times longer than another process's commit holds the lock, and it
        sleeps on the event loop: with two server processes it held up about one action in 25
        by 1-12 ms (benchmarks/web_processes.py)."""
        if self.appends is None:
            return int(self.execute(sql, args).rowcount)
        appends = self.appends
        try:
            return int(_while_busy(lambda: appends.execute(sql, args).rowcount, 50e-6, 1e-3,
                                   self.APPEND_PATIENCE))
        except sqlite3.Error as err:
            raise DatabaseError(str(err)) from err

    @contextlib.contextmanager
    def _transaction(self, begin: str) -> Iterator[None]:
        self.execute(begin)
        try:
            yield
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        self.execute("COMMIT")

    def transaction(self, *locking: str) -> contextlib.AbstractContextManager[None]:
        return self._transaction("BEGIN IMMEDIATE" if locking else "BEGIN")

    def upgrading(self) -> contextlib.AbstractContextManager[None]:
        return self._transaction("BEGIN IMMEDIATE")

    def tables(self) -> set[str]:
        return {row[0] for row in self.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def columns(self, table: str) -> list[str]:
        return [row[1] for row in self.execute(f"PRAGMA table_info({table})")]

    def verify(self) -> None:
        """StoreError unless every page of the file reads back (`PRAGMA quick_check`): a file
        with corrupt pages opens, then fails at the first read of its tables."""
        try:
            problems = [row[0] for row in self.db.execute("PRAGMA quick_check(3)")]
        except sqlite3.DatabaseError as err:
            problems = [str(err)]
        if problems != ["ok"]:
            raise self._damaged(problems)

    def _damaged(self, problems: list[str]) -> StoreError:
        return StoreError(f"{self.path} is damaged ({'; '.join(problems)[:200]}): restore it from a "
                          "backup, or give another file with --db")

    def _checkpoints(self) -> None:
        """Checkpoint once a second for the server's lifetime. A failure (disk full, an I/O
        error) is logged and tried again next time: the thread never dies, or the log would
        grow without bound."""
        db: sqlite3.Connection | None = None
        failing = False
        while not self._stop.wait(self.CHECKPOINT_EVERY):
            try:
                if db is None:
                    db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
                # PASSIVE never waits for, nor blocks, the writer on the event loop.
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                if failing:
                    log.warning("the database checkpoint works again")
                failing = False
            except sqlite3.Error as err:
                if not failing:
                    log.error("the database checkpoint failed (%s); retrying every second", err)
                failing = True
        if db is not None:
            db.close()

    def close(self) -> None:
        if self._checkpointer is not None:
            self._stop.set()
            self._checkpointer.join(timeout=10)
        if self.appends is not None:
            self.appends.close()
        if self.serving:
            try:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as err:  # the log stays; the next start reads it
                log.error("the database could not be checkpointed on closing: %s", err)
        self.db.close()


_ROWID = re.compile(r"\s*/\*\s*rowid\s*\*/")
_WITHOUT_ROWID = re.compile(r"\bWITHOUT\s+ROWID\b", re.IGNORECASE)


class PostgresDatabase(Database):
    """A PostgreSQL database over psycopg 3, in autocommit mode: every write outside a
    transaction is committed when it returns, as the store's interface promises.

    The tables' store (`serving`) commits with `synchronous_commit=off`, SQLite's
    `synchronous=NORMAL` in PostgreSQL's terms: a commit is in the server's log when it returns,
    so a crash of the playtable process (kill -9) loses nothing, and only a crash of PostgreSQL's
    machine may lose the last commits (at most three `wal_writer_delay`s, 0.6 s by default);
    waiting for the disk made every move's commit take 6 ms at the median here
    (benchmarks/store_engines.py), on the event loop."""

    dialect = "postgresql"
    now = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"
    share_lock = " FOR SHARE"
    SCHEMA_LOCK = 0x706C61797461626C  # "playtabl": the advisory lock of a schema upgrade

    def __init__(self, url: str, serving: bool = False) -> None:
        import psycopg

        self.psycopg = psycopg
        self.shown = shown(url)
        self._sql: dict[str, str] = {}
        try:
            self.db = psycopg.connect(url, autocommit=True, connect_timeout=10)
            if serving:
                self.db.execute("SET synchronous_commit = off")
        except psycopg.Error as err:
            message = " ".join(str(err).split())
            raise StoreError(f"{self.shown} cannot be used as the tables' database: {message}") from None

    def _translated(self, sql: str) -> str:
        found = self._sql.get(sql)
        if found is None:
            found = self._sql[sql] = sql.replace("%", "%%").replace("?", "%s")
        return found

    def _error(self, err: Exception) -> DatabaseError:
        if isinstance(err, self.psycopg.errors.IntegrityError):
            return Conflict(str(err))
        return DatabaseError(" ".join(str(err).split()))

    def execute(self, sql: str, args: Any = ()) -> Any:
        try:
            return self.db.execute(self._translated(sql), tuple(args))
        except self.psycopg.Error as err:
            raise self._error(err) from err

    def executemany(self, sql: str, rows: Any) -> None:
        try:
            with self.db.cursor() as cursor:
                cursor.executemany(self._translated(sql), rows)
        except self.psycopg.Error as err:
            raise self._error(err) from err

    def script(self, sql: str) -> None:
        sql = _WITHOUT_ROWID.sub("", _ROWID.sub(", rowid BIGINT GENERATED BY DEFAULT AS IDENTITY", sql))
        super().script(sql)

    @contextlib.contextmanager
    def _transaction(self, locks: list[str]) -> Iterator[None]:
        try:
            with self.db.transaction():
                for lock in locks:
                    self.execute(lock)
                yield
        except self.psycopg.Error as err:  # the commit itself failed
            raise self._error(err) from err

    def transaction(self, *locking: str) -> contextlib.AbstractContextManager[None]:
        # EXCLUSIVE: other connections still read the table, and wait to write it
        return self._transaction([f"LOCK TABLE {table} IN EXCLUSIVE MODE" for table in locking])

    def upgrading(self) -> contextlib.AbstractContextManager[None]:
        return self._transaction([f"SELECT pg_advisory_xact_lock({self.SCHEMA_LOCK})"])

    def tables(self) -> set[str]:
        return {row[0] for row in self.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}

    def columns(self, table: str) -> list[str]:
        return [row[0] for row in self.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ? ORDER BY ordinal_position", (table,))]

    def group_concat(self, expression: str) -> str:
        return f"string_agg(CAST({expression} AS TEXT), ',')"

    def verify(self) -> None:
        self.execute("SELECT 1")

    def close(self) -> None:
        self.db.close()
