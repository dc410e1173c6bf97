"""The seeds' last items: the troll's story told to players (seed 000 §7.2, and §3.4: the story
introduces the mechanics), Star Dice's dropped ideas each with a line saying why not, and the
dice sets the seed tried (It. 3, It. 7) as named variants that play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playtable.core.params import resolve_params
from playtable.core.registry import get_game, player_rules
from playtable.lab.runner import Arm, run_tasks

SRC = Path(__file__).resolve().parents[2] / "src" / "playtable"


def test_the_troll_rules_panel_tells_the_story_and_ties_it_to_the_mechanics() -> None:
    rules = player_rules("troll")
    story = rules.split("## The story", 1)[1].split("\n## ", 1)[0]
    for told in ("Magic Bridge", "billy goat", "awaken", "It's time... it's time to move"):
        assert told.lower() in story.lower(), told
    # §3.4 / §5: the suits' uses hang on the story (a troll can't have a heart)
    for suit in ("club", "diamond", "spade", "heart"):
        assert f"**{suit}**" in story
    assert rules.index("## The story") < rules.index("## A turn")


def test_the_troll_walkthrough_opens_with_the_story() -> None:
    walk = json.loads((SRC / "web/static/tutorials/troll-walkthrough.json").read_text())
    first = walk["steps"][0]["say"]
    assert "Magic Bridge" in first and "billy goats" in first and "expect" not in walk["steps"][0]


DROPPED = ["Picking dice up after rolling", "A die replacing the die it lands on", "Bocce scoring",
           "Dice interrupting existing connections", "A Rubik's cube as the Borg",
           "A black Borg die", "The star shooter", "Pool cues", "The cost analysis"]


def test_every_dropped_star_dice_idea_has_its_line() -> None:
    rules = (SRC / "games/stardice/RULES.md").read_text()
    section = rules.split("## Ideas the seed tried or proposed and did not adopt", 1)[1].split("\n## ", 1)[0]
    for idea in DROPPED:
        line = next((item for item in section.split("\n- ") if item.startswith(f"**{idea}")), None)
        assert line is not None, idea
        assert "not adopted" in line or "abandoned" in line or "not a rule" in line, idea


@pytest.mark.parametrize(("variant", "dice"), [
    ("dice_6d10_iter3", ("d10",) * 6),
    ("dice_stephen_iter7", ("d20", "d12", "d12", "d6", "d6", "d6")),
])
def test_the_seed_s_other_dice_sets_are_variants_that_play(variant: str, dice: tuple[str, ...]) -> None:
    game = get_game("stardice")
    params = resolve_params(game.params_type, game.variants, variant, ["war_target=0"])
    assert params.dice == dice
    assert variant in game.variant_descriptions and variant in game.variant_titles
    rows = run_tasks([(Arm.build("stardice", params, ["random-thrower"]), 0)])
    assert rows[0]["completed"]
