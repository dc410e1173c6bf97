"""The RL environments work with the standard tools without
wrappers. Ids for all four games are registered on import (`gymnasium.make` with no prior
call), each with `max_episode_steps` and `render_fps`; the mask is in `info["action_mask"]` and
`action_masks()`; troll has an optional shaped reward; and sb3-contrib's MaskablePPO trains on
each single-agent game (troll, rotator) for a few thousand steps without error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import playtable.rl  # noqa: F401  (registers the ids: nothing else is called)
from playtable.rl.registration import ENVS

ROOT = Path(__file__).resolve().parents[2]


def test_gymnasium_make_needs_no_prior_call() -> None:
    """In a fresh interpreter: the `module:id` form imports playtable.rl itself."""
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('playtable.rl:playtable/Troll-v0')\n"
        "obs, info = env.reset(seed=1)\n"
        "print(env.spec.max_episode_steps, env.metadata['render_fps'], int(info['action_mask'].sum()) > 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["200", "4", "True"]


@pytest.mark.parametrize("env_id", sorted(ENVS))
def test_every_game_is_registered_with_a_time_limit_and_masks(env_id: str) -> None:
    env = gymnasium.make(env_id)
    assert env.spec is not None and env.spec.max_episode_steps == ENVS[env_id][1]
    assert env.metadata["render_fps"] > 0
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    for _ in range(40):
        mask = info["action_mask"]
        assert mask.dtype == bool and np.array_equal(mask, obs["action_mask"].astype(bool))
        assert np.array_equal(mask, env.unwrapped.action_masks())  # type: ignore[attr-defined]
        obs, _, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not info.get("illegal")
        if done or truncated:
            obs, info = env.reset()


def test_troll_shaped_reward_gives_signal_and_keeps_the_return_order() -> None:
    """Potential-based shaping: rewards before the end, and an episode's shaped rewards add up
    to its return minus the starting position's value, whatever the policy."""
    plain = gymnasium.make("playtable/Troll-v0")
    shaped = gymnasium.make("playtable/Troll-v0", shaped_reward=True)
    rng = np.random.default_rng(1)
    signal_before_the_end = False
    for seed in range(4):
        _, info = plain.reset(seed=seed)
        _, info_s = shaped.reset(seed=seed)
        start = shaped.unwrapped._potential  # type: ignore[attr-defined]
        total, total_shaped, done = 0.0, 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, r, done, _, info = plain.step(action)
            _, rs, _, _, info_s = shaped.step(action)
            total += r
            total_shaped += rs
            signal_before_the_end |= not done and rs != 0.0
        assert total_shaped == pytest.approx(total - start)
    assert signal_before_the_end


@pytest.mark.parametrize("env_id", ["playtable/Troll-v0", "playtable/Rotator-v0"])
def test_maskable_ppo_trains_on_each_single_agent_game(env_id: str) -> None:
    train = "not in `make setup`: `make setup-train` installs it (requirements/train.txt)"
    torch = pytest.importorskip("torch", reason=f"torch is {train}")
    sb3_contrib = pytest.importorskip("sb3_contrib", reason=f"sb3-contrib is {train}")
    torch.set_num_threads(1)
    env = gymnasium.make(env_id)
    model = sb3_contrib.MaskablePPO(
        "MultiInputPolicy", env, n_steps=256, batch_size=64, n_epochs=2, seed=0, device="cpu", verbose=0
    )
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    obs, info = env.reset(seed=5)
    action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
    assert info["action_mask"][int(action)]
