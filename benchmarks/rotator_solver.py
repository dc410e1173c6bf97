"""Rotator solver benchmark: solve N generated legal boards and print a table.

    .venv/bin/python benchmarks/rotator_solver.py --boards 1000 \
        --reference tests/games/rotator/solver_reference.json

Reports solve time (median, 90th and 99th percentile, worst and its seed; on the wall clock and
in CPU time, which a busy shared machine inflates less), the share of boards that can be won,
the histogram of the fewest turns needed, boost spaces used, and how the difficulty levels
(playtable.games.rotator.game.LEVELS) split the winnable boards. Boards are drawn exactly as
`playtable state new rotator --seed N` draws them (seeds 0..N-1). With `--reference FILE` it
also checks every answer (winnable, fewest turns, boost spaces) against stored answers, and
`--write-reference FILE` stores this solver's answers (the shipped file was written by the plain
breadth-first solver of commit 1d8882f, before the bounded search).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from playtable.games.rotator.engine import DRILL, WON, sorted_cells
from playtable.games.rotator.game import GAME as ROTATOR
from playtable.games.rotator.game import LEVELS, level_of
from playtable.games.rotator.rules import RotatorParams, RotatorState
from playtable.games.rotator.solver import solve_state


def won_without_drilling(state: RotatorState) -> bool:
    """Whether some top-row square wins with `drill 0` every turn: a board a player wins by
    picking a square and waiting (another kind of board that needs no thought)."""
    engine = state.engine
    for cell in sorted_cells(state.core.choices):
        s = engine.start(state.core, cell)
        for _turn in range(engine.turn_limit or 200):  # the bound matters only without a limit
            if s[7] != DRILL:
                break
            s = engine.drill(s, 0)
        if s[7] == WON:
            return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--allow-trivial", action="store_true",
                        help="keep boards with an all-air column (won on turn 1)")
    parser.add_argument("--placement", choices=["node", "territory"], default="node",
                        help="reading of the node placement rule (RULES.md I1)")
    parser.add_argument("--reference", default=None, metavar="FILE",
                        help="check the answers against this file of stored answers")
    parser.add_argument("--write-reference", default=None, metavar="FILE",
                        help="store this solver's answers in FILE")
    args = parser.parse_args()
    reference = json.loads(Path(args.reference).read_text())["answers"] if args.reference else {}
    answers: dict[str, list[object]] = {}
    checked = agreed = 0
    params = RotatorParams(allow_trivial=args.allow_trivial or args.placement == "territory",
                           placement=args.placement)
    times: list[float] = []
    turns: Counter[int] = Counter()
    boosts: Counter[int] = Counter()
    grid: Counter[tuple[int, int]] = Counter()
    levels: Counter[str] = Counter()
    states: list[int] = []
    worst_seed = worst_cpu_seed = -1
    waiting = 0
    cpu: list[float] = []
    won = 0
    for seed in range(args.first_seed, args.first_seed + args.boards):
        state = ROTATOR.new_state(params, seed)
        waiting += won_without_drilling(state)
        t0, c0 = time.perf_counter(), time.process_time()
        solution = solve_state(state)
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        if not times or dt > max(times):
            worst_seed = seed
        if not cpu or dc > max(cpu):
            worst_cpu_seed = seed
        times.append(dt)
        cpu.append(dc)
        states.append(solution.states)
        answers[str(seed)] = [solution.winnable, solution.turns, solution.boosts]
        if str(seed) in reference:
            checked += 1
            agreed += reference[str(seed)] == answers[str(seed)]
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
    cpu_ms = sorted(t * 1000 for t in cpu)
    print(f"Rotator solver over {n} generated boards (seeds {args.first_seed}.."
          f"{args.first_seed + n - 1}, placement={params.placement}, "
          f"allow_trivial={params.allow_trivial})")
    print()
    print("| measure | wall clock | CPU time of this process |")
    print("|---|---|---|")
    print(f"| median solve time | {statistics.median(ms):.1f} ms | {statistics.median(cpu_ms):.1f} ms |")
    print(f"| 90th percentile | {ms[int(0.9 * (n - 1))]:.1f} ms | {cpu_ms[int(0.9 * (n - 1))]:.1f} ms |")
    print(f"| 99th percentile | {ms[int(0.99 * (n - 1))]:.1f} ms | {cpu_ms[int(0.99 * (n - 1))]:.1f} ms |")
    print(f"| worst solve time | {ms[-1]:.1f} ms (seed {worst_seed}) "
          f"| {cpu_ms[-1]:.1f} ms (seed {worst_cpu_seed}) |")
    print(f"| boards over 1 s | {sum(1 for t in ms if t > 1000)} | {sum(1 for t in cpu_ms if t > 1000)} |")
    print()
    print("| measure | value |")
    print("|---|---|")
    print(f"| median positions expanded | {statistics.median(states):.0f} |")
    print(f"| winnable | {won}/{n} = {100 * won / n:.1f}% |")
    print(f"| won on turn 1 (no thought needed) | {turns[1]} |")
    print(f"| won by a top-row square and drill 0 every turn | {waiting} |")
    if args.reference:
        print(f"| answers equal to {args.reference} | {agreed}/{checked} |")
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


    if args.write_reference:
        write_reference(args.write_reference, answers,
                        f"Rotator solver answers [winnable, fewest turns, boost spaces] for generated "
                        f"boards (placement={params.placement}, allow_trivial={params.allow_trivial}), "
                        f"written by benchmarks/rotator_solver.py --write-reference")


def write_reference(path: str, answers: dict[str, list[object]], about: str) -> None:
    """Stored answers, one board a line."""
    lines = ",\n".join(f"  {json.dumps(seed)}: {json.dumps(answer)}" for seed, answer in answers.items())
    with open(path, "w") as out:
        out.write('{\n "about": ' + json.dumps(about) + ',\n "answers": {\n' + lines + "\n }\n}\n")


if __name__ == "__main__":
    main()
