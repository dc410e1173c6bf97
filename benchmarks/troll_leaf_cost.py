"""What each troll search leaf costs: CPU microseconds a position, and positions a depth-2 game.

    .venv/bin/python benchmarks/troll_leaf_cost.py [--deals 60] [--repeat 5] [--games 3]

Every leaf of `leaves.LEAVES` rates the same positions: every distinct turn ending of the first
turn of deals 0..`--deals`-1, `--repeat` times over (CPU time, `time.process_time`). Then the
depth-2 search (`expectimax`) plays `--games` deals on `leaf=rows` while the leaf counts its calls:
how many positions a game costs, so that a leaf's price a game is about the two numbers' product.
"""

from __future__ import annotations

import argparse
import time

from playtable.core.chance import Chance
from playtable.core.playout import play_out
from playtable.games.troll import leaves
from playtable.games.troll.game import GAME
from playtable.games.troll.rules import TrollState
from playtable.games.troll.search import ExpectimaxTroll, turn_ends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    positions = [after for seed in range(args.deals) for _, after in turn_ends(GAME.new_state(seed=seed))]
    print(f"{len(positions)} turn endings of deals 0..{args.deals - 1}, rated {args.repeat} times each\n")
    print(f"{'leaf':12} {'us a position':>14}")
    for name, value in leaves.LEAVES.items():
        value(positions[0])  # a leaf that loads weights does it once, outside the timing
        start = time.process_time()
        for _ in range(args.repeat):
            for state in positions:
                value(state)
        print(f"{name:12} {(time.process_time() - start) / (args.repeat * len(positions)) * 1e6:14.1f}")

    calls = [0]
    rows = leaves.LEAVES["rows"]

    def counted(state: TrollState) -> float:
        calls[0] += 1
        return rows(state)

    leaves.LEAVES["rows"] = counted
    try:
        print(f"\n{'deal':>4} {'positions rated by expectimax:leaf=rows':>40} {'CPU s':>7}")
        for seed in range(args.games):
            calls[0], start = 0, time.process_time()
            play_out(GAME.new_state(seed=seed), [ExpectimaxTroll(leaf="rows")], Chance(seed))
            print(f"{seed:4} {calls[0]:40} {time.process_time() - start:7.2f}")
    finally:
        leaves.LEAVES["rows"] = rows


if __name__ == "__main__":
    main()
