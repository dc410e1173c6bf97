"""The seeds' playtest answers as Markdown tables, for docs/playtest-answers.md.

    nice -n 10 .venv/bin/python benchmarks/playtest_answers.py troll
    nice -n 10 .venv/bin/python benchmarks/playtest_answers.py stardice -n 60
    nice -n 10 .venv/bin/python benchmarks/playtest_answers.py rotator --agent random --agent solver

The same answers as `playtable playtest GAME [-n N] [--agent A ...]` (lab/playtest.py, the same
seeds and defaults), printed as one Markdown table (question, agent, the seed's answer, measured,
95 % interval, n; `*` where the two agents' intervals do not overlap) followed by each answer's
breakdown table, and the wall time.
"""

from __future__ import annotations

import argparse
import time

from playtable.lab.playtest import DEFAULT_GAMES, playtest
from playtable.lab.runner import RunOptions


def cell(value: object) -> str:
    return str(value).replace("|", "/").replace("\n", " ")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=sorted(DEFAULT_GAMES))
    ap.add_argument("-n", "--games", type=int, default=None, help="games per setting")
    ap.add_argument("--agent", action="append", default=None, help="agent spec (repeatable; default: two)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    start = time.perf_counter()
    answers = playtest(args.game, args.agent, args.games, args.seed, RunOptions(workers=1))
    wall = time.perf_counter() - start
    n = args.games if args.games is not None else DEFAULT_GAMES[args.game]
    agents = ", ".join(dict.fromkeys(a.agent for a in answers))
    print(f"{args.game}: {n} games per setting from seed {args.seed}; agents {agents}; one process, "
          f"{wall:.0f} s wall\n")
    print("| question | agent | the seed says | measured | 95% interval | n |")
    print("|---|---|---|---|---|---|")
    for a in answers:
        print(f"| {cell(a.question)} | {cell(a.agent)}{' *' if a.disagree else ''} | {cell(a.seed_says)} "
              f"| {cell(a.measured)} | {a.interval_text()} | {a.n} |")
    for a in answers:
        if not a.detail:
            continue
        headers = list(a.detail[0])
        print(f"\n{cell(a.question)} ({a.agent}):\n")
        print("| " + " | ".join(headers) + " |")
        print("|" + "---|" * len(headers))
        for d in a.detail:
            print("| " + " | ".join(cell(d.get(h, "")) for h in headers) + " |")


if __name__ == "__main__":
    main()
