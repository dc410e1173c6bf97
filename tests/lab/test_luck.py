"""Luck against skill (`playtable claims troll --luck`, lab/luck.py): every deal lands in exactly
one class, from "won even by random play" to "won by no one"."""

from __future__ import annotations

import json

import pytest

from playtable.cli import main
from playtable.lab.luck import CLASSES, classify, luck_report


def test_each_deal_gets_the_class_of_the_weakest_player_that_won_it() -> None:
    assert classify(True, True, "win") == "won even by random play"
    assert classify(False, True, "unknown") == "won by the best agent"
    assert classify(False, False, "win") == "won only in hindsight"
    assert classify(False, False, "no win") == "won by no one"
    assert classify(False, False, "unknown") == "undecided"


def test_the_report_splits_every_deal_and_asks_the_solver_only_when_no_agent_won() -> None:
    asked: list[int] = []

    def clairvoyant(params: dict[str, object], seed: int) -> str:
        asked.append(seed)
        return "no win" if seed % 2 else "win"

    (row,) = luck_report("troll", ["tutorial"], 6, 0, "heuristic", clairvoyant)
    assert row.variant == "tutorial" and sum(row.counts.values()) == 6 and set(row.counts) == set(CLASSES)
    assert row.counts["won only in hindsight"] + row.counts["won by no one"] == len(asked)
    share, low, high = row.share("won even by random play")
    assert low <= share <= high


def test_the_command_prints_the_split_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    main(["claims", "troll", "--luck", "-n", "3", "--variant", "tutorial", "--agent", "heuristic",
          "--budget", "200", "--json"])
    (row,) = json.loads(capsys.readouterr().out)
    assert row["variant"] == "tutorial" and sum(row[name] for name in CLASSES) == 3


def test_an_unknown_variant_is_one_clear_error() -> None:
    with pytest.raises(SystemExit) as stop:
        main(["claims", "troll", "--luck", "-n", "3", "--variant", "nope"])
    assert stop.value.code == 2
