"""Troll bots on a block of held-out deals: win rates beside the clairvoyant bound on the same
deals, paired differences, and CPU seconds a game (mean and 95th percentile).

    .venv/bin/python benchmarks/troll_held_out.py --results FILE [FILE ...] --first-seed 901000
        --games 400 [--budget 20000] AGENT_SPEC [AGENT_SPEC ...]

It reads the deals `benchmarks/troll_strength.py --results FILE --chunk 1` played (one JSON line
per agent and deal; with `--chunk 1` a line's CPU seconds are that game's own, so the 95th
percentile is of games, not of chunks' means) and solves the same deals with the clairvoyant
solver (`solver.solve`, which knows the deck order and every die: no real player can beat it).
The deals are the run's seeds `--first-seed`..; play them first, e.g. as two halves at once:

    nice -n 10 .venv/bin/python benchmarks/troll_strength.py --games 200 --first-seed 901000 \\
        --chunk 1 --results h0.jsonl strongest thirdturn
    (and --first-seed 901200 --results h1.jsonl at the same time)
    .venv/bin/python benchmarks/troll_held_out.py --results h0.jsonl h1.jsonl \\
        --first-seed 901000 --games 400 strongest thirdturn

Default rules only (the solver's bound is the seed's bridge). The first agent is the one the
others are paired against; only deals every listed agent played are counted.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from playtable.core.params import resolve_params
from playtable.games.troll.game import GAME
from playtable.games.troll.solver import solve
from playtable.lab.stats import paired, wilson

RULES = "default rules"


def read_results(paths: list[Path]) -> dict[tuple[str, int], dict[str, Any]]:
    """Every deal the files hold under the default rules, by agent and seed."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                if row["rules"] == RULES:
                    out[row["agent"], row["seed"]] = row
    return out


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0-1) of `values`."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered), math.ceil(share * len(ordered))) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agents", nargs="+")
    parser.add_argument("--results", type=Path, nargs="+", required=True)
    parser.add_argument("--first-seed", type=int, required=True)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--budget", type=int, default=20_000, help="turns the solver expands a deal")
    args = parser.parse_args()
    kept = read_results(args.results)
    seeds = [s for s in range(args.first_seed, args.first_seed + args.games)
             if all((a, s) in kept for a in args.agents)]
    if not seeds:
        raise SystemExit("no deal in the files was played by every agent listed")
    params = resolve_params(GAME.params_type, GAME.variants, None)
    began = time.process_time()
    bound = {s: solve(GAME.new_state(params, s), node_limit=args.budget).status for s in seeds}
    winnable = sum(1 for v in bound.values() if v == "win")
    print(f"troll (default rules), {len(seeds)} deals of seeds {args.first_seed}.."
          f"{args.first_seed + args.games - 1}; clairvoyant bound: {winnable} won, "
          f"{sum(1 for v in bound.values() if v == 'loss')} proved lost, "
          f"{sum(1 for v in bound.values() if v == 'unknown')} undecided "
          f"({time.process_time() - began:.1f} CPU s)\n")
    print("| agent | deals | wins | win rate | 95% CI | vs first, paired (pp) | share of bound | "
          "CPU s/game mean | p95 |")
    print("|---|---|---|---|---|---|---|---|---|")
    first = [float(kept[args.agents[0], s]["win"]) for s in seeds]
    for agent in args.agents:
        won = [float(kept[agent, s]["win"]) for s in seeds]
        cpu = [float(kept[agent, s]["cpu_s"]) for s in seeds]
        low, high = wilson(int(sum(won)), len(won))
        diff = ""
        if agent != args.agents[0]:
            d = paired(first, won)
            diff = f"{100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
        print(f"| `{agent}` | {len(won)} | {int(sum(won))} | {100 * sum(won) / len(won):.1f}% | "
              f"[{100 * low:.1f}, {100 * high:.1f}] | {diff} | {sum(won) / max(1, winnable):.3f} | "
              f"{sum(cpu) / len(cpu):.2f} | {percentile(cpu, 0.95):.2f} |")


if __name__ == "__main__":
    main()
