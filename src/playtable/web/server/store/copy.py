"""`playtable db copy`: every row of one server database into another (an SQLite file into
PostgreSQL, the usual way; any engine into any), checked by counting each table's rows.

Both databases are first brought to the current layout (`schema.opened`, as `serve` would), so
that their tables and columns are the same. The copy is one transaction on the destination: a
failure (a row refused, the server gone) leaves it as it was. A destination holding rows is
refused unless `replace` (its rows are deleted first, in the same transaction).
"""

from __future__ import annotations

from collections.abc import Callable

from playtable.web.server.store.database import Database, StoreError
from playtable.web.server.store.schema import ORDERED, table_names

BATCH = 1000
"""Rows written at a time; an SQLite source is read as many at a time too (psycopg reads a
PostgreSQL source's table whole)."""


class CopyRefused(StoreError):
    """The copy cannot be made as asked (a destination with rows, counts that differ)."""


def counts(db: Database) -> dict[str, int]:
    """Each table of the layout and its number of rows."""
    return {table: int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]) for table in table_names()}


def copy_database(source: Database, target: Database, replace: bool = False,
                  progress: Callable[[str], None] = lambda line: None) -> dict[str, int]:
    """Copy every row of `source` into `target`; the rows copied per table."""
    had = {table: n for table, n in counts(target).items() if n}
    if had and not replace:
        shown = ", ".join(f"{table} {n}" for table, n in had.items())
        raise CopyRefused(f"{target.shown} already holds rows ({shown}): give an empty database, "
                          "or --replace to delete them first")
    copied: dict[str, int] = {}
    with target.transaction():
        for table in reversed(table_names()):  # a row's references last
            if had.get(table):
                target.execute(f"DELETE FROM {table}")
        for table in table_names():
            copied[table] = _copy_table(source, target, table, progress)
    expected, found = counts(source), counts(target)
    wrong = [f"{table} {expected[table]} -> {found[table]}" for table in expected
             if expected[table] != found[table]]
    if wrong:
        raise CopyRefused(f"the copy's row counts differ from the source's: {', '.join(wrong)}")
    return copied


def _copy_table(source: Database, target: Database, table: str, progress: Callable[[str], None]) -> int:
    # SQLite's rowid (an explicit column in PostgreSQL) is the destination's own to number
    columns = [c for c in source.columns(table) if c != "rowid" and c in set(target.columns(table))]
    names = ", ".join(columns)
    order = " ORDER BY rowid" if table in ORDERED else ""
    rows = source.execute(f"SELECT {names} FROM {table}{order}")
    insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"
    done = 0
    while batch := rows.fetchmany(BATCH):
        target.executemany(insert, batch)
        done += len(batch)
        if done % (10 * BATCH) == 0:
            progress(f"{table}: {done:,} rows so far")
    progress(f"{table}: {done:,} rows")
    return done
