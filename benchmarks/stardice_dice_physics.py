"""Star Dice (seed 002, It. 1-3 Q4: "Do the physical properties of the dice affect strategy?"):
what each die type does on the simulated table (`physics.simulate`, the game's own table, throw
noise and tumble speed). The testers said: the smaller dice "position more predictably than the
larger dice" (It. 1), "the bigger dice are better at knocking other dice out of a shape" (It. 2),
"the d4 is hard to knock because it won't roll, but the d20 is easy to knock because it rolls
well" and "the d20 is naturally the most fragile piece on the board" (It. 3, Andy). Prints the
markdown table in src/playtable/games/stardice/RULES.md ("The dice's physical properties").

    .venv/bin/python benchmarks/stardice_dice_physics.py [-n THROWS] [--seed S]

Every throw is a roll (the game's roll noise: heading ±6°, speed ±12%, triangular) from the left
frame, along the table's middle line, spin 0:
- *alone*: a die rolled to stop at the table's centre, 53 cm away; how far from that point it
  rests (median and 90th percentile);
- *hit by a d6*: a die of the type rests 9 cm in from the frame, a d6 is rolled at it to stop
  9 cm past it; of the throws that touch it, how far it is pushed (median), how often it tumbles
  (moves faster than `tumble_speed`: a new face) and how often it is knocked off the table;
- *thrown at a d6*: the same with the roles swapped: a die of the type rolled at a resting d6,
  aimed to stop 9 cm past it (a die that rolls well needs less speed for that), and at one
  speed for every type, 1 m/s (the heavier die then carries more momentum).
Distances in cm on the Surface's 62 cm wide glass (one table width).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable

from playtable.core.params import params_from_dict
from playtable.games.stardice.game import GAME
from playtable.games.stardice.physics import (
    PIECE_TYPES,
    G,
    Launch,
    PhysicsParams,
    Piece,
    simulate,
    speed_for_distance,
)

CM = 62.0
"""Centimetres in one table width (the Surface's glass, `physics.G`)."""
KINDS = ("d4", "d6", "d8", "d10", "d12", "d20", "borg")
START = (-0.03, 0.375)
"""Where every roll starts: on the left frame, on the table's middle line."""
TARGET = (0.15, 0.375)
"""Where a resting die waits to be hit: 9 cm in from the frame's inner edge."""
PAST = 0.15
"""A roll at a resting die is aimed to stop this far (table widths) past it."""


def noisy_launch(piece: Piece, heading: float, speed: float, rng: random.Random,
                 dir_noise: float, speed_noise: float) -> Launch:
    """A roll as the game throws it (`match._noisy`: triangular noise, the mean of two uniforms)."""
    d = (rng.uniform(-1, 1) + rng.uniform(-1, 1)) / 2 * dir_noise
    s = (rng.uniform(-1, 1) + rng.uniform(-1, 1)) / 2 * speed_noise
    rad = math.radians(heading + d)
    v = max(0.0, speed * (1.0 + s))
    return Launch(piece, v * math.cos(rad), v * math.sin(rad), 0.0)


def alone(kind: str, throws: int, rng: random.Random, roll: Callable[..., Launch],
          physics: PhysicsParams) -> tuple[float, float]:
    """Median and 90th percentile of a lone roll's distance (cm) from the point it was aimed at."""
    aim = (0.5, 0.375)
    speed = speed_for_distance(kind, aim[0] - START[0])
    misses = []
    for _ in range(throws):
        piece = Piece("x", kind, *START)
        result = simulate([], roll(piece, 0.0, speed, rng), physics)
        if "x" in result.pieces:
            rest = result.pieces["x"]
            misses.append(math.hypot(rest.x - aim[0], rest.y - aim[1]) * CM)
    misses.sort()
    return statistics.median(misses), misses[int(0.9 * (len(misses) - 1))]


def knocks(thrown: str, target: str, throws: int, rng: random.Random, roll: Callable[..., Launch],
           physics: PhysicsParams, tumble_speed: float,
           speed: float | None = None) -> tuple[float, float, float, float]:
    """A `thrown` die rolled at a resting `target` (at `speed`, or aimed to stop `PAST` beyond
    it): the share of throws that touch it, and of those the target's median push (cm), the
    share that tumble and the share knocked off."""
    if speed is None:
        speed = speed_for_distance(thrown, TARGET[0] + PAST - START[0])
    pushes: list[float] = []
    tumbled = off = 0
    for _ in range(throws):
        resting = Piece("t", target, *TARGET)
        result = simulate([resting], roll(Piece("x", thrown, *START), 0.0, speed, rng), physics)
        if "t" not in result.moved and "t" not in result.off_table:
            continue
        if "t" in result.off_table:
            off += 1
            pushes.append(math.inf)
        else:
            rest = result.pieces["t"]
            pushes.append(math.hypot(rest.x - TARGET[0], rest.y - TARGET[1]) * CM)
        tumbled += result.max_speed.get("t", 0.0) > tumble_speed
    hits = len(pushes)
    if not hits:
        return 0.0, math.nan, math.nan, math.nan
    return hits / throws, statistics.median(pushes), tumbled / hits, off / hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--throws", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    params = params_from_dict(GAME.params_type, {})
    physics = GAME.new_state(params, args.seed).physics()

    def roll(piece: Piece, heading: float, speed: float, rng: random.Random) -> Launch:
        return noisy_launch(piece, heading, speed, rng, params.roll_dir_noise_deg, params.roll_speed_noise)

    metre = 100 / CM  # 1 m/s in table widths a second
    print("| die | radius cm | mass | friction μ | a 1 m/s roll stops after, cm | alone: off its aim, "
          "median / 90th pct cm | hit by a d6 aimed past it: pushed cm (tumbled, off) | thrown at a d6 "
          "aimed past it: d6 pushed cm (tumbled, off) | thrown at a d6 at 1 m/s: d6 pushed cm "
          "(tumbled, off) |")
    print("|---" * 9 + "|")
    for kind in KINDS:
        t = PIECE_TYPES[kind]
        rng = random.Random(f"{args.seed}:{kind}")
        stops = metre * metre / (2 * t.mu * G) * CM
        median, p90 = alone(kind, args.throws, rng, roll, physics)
        cells = [f"{t.radius * CM:.2f}", f"{t.mass:g}", f"{t.mu:g}", f"{stops:.0f}",
                 f"{median:.1f} / {p90:.1f}"]
        for thrown, target, speed in (("d6", kind, None), (kind, "d6", None), (kind, "d6", metre)):
            touched, pushed, tumbled, off = knocks(thrown, target, args.throws, rng, roll, physics,
                                                   params.tumble_speed, speed)
            cells.append(f"{pushed:.1f} ({100 * tumbled:.0f}%, {100 * off:.0f}%)"
                         + ("" if touched == 1 else f", touched {100 * touched:.0f}%"))
        print(f"| {kind} | " + " | ".join(cells) + " |", flush=True)

if __name__ == "__main__":
    main()
