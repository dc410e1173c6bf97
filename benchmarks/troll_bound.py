"""Troll: the clairvoyant bound — how many deals can be won by someone who knows the deck order
and every die roll (`playtable.games.troll.solver`).

    .venv/bin/python benchmarks/troll_bound.py [--deals 300] [--first-seed 0] [--budget 20000]
        [--variants default,plus-one]

Prints one row per variant: deals won / proved lost / undecided within the budget, and time.
The deals are seeds `--first-seed`..; e.g. `--first-seed 90000000` for the held-back deals
(`learned.HELD_BACK_SEEDS`), where a bot's win rate is read as a share of this bound.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from playtable.core.params import resolve_params
from playtable.games.troll.game import GAME
from playtable.games.troll.solver import solve
from playtable.lab.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=20_000, help="turns expanded per deal")
    parser.add_argument("--variants", default="default,plus-one")
    args = parser.parse_args()
    print("| variant | deals | winnable | 95% CI | proved lost | undecided | total s | worst s |")
    print("|---|---|---|---|---|---|---|---|")
    for variant in args.variants.split(","):
        params = resolve_params(GAME.params_type, GAME.variants, None if variant == "default" else variant)
        counts: Counter[str] = Counter()
        worst, start = 0.0, time.perf_counter()
        for seed in range(args.first_seed, args.first_seed + args.deals):
            began = time.perf_counter()
            counts[solve(GAME.new_state(params, seed), node_limit=args.budget).status] += 1
            worst = max(worst, time.perf_counter() - began)
        low, high = wilson(counts["win"], args.deals)
        print(f"| {variant} | {args.deals} | {counts['win']} | {100 * low:.1f}-{100 * high:.1f}% | "
              f"{counts['loss']} | {counts['unknown']} | {time.perf_counter() - start:.1f} | {worst:.2f} |")


if __name__ == "__main__":
    main()
