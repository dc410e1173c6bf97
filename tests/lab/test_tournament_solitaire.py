"""A solitaire tournament ranks agents by paired results on the same deals: the win
first, then the game's `score` metric, deal by deal, so two losses are not a draw when one
agent lasted far longer. Before, the troll's heuristic bot came out a few Elo above random play
(both lose nearly every deal); now it is ranked clearly above, with intervals that do not meet."""

from __future__ import annotations

import json
import math

import pytest
from tests.cli.cli_runner import run_captured as _run

from playtable.lab.tournament import _solo_outcome, _solo_points, play_tournament


def test_the_win_comes_first_then_the_score_in_its_direction() -> None:
    won, lost_early, lost_late = (1.0, 0.0), (0.0, 20.0), (0.0, 5.0)
    # troll: a lower score (cards left in the deck) is better
    assert _solo_points(won, lost_late, lower_is_better=True) == 1.0
    assert _solo_points(lost_late, lost_early, lower_is_better=True) == 1.0
    assert _solo_points(lost_early, lost_late, lower_is_better=True) == 0.0
    assert _solo_points(lost_early, lost_late, lower_is_better=False) == 1.0
    assert _solo_points(lost_early, lost_early, lower_is_better=True) == 0.5
    assert _solo_points((0.0, math.nan), lost_early, lower_is_better=True) == 0.5
    # the score is the `score` metric, else the return
    assert _solo_outcome({"win": False, "return_0": 0.0, "metrics": {"score": 12}}) == (0.0, 12.0)
    assert _solo_outcome({"win": True, "return_0": 1.0, "metrics": {}}) == (1.0, 1.0)


def test_a_clearly_stronger_troll_bot_is_ranked_clearly_above_random_play() -> None:
    t = play_tournament("troll", ["random", "heuristic"], games=60, bootstrap=100)
    best, worst = t.ratings
    assert (best.agent, worst.agent) == ("heuristic", "random")
    assert worst.high < best.low  # the intervals do not meet
    assert best.rating - worst.rating > 200  # was about 6 Elo when two losses were a draw
    heuristic, rand = t.agents.index("heuristic"), t.agents.index("random")
    score = t.paired(heuristic, rand, "score")
    assert score.n == 60 and score.low > 0  # fewer cards left in the deck, deal by deal
    wins = t.paired(heuristic, rand, "win")
    assert wins.n == 60 and wins.diff >= 0
    assert t.win_rate(rand)[0] <= t.win_rate(heuristic)[0]
    assert t.mean_score(heuristic) < t.mean_score(rand)


def test_the_command_prints_the_paired_ranking(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = _run(capsys, "tournament", "troll", "--agent", "random", "--agent", "heuristic",
                           "-n", "30", "--bootstrap", "30", "--json")
    assert code == 0, err
    printed = json.loads(text)
    assert [r["agent"] for r in printed["ratings"]] == ["heuristic", "random"]
    top, bottom = printed["same_deals"]
    assert top["agent"] == "heuristic" and top["above"] == "random"
    assert top["score_difference"]["n"] == 30 and top["score_difference"]["low"] > 0
    assert top["deals_better"] > top["deals_worse"] and top["sign_test_p"] < 0.01
    assert "above" not in bottom
    code, text, err = _run(capsys, "tournament", "troll", "--agent", "random", "--agent", "heuristic",
                           "-n", "30", "--bootstrap", "30")
    assert code == 0, err
    assert "on the same deals" in text
