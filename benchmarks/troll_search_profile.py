"""Where a troll search's time goes: the shape of its tree and its hottest functions.

    .venv/bin/python benchmarks/troll_search_profile.py [--spec expectimax:depth=3,leaf=learned,inner_width=2]
        [--seed 3] [--decisions 6] [--top 12]

Plays the first `--decisions` decisions of deal `--seed` (default rules) with the agent `--spec`
under cProfile and prints: the CPU seconds, how many distinct outcomes an awakening phase had on
average (`search.awakening_outcomes`) and how many distinct endings a turn had
(`search.turn_ends`), then the functions by cumulative time. It answers "what would make a
deeper search affordable?" (docs/lab.md, "Three turns deep").
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections.abc import Callable
from typing import Any

import playtable.games.troll.search as search
from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.registry import get_game


def counted(fn: Callable[[Any], list[Any]], sizes: list[int]) -> Callable[[Any], list[Any]]:
    def wrapper(state: Any) -> list[Any]:
        found = fn(state)
        sizes.append(len(found))
        return found

    return wrapper


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default="expectimax:depth=3,leaf=learned,inner_width=2")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--decisions", type=int, default=6)
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args()

    game = get_game("troll")
    state = game.new_state(seed=args.seed)
    agent = make_agent(game, args.spec)
    outcomes: list[int] = []
    ends: list[int] = []
    # The search module looks both up by name at each call: counting wrappers see every one.
    search.awakening_outcomes = counted(search.awakening_outcomes, outcomes)  # type: ignore[assignment]
    search.turn_ends = counted(search.turn_ends, ends)  # type: ignore[assignment]
    rng = Chance(args.seed)
    profile = cProfile.Profile()
    start = time.process_time()
    profile.enable()
    for _ in range(args.decisions):
        if state.is_terminal:
            break
        state.apply(agent.choose(state, rng))
    profile.disable()
    seconds = time.process_time() - start
    print(f"{args.spec}, deal {args.seed}, {args.decisions} decisions: {seconds:.1f} CPU s (under cProfile)")
    if outcomes:
        print(f"awakening phases expanded: {len(outcomes)}, distinct outcomes each: "
              f"{sum(outcomes) / len(outcomes):.1f} on average")
    if ends:
        print(f"turns enumerated: {len(ends)}, distinct endings each: {sum(ends) / len(ends):.1f} on average")
    pstats.Stats(profile).sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
