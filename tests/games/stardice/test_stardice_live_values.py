"""Values on the live table (RULES.md interpretation 30): a die whose value nobody entered
leaves its shape undecided (points shown, nobody owns it); entered values are checked against
the die's faces; once entered, the Final Rules score the shape (FR "Calculate your score")."""

from __future__ import annotations

import pytest

from playtable.core.errors import BadParameter
from playtable.games.stardice.formation import Layout, Sighting
from playtable.games.stardice.live import DieSpec, LiveDice

# a square (FR: a formation of 4 is worth 6) and the Borg die with a Klingon d6 (a string)
PLACES = {"F.d20a": (0.30, 0.25), "K.d20a": (0.50, 0.25), "F.d12a": (0.50, 0.45),
          "K.d8a": (0.30, 0.45), "borg": (0.78, 0.40), "K.d6a": (0.92, 0.48)}


def table(values: dict[str, int]) -> tuple[LiveDice, Layout]:
    live = LiveDice({k: DieSpec(die, values.get(die)) for k, die in enumerate(PLACES)})
    sightings = [Sighting(d, x, y, 0.0, 0.0) for d, (x, y) in PLACES.items()]
    live.update(sightings, 0.0)
    return live, live.update(sightings, 1.0)


def test_an_unentered_value_leaves_its_shape_undecided() -> None:
    live, layout = table({"F.d20a": 17, "K.d20a": 12, "K.d8a": 5, "borg": 16, "K.d6a": 4})
    score = live.score(layout)
    square = next(s for s in score.shapes if s.kind == "formation")
    assert square.points == 6 and square.owner is None
    assert "F.d12a" in square.note
    assert score.points == (0, 0)
    report = live.describe(layout, {})
    shape = next(s for s in report["shapes"] if s["kind"] == "formation")
    assert shape["waiting"] == ["F.d12a"]
    assert next(d for d in report["dice"] if d["id"] == "F.d12a")["value"] is None


def test_entered_values_score_by_the_final_rules() -> None:
    live, layout = table({"F.d20a": 17, "K.d20a": 12, "K.d8a": 5, "borg": 16, "K.d6a": 4})
    live.enter_value("F.d12a", 9)  # Federation 26 > Klingon 17: 6 points
    assert live.score(layout).points == (6, 0)
    live.enter_value("F.d20a", 1)  # Federation 10 < Klingon 17
    assert live.score(layout).points == (0, 6)


def test_values_are_checked_against_the_die() -> None:
    live, _ = table({})
    assert live.faces("F.d12a") == tuple(range(1, 13))
    assert live.faces("borg") == (8, 16, 24, 32)
    for die, value in (("F.d12a", 13), ("F.d12a", 0), ("borg", 17), ("F.d4a", 1), ("K.d6a", True)):
        with pytest.raises(BadParameter):
            live.enter_value(die, value)
    assert live.values == {}
    live.enter_value("borg", 24)
    assert live.die_info("borg").pips == 5
