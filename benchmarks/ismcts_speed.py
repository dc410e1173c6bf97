"""ISMCTS iterations per second, per game, on the same positions every run, against the
original algorithm measured in the same process.

    .venv/bin/python benchmarks/ismcts_speed.py [--games troll rotator] [--iterations 2000]
        [--positions 6] [--repeats 3] [--no-baseline] [--profile 25] [--param players=5]

Positions are reached by random play from seeds 0.. (a few steps in); each gets one decision of
`--iterations` iterations, timed in this process's CPU seconds (other work on the machine
disturbs that less than wall time). In each repeat the original algorithm and today's
`IsmctsAgent` take turns, position by position, so that the ratio in a row is measured under
the same load.

The original algorithm (the baseline, 7,720 it/s) is the agent as committed in
`ORIGINAL` (it keys information sets by the observation as canonical JSON text), read from git
and run verbatim on today's engine, with the troll's hidden cards resampled as they were then
(`original_determinize`: a full copy, the unseen cards found and sorted afresh, a Fisher-Yates
shuffle drawing from the SplitMix stream once per card). Without git (or with --no-baseline)
only today's rate is printed. `--profile N` prints instead where today's agent spends its time
on those positions (cProfile, the N functions with the most time of their own; the profiler's
cost per call inflates the small, often-called ones).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import playtable
from playtable.agents.ismcts import IsmctsAgent
from playtable.core import splitmix
from playtable.core.chance import Chance
from playtable.core.params import params_from_dict, split_assignments
from playtable.core.protocol import State
from playtable.core.registry import get_game
from playtable.games.troll.rules import TrollState

ORIGINAL = "02d35d1"
"""The last commit of agents/ismcts.py before the information-set key and the resampling were
made faster (6495ff1): the code the speed work measured."""


def positions(game_id: str, count: int, params: dict[str, str] | None = None) -> list[State]:
    game = get_game(game_id)
    the_params = params_from_dict(game.params_type, params) if params else game.default_params()
    out = []
    for seed in range(count):
        state = game.new_state(the_params, seed)
        rng = Chance(seed)
        for _ in range(seed % 5):
            if state.is_terminal:
                break
            actions = state.sample_actions(rng, 64)
            state.apply(actions[rng.below(len(actions))])
        if not state.is_terminal and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def original_determinize(state: TrollState, rng: Chance) -> TrollState:
    """`TrollState.determinize` as of ORIGINAL (rules.py there), on today's state fields."""
    other = state.clone()
    other.chance = rng.fork(rng.next_u64())
    places: list[tuple[list[int], int]] = []
    for stack in other.stacks:
        places.extend((stack, i) for i, c in enumerate(stack) if c not in state.seen)
    places.extend((other.deck, i) for i in range(len(other.deck)))
    unseen = sorted(lst[i] for lst, i in places)
    rng.shuffle(unseen)
    for (lst, i), card in zip(places, unseen, strict=True):
        lst[i] = card
    other._legal = None
    return other


def original_agent_type() -> Any:
    """The IsmctsAgent class of ORIGINAL, or None without git."""
    source = None
    # this checkout's history, or the working directory's (a tree exported to compare with)
    for where in (Path(__file__).resolve().parent.parent, Path.cwd()):
        try:
            source = subprocess.run(["git", "show", f"{ORIGINAL}:src/playtable/agents/ismcts.py"],
                                    cwd=where, capture_output=True, text=True, check=True,
                                    timeout=30).stdout
            break
        except (OSError, subprocess.SubprocessError):
            continue
    if source is None:
        return None
    module = types.ModuleType("_ismcts_original")
    sys.modules[module.__name__] = module  # dataclasses look their module up while decorating
    exec(compile(source, f"{ORIGINAL}:agents/ismcts.py", "exec"), module.__dict__)
    return module.IsmctsAgent


def as_original(state: State) -> State:
    """A copy of `state` whose `info_key` is the protocol's default (JSON text) and, for the
    troll, whose `determinize` is the original full resampling; its moves are played by the
    same engine. A game without a key of its own is used as it is."""
    engine = type(state)
    overrides: dict[str, Any] = {"__slots__": (), "info_key": State.info_key}
    if isinstance(state, TrollState):
        overrides["determinize"] = lambda self, seat, rng: original_determinize(self, rng)
    elif engine.info_key is State.info_key:
        return state
    original = type(f"Original{engine.__name__}", (engine,), overrides)
    copy = state.clone()
    copy.__class__ = original
    return copy


def measure(game_id: str, runs: list[tuple[Any, list[State]]], iterations: int) -> list[float]:
    """Iterations per CPU second of each (agent type, positions) in `runs`, the agents taking
    turns position by position so that a change in the machine's load touches them alike."""
    game = get_game(game_id)
    done = [0] * len(runs)
    spent = [0.0] * len(runs)
    for i in range(len(runs[0][1])):
        for k, (agent_type, states) in enumerate(runs):
            agent = agent_type(iterations=iterations)
            agent.bind(game)
            state = states[i].clone()
            start = time.process_time()
            agent.choose(state, Chance(i))
            spent[k] += time.process_time() - start
            done[k] += agent.last_stats["iterations"]
    return [d / s for d, s in zip(done, spent, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["troll"])
    parser.add_argument("--param", action="append", default=[],
                        help="KEY=VALUE, a game parameter (e.g. players=5), for every game named")
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-baseline", action="store_true", help="time today's agent only")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="profile today's agent and print its N costliest functions")
    args = parser.parse_args()
    params = split_assignments(args.param)
    if args.profile:
        for game_id in args.games:
            states = positions(game_id, args.positions, params)
            profiler = cProfile.Profile()
            profiler.runcall(measure, game_id, [(IsmctsAgent, states)], args.iterations)
            print(f"{game_id}: {len(states)} decisions of {args.iterations} iterations")
            pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)
        return
    original = None if args.no_baseline else original_agent_type()
    print(f"playtable from {playtable.__file__}; load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores; baseline: {ORIGINAL if original else 'none'}; "
          f"compiled SplitMix (make fast): {'yes' if splitmix.compiled() else 'no'}")
    print(f"{'game':10} {'positions':>9} {'repeat':>6} {'original it/s':>13} {'today it/s':>10} "
          f"{'ratio':>6}")
    for game_id in args.games:
        states = positions(game_id, args.positions, params)
        old_states = [as_original(s) for s in states]
        ratios, rates = [], []
        for k in range(args.repeats):
            runs = [(original, old_states)] if original else []
            *old_rate, new = measure(game_id, [*runs, (IsmctsAgent, states)], args.iterations)
            old = old_rate[0] if old_rate else 0.0
            rates.append(new)
            ratio = new / old if old else 0.0
            ratios.append(ratio)
            print(f"{game_id:10} {len(states):9d} {k + 1:6d} {old:13.0f} {new:10.0f} {ratio:6.2f}",
                  flush=True)
        print(f"{game_id:10} {len(states):9d} {'median':>6} {'':13} {statistics.median(rates):10.0f} "
              f"{statistics.median(ratios):6.2f}", flush=True)


if __name__ == "__main__":
    main()
