"""What a remote client can make the server do at the extremes it may set: the time of a new
state and of one bot move, per game, at the dearest parameters and agent options that the
declared bounds allow (`core.params.check_remote_values`, `agents.check_remote_agent_spec`).

    .venv/bin/python benchmarks/remote_bounds.py [--games troll wizard] [--seeds 2] [--moves 3]

Every setting below is first checked as a web request's would be, so a bound narrowed later
drops it here with a clear error rather than measuring what no client can ask for. Each row is
the worst wall time over `--seeds` new states and, from each, `--moves` bot moves a few random
steps into the game. The aim: a new state under about 2 s and a bot move under about
10 s on the 2-core machine; rows over it are marked. Rerun after changing a bound and quote the
figures in the bound's comment.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from playtable.agents import check_remote_agent_spec, make_agent
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.params import check_remote_values, params_from_dict
from playtable.core.registry import get_game

NEW_STATE_AIM = 2.0
MOVE_AIM = 10.0

DEAREST_PARAMS: dict[str, list[dict[str, Any]]] = {
    "troll": [
        {},  # the seed's bridge: the searches' dearest positions come early in its deals
        {"extra_per_slot": 2},  # 24 bricks a row: the longest deal
        {"extra_end_bricks": 3, "troll_starts_with_card": True, "club_from_start": True,
         "diamond_from_start": True, "reusable_ace_of_diamonds": True},  # every toy at once
    ],
    "rotator": [
        {"level": "hard", "boost_total": 20, "max_drill": 5, "turn_limit": 1000},
        # a level these dials never reach: every one of the generator's boards is solved
        {"level": "easy", "boost_total": 0, "max_drill": 1},
    ],
    "stardice": [
        {"dice": ["d20"] * 12, "connect_range": 0.75, "max_rethrows": 10},
        {"dice": ["d4"] * 12, "torpedoes": 6, "slide_d6": False, "torpedo_rule": "iter8"},
    ],
    "wizard": [
        {"players": 5, **{f"cards_{k}": 60 for k in (
            "goblin", "rat_swarm", "goblin_pack", "orc", "troll", "ogre", "dragon", "spike_trap",
            "pit_traps", "frost_bolt", "switcheroo", "whirlwind", "fireball")},
         **{f"tiles_{k}": 60 for k in (
             "empty_room", "library", "shrine", "altar", "vault", "ley_line", "ransacked_study",
             "drained_well", "collapsed_hall", "mixed_blessing")}},
        {"players": 5, "rules": "alpha"},
    ],
}

GENERIC = ["greedy:samples=16,candidates=64", "ismcts:iterations=2000,width=128"]
DEAREST_AGENTS: dict[str, list[str]] = {
    "troll": ["expectimax:depth=2,leaf=network", "strongest",
              "hindsight:samples=32,width=8,late=52,nodes=200,depth=2,leaf=network",
              "rollout:samples=64,width=8,horizon=4,leaf=network",
              "thirdturn:width=4,outer_samples=16,inner_width=3,samples=16,leaf=network", *GENERIC],
    "rotator": ["solver", *GENERIC],
    "stardice": ["search-strong", *GENERIC],
    "wizard": ["heuristic", *GENERIC],
}


def measure(game_id: str, values: dict[str, Any], spec: str, seeds: int,
            moves: int) -> tuple[float, float, str]:
    """The worst new-state and bot-move times, and the game's refusal if it made no state (the
    time until it refused is the new state's)."""
    game = get_game(game_id)
    check_remote_values(game.params_type, values)
    check_remote_agent_spec(game, spec)
    params = params_from_dict(game.params_type, values)
    new_worst = move_worst = 0.0
    for seed in range(seeds):
        start = time.perf_counter()
        try:
            state = game.new_state(params, seed)
        except BadParameter as err:
            return time.perf_counter() - start, 0.0, str(err)
        new_worst = max(new_worst, time.perf_counter() - start)
        rng = Chance(seed)
        for _ in range(4):  # a few random steps in, past the opening's forced choices
            if not state.is_terminal:
                state.apply(rng.choice(state.sample_actions(rng, 8)))
        agent = make_agent(game, spec)
        for k in range(moves):
            if state.is_terminal:
                break
            start = time.perf_counter()
            action = agent.choose(state, Chance(k))
            move_worst = max(move_worst, time.perf_counter() - start)
            state.apply(action)
    return new_worst, move_worst, ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(DEAREST_PARAMS))
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--moves", type=int, default=3)
    args = ap.parse_args()
    print(f"{'game':9} {'parameters':60} {'agent':62} {'new s':>6} {'move s':>7}")
    for game_id in args.games:
        for values in DEAREST_PARAMS[game_id]:
            shown = ",".join(f"{k}={v if not isinstance(v, list) else f'{len(v)}x{v[0]}'}"
                             for k, v in values.items())
            if len(shown) > 60:
                shown = shown[:57] + "..."
            for spec in DEAREST_AGENTS[game_id]:
                new, move, refusal = measure(game_id, values, spec, args.seeds, args.moves)
                flag = (" new>aim" if new > NEW_STATE_AIM else "") + (" move>aim" if move > MOVE_AIM else "")
                if refusal:
                    flag += f" (refused: {refusal[:50]})"
                print(f"{game_id:9} {shown:60} {spec:62} {new:6.2f} {move:7.2f}{flag}", flush=True)
                if refusal:
                    break  # every agent meets the same refusal


if __name__ == "__main__":
    main()
