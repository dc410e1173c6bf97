"""The fast engine (engine.py) plays exactly the rules of the readable reference (rules.py):
every rule of RULES.md R1-R17, D1-D4 (seed 000 §6-§7.1, seed 001 §4.1), played side by side
in random games. `benchmarks/troll_differential.py` runs the same at 100,000+ steps."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from playtable.core import splitmix
from playtable.core.params import resolve_params
from playtable.games.troll import cards, differential, evaluation, kernel, learned
from playtable.games.troll.engine import FastTrollState
from playtable.games.troll.game import GAME
from playtable.games.troll.params import VARIANTS, TrollParams
from playtable.games.troll.rules import TrollState


def test_random_games_agree_step_by_step_in_every_variant_cycled() -> None:
    """State, legal actions, events, outcome and refusals agree after every one of 4,000 steps."""
    tally = differential.run(4_000, seed=3)
    assert tally.steps == 4_000 and tally.illegal_tries >= 70
    # The run reaches every verb and the common ends, so no rule goes unplayed.
    assert set(tally.verbs) >= {"move", "stomp", "pick", "club", "throw", "shovel", "lay", "wait"}
    assert {"collapse", "double_awakening"} <= set(tally.ends)
    assert {"fled", "fled_step", "flew_away", "thrown", "used"} <= set(tally.events)


def test_a_wrong_fast_rule_is_caught() -> None:
    """The comparison has teeth: a flight order the other way round (I4) is reported. (The
    table is changed in place: a compiled kernel holds on to the list itself.)"""
    order = [list(row) for row in kernel.ORDER]
    kernel.ORDER[:] = [[-k for k in row] for row in order]
    try:
        with pytest.raises(differential.Mismatch, match="differ"):
            differential.run(4_000, seed=3)
    finally:
        kernel.ORDER[:] = order


def test_the_game_plays_the_fast_engine_and_its_copies_stay_fast() -> None:
    state = GAME.new_state(None, 5)
    assert isinstance(state, FastTrollState)
    assert isinstance(state.clone(), FastTrollState) and isinstance(state.clone(True), FastTrollState)
    assert isinstance(GAME.state_from_json(state.to_json()), FastTrollState)
    assert isinstance(state.determinize(0, state.chance.clone()), FastTrollState)
    assert isinstance(state, TrollState)  # the bots and views read the reference's fields


def test_events_are_built_when_read_and_equal_a_list() -> None:
    """The fast engine's events are records until read (events.TrollEvents); read, they are the
    reference's events, they compare equal to a list of them, slice and index like one."""
    state = GAME.new_state(None, 5)
    events = state.apply(state.legal_actions()[0])
    assert events == list(events) and len(events) == len(list(events))
    assert events[-1] == list(events)[-1] and events[:1] == list(events)[:1]


@pytest.mark.parametrize("module", [kernel, splitmix, evaluation, learned, cards],
                         ids=["kernel", "splitmix", "evaluation", "learned", "cards"])
def test_a_compiled_module_is_not_older_than_its_source(module: ModuleType) -> None:
    """An editable install (`make setup`, setup.py) compiles these modules into extension modules
    beside their sources, which Python imports instead: after an edit of the source they would run
    the old code, so the install must run again (`make setup` redoes it when the sources change)."""
    if str(module.__file__).endswith(".py"):
        pytest.skip("not compiled (no C compiler at install, or make slow): the source runs")
    built, source = Path(str(module.__file__)), _source_path(module)
    if not source.exists():
        pytest.skip("installed from a wheel: no source beside the compiled module")
    assert built.stat().st_mtime >= source.stat().st_mtime, f"{source} changed: run make setup"


def _source_path(module: ModuleType) -> Path:
    return Path(str(module.__file__)).with_name(module.__name__.rsplit(".", 1)[1] + ".py")


def _as_source(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The module's Python source loaded on its own (under another name, registered for the
    test's length only), beside the compiled module that the package imports."""
    spec = importlib.util.spec_from_file_location(module.__name__ + "_as_source", _source_path(module))
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, loaded)  # a dataclass looks its module up there
    spec.loader.exec_module(loaded)
    return loaded


def test_the_compiled_leaf_scores_are_the_scores_of_their_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """The install compiles the search bots' static scores (`evaluation.py`, `learned.py`) too:
    every leaf gives exactly its source's value on the positions of random games in every
    variant cycled (the searches compare these values, so a last digit changed would change a
    move)."""
    if str(learned.__file__).endswith(".py") or str(evaluation.__file__).endswith(".py"):
        pytest.skip("not compiled (no C compiler at install, or make slow): the source runs")
    if not _source_path(learned).exists():
        pytest.skip("installed from a wheel: no source beside the compiled module")
    learned_py, evaluation_py = _as_source(learned, monkeypatch), _as_source(evaluation, monkeypatch)
    pairs = [(lambda s: evaluation.score(s, evaluation.TUNED_WEIGHTS),
              lambda s: evaluation_py.score(s, evaluation_py.TUNED_WEIGHTS)),
             (learned.win_chance, learned_py.win_chance),
             (learned.distilled_chance, learned_py.distilled_chance),
             (learned.rows_chance, learned_py.rows_chance),
             (learned.draws_chance, learned_py.draws_chance)]
    rng, positions = random.Random(7), 0
    for game in range(40):
        variant = differential.VARIANT_CYCLE[game % len(differential.VARIANT_CYCLE)]
        state = GAME.new_state(resolve_params(TrollParams, VARIANTS, variant), seed=game)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            positions += 1
            for compiled_score, source_score in pairs:
                assert compiled_score(state) == source_score(state), (variant, game)
            assert learned.draws_inputs(state) == learned_py.draws_inputs(state)
    assert positions > 400
