"""Where the playtest answers say the seeds asked their questions ("Sources").

Star Dice (seed 002): Stephen's "The small dice tend to be pretty useless. It seems like
everything hinges on the d20." is his answer to the third iteration's question 3, and "The
low-sided dice seem useless." is in the same iteration's "What didn't work"; "First player to
reach 50 points wins." is the eighth iteration's change to the objective. The wizard game (seed
003): the weekly update that removed the wheel's +1 a turn and worried about the heroes sticking
together and the traps is dated Saturday 26 October 2013 (23 Oct is the beta rules' date)."""

from __future__ import annotations

from pathlib import Path

from playtable.lab import playtest_stardice, playtest_wizard


def _probe() -> dict[str, object]:
    table = [{"kind": "d20", "owner": 0, "value": 17}, {"kind": "d20", "owner": 1, "value": 3}]
    shapes = [{"owner": 0, "points": 34, "dice": ["F.d20a", "K.d20a", "borg"]}]
    return {"battles": [(0, [34, 0])], "closed": {3: 1}, "score": {"points": [34, 0], "shapes": shapes},
            "table": table}


def test_star_dice_credits_the_third_iteration() -> None:
    tally = playtest_stardice._Battles()
    tally.add({"probe": _probe()})
    answers = playtest_stardice._die_types("random", tally)
    hinges = [a for a in answers if "hinges" in a.question]
    useless = [a for a in answers if "useless" in a.question]
    assert hinges and useless
    for a in hinges + useless:
        assert a.source.startswith("third iteration, question 3"), a.source
        assert "fourth" not in a.source and "fifth" not in a.source
    assert "What didn't work" in useless[0].source


def test_the_wizard_updates_are_dated_26_october() -> None:
    assert "26 Oct" in playtest_wizard.SOURCE_UPDATE and "23 Oct" not in playtest_wizard.SOURCE_UPDATE
    assert "23 Oct" not in Path(playtest_wizard.__file__).read_text(encoding="utf-8")
