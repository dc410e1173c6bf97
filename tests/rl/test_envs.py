"""Gymnasium and PettingZoo environments with action masks, checked by the libraries' own checkers."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from playtable.core.registry import game_ids
from playtable.rl.encoding import ILLEGAL_REWARD
from playtable.rl.multi import aec_env
from playtable.rl.registration import register_envs
from playtable.rl.single import PlaytableEnv

TOY = "tests.lab.lab_toygame:GAME"
GAMES = [g for g in ("troll", "rotator") if g in game_ids()] + [TOY]


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_checker_passes(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(PlaytableEnv(game), skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
def test_masked_play_reaches_the_end_with_the_game_returns(game: str) -> None:
    env = PlaytableEnv(game)
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            mask = obs["action_mask"]
            assert mask.sum() == len(info["legal_actions"]) > 0
            assert env.observation_space.contains(obs)
            obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert not truncated and not info.get("illegal")
        assert env.state is not None and env.state.is_terminal
        assert reward == env.state.returns()[0]


def test_an_action_outside_the_mask_ends_the_episode() -> None:
    env = PlaytableEnv(TOY)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == ILLEGAL_REWARD and info["illegal"]


def test_reset_with_a_seed_is_reproducible() -> None:
    env = PlaytableEnv(GAMES[0])
    a, _ = env.reset(seed=7)
    b, _ = env.reset(seed=7)
    assert np.array_equal(a["observation"], b["observation"])


def test_troll_observation_hides_the_deck() -> None:
    """The encoding sees only `observation(0)`: another deck order gives the same vector."""
    if "troll" not in game_ids():
        pytest.skip("troll not registered")
    env = PlaytableEnv("troll")
    obs, _ = env.reset(seed=4)
    assert env.state is not None
    twin = env.state.clone()
    twin.deck = list(reversed(twin.deck))  # type: ignore[attr-defined]
    assert np.array_equal(env.encoding.encode(twin.observation(0)), obs["observation"])


def test_envs_register_with_gymnasium_make() -> None:
    if "troll" not in game_ids():
        pytest.skip("troll not registered")
    register_envs()
    env = gymnasium.make("playtable/Troll-v0")
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].sum() > 0


@pytest.mark.parametrize("game", [g for g in ("wizard",) if g in game_ids()] + [TOY])
def test_pettingzoo_api_test_passes(game: str) -> None:
    params = {"players": 2} if game == TOY else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(game, params), num_cycles=100, verbose_progress=False)


def test_pettingzoo_rewards_are_the_returns() -> None:
    env = aec_env(TOY, {"players": 2})
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.state is not None and env.state.is_terminal
    assert [totals[a] for a in env.possible_agents] == env.state.returns()
