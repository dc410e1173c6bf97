"""`playtable db`: the table server's database (docs/web.md, "On PostgreSQL")."""

from __future__ import annotations

from pathlib import Path

import click

from playtable.cli.serve import db_option


@click.group()
def db() -> None:
    """The table server's database: copy it from SQLite to PostgreSQL."""


@db.command()
@click.argument("source", callback=db_option)
@click.argument("destination", callback=db_option)
@click.option("--replace", is_flag=True,
              help="Delete the rows DESTINATION holds first (without it, a DESTINATION with rows "
                   "is refused).")
def copy(source: str | Path, destination: str | Path, replace: bool) -> None:
    """Copy every table, action, player, name, rating, best, vote, playtest and rate budget of
    SOURCE into DESTINATION, and check each table's row count.

    Each is an SQLite file or a postgresql://USER@HOST/DATABASE URL. Both are first brought to
    this playtable's layout, as `serve` does. Stop the server before copying: rows it writes
    meanwhile are not copied. Progress is shown on stderr."""
    from playtable.core.errors import BadParameter
    from playtable.web.server.store.copy import copy_database
    from playtable.web.server.store.database import shown
    from playtable.web.server.store.schema import opened

    if isinstance(source, Path) and not source.is_file():
        raise BadParameter(f"no database at {source}")
    if str(source) == str(destination):
        raise BadParameter("SOURCE and DESTINATION are the same database")
    src = opened(source)
    try:
        dst = opened(destination)
        try:
            copied = copy_database(src, dst, replace, lambda line: click.echo(f"  {line}", err=True))
        finally:
            dst.close()
    finally:
        src.close()
    click.echo(f"playtable: copied {sum(copied.values()):,} rows of {len(copied)} tables from "
               f"{shown(source)} into {shown(destination)}; every table's count matches the source's",
               err=True)
