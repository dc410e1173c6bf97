"""Troll: the fast engine against the readable reference at full size (at least
100,000 random steps with no difference in state, legal actions, events or outcome).

    .venv/bin/python benchmarks/troll_differential.py [--steps 100000] [--seed 0]

Prints what was played (games, steps, refusals tried, ends, verbs, event kinds) as tables; stops
with the first difference (exit status 1) if there is one. `differential.py` says what is compared.
"""

from __future__ import annotations

import argparse
import sys
import time

from playtable.games.troll import differential
from playtable.games.troll.engine import compiled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    try:
        tally = differential.run(args.steps, seed=args.seed)
    except differential.Mismatch as err:
        print(f"DIFFERENCE: {err}")
        sys.exit(1)
    elapsed = time.perf_counter() - start
    print("| engine module | games | steps | illegal actions tried | differences | seconds |")
    print("|---|---|---|---|---|---|")
    print(f"| {'compiled (mypyc)' if compiled() else 'pure Python'} | {tally.games:,} | "
          f"{tally.steps:,} | {tally.illegal_tries:,} | 0 | {elapsed:.1f} |")
    for title, counts in (("end", tally.ends), ("verb", tally.verbs), ("event", tally.events)):
        print(f"\n| {title} | count |\n|---|---|")
        for name, count in counts.most_common():
            print(f"| {name} | {count:,} |")


if __name__ == "__main__":
    main()
