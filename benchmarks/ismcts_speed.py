"""ISMCTS iterations per second, per game, on the same positions every run.

    .venv/bin/python benchmarks/ismcts_speed.py [--games troll rotator] [--iterations 2000]
        [--positions 6] [--repeats 3]

Positions are reached by random play from seeds 0.. (a few steps in); each gets one decision of
`--iterations` iterations, repeated `--repeats` times and timed in this process's CPU seconds
(other work on the machine disturbs that less than wall time); the table gives the best rate of
the repeats and the median. To compare with an
older version of the code, run the same command with `PYTHONPATH=<that version>/src` (the
packages there are imported before the installed ones).
"""

from __future__ import annotations

import argparse
import statistics
import time

import playtable
from playtable.agents.ismcts import IsmctsAgent
from playtable.core.chance import Chance
from playtable.core.protocol import State
from playtable.core.registry import get_game


def positions(game_id: str, count: int) -> list[State]:
    game = get_game(game_id)
    out = []
    for seed in range(count):
        state = game.new_state(game.default_params(), seed)
        rng = Chance(seed)
        for _ in range(seed % 5):
            if state.is_terminal:
                break
            actions = state.sample_actions(rng, 64)
            state.apply(actions[rng.below(len(actions))])
        if not state.is_terminal and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def rate(game_id: str, states: list[State], iterations: int) -> float:
    game = get_game(game_id)
    done, start = 0, time.process_time()
    for i, state in enumerate(states):
        agent = IsmctsAgent(iterations=iterations)
        agent.bind(game)
        agent.choose(state.clone(), Chance(i))
        done += agent.last_stats["iterations"]
    return done / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["troll"])
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"playtable from {playtable.__file__}")
    print(f"{'game':10} {'positions':>9} {'best it/s':>10} {'median it/s':>12}")
    for game_id in args.games:
        states = positions(game_id, args.positions)
        rates = [rate(game_id, states, args.iterations) for _ in range(args.repeats)]
        median = statistics.median(rates)
        print(f"{game_id:10} {len(states):9d} {max(rates):10.0f} {median:12.0f}", flush=True)


if __name__ == "__main__":
    main()
