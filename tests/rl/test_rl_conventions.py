"""`gymnasium.make("playtable/Troll-v0",
variant="plus-one")` (variant and parameters as keyword arguments of every registered id);
PettingZoo's usual `env()` / `raw_env()` with its standard wrappers, per game module; and the
Parallel API (`parallel_env()`) for the games whose turns allow it: the wizard game, whose
heroes move simultaneously, and the one-seat games. Checked with the libraries' own checkers
(gymnasium's `check_env`, pettingzoo's `api_test` and `parallel_api_test`)."""

from __future__ import annotations

import importlib
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.utils import wrappers

import playtable.rl  # noqa: F401  (registers the ids)
from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.rl.multi import PARALLEL_GAMES, PlaytableParallel, parallel_env
from playtable.rl.registration import ENVS

TOY = "tests.lab.lab_toygame:GAME"
MODULES = ["troll", "rotator", "stardice", "wizard"]


# -- Gymnasium ---------------------------------------------------------------------------------------
def test_make_takes_a_variant_and_parameters() -> None:
    troll = get_game("troll")
    env = gymnasium.make("playtable/Troll-v0", variant="plus-one")
    assert env.unwrapped.params == resolve_params(troll.params_type, troll.variants, "plus-one")  # type: ignore[attr-defined]
    assert env.unwrapped.params != troll.params_type()  # type: ignore[attr-defined]
    both = gymnasium.make("playtable/Troll-v0", variant="plus-one", params={"troll_starts_with_card": True})
    assert both.unwrapped.params.troll_starts_with_card  # type: ignore[attr-defined]
    assert both.unwrapped.params.heights == env.unwrapped.params.heights  # type: ignore[attr-defined]
    obs, info = env.reset(seed=2)
    assert info["action_mask"].any()
    with pytest.raises(BadParameter, match="unknown variant"):
        gymnasium.make("playtable/Troll-v0", variant="no-such-rules")


@pytest.mark.parametrize(("env_id", "variant"), [("playtable/Troll-v0", "plus-one"),
                                                 ("playtable/Rotator-v0", None)])
def test_a_made_environment_passes_check_env(env_id: str, variant: str | None) -> None:
    env = gymnasium.make(env_id, variant=variant) if variant else gymnasium.make(env_id)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)


def test_every_game_has_an_id() -> None:
    assert {game for game, _ in ENVS.values()} == set(MODULES)


# -- PettingZoo AEC ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", MODULES)
def test_each_game_module_has_env_and_raw_env(game: str) -> None:
    module = importlib.import_module(f"playtable.rl.envs.{game}_v0")
    wrapped = module.env()
    assert isinstance(wrapped, wrappers.OrderEnforcingWrapper)
    chain, layer = [], wrapped
    while isinstance(layer, wrappers.BaseWrapper):
        chain.append(type(layer).__name__)
        layer = layer.env
    assert chain == ["OrderEnforcingWrapper", "AssertOutOfBoundsWrapper", "TerminateIllegalWrapper"]
    assert layer is wrapped.unwrapped and type(layer).__name__ == "PlaytableAEC"
    assert type(module.raw_env()).__name__ == "PlaytableAEC"
    assert hasattr(module, "parallel_env") == (game in PARALLEL_GAMES)


@pytest.mark.parametrize(("game", "kwargs"), [
    ("troll", {"variant": "plus-one"}), ("rotator", {}), ("wizard", {"players": 3}),
    ("stardice", {"variant": "battle"}),
])
def test_wrapped_aec_environments_pass_api_test(game: str, kwargs: dict[str, object]) -> None:
    module = importlib.import_module(f"playtable.rl.envs.{game}_v0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(module.env(**kwargs), num_cycles=60, verbose_progress=False)


def test_game_parameters_are_keyword_arguments() -> None:
    from playtable.rl.envs import wizard_v0

    raw = wizard_v0.raw_env(players=5, variant="beta")
    assert len(raw.possible_agents) == 5 and raw.params.players == 5
    beta = resolve_params(get_game("wizard").params_type, get_game("wizard").variants, "beta")
    assert raw.params.trap_rule == beta.trap_rule


def test_the_standard_wrapper_ends_the_game_on_an_illegal_action() -> None:
    from playtable.rl.envs import wizard_v0

    env = wizard_v0.env(players=3)
    env.reset(seed=1)
    agent = env.agent_selection
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values()) and env.rewards[agent] == -1.0


# -- PettingZoo Parallel API -------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "kwargs"), [("wizard", {"players": 3}), ("wizard", {"players": 5}),
                                              ("troll", {}), ("rotator", {})])
def test_parallel_environments_pass_parallel_api_test(game: str, kwargs: dict[str, object]) -> None:
    module = importlib.import_module(f"playtable.rl.envs.{game}_v0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(module.parallel_env(**kwargs), num_cycles=400)


def test_star_dice_has_no_parallel_environment() -> None:
    with pytest.raises(BadParameter, match="never act at once"):
        parallel_env("stardice")


def test_the_heroes_commit_their_moves_in_one_parallel_step() -> None:
    """A wizard game played through the Parallel API to the end: some steps have several heroes
    acting at once, each with the options it has in the AEC game, and the returns are the
    game's."""
    env = PlaytableParallel("wizard", {"players": 4})
    rng = np.random.default_rng(0)
    obs, infos = env.reset(seed=5)
    most_at_once, steps = 0, 0
    while env.agents:
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert acting, "every step has a seat to act"
        most_at_once = max(most_at_once, len(acting))
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in acting}
        obs, rewards, terminations, truncations, infos = env.step(actions)
        assert not any(info.get("illegal") for info in infos.values())
        steps += 1
        assert steps < 5000
    assert most_at_once >= 2
    assert env.state is not None and env.state.is_terminal
    assert [rewards[a] for a in env.possible_agents] == env.state.returns()


def test_a_commits_options_do_not_depend_on_the_commits_before_it() -> None:
    """The parallel step offers each hero its options before the heroes ahead of it commit; the
    commits being secret, another earlier commit leaves them the same."""
    env = PlaytableParallel("wizard", {"players": 4})
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        while env.agents and checked < 12:
            state = env.state
            assert state is not None
            waiting = state.waiting_for()
            if len(waiting) >= 2:
                first, later = waiting[0], waiting[1]
                options = env.encoding.legal_map(state)
                seen = set()
                for choice in list(options)[:3]:
                    probe = state.clone()
                    probe.apply(options[choice])
                    assert probe.current_player == later
                    seen.add(tuple(str(a) for a in probe.legal_actions()))
                assert len(seen) == 1, f"hero {later}'s options changed with hero {first}'s commit"
                checked += 1
            acting = [a for a in env.agents if obs[a]["action_mask"].any()]
            obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in acting})
    assert checked > 0


def test_parallel_play_of_a_turn_based_toy_game() -> None:
    """Any game through the generic class: with one seat to act at a time it is the AEC game."""
    env = PlaytableParallel(TOY, {"players": 2})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(env, num_cycles=200)
