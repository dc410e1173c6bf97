"""Bot-versus-bot battles per minute (one battle of the Final Rules, war_target=0).

    .venv/bin/python benchmarks/stardice_battles.py [--battles 20]
"""

from __future__ import annotations

import argparse
import time

from playtable.core.chance import Chance
from playtable.core.params import params_from_dict
from playtable.core.playout import play_out
from playtable.games.stardice.bots import RandomThrower, SearchThrower
from playtable.games.stardice.game import GAME


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=20)
    args = ap.parse_args()
    params = params_from_dict(GAME.params_type, {"war_target": 0})
    pairings = [
        ("random-thrower vs random-thrower", lambda: [RandomThrower(), RandomThrower()]),
        ("search vs random-thrower", lambda: [SearchThrower(), RandomThrower()]),
        ("random-thrower vs search", lambda: [RandomThrower(), SearchThrower()]),
        ("search vs search", lambda: [SearchThrower(), SearchThrower()]),
    ]
    print(f"{'pairing':34} {'battles':>7} {'seconds':>8} {'per min':>8} {'F wins':>7} "
          f"{'K wins':>7} {'draws':>6} {'mean pts F-K':>13}")
    for name, make in pairings:
        wins = [0, 0, 0]
        pts = [0, 0]
        t0 = time.perf_counter()
        for b in range(args.battles):
            state = GAME.new_state(params, 1000 + b)
            play_out(state, make(), Chance(b))
            r = state.returns()
            wins[0 if r[0] == 1 else 1 if r[1] == 1 else 2] += 1
            pts[0] += state.battle_points[-1][0]
            pts[1] += state.battle_points[-1][1]
        dt = time.perf_counter() - t0
        n = args.battles
        print(f"{name:34} {n:7d} {dt:8.2f} {n / dt * 60:8.0f} {wins[0]:7d} {wins[1]:7d} "
              f"{wins[2]:6d} {pts[0] / n:6.1f}-{pts[1] / n:<6.1f}")


if __name__ == "__main__":
    main()
