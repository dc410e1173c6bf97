"""Summaries of games with sides show each side's result from its own side, and the draws, not
seat 0's win rate (the wizard's bot is seat 0: its rate read as the people's when every hero
died); an interval over zero says it is too small to separate the variants."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.cli.cli_runner import run

from playtable.lab.metrics import RunningSummary, side_name, summarize

NAMES = ["wizard", "hero1", "hero2"]


def _row(winners: list[int], draw: bool = False) -> dict[str, Any]:
    return {"players": 3, "seat_names": NAMES, "completed": True, "win": 0 in winners, "draw": draw,
            "winners": winners, "length": 10, "returns": [0.0] * 3}


def test_each_side_and_the_draws_get_their_own_rate() -> None:
    rows = [_row([0])] * 3 + [_row([1, 2])] * 6 + [_row([], draw=True)]
    sides = {s["side"]: s for s in summarize(rows)["sides"]}
    assert set(sides) == {"wizard", "heroes", "draws"}
    assert (sides["wizard"]["wins"], sides["heroes"]["wins"], sides["draws"]["wins"]) == (3, 6, 1)
    assert sides["heroes"]["seats"] == [1, 2] and sides["heroes"]["rate"] == 0.6
    assert sides["heroes"]["low"] < 0.6 < sides["heroes"]["high"]


def test_a_summary_merged_from_chunks_counts_the_sides_as_one() -> None:
    rows = [_row([0]), _row([1, 2]), _row([1, 2]), _row([], draw=True)]
    merged = RunningSummary().add(rows[:2]).merge(RunningSummary().add(rows[2:]))
    assert merged.result()["sides"] == summarize(rows)["sides"]


def test_sides_are_named_from_their_seats() -> None:
    assert side_name(["hero1", "hero2", "hero3"]) == "heroes"
    assert side_name(["wizard"]) == "wizard"
    assert side_name(["red", "blue"]) == "red + blue"
    assert side_name(["player 1", "player 2"]) == "players"


def test_sim_and_compare_show_the_heroes_result_and_the_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # rich's tables, wide enough that no header wraps
    sim = run("sim", "wizard", "--agent", "random", "--param", "players=3", "-n", "6", "-q")
    assert sim.code == 0, sim.err
    assert "heroes won" in sim.out and "wizard won" in sim.out and "draws" in sim.out
    assert "win rate (seat 0)" not in sim.out
    assert "how far it can still move" in sim.out
    compare = run("compare", "wizard", "--variant", "final:", "--variant", "beta:", "--agent", "random",
                  "--param", "players=3", "-n", "6", "-q")
    assert compare.code == 0, compare.err
    flat = " ".join(compare.out.split())
    assert "heroes won" in flat and "draws" in flat
    assert "too small to separate: 6 seeds" in flat


def test_a_playtest_too_small_for_every_tester_to_play_every_variant_says_so(tmp_path: Path) -> None:
    db = str(tmp_path / "tables.sqlite3")
    short = run("playtest-online", "create", "troll", "--variant", "default", "--variant", "plus-one",
                "--games", "2", "--db", db)
    assert short.code == 0, short.err
    said = "each tester plays at most 1 of the 2 variants; --games 4 lets each play every variant"
    assert said in short.err
    enough = run("playtest-online", "create", "troll", "--variant", "default", "--variant", "plus-one",
                 "--games", "4", "--db", db)
    assert enough.code == 0 and "never replays" not in enough.err
