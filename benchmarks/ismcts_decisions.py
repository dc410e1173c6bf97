"""ISMCTS decisions on fixed positions, as one digest per game and option set, to show that a
faster version of the search decides exactly as an older one.

    .venv/bin/python benchmarks/ismcts_decisions.py [--games troll rotator wizard]
        [--positions 12] [--iterations 200]
    git archive <commit> src | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src .venv/bin/python benchmarks/ismcts_decisions.py   # the same table?

Positions are reached by random play from seeds 0.. (0-8 steps in). Each gets one decision per
option set from a fresh agent with the same rng; the digest covers the move and the root's
visit count and mean value of every edge, so it changes if any iteration searched differently.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

import playtable
from playtable.agents.ismcts import IsmctsAgent
from playtable.core.chance import Chance
from playtable.core.registry import get_game

OPTIONS: list[dict[str, Any]] = [{}, {"single_tree": True}, {"info_sets": False}, {"rollout_depth": 3}]


def digest(game_id: str, options: dict[str, Any], count: int, iterations: int) -> tuple[int, str]:
    game = get_game(game_id)
    record = []
    for seed in range(count):
        state = game.new_state(game.default_params(), seed)
        rng = Chance(seed + 7)
        for _ in range(seed % 9):
            if state.is_terminal:
                break
            actions = state.sample_actions(rng, 64)
            state.apply(actions[rng.below(len(actions))])
        if state.is_terminal:
            continue
        agent = IsmctsAgent(iterations=iterations, **options)
        agent.bind(game)
        move = agent.choose(state.clone(), Chance(seed))
        record.append([str(move), {k: list(v) for k, v in agent.last_stats["edges"].items()}])
    text = json.dumps(record, sort_keys=True)
    return len(record), hashlib.sha256(text.encode()).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["troll", "rotator", "wizard"])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    print(f"playtable from {playtable.__file__}")
    print(f"{'game':8} {'options':28} {'positions':>9} {'digest':>16}")
    for game_id in args.games:
        for options in OPTIONS:
            count, code = digest(game_id, options, args.positions, args.iterations)
            label = ",".join(f"{k}={v}" for k, v in options.items()) or "default"
            print(f"{game_id:8} {label:28} {count:9d} {code:>16}", flush=True)


if __name__ == "__main__":
    main()
