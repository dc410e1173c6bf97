"""Tuning that converges or says why not (lab/tune.py): refused settings and repeats do not
spend the budget, the default space holds design dials only, the search starts from the shipped
variants, a missed target and the dials that mattered are said, Ctrl-C leaves no running trial,
and runs sharing a storage share its budget. Small budgets on the toy game (lab_toygame.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from playtable.games.troll.params import TrollParams
from playtable.lab import tune as tune_module
from playtable.lab.runner import resolve_game
from playtable.lab.space import Dim, build_space, declared_space
from playtable.lab.tune import COUNTED, Objective, TuneInterrupted, TuneSpec, run_tune

TOY = "tests.lab.lab_toygame:GAME"
ROOT = Path(__file__).resolve().parents[2]


def _played(trials: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for t in trials if t["counted"] and t["state"] in ("COMPLETE", "PRUNED")]


def _toy_spec(**kw: Any) -> TuneSpec:
    """players 1-5 (the toy game refuses 3-5: three settings in five are refused) and turns."""
    args: dict[str, Any] = {"agents": ("random",), "games": 6, "rounds": 1, "finalists": 1, "remeasure": 6}
    args.update(kw)
    space = [Dim("players", "choice", choices=(1, 2, 3, 4, 5)), Dim("turns", "int", 1, 12)]
    return TuneSpec(TOY, Objective("length", 9.0), space, **args)


def test_refused_settings_and_repeats_do_not_spend_the_budget() -> None:
    """A space where most settings are refused still gets exactly --budget played trials, each a
    different setting the game accepts; the refused ones are recorded as skipped."""
    result = run_tune(_toy_spec(), budget=7)
    played = _played(result.trials)
    assert len(played) == 7 == result.played
    assert all(t["state"] == "COMPLETE" and not t["invalid"] for t in played)
    settings = [tuple(sorted(t["params"].items())) for t in played]
    assert len(set(settings)) == 7
    refused = [t for t in result.trials if t["invalid"]]
    assert refused and all(t["params"]["players"] >= 3 and not t["counted"] for t in refused)


def test_a_space_smaller_than_the_budget_is_played_whole_and_says_so() -> None:
    """Two accepted player counts times three turns: six settings, each played once, and the
    lowered budget is said instead of a search that never ends."""
    spec = _toy_spec()
    spec.space[1] = Dim("turns", "int", 1, 3)
    result = run_tune(spec, budget=20)
    played = _played(result.trials)
    assert sorted((t["params"]["players"], t["params"]["turns"]) for t in played) == [
        (p, t) for p in (1, 2) for t in (1, 2, 3)]
    assert any("6 settings the game accepts" in note for note in result.notes)


def test_the_default_space_holds_design_dials_only() -> None:
    """Rule-reading switches (the old reading of §7.1's win, Test #7's row roll) are declared
    `"dial": False`: out of the default space, still searchable by name."""
    default = {d.name for d in build_space(TrollParams)}
    assert "win_waits_for_set_aside" not in default and "start_row_roll" not in default
    assert {"extra_end_bricks", "extra_per_slot", "reusable_ace_of_diamonds"} <= default
    assert {d.name for d in declared_space(TrollParams, dials_only=True)} == default
    named = build_space(TrollParams, only=["start_row_roll"])
    assert [d.name for d in named] == ["start_row_roll"]


def test_the_search_starts_from_the_shipped_variants() -> None:
    """`tune troll --objective win=0.3 --budget 8`: the shipped answer, ladder-30, is among the
    starting points and is played (it is the variant nearest the target)."""
    spec = TuneSpec("troll", Objective.parse("win=0.3"), build_space(TrollParams), agents=("heuristic",),
                    games=24, rounds=2, finalists=1, remeasure=24)
    ladder_30 = {**{d.name: d.label(getattr(TrollParams(), d.name)) for d in spec.space},
                 "extra_end_bricks": 3, "reusable_ace_of_diamonds": True}
    names = [name for name, _ in spec.starts()]
    assert names[0] == "the starting parameters" and "ladder-30" in names
    assert "owed-awakenings" not in names  # it moves a switch outside the default space
    result = run_tune(spec, budget=8)
    assert ladder_30 in [t["params"] for t in _played(result.trials)]
    assert len(_played(result.trials)) == 8


def test_a_missed_target_and_the_dials_that_mattered_are_said() -> None:
    """An unreachable mean length: the result says by how much it is missed; with enough trials,
    Optuna's parameter importance names the dials, and with too few it says so."""
    from playtable.cli.tune import verdict

    space = [Dim("turns", "int", 1, 12), Dim("target", "int", 5, 60)]
    spec = TuneSpec(TOY, Objective("length", 500.0), space, agents=("random",), games=6, rounds=1,
                    finalists=1, remeasure=6)
    result = run_tune(spec, budget=12)
    missed = result.missed_by()
    assert missed is not None and missed > 400
    lines = verdict(result)
    assert lines[0].startswith(f"target missed by {missed:.3g}")
    assert set(result.importances) == {"turns", "target"}
    assert "which dials mattered" in lines[1] and "turns" in lines[1]
    few = run_tune(spec, budget=3)
    assert not few.importances and "too few" in verdict(few)[1]


def test_ctrl_c_marks_the_running_trial_failed_and_the_same_call_continues(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "t.db")
    spec = TuneSpec(TOY, Objective("length", 9.0), [Dim("turns", "int", 1, 12)], agents=("random",),
                    games=6, rounds=1, finalists=1, remeasure=6)
    real = tune_module.run_tasks
    calls = {"n": 0}

    def interrupted_on_the_fourth(*args: Any, **kw: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(tune_module, "run_tasks", interrupted_on_the_fourth)
    with pytest.raises(TuneInterrupted) as stop:
        run_tune(spec, budget=6, storage=db)
    assert stop.value.played == 3 and stop.value.trial is not None
    import optuna

    study = optuna.load_study(study_name="tune", storage=f"sqlite:///{db}")
    states = {t.number: t.state.name for t in study.get_trials()}
    assert "RUNNING" not in states.values() and states[stop.value.trial] == "FAIL"
    monkeypatch.setattr(tune_module, "run_tasks", real)
    again = run_tune(spec, budget=6, storage=db)
    assert again.played == 6


def test_the_tune_command_on_ctrl_c_prints_one_line_and_how_to_continue(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from playtable.cli.tune import tune

    def stopped(*args: Any, **kw: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_module, "run_tasks", stopped)
    db = str(tmp_path / "t.db")
    out = CliRunner().invoke(tune, ["troll", "--objective", "win=0.3", "--games", "4", "--budget", "2",
                                    "--storage", db])
    assert out.exit_code == 130
    assert "Traceback" not in out.output
    assert "run the same command to continue" in out.output


def test_a_trial_left_running_by_a_killed_run_is_marked_failed(tmp_path: Path) -> None:
    """A run killed outright (no Ctrl-C handler ran) leaves its trial running; the next run on
    this host sees that its process is gone, marks it failed, and does not count it."""
    db = str(tmp_path / "t.db")
    spec = TuneSpec(TOY, Objective("length", 9.0), [Dim("turns", "int", 1, 12)], agents=("random",),
                    games=6, rounds=1, finalists=1, remeasure=6)
    study = tune_module.open_study(spec, "tune", db)
    orphan = study.ask()
    orphan.suggest_int("turns", 1, 12)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    orphan.set_user_attr(COUNTED, f"{socket.gethostname()}:{dead}")
    result = run_tune(spec, budget=3, storage=db)
    assert result.played == 3
    assert study.get_trials()[orphan.number].state.name == "FAIL"


RUN = """
import sys
from playtable.lab.space import Dim
from playtable.lab.tune import Objective, TuneSpec, run_tune
spec = TuneSpec("tests.lab.lab_toygame:GAME", Objective("length", 9.0),
                [Dim("turns", "int", 1, 30), Dim("target", "int", 5, 60)], agents=("random",),
                games=20, rounds=1, finalists=1, remeasure=4)
result = run_tune(spec, budget=6, storage=sys.argv[1])
print(result.played)
"""


def test_two_runs_on_one_storage_cooperate_and_never_overrun_the_budget(tmp_path: Path) -> None:
    db = str(tmp_path / "shared.db")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    runs = [subprocess.Popen([sys.executable, "-c", RUN, db], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=240) for run in runs]
    for run, (_, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err[-2000:]
        assert "UNIQUE" not in err
    import optuna

    study = optuna.load_study(study_name="tune", storage=f"sqlite:///{db}")
    played = [t for t in study.get_trials()
              if COUNTED in t.user_attrs and t.state.name in ("COMPLETE", "PRUNED")]
    assert len(played) == 6
    assert {out.strip() for out, _ in outputs} == {"6"}, outputs
    assert len({t.user_attrs[COUNTED] for t in played}) >= 1


def test_toy_variants_are_starting_points_inside_the_space() -> None:
    spec = _toy_spec()
    starts = dict(spec.starts())
    assert starts["the starting parameters"] == {"players": 1, "turns": 5}
    assert starts["duel"] == {"players": 2, "turns": 5}
    assert "easy" not in starts  # it moves `target`, which is not searched here
    assert resolve_game(TOY).variants["easy"] == {"target": 12}


def test_a_trial_streams_its_games_in_constant_memory() -> None:
    """`tune --games 10**12` must not keep a row a game: the games of a trial and of a
    re-measurement are summed as they come, so ten times the games take no more memory (the
    rows of the extra 900 games alone would take hundreds of kilobytes)."""
    import tracemalloc

    from playtable.lab.runner import RunOptions
    from playtable.lab.tune import measure

    spec = TuneSpec(TOY, Objective("length", 9.0), [Dim("turns", "int", 1, 12)], agents=("random",))
    options = RunOptions(batch_size=20)

    def peak(games: int) -> int:
        tracemalloc.start()
        measure(spec, {"turns": 5}, 0, games, options)
        high = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return high

    peak(20)  # imports and caches warm up
    small, large = peak(100), peak(1000)
    assert large < small + 100_000, (small, large)


def test_an_interrupted_setting_of_an_exhaustive_search_is_played_on_resuming(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four settings, each played once: the one Ctrl-C stopped is played again by the same
    call, so the study ends with all four."""
    db = str(tmp_path / "t.db")
    spec = TuneSpec(TOY, Objective("length", 9.0), [Dim("turns", "int", 1, 4)], agents=("random",),
                    games=6, rounds=1, finalists=1, remeasure=6)
    real = tune_module.run_tasks
    calls = {"n": 0}

    def interrupted_on_the_third(*args: Any, **kw: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(tune_module, "run_tasks", interrupted_on_the_third)
    with pytest.raises(TuneInterrupted):
        run_tune(spec, budget=10, storage=db)
    monkeypatch.setattr(tune_module, "run_tasks", real)
    again = run_tune(spec, budget=10, storage=db)
    assert again.played == 4
    assert sorted(t["params"]["turns"] for t in _played(again.trials)) == [1, 2, 3, 4]
