"""Rotator solver benchmark: solve N generated legal boards and print a table.

    .venv/bin/python benchmarks/rotator_solver.py --boards 1000

Reports solve time (median, 90th percentile, worst), the share of boards that can be won, the
histogram of the fewest turns needed, boost spaces used, and how the difficulty levels
(playtable.games.rotator.game.LEVELS) split the winnable boards. Boards are drawn exactly as
`playtable state new rotator --seed N` draws them (seeds 0..N-1).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from playtable.games.rotator.game import GAME as ROTATOR
from playtable.games.rotator.game import LEVELS, level_of
from playtable.games.rotator.rules import RotatorParams
from playtable.games.rotator.solver import solve_state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--allow-trivial", action="store_true",
                        help="keep boards with an all-air column (won on turn 1)")
    parser.add_argument("--placement", choices=["node", "territory"], default="node",
                        help="reading of the node placement rule (RULES.md I1)")
    args = parser.parse_args()
    params = RotatorParams(allow_trivial=args.allow_trivial or args.placement == "territory",
                           placement=args.placement)
    times: list[float] = []
    turns: Counter[int] = Counter()
    boosts: Counter[int] = Counter()
    grid: Counter[tuple[int, int]] = Counter()
    levels: Counter[str] = Counter()
    states: list[int] = []
    worst_seed = -1
    won = 0
    for seed in range(args.first_seed, args.first_seed + args.boards):
        state = ROTATOR.new_state(params, seed)
        t0 = time.perf_counter()
        solution = solve_state(state)
        dt = time.perf_counter() - t0
        if not times or dt > max(times):
            worst_seed = seed
        times.append(dt)
        states.append(solution.states)
        if solution.winnable:
            won += 1
            turns[solution.turns] += 1
            boosts[solution.boosts] += 1
            grid[(solution.turns, solution.boosts)] += 1
            levels[level_of(solution.turns, solution.boosts)] += 1
        else:
            turns[0] += 1
    n = len(times)
    ms = sorted(t * 1000 for t in times)
    print(f"Rotator solver over {n} generated boards (seeds {args.first_seed}.."
          f"{args.first_seed + n - 1}, placement={params.placement}, "
          f"allow_trivial={params.allow_trivial})")
    print()
    print("| measure | value |")
    print("|---|---|")
    print(f"| median solve time | {statistics.median(ms):.1f} ms |")
    print(f"| 90th percentile | {ms[int(0.9 * (n - 1))]:.1f} ms |")
    print(f"| worst solve time | {ms[-1]:.1f} ms (seed {worst_seed}) |")
    print(f"| boards over 5 s | {sum(1 for t in ms if t > 5000)} |")
    print(f"| median positions expanded | {statistics.median(states):.0f} |")
    print(f"| winnable | {won}/{n} = {100 * won / n:.1f}% |")
    print()
    print("| fewest turns to win | boards | share |")
    print("|---|---|---|")
    for t in sorted(turns):
        label = "no win" if t == 0 else str(t)
        print(f"| {label} | {turns[t]} | {100 * turns[t] / n:.1f}% |")
    print()
    print("| boost spaces in the best line | boards |")
    print("|---|---|")
    for b in sorted(boosts):
        print(f"| {b} | {boosts[b]} |")
    print()
    print("| level | rule | winnable boards |")
    print("|---|---|---|")
    rules = {**LEVELS, "trivial": "won on turn 1"}
    for name, rule in rules.items():
        print(f"| {name} | {rule} | {levels[name]} ({100 * levels[name] / max(won, 1):.1f}%) |")
    print()
    print("| fewest turns \\ boost spaces | " + " | ".join(str(b) for b in range(11)) + " |")
    print("|---|" + "---|" * 11)
    for t in sorted(k for k in turns if k):
        row = [str(grid[(t, b)]) if grid[(t, b)] else "" for b in range(11)]
        print(f"| {t} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
