"""Troll engine, before and after: random-play steps per CPU second and the lab's games per CPU
second (what `playtable sim troll` runs in each worker), for several source trees in turn.

    .venv/bin/python benchmarks/troll_engine_ab.py --tree before=/tmp/old/src --tree now=src \
        [--rounds 3] [--seconds 3] [--games 3000]

Each tree is measured in its own interpreter (`PYTHONPATH=<tree>`), the trees taking turns
round after round so that a change of the machine's load weighs on all alike; the table gives
every round. A tree holding `make fast`'s compiled modules runs them; `git archive REV | tar -x
-C DIR` gives an older version to compare with.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any


def child(seconds: float, games: int) -> dict[str, Any]:
    """Measured inside the tree under test."""
    import random

    from playtable.games.troll.game import GAME
    from playtable.lab.runner import Arm, RunOptions, run_tasks

    rng, steps, played = random.Random(0), 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = GAME.new_state(None, played)
        played += 1
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    out: dict[str, Any] = {"steps/s": steps / (time.process_time() - start)}
    for agent, n in (("random", games), ("heuristic", max(1, games // 10))):
        arm = Arm.build("troll", GAME.default_params(), [agent])
        start = time.process_time()
        rows = run_tasks([(arm, s) for s in range(n)], RunOptions(workers=1))
        out[f"sim {agent} games/s"] = len(rows) / (time.process_time() - start)
    try:
        from playtable.games.troll import kernel

        out["kernel"] = "compiled" if kernel.compiled() else "Python"
    except ImportError:
        out["kernel"] = "none"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", required=True, help="LABEL=PATH of a src tree")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of random play")
    parser.add_argument("--games", type=int, default=3000, help="lab games with the random agent")
    parser.add_argument("--child", nargs=2, type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], int(args.child[1]))))
        return
    trees = [t.split("=", 1) for t in args.tree]
    columns = ["steps/s", "sim random games/s", "sim heuristic games/s"]
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    print("| round | tree | kernel | " + " | ".join(columns) + " |")
    print("|---|---|---|" + "---|" * len(columns))
    for round_ in range(1, args.rounds + 1):
        for label, path in trees:
            env = dict(os.environ, PYTHONPATH=os.path.abspath(path))
            done = subprocess.run([sys.executable, __file__, "--tree", "x=x", "--child",
                                   str(args.seconds), str(args.games)],
                                  env=env, capture_output=True, text=True, check=True)
            row = json.loads(done.stdout.strip().splitlines()[-1])
            cells = " | ".join(f"{row[c]:,.0f}" for c in columns)
            print(f"| {round_} | {label} | {row['kernel']} | {cells} |", flush=True)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
