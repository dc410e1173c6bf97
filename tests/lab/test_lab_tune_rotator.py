"""Rotator's search space (seed 004 "Drilling Boost": 10 boost spaces a game, at most 3 spaces a
drill) and `playtable tune rotator` on a tiny budget, played by the optimal solver."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli.cli_runner import run_captured

from playtable.games.rotator.rules import RotatorParams
from playtable.lab.space import Dim, declared_space
from playtable.lab.tune import Objective, TuneSpec, run_tune


def test_rotator_declares_the_augers_dials_around_the_seeds_numbers() -> None:
    dims = {d.name: d for d in declared_space(RotatorParams)}
    assert set(dims) == {"boost_total", "max_drill"}
    assert dims["boost_total"] == Dim("boost_total", "int", 0, 20)
    assert dims["max_drill"] == Dim("max_drill", "int", 1, 5)
    defaults = RotatorParams()
    assert dims["boost_total"].low < defaults.boost_total < dims["boost_total"].high
    assert dims["max_drill"].low < defaults.max_drill < dims["max_drill"].high


def test_more_boost_spaces_never_lose_the_solver_a_board() -> None:
    """A larger boost cache only adds moves, so the optimal solver wins every generated board it
    won with none: tuned for 'the solver wins every board', the cache of 10 is never worse than
    a cache of 0 on the common seeds, and the finalist is re-measured on fresh ones."""
    spec = TuneSpec("rotator", Objective("win", 1.0), [Dim("boost_total", "choice", choices=(0, 10))],
                    agents=("solver",), games=4, rounds=1, finalists=2, remeasure=3)
    result = run_tune(spec, budget=2)
    loss = {t["params"]["boost_total"]: t["loss"] for t in result.trials}
    assert set(loss) == {0, 10} and loss[10] <= loss[0]
    assert result.best is not None and result.best.games == 3


def test_tune_rotator_command_on_a_tiny_budget(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "rotator.db"
    code, out, err = run_captured(capsys, "tune", "rotator", "--objective", "metric:turns=9", "--agent",
                                  "solver", "--space", "boost_total", "--budget", "2", "--games", "2",
                                  "--rounds", "1", "--finalists", "1", "--remeasure", "2", "--storage",
                                  str(db), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert db.exists() and len(result["finalists"]) == 1
    finalist = result["finalists"][0]
    assert set(finalist["values"]) == {"boost_total"} and 0 <= finalist["values"]["boost_total"] <= 20
    assert finalist["games"] == 2
