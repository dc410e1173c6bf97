#!/usr/bin/env python3
"""A consistent copy of playtable's tables while the server runs (docs/web.md, "Backups").

    python3 playtable-backup.py [--db /var/lib/playtable/tables.sqlite3]
        [--to /var/lib/playtable-backups] [--keep 48]

SQLite's online backup (`sqlite3.Connection.backup`) copies every page in one step, that is in
one read transaction: a snapshot of every action committed when it began, however busy the
server is meanwhile (the server never waits for it: the store is in WAL mode, where a reader
holds up no writer). Copying the file with cp instead may catch it between two writes, and
misses what is still in tables.sqlite3-wal. The copy is written under a temporary name, checked
(`PRAGMA integrity_check`), then renamed to tables-YYYYmmddTHHMMSSZ.sqlite3, readable by its
owner only; only the newest --keep copies are kept. Standard library only: any python3 runs it.

Restore: stop the server, set the current tables aside, put a copy in their place, start it:

    systemctl stop playtable
    mkdir -p /var/lib/playtable/before-restore
    mv /var/lib/playtable/tables.sqlite3* /var/lib/playtable/before-restore/
    install -o playtable -g playtable -m 600 /var/lib/playtable-backups/tables-...Z.sqlite3 \\
        /var/lib/playtable/tables.sqlite3
    systemctl start playtable

The server rebuilds every table from its record at start (tests/web/test_nginx.py backs up a
server mid-game with this script and restores the copy into a new server).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from pathlib import Path


def backup(db: Path, to: Path, keep: int) -> Path:
    if not db.is_file():  # sqlite3.connect would create an empty database in its place
        raise SystemExit(f"playtable-backup: there is no database at {db}")
    to.mkdir(parents=True, exist_ok=True, mode=0o700)
    final = to / time.strftime("tables-%Y%m%dT%H%M%SZ.sqlite3", time.gmtime())
    part = final.with_name(f".{final.name}.part")
    part.unlink(missing_ok=True)
    source = sqlite3.connect(db, timeout=60)
    try:
        target = sqlite3.connect(part)
        try:
            source.backup(target)  # pages=-1: every page in one step, one consistent snapshot
            verdict = target.execute("PRAGMA integrity_check").fetchone()[0]
            tables = target.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        finally:
            target.close()
    finally:
        source.close()
    if verdict != "ok" or tables == 0:
        part.unlink(missing_ok=True)
        raise SystemExit(f"playtable-backup: the copy of {db} failed its check: {verdict}")
    os.chmod(part, 0o600)
    os.replace(part, final)
    for old in sorted(to.glob("tables-*Z.sqlite3"))[:-keep]:  # the names sort by time
        old.unlink()
    return final


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, default=Path("/var/lib/playtable/tables.sqlite3"))
    parser.add_argument("--to", type=Path, default=Path("/var/lib/playtable-backups"))
    parser.add_argument("--keep", type=int, default=48, help="copies kept, newest first")
    args = parser.parse_args()
    if args.keep < 1:
        parser.error("--keep must be at least 1")
    print(backup(args.db, args.to, args.keep), file=sys.stdout)


if __name__ == "__main__":
    main()
