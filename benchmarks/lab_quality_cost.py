"""What the game-quality columns cost a simulation: the same games played with the
game's value taken before every decision (`Arm.quality`, the default) and without, in one
process, alternating the two in rounds so that the machine's load falls on both alike.

    .venv/bin/python benchmarks/lab_quality_cost.py [--rounds 3] [troll:random:4000 ...]

Each GAME:AGENT:GAMES plays seeds 0..GAMES-1 per round and mode; prints CPU seconds a game
(`time.process_time`, medians over the rounds) and the ratio. The rows are checked equal but
for the quality columns (taking the values never changes a game)."""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

from playtable.lab import quality
from playtable.lab.runner import Arm, play_game, resolve_game

DEFAULT = ["troll:random:4000", "troll:heuristic:400", "rotator:random:200", "wizard:random:40",
           "wizard:heuristic:20", "stardice:random-thrower:6"]


def _play(arm: Arm, games: int) -> tuple[float, list[dict]]:
    start = time.process_time()
    rows = [play_game(arm, seed) for seed in range(games)]
    return time.process_time() - start, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=DEFAULT, metavar="GAME:AGENT:GAMES")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variant", default=None, help="a named variant for every game that has it")
    args = parser.parse_args()
    print("| game | agent | games | CPU ms a game, no values | with values | ratio |")
    print("|---|---|---|---|---|---|")
    for case in args.cases:
        game_ref, agent, games = case.rsplit(":", 2)
        game = resolve_game(game_ref)
        params = game.params_type()
        if args.variant and args.variant in game.variants:
            from playtable.core.params import resolve_params

            params = resolve_params(game.params_type, game.variants, args.variant)
        arm = Arm.build(game_ref, params, [agent])
        plain = dataclasses.replace(arm, quality=False)
        n = int(games)
        on, off = [], []
        for _ in range(args.rounds):
            seconds, without = _play(plain, n)
            off.append(seconds)
            seconds, with_values = _play(arm, n)
            on.append(seconds)
            for a, b in zip(with_values, without, strict=True):
                a = {k: v for k, v in a.items() if k not in quality.COLUMNS}
                b = {k: v for k, v in b.items() if k not in quality.COLUMNS}
                assert a == b, "taking the values changed a game"
        a, b = statistics.median(off) / n * 1000, statistics.median(on) / n * 1000
        print(f"| {game.id} | {agent} | {n} | {a:.3f} | {b:.3f} | {b / a:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
