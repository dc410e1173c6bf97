"""Throws simulated to rest per second (target: at least 50).

    .venv/bin/python benchmarks/stardice_throws.py [--battles 10] [--bare 200]

1. match throws: `state.apply(throw)` in random battles (tables filling from 0 to 15 dice):
   pymunk to rest, the formation engine watching every 0.1 s of simulated time, faces drawn;
2. bare physics: `physics.simulate` of a d20 thrown into a table of 12 resting dice.
"""

from __future__ import annotations

import argparse
import math
import time

from playtable.core.chance import Chance
from playtable.core.params import params_from_dict
from playtable.games.stardice.actions import Throw
from playtable.games.stardice.game import GAME
from playtable.games.stardice.physics import Launch, Piece, simulate


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=10)
    ap.add_argument("--bare", type=int, default=200)
    args = ap.parse_args()
    params = params_from_dict(GAME.params_type, {"war_target": 0})
    rng = Chance(3)
    throws = 0
    t_match = 0.0
    for b in range(args.battles):
        state = GAME.new_state(params, b)
        while not state.is_terminal:
            if state.phase == "call":
                state.apply(state.legal_actions()[0])
                continue
            action = state.sample_actions(rng, 1)[0]
            t0 = time.perf_counter()
            state.apply(action)
            t_match += time.perf_counter() - t0
            throws += isinstance(action, Throw)

    state = GAME.new_state(params, 99)
    while not state.is_terminal and len(state.table) < 12:
        a = state.sample_actions(rng, 1)[0] if state.phase != "call" else state.legal_actions()[0]
        state.apply(a)
    table = list(state.table.values())
    steps = 0
    sim_time = 0.0
    t0 = time.perf_counter()
    for i in range(args.bare):
        heading = math.radians(60 + (i % 60))
        r = simulate(table, Launch(Piece("F.x", "d20", 0.5, -0.03), 1.3 * math.cos(heading),
                                   1.3 * math.sin(heading), 2.0))
        steps += r.steps
        sim_time += r.time
    t_bare = time.perf_counter() - t0
    print(f"{'what':48} {'throws':>7} {'seconds':>8} {'throws/s':>9}")
    print(f"{'match throws (physics + engine + faces)':48} {throws:7d} {t_match:8.3f} "
          f"{throws / t_match:9.1f}")
    print(f"{f'bare physics, {len(table)} dice on the table':48} {args.bare:7d} {t_bare:8.3f} "
          f"{args.bare / t_bare:9.1f}")
    print(f"bare physics: {steps / args.bare:.0f} steps and {sim_time / args.bare:.2f} s "
          f"simulated per throw, {t_bare / steps * 1e6:.1f} us per step")


if __name__ == "__main__":
    main()
