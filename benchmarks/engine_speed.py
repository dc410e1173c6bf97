"""Engine speed: troll random-play steps per second, beside OpenSpiel's Klondike from Python.

    .venv/bin/python benchmarks/engine_speed.py [--seconds 5]

Both engines are driven the same way from one Python loop: ask the legal actions, pick one with
`random.Random`, apply it, start a new game at the end. A troll step is one troll action (the
awakening's card and die are drawn inside `apply`); an OpenSpiel step is one `apply_action`,
chance outcomes (the deal, turned cards) included, so OpenSpiel gets every step it makes
counted. Time is this process's CPU time, so other work on the machine disturbs it less.
OpenSpiel is optional (`pip install open_spiel` into the venv; it is not a playtable
dependency): without it only the troll rows print. Its Klondike is registered as "solitaire".
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from playtable.games.troll.game import GAME as TROLL


def troll_rate(seconds: float, params: Any = None) -> tuple[float, int]:
    rng = random.Random(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = TROLL.new_state(params, games)
        games += 1
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.process_time() - start), games


def openspiel_rate(seconds: float) -> tuple[float, float, int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("solitaire")
    rng = random.Random(0)
    steps = decisions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        games += 1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
            steps += 1
    elapsed = time.process_time() - start
    return steps / elapsed, decisions / elapsed, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per engine")
    args = parser.parse_args()
    troll, troll_games = troll_rate(args.seconds)
    print("| engine | steps/s | games played |")
    print("|---|---|---|")
    print(f"| troll (default rules), random play | {troll:,.0f} | {troll_games:,} |")
    spiel = openspiel_rate(args.seconds)
    if spiel is None:
        print("\nOpenSpiel is not installed: pip install open_spiel (into the venv) to compare.")
        return
    rate, decisions, games = spiel
    print(f"| OpenSpiel Klondike (C++ via pyspiel), every apply_action | {rate:,.0f} | {games:,} |")
    print(f"| ... of which the player's decisions | {decisions:,.0f} | |")
    print(f"\nratio troll / OpenSpiel Klondike: {troll / rate:.2f}")


if __name__ == "__main__":
    main()
