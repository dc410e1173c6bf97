"""How often new SQLite files fail to open when several connections open each at once, as
`serve --processes N` and nodes do (`SqliteDatabase._into_write_ahead_log` says why they did):
`--files` new files, each opened by `--openers` threads released together, every one through
`schema.opened` (connect, the switch to the write-ahead log, the layout). Prints the files of
which some opening failed, by the error's message.

    .venv/bin/python benchmarks/sqlite_openings.py [--files 300] [--openers 4]

Run it on older code with `PYTHONPATH=<that tree>/src` to compare.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
from collections import Counter
from pathlib import Path

from playtable.web.server.store.schema import opened


def open_together(where: Path, openers: int) -> list[str]:
    """The error messages of `openers` threads opening `where` at once (none: all opened)."""
    barrier = threading.Barrier(openers)
    errors: list[str] = []
    connections = []

    def open_it() -> None:
        barrier.wait(timeout=30)
        try:
            connections.append(opened(where))
        except Exception as err:  # noqa: BLE001  # counted, which is the measurement
            errors.append(str(err).replace(str(where), "FILE"))

    threads = [threading.Thread(target=open_it) for _ in range(openers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for db in connections:
        db.close()
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--openers", type=int, default=4)
    args = parser.parse_args()
    if not (1 <= args.files <= 100_000 and 2 <= args.openers <= 64):
        parser.error("--files 1-100000, --openers 2-64")
    failed: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.files):
            errors = open_together(Path(tmp) / f"new-{k}.db", args.openers)
            if errors:
                failed[errors[0]] += 1
    print(f"{args.files} new files, each opened by {args.openers} at once: "
          f"{sum(failed.values())} with a failed opening ({100 * sum(failed.values()) / args.files:.1f}%)")
    for message, n in failed.most_common():
        print(f"  {n:5d}  {message[:160]}")


if __name__ == "__main__":
    main()
