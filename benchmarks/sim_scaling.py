"""`playtable sim` with 1 and 2 workers, results written to Parquet, and what more cores would give.

    .venv/bin/python benchmarks/sim_scaling.py [--games 20000] [--heuristic-games 4000]

Each run is the real command (`playtable sim troll --agent A -n N --workers W --out F`) in a
subprocess, timed on the wall clock from start to the file in place. Beside it: the cores' own
speed-up of two processes over one on a plain loop (below 2 whenever something else runs on the
machine; read the lab's figure against it), and the parent's CPU time per game when 2 workers
feed it (measured in this process with the sim's own writer), whose inverse is the most games a
second any number of workers could deliver before the parent becomes the bottleneck.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lab_throughput import machine_scaling
from playtable.core.registry import get_game
from playtable.lab.runner import Arm, RunOptions, run_tasks
from playtable.lab.storage import ResultWriter


def sim_seconds(agent: str, games: int, workers: int, folder: Path) -> float:
    out = folder / f"{agent}-{workers}.parquet"
    command = [sys.executable, "-m", "playtable", "sim", "troll", "--agent", agent, "-n", str(games),
               "--workers", str(workers), "--out", str(out)]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, timeout=3600)
    return time.perf_counter() - start


def parent_seconds_per_game(agent: str, games: int, folder: Path) -> float:
    """The parent's CPU time per game while 2 workers play and the sim's writer writes."""
    game = get_game("troll")
    arm = Arm.build("troll", game.default_params(), [agent])
    with ResultWriter(folder / f"warm-{agent}.parquet") as writer:  # imports and first use apart
        run_tasks([(arm, s) for s in range(64)], RunOptions(workers=1, on_rows=writer.write))
    with ResultWriter(folder / f"parent-{agent}.parquet") as writer:
        start = time.process_time()
        run_tasks([(arm, s) for s in range(games)], RunOptions(workers=2, on_rows=writer.write),
                  keep_rows=False)
        return (time.process_time() - start) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="games of the random agent")
    parser.add_argument("--heuristic-games", type=int, default=4000)
    args = parser.parse_args()
    print(f"cores' own 2-process speed-up now: {machine_scaling():.2f}x")
    print()
    print("| agent | games | 1 worker (games/s) | 2 workers (games/s) | speed-up | parent CPU per game "
          "| parent's ceiling (games/s) |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for agent, games in (("random", args.games), ("heuristic", args.heuristic_games)):
            one = games / sim_seconds(agent, games, 1, folder)
            two = games / sim_seconds(agent, games, 2, folder)
            parent = parent_seconds_per_game(agent, games, folder)
            print(f"| {agent} | {games:,} | {one:,.0f} | {two:,.0f} | {two / one:.2f}x "
                  f"| {1e6 * parent:.0f} us | {1 / parent:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
