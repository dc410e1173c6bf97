"""Engine speed: troll random-play steps per second, beside OpenSpiel's Klondike from Python.

    .venv/bin/python benchmarks/engine_speed.py [--seconds 5] [--slice 0.5]
    valgrind --tool=callgrind .venv/bin/python benchmarks/engine_speed.py --games 2000

`--games N` plays N troll games the same way (seeds 0 .. N-1) and prints the steps, no timing
and no OpenSpiel: under valgrind's callgrind, whose instruction count does not depend on the
machine's load, the same run with `--games 0` is the cost of starting Python and importing.

Both engines are driven the same way from one Python loop: ask the legal actions, pick one with
`random.Random`, apply it, start a new game at the end. A troll step is one troll action (the
awakening's card and die are drawn inside `apply`); an OpenSpiel step is one `apply_action`,
chance outcomes (the deal, turned cards) included, so OpenSpiel gets every step it makes
counted. Time is this process's CPU time, so other work on the machine disturbs it less; the
two engines take turns in slices of `--slice` CPU seconds until each has had `--seconds`, so a
change in the machine's load between them weighs on both alike. OpenSpiel is optional (`pip
install open_spiel` into the venv; it is not a playtable dependency): without it only the troll
rows print. Its Klondike is registered as "solitaire". The troll row says whether the engine's
kernel runs compiled (mypyc, as the install builds it where a C compiler is) or as Python
source.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playtable.games.troll import kernel
from playtable.games.troll.game import GAME as TROLL


@dataclass
class Tally:
    steps: int = 0
    decisions: int = 0
    games: int = 0
    cpu: float = 0.0
    rng: random.Random = field(default_factory=lambda: random.Random(0))


def troll_slice(tally: Tally, seconds: float, params: Any = None) -> None:
    """Random troll games (seeds counting on from the tally's games) for about `seconds`."""
    rng, steps, games = tally.rng, 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = TROLL.new_state(params, tally.games + games)
        games += 1
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    tally.cpu += time.process_time() - start
    tally.steps += steps
    tally.decisions += steps
    tally.games += games


def troll_games(games: int) -> int:
    """The steps of random troll games with seeds 0 .. games-1, played as `troll_slice` does."""
    rng, steps = random.Random(0), 0
    for seed in range(games):
        state = TROLL.new_state(None, seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return steps


def openspiel_slice() -> Callable[[Tally, float], None] | None:
    """A function playing random Klondike games for a slice, or None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("solitaire")

    def play(tally: Tally, seconds: float) -> None:
        rng, steps, decisions, games = tally.rng, 0, 0, 0
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
        tally.cpu += time.process_time() - start
        tally.steps += steps
        tally.decisions += decisions
        tally.games += games

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per engine")
    parser.add_argument("--slice", type=float, default=0.5, help="CPU seconds per turn of one engine")
    parser.add_argument("--games", type=int, help="only play this many troll games and count the steps")
    args = parser.parse_args()
    if args.games is not None:
        print(f"troll steps in {args.games:,} games: {troll_games(args.games):,}")
        return
    spiel_play = openspiel_slice()
    troll, spiel = Tally(), Tally()
    while troll.cpu < args.seconds:
        troll_slice(troll, min(args.slice, args.seconds - troll.cpu))
        if spiel_play is not None:
            spiel_play(spiel, min(args.slice, args.seconds - spiel.cpu))
    kind = "compiled kernel (mypyc)" if kernel.compiled() else "pure Python"
    troll_rate = troll.steps / troll.cpu
    print("| engine | steps/s | games played |")
    print("|---|---|---|")
    print(f"| troll (default rules), random play, {kind} | {troll_rate:,.0f} | {troll.games:,} |")
    if spiel_play is None:
        print("\nOpenSpiel is not installed: pip install open_spiel (into the venv) to compare.")
        return
    rate = spiel.steps / spiel.cpu
    print(f"| OpenSpiel Klondike (C++ via pyspiel), every apply_action | {rate:,.0f} | {spiel.games:,} |")
    print(f"| ... of which the player's decisions | {spiel.decisions / spiel.cpu:,.0f} | |")
    print(f"\nratio troll / OpenSpiel Klondike: {troll_rate / rate:.2f}")


if __name__ == "__main__":
    main()
