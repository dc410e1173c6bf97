"""Tuning wall time against budget: the same tuning task at several budgets (trials).

    nice -n 10 .venv/bin/python benchmarks/lab_tune_budget.py --budgets 5 10 20 40

The task: the troll's §4.1 difficulty dials (336 settings: 3 x 7 x 2^4) tuned so the heuristic
bot wins 30 %, 200 common seeds a trial in 4 pruning rounds, the best 2 re-measured on 1,000
fresh seeds, one worker, a study in memory. Printed per budget: trials complete / pruned / invalid (refused by
the parameters' own checks, e.g. a bridge that leaves no deck) / answered from an earlier
identical trial, games played in the search, wall time, the search's best loss and the
winner's loss on fresh seeds (the distance from 30 %).
"""

from __future__ import annotations

import argparse
import time

from playtable.core.registry import get_game
from playtable.lab.runner import RunOptions
from playtable.lab.space import build_space
from playtable.lab.tune import Objective, TuneSpec, run_tune

DIALS = ("extra_per_slot", "extra_end_bricks", "troll_starts_with_card", "reusable_ace_of_diamonds",
         "club_from_start", "diamond_from_start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", type=int, nargs="+", default=[5, 10, 20, 40])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--remeasure", type=int, default=1000)
    ap.add_argument("--target", type=float, default=0.3)
    args = ap.parse_args()
    space = build_space(get_game("troll").params_type, only=DIALS)
    print(f"troll, heuristic, target win={args.target}, {args.games} seeds a trial, "
          f"{args.remeasure} fresh seeds for each of 2 finalists, 1 worker")
    print("| budget | complete | pruned | invalid | same as earlier | games in search | wall s "
          "| best loss (search) | winner's loss (fresh) | winner |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for budget in args.budgets:
        spec = TuneSpec("troll", Objective("win", args.target), space, agents=("heuristic",),
                        games=args.games, rounds=4, finalists=2, remeasure=args.remeasure)
        start = time.perf_counter()
        result = run_tune(spec, budget, study_name=f"budget-{budget}", options=RunOptions(workers=1))
        wall = time.perf_counter() - start
        kinds = ["invalid" if t["invalid"] else "same" if t["same_as"] is not None else t["state"]
                 for t in result.trials]
        same, invalid = kinds.count("same"), kinds.count("invalid")
        complete, pruned = kinds.count("COMPLETE"), kinds.count("PRUNED")
        played = sum(int(t["games"] or 0) for t in result.trials if t["same_as"] is None)
        losses = [t["loss"] for t in result.trials if t["loss"] is not None]
        best = result.best
        fresh = best.loss if best else float("nan")
        print(f"| {budget} | {complete} | {pruned} | {invalid} | {same} | {played} | {wall:.0f} "
              f"| {min(losses):.3f} | {fresh:.3f} | {result.variant()} |")


if __name__ == "__main__":
    main()
