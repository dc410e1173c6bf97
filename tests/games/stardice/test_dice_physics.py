"""The dice's physical properties on the simulated table (seed 002, It. 1-3 Q4; RULES.md "The
dice's physical properties"), as `benchmarks/stardice_dice_physics.py` measures them: the d4 is
the hardest die to knock and the d20 the easiest (It. 3), a hard knock is stronger with a bigger
die (It. 2), and a lone die's type does not change how far from its aim it rests."""

from __future__ import annotations

import random

from tests.lab.test_one_code_path import ROOT, _benchmark

from playtable.core.params import params_from_dict
from playtable.games.stardice.game import GAME


def _table() -> tuple[object, object, float]:
    params = params_from_dict(GAME.params_type, {})
    bench = _benchmark("stardice_dice_physics")

    def roll(piece: object, heading: float, speed: float, rng: random.Random) -> object:
        return bench.noisy_launch(piece, heading, speed, rng, params.roll_dir_noise_deg,
                                  params.roll_speed_noise)

    return bench, roll, params.tumble_speed


def test_the_d4_is_the_hardest_die_to_knock_and_the_d20_the_easiest() -> None:
    bench, roll, tumble = _table()
    physics = GAME.new_state(params_from_dict(GAME.params_type, {}), 0).physics()
    pushed = {kind: bench.knocks("d6", kind, 20, random.Random(kind), roll, physics, tumble)[1]
              for kind in ("d4", "d6", "d20")}
    assert pushed["d4"] < pushed["d6"] < pushed["d20"], pushed


def test_a_hard_knock_is_stronger_with_a_bigger_die_and_a_placed_one_is_not() -> None:
    bench, roll, tumble = _table()
    physics = GAME.new_state(params_from_dict(GAME.params_type, {}), 0).physics()
    metre = 100 / bench.CM
    hard = {kind: bench.knocks(kind, "d6", 20, random.Random(kind), roll, physics, tumble, metre)[1]
            for kind in ("d8", "d20")}
    placed = {kind: bench.knocks(kind, "d6", 20, random.Random(kind), roll, physics, tumble)[1]
              for kind in ("d8", "d20")}
    assert hard["d20"] > hard["d8"] and placed["d20"] < placed["d8"], (hard, placed)


def test_the_rules_carry_the_measured_table() -> None:
    rules = (ROOT / "src" / "playtable" / "games" / "stardice" / "RULES.md").read_text(encoding="utf-8")
    assert "### The dice's physical properties (It. 1-3 Q4)" in rules
    assert "benchmarks/stardice_dice_physics.py -n 300" in rules
    assert "| die | radius cm | mass | friction μ |" in rules
