"""Scratch disk a `sim --out` run keeps for crash safety: bytes of journal per game.

    .venv/bin/python benchmarks/lab_scratch.py [--seconds 20 60] [--workers 2] [--agent random]

For each duration: `playtable sim troll -n 100000000 --out FILE` runs in a child for that long
(sampling every 0.2 s the journal beside FILE: every file whose name starts with
`FILE.journal`, folders included, and the result being written, `FILE.part`), is then killed
with SIGKILL, and the journal is recovered (`playtable.lab.recovery.recover`) to count the
games it held. The table gives those games, the journal's bytes at the kill and per game, its
peak over the run, the `.part` file, and the recovered Parquet file's bytes per game (what the
result itself costs). Run it with `PYTHONPATH=<an older checkout>/src` to measure that
version's journal (the JSON journal of earlier versions).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _size(path: Path) -> int:
    try:
        if path.is_dir() and not path.is_symlink():
            return sum(_size(p) for p in path.iterdir())
        return path.lstat().st_size
    except OSError:  # renamed or removed meanwhile
        return 0


def journal_bytes(out: Path) -> int:
    return sum(_size(p) for p in out.parent.iterdir() if p.name.startswith(out.name + ".journal"))


def run(seconds: float, workers: int, agent: str, folder: Path) -> tuple[int, int, int, int, int]:
    """(games recovered, journal bytes at the kill, peak journal bytes, .part bytes, result bytes)."""
    out = folder / f"run{seconds:g}.parquet"
    code = "import sys; from playtable.cli import main; main(sys.argv[1:])"
    child = subprocess.Popen(
        [sys.executable, "-c", code, "sim", "troll", "-n", "100000000", "--agent", agent,
         "--workers", str(workers), "-q", "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    peak = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        peak = max(peak, journal_bytes(out))
        time.sleep(0.2)
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    time.sleep(0.5)  # the workers go with their parent
    at_kill = journal_bytes(out)
    peak = max(peak, at_kill)
    part = _size(out.with_name(out.name + ".part"))
    counted = subprocess.run(
        [sys.executable, "-c", "import sys; from playtable.lab.recovery import recover; "
         "print(recover(sys.argv[1]))", str(out)],
        capture_output=True, text=True, check=True,
    )
    games = int(counted.stdout.strip().splitlines()[-1])
    return games, at_kill, peak, part, _size(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, nargs="+", default=[20.0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--agent", default="random")
    args = parser.parse_args()
    print(f"`playtable sim troll --agent {args.agent} --workers {args.workers} -n 100000000 --out FILE`, "
          "killed with SIGKILL after the given time, then recovered")
    print()
    print("| run s | games recovered | journal at kill | journal B/game | journal peak | .part | "
          "result B/game |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for seconds in args.seconds:
            games, at_kill, peak, part, result = run(seconds, args.workers, args.agent, Path(scratch))
            per_game = at_kill / games if games else float("nan")
            result_per_game = result / games if games else float("nan")
            print(f"| {seconds:g} | {games:,} | {at_kill / 1e6:.2f} MB | {per_game:.0f} | "
                  f"{peak / 1e6:.2f} MB | {part / 1e6:.2f} MB | {result_per_game:.1f} |", flush=True)


if __name__ == "__main__":
    main()
