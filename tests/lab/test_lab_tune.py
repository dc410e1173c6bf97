"""Tuning (lab/tune.py, lab/space.py): a planted optimum is found, studies resume, bad input is
refused before any game is played. Small budgets on the toy game (tests/lab/lab_toygame.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from playtable.core.errors import BadParameter
from playtable.games.stardice.params import StarDiceParams
from playtable.games.troll.params import TrollParams
from playtable.games.wizard.params import WizardParams
from playtable.lab.runner import Arm, resolve_game, run_tasks
from playtable.lab.space import Dim, build_space, declared_space, parse_dim
from playtable.lab.tune import FRESH_SEEDS, Objective, TuneSpec, run_tune

TOY = "tests.lab.lab_toygame:GAME"
ToyParams = resolve_game(TOY).params_type


def _mean_length(turns: int, seeds: range) -> float:
    arm = Arm.build(TOY, ToyParams(turns=turns), ["random"])
    rows = run_tasks([(arm, s) for s in seeds])
    return sum(r["length"] for r in rows) / len(rows)


def test_tuning_finds_a_planted_optimum_of_the_toy_game() -> None:
    """The target is the mean length that turns=7 gives on the common seeds: on those seeds only
    turns=7 reaches it exactly, so the tuner must come back with 7."""
    target = _mean_length(7, range(0, 40))
    spec = TuneSpec(TOY, Objective("length", target), [Dim("turns", "int", 1, 10)], agents=("random",),
                    games=40, rounds=2, finalists=2, remeasure=40)
    result = run_tune(spec, budget=16)
    assert result.best is not None
    assert min(result.finalists, key=lambda f: f.search_loss).values == {"turns": 7}
    assert min(t["loss"] for t in result.trials if t["loss"] is not None) == 0.0
    # finalists are re-measured on seeds no trial used
    assert result.best.measured[0][0] == pytest.approx(
        _mean_length(result.best.values["turns"], range(FRESH_SEEDS, FRESH_SEEDS + 40)))


def test_a_win_rate_target_over_settings_and_the_variant_it_yields() -> None:
    spec = TuneSpec(TOY, Objective.parse("win=1.0"), [Dim("target", "int", 5, 60)], agents=("random",),
                    over=[{"turns": 5}, {"turns": 8}], games=30, rounds=1, finalists=1, remeasure=30)
    result = run_tune(spec, budget=10)
    best = result.best
    assert best is not None and len(best.measured) == 2
    # the easiest targets make the random player win most: the tuner goes low
    assert best.values["target"] <= 20
    assert result.variant() == {"target": best.values["target"]}


def test_a_stored_study_resumes_and_refuses_other_settings(tmp_path: Path) -> None:
    db = tmp_path / "study.db"
    spec = TuneSpec(TOY, Objective("length", 10.0), [Dim("turns", "int", 1, 10)], agents=("random",),
                    games=10, rounds=1, finalists=1, remeasure=10)
    first = run_tune(spec, budget=3, study_name="s", storage=str(db))
    assert first.played == 3
    again = run_tune(spec, budget=5, study_name="s", storage=str(db))
    assert again.played == 5

    def seen(trials: list[dict[str, object]]) -> list[tuple[object, object]]:
        return [(t["params"], t["loss"]) for t in trials if t["counted"]]

    assert seen(again.trials[:3]) == seen(first.trials)
    other = TuneSpec(TOY, Objective("length", 12.0), spec.space, agents=("random",), games=10)
    with pytest.raises(BadParameter, match="other settings"):
        run_tune(other, budget=5, study_name="s", storage=str(db))


def test_tuple_choices_survive_a_stored_study(tmp_path: Path) -> None:
    """Troll heights (a tuple) as choices: stored as text, read back as the tuple."""
    space = [parse_dim(TrollParams, "heights=3,2,1,1,2,3;4,3,2,2,3,4")]
    spec = TuneSpec("troll", Objective("win", 1.0), space, agents=("heuristic",), games=8, rounds=1,
                    finalists=2, remeasure=8)
    result = run_tune(spec, budget=2, storage=str(tmp_path / "h.db"))
    assert {t["params"]["heights"] for t in result.trials} == {"3,2,1,1,2,3", "4,3,2,2,3,4"}
    assert result.best is not None
    assert result.variant() in ({}, {"heights": [4, 3, 2, 2, 3, 4]})


def test_objectives_parse_and_reject_nonsense() -> None:
    assert Objective.parse("win:wizard=0.5") == Objective("win", 0.5, seat="wizard")
    assert Objective.parse("metric:turns=40").metric == "turns"
    for bad in ("win=2", "length", "speed=3", "metric=4", "win=x"):
        with pytest.raises(BadParameter):
            Objective.parse(bad)


def test_games_declare_search_spaces_next_to_their_defaults() -> None:
    wizard = {d.name: d for d in declared_space(WizardParams)}
    assert (wizard["mana_max"].low, wizard["mana_max"].high) == (4, 10)
    assert wizard["rage"].choices == (True, False)
    troll = {d.name for d in declared_space(TrollParams)}
    assert {"extra_per_slot", "extra_end_bricks", "troll_starts_with_card"} <= troll
    stardice = {d.name: d for d in declared_space(StarDiceParams)}
    assert stardice["connect_range"].kind == "float"
    assert (2, 4, 8, 16, 32, 64) in stardice["borg_faces"].choices
    assert parse_dim(TrollParams, "extra_per_slot=0:1") == Dim("extra_per_slot", "int", 0, 1)
    assert parse_dim(TrollParams, "heights=3,2,1,1,2,3;4,4,4,4,4,4").choices[1] == (4,) * 6
    with pytest.raises(BadParameter):
        parse_dim(TrollParams, "extra_per_slot=3:1")
    with pytest.raises(BadParameter):
        parse_dim(TrollParams, "nonsense=1:2")
    with pytest.raises(BadParameter, match="nothing to tune"):
        build_space(ToyParams)


def test_tune_command_exits_2_on_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    from playtable.cli.tune import tune

    with pytest.raises(BadParameter):
        tune.main(["troll", "--objective", "win=7"], standalone_mode=False)
    with pytest.raises(BadParameter):
        tune.main(["troll", "--objective", "win=0.3", "--param-space", "bogus=1:2"], standalone_mode=False)


def test_the_shipped_ladder_is_named_variants_that_play() -> None:
    """The troll difficulty ladder (tuned by benchmarks/tune_shipped.py) is four valid variants,
    each set only by the seed's §4.1 dials (the seed's bridge stays the default), each adding
    bricks to the seed's bridge (seed 000 §4.1: more bricks, easier), inside the declared space."""
    from playtable.core.params import resolve_params
    from playtable.core.registry import get_game
    from playtable.lab.space import declared_space

    game = get_game("troll")
    names = [f"ladder-{n}" for n in (10, 30, 50, 70)]
    dials = {d.name: d for d in declared_space(TrollParams)}
    for name in names:
        params = resolve_params(TrollParams, game.variants, name)
        assert sum(params.slot_heights()) > sum(TrollParams().slot_heights())
        for key, value in game.variants[name].items():
            dim = dials[key]
            assert value in dim.choices if dim.kind == "choice" else dim.low <= value <= dim.high
        assert name in game.variant_descriptions


def test_the_expert_ladder_runs_from_a_thinner_bridge_to_more_end_bricks() -> None:
    """The expert ladder (the same rungs for the strongest bot, docs/lab.md) is four valid named
    variants set by seed 000 §4.1's dials: `expert-10` has fewer bricks than the seed's "most
    difficult legal variation" (the strongest bot wins about 19 % there), the others more, and the
    rungs get easier in order, as the game's own heuristic bot plays them on common deals."""
    from playtable.core.params import resolve_params
    from playtable.core.registry import get_game

    game = get_game("troll")
    names = [f"expert-{n}" for n in (10, 30, 50, 70)]
    seed_bridge = sum(TrollParams().slot_heights())
    bricks, wins = [], []
    for name in names:
        params = resolve_params(TrollParams, game.variants, name)
        params.validate()
        assert name in game.variant_descriptions
        bricks.append(sum(params.slot_heights()))
        arm = Arm.build("troll", params, ["heuristic"], label=name)
        wins.append(sum(bool(r["win"]) for r in run_tasks([(arm, s) for s in range(300)])))
    assert bricks[0] < seed_bridge < bricks[1] <= bricks[2] <= bricks[3]
    assert wins == sorted(wins) and wins[0] < wins[-1], wins


def test_the_shipped_wizard_balance_is_a_named_variant_at_every_player_count() -> None:
    """The wizard `balanced` variant (tuned over the mana wheel and the content counts for 50 % at
    3, 4 and 5 players) leaves the final rules' other parameters alone (seed 003, 8 Nov rules)."""
    from playtable.core.params import resolve_params
    from playtable.core.registry import get_game
    from playtable.games.wizard.params import COUNT_PREFIXES

    game = get_game("wizard")
    tuned = {k for k in game.variants["balanced"] if not k.startswith(COUNT_PREFIXES)}
    assert tuned <= {"mana_start", "mana_max", "mana_min", "mana_per_turn", "token_cap"}
    for players in (3, 4, 5):
        params = resolve_params(WizardParams, game.variants, "balanced", [f"players={players}"])
        assert params.rules == "final" and params.players == players
    assert "balanced" in game.variant_descriptions
