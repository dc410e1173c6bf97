"""Does more search make a troll bot much stronger? Win rate against search budget, same seeds.

    .venv/bin/python benchmarks/troll_search_budget.py [--games 200] [--budgets 100 400 1600]
        [--template 'ismcts:iterations={},info_sets=false'] [--variant NAME] [--workers 1]

Each budget is put into the agent spec `--template` (`{}` marks the place) and plays seeds
0..games-1 (the same deals and dice for every budget: common random numbers). The table gives the
win rate with its Wilson 95% interval, the paired difference from the smallest budget, and the
time per game. A curve that flattens far below the clairvoyant bound (`troll_bound.py`) says the
gap is the game's hidden information, not too little search.
"""

from __future__ import annotations

import argparse
import time

from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.lab.compare import value_of
from playtable.lab.runner import Arm, RunOptions, run_tasks
from playtable.lab.stats import paired, wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budgets", type=int, nargs="+", default=[100, 400, 1600])
    parser.add_argument("--template", default="ismcts:iterations={},info_sets=false")
    parser.add_argument("--variant", default=None, help="a named troll variant, e.g. plus-one")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if "{}" not in args.template:
        parser.error("--template needs a {} where the budget goes")
    game = get_game("troll")
    params = resolve_params(game.params_type, game.variants, args.variant)
    print(f"troll ({args.variant or 'default'} rules), seeds 0..{args.games - 1}, {args.workers} worker(s)")
    print(f"{'agent':48} {'wins':>5} {'win rate':>9} {'95% CI':>17} {'vs smallest (pp)':>24} {'s/game':>7}")
    first: dict[int, dict] | None = None
    for budget in args.budgets:
        spec = args.template.format(budget)
        arm = Arm.build("troll", params, [spec], label=spec)
        start = time.perf_counter()
        rows = {r["seed"]: r for r in run_tasks([(arm, s) for s in range(args.games)],
                                                RunOptions(workers=args.workers))}
        seconds = args.workers * (time.perf_counter() - start) / args.games
        wins = sum(1 for r in rows.values() if r["win"])
        low, high = wilson(wins, args.games)
        diff = ""
        if first is None:
            first = rows
        else:
            seeds = sorted(rows)
            d = paired([value_of(first[s], "win") for s in seeds], [value_of(rows[s], "win") for s in seeds])
            diff = f"{100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
        print(f"{spec:48} {wins:5d} {100 * wins / args.games:8.1f}% [{100 * low:5.1f}%, {100 * high:5.1f}%] "
              f"{diff:>24} {seconds:7.2f}", flush=True)


if __name__ == "__main__":
    main()
