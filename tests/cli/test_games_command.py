"""`playtable games GAME` describes every parameter of every game: the designer reads there what
a `--param` or a variant changes (from the field's `doc` or the docstring under it)."""

from __future__ import annotations

import pytest

from playtable.cli.games import game_json
from playtable.core.registry import game_ids


@pytest.mark.parametrize("game_id", game_ids())
def test_every_parameter_is_described(game_id: str) -> None:
    parameters = game_json(game_id)["parameters"]
    undescribed = [p["name"] for p in parameters if len(p["doc"]) < 12]
    assert parameters and not undescribed, f"{game_id}: no description for {undescribed}"
    assert all("\n" not in p["doc"] and "  " not in p["doc"] for p in parameters)


def test_descriptions_come_from_the_docstring_under_a_field() -> None:
    wizard = {p["name"]: p["doc"] for p in game_json("wizard")["parameters"]}
    assert wizard["keys_needed"].startswith("Keys the heroes need to open the tower")
    assert wizard["tiles_empty_room"] == "Empty Room tiles in the labyrinth"
    stardice = {p["name"]: p["doc"] for p in game_json("stardice")["parameters"]}
    assert "quarter of the screen" in stardice["connect_range"]
