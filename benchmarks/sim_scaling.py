"""`playtable sim` with 1 and 2 workers, the cores' own ceiling, and what more cores would give.

    .venv/bin/python benchmarks/sim_scaling.py [--games 40000] [--heuristic-games 6000] [--repeat 3]

(about 4 minutes on an idle 2-core machine with the defaults). This machine is a virtual one
whose two cores give two busy processes anywhere from 1.4x to 1.9x of one from minute to minute,
so every timing is taken `--repeat` times, 1 and 2 workers in turn, and the table shows medians
with the range of the speed-ups beside them. For each agent (random, the troll's heuristic):

* each run is the real command (`playtable sim troll --agent A -n N --workers W --out F`) in a
  subprocess, timed on the wall clock from start to the file in place: games/s with 1 and 2
  workers and their ratio, the target (at least 1.8x);
* start-up: the same command for 2 games, 2 workers against 1 (interpreter, worker processes,
  imports): a fixed cost that a short run pays in full; "steady" is the ratio with it taken off
  both runs;
* the ceiling: two processes running a plain Python loop against one, now (`machine_scaling`):
  what the cores themselves give two busy processes; no lab run can beat it;
* the parent's CPU time per game while 2 workers feed it (measured in this process, with the
  sim's own path: chunks into the Parquet writer and the summary; its fixed costs, such as
  starting the workers, taken off by timing a tenth of the games too), and the serial share of
  a 1-worker run's time that more workers cannot shorten (start-up plus the parent's work).
  Amdahl's law with that share gives the speed-up 4 and 8 cores could reach (times the cores'
  own efficiency, which this machine cannot measure beyond 2).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lab_throughput import machine_scaling
from playtable.core.registry import get_game
from playtable.lab.chunks import Chunk, ChunkSpec
from playtable.lab.metrics import RunningSummary
from playtable.lab.runner import Arm, RunOptions, run_tasks
from playtable.lab.storage import ResultWriter

RUNS = itertools.count()


def sim_seconds(agent: str, games: int, workers: int, folder: Path) -> float:
    out = folder / f"{agent}-{games}-{workers}-{next(RUNS)}.parquet"  # fresh: no --force needed
    command = [sys.executable, "-m", "playtable", "sim", "troll", "--agent", agent, "-n", str(games),
               "--workers", str(workers), "--out", str(out), "-q"]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, timeout=3600)
    return time.perf_counter() - start


def parent_seconds(agent: str, games: int, folder: Path) -> float:
    """The parent's CPU time (all its threads) while 2 workers play `games`, as in `sim --out`:
    each worker's chunk goes to the Parquet writer and its summary is merged."""
    game = get_game("troll")
    arm = Arm.build("troll", game.default_params(), [agent])
    spec = ChunkSpec(table=True, journal=True)
    summary = RunningSummary()
    with ResultWriter(folder / f"warm-{agent}.parquet") as writer:  # imports and first use apart
        run_tasks([(arm, s) for s in range(64)],
                  RunOptions(workers=1, on_chunk=writer.write_chunk, chunk_spec=spec))
    with ResultWriter(folder / f"parent-{agent}.parquet") as writer:

        def take(chunk: Chunk) -> None:
            writer.write_chunk(chunk)
            summary.merge(chunk.summary)

        start = time.process_time()
        run_tasks([(arm, s) for s in range(games)], RunOptions(workers=2, on_chunk=take, chunk_spec=spec),
                  keep_rows=False)
        writer.close()
        return time.process_time() - start


def parent_seconds_per_game(agent: str, games: int, folder: Path) -> float:
    """The parent's CPU time per game beyond its fixed costs (starting the workers, opening and
    closing the file): the difference between `games` and a tenth of them, per game."""
    few = max(1, games // 10)
    extra = parent_seconds(agent, games, folder) - parent_seconds(agent, few, folder)
    return max(0.0, extra / max(1, games - few))


def amdahl(serial: float, cores: int) -> float:
    return 1 / (serial + (1 - serial) / cores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40000, help="games of the random agent")
    parser.add_argument("--heuristic-games", type=int, default=6000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timing (medians shown)")
    args = parser.parse_args()
    ceilings = sorted(machine_scaling() for _ in range(args.repeat))
    ceiling = statistics.median(ceilings)
    print(f"the cores' own speed-up of 2 busy processes over 1 (plain loop), now: {ceiling:.2f}x "
          f"(median of {args.repeat}, range {ceilings[0]:.2f}-{ceilings[-1]:.2f})")
    print()
    print("| agent | games | 1 worker (games/s) | 2 workers (games/s) | speed-up | range of runs "
          "| share of the ceiling | start-up 2 vs 1 worker | steady speed-up | parent CPU per game "
          "| serial share | Amdahl 4 cores | Amdahl 8 cores |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for agent, games in (("random", args.games), ("heuristic", args.heuristic_games)):
            startup = {w: min(sim_seconds(agent, 2, w, folder) for _ in range(2)) for w in (1, 2)}
            pairs = [(sim_seconds(agent, games, 1, folder), sim_seconds(agent, games, 2, folder))
                     for _ in range(args.repeat)]
            t1 = statistics.median(one for one, _ in pairs)
            t2 = statistics.median(two for _, two in pairs)
            ratios = sorted(one / two for one, two in pairs)
            extra = startup[2] - startup[1]
            # a run too short to see past its start-up has no steady figure
            ran = (t1 - startup[1], t2 - startup[2])
            steady = f"{ran[0] / ran[1]:.2f}x" if min(ran) > 0 else "-"
            parent = parent_seconds_per_game(agent, games, folder)
            serial = min(1.0, (extra + parent * games) / t1)
            print(f"| {agent} | {games:,} | {games / t1:,.0f} | {games / t2:,.0f} | {t1 / t2:.2f}x "
                  f"| {ratios[0]:.2f}-{ratios[-1]:.2f}x | {t1 / t2 / ceiling:.0%} | {extra:+.2f} s "
                  f"| {steady} | {1e6 * parent:.0f} us "
                  f"| {serial:.1%} | {amdahl(serial, 4):.2f}x | {amdahl(serial, 8):.2f}x |", flush=True)


if __name__ == "__main__":
    main()
