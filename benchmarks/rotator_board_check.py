"""What one board check of the Rotator editor costs (`games/rotator/verdict.py`, run
by POST /api/rotator/boards/check in the public worker), and the worst a stranger can make it.

    .venv/bin/python benchmarks/rotator_board_check.py --boards 200

Checks the shipped samples, N boards generated as `playtable state new rotator --seed K` draws
them (K = 0..N-1), and searches long on purpose: the first 30 of those boards with no turn limit
(what a check may set), and with the auger's dials at their bounds (20 boost spaces, 5 spaces a
turn: the most lines to search, which is why a check may not set them), where the solver
searches until `HINT_MAX_STATES` stops it. Prints wall and CPU time (median, 90th
percentile, worst) and positions searched, per group.
"""

from __future__ import annotations

import argparse
import statistics
import time

from playtable.games.rotator.board import SAMPLE_NAMES, load_board
from playtable.games.rotator.game import board_for
from playtable.games.rotator.rules import HINT_MAX_STATES, RotatorParams
from playtable.games.rotator.verdict import board_verdict


def measure(texts: list[str], params: RotatorParams) -> tuple[list[float], list[float], list[int], int]:
    walls, cpus, states, undecided = [], [], [], 0
    for text in texts:
        w, c = time.perf_counter(), time.process_time()
        verdict = board_verdict(text, params, HINT_MAX_STATES)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        states.append(verdict.get("states", 0))
        undecided += not verdict.get("complete", True)
    return walls, cpus, states, undecided


def row(name: str, walls: list[float], cpus: list[float], states: list[int], undecided: int) -> str:
    def q(values: list[float], p: float) -> float:
        return sorted(values)[min(len(values) - 1, int(p * len(values)))] * 1000

    return (f"| {name} | {len(walls)} | {statistics.median(walls) * 1000:.0f} | {q(walls, 0.9):.0f} | "
            f"{max(walls) * 1000:.0f} | {statistics.median(cpus) * 1000:.0f} | {max(cpus) * 1000:.0f} | "
            f"{max(states):,} | {undecided} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    args = parser.parse_args()
    samples = [load_board(name).to_text() for name in SAMPLE_NAMES]
    generated = [board_for(RotatorParams(), k).to_text() for k in range(args.boards)]
    slow = RotatorParams(boost_total=20, max_drill=5, turn_limit=0)
    print("| boards | n | wall median ms | wall p90 ms | wall worst ms | CPU median ms | CPU worst ms "
          "| most positions | undecided |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(row("shipped samples", *measure(samples, RotatorParams())))
    print(row(f"generated, seeds 0-{args.boards - 1}", *measure(generated, RotatorParams())))
    print(row("generated 0-29, no turn limit", *measure(generated[:30], RotatorParams(turn_limit=0))))
    print(row("generated 0-29, 20 boosts, 5 a turn, no limit", *measure(generated[:30], slow)))


if __name__ == "__main__":
    main()
