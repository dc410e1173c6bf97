"""Registration of the single-agent environments with Gymnasium: importing `playtable.rl`
registers one id per game, so `gymnasium.make("playtable/Troll-v0")` works with no other call
(and `gymnasium.make("playtable.rl:playtable/Troll-v0")` even without importing playtable).
The rules are keyword arguments, as for any Gymnasium id: `variant` (a named variant of the
game) and `params` (values over it), e.g. `gymnasium.make("playtable/Troll-v0",
variant="plus-one")`; `opponents`, `seat` and `shaped_reward` too (see `single.PlaytableEnv`).

Gymnasium 1.x no longer loads environments from package entry points, so registration on
import is the standard way. Each id has a `max_episode_steps` far above the game's natural
length (random play, 40 deals each: troll at most 30 decisions, rotator 15, stardice 200), so
the TimeLimit wrapper that gymnasium.make adds only stops a policy that stalls.
"""

from __future__ import annotations

import gymnasium

ENVS: dict[str, tuple[str, int]] = {
    "playtable/Troll-v0": ("troll", 200),
    "playtable/Rotator-v0": ("rotator", 200),
    "playtable/StarDice-v0": ("stardice", 1000),
    "playtable/Wizard-v0": ("wizard", 2000),
}
"""Gymnasium id -> (game id, max_episode_steps)."""


def register_envs() -> None:
    """Register every id of `ENVS` with gymnasium.make (done on import of `playtable.rl`)."""
    for env_id, (game, max_steps) in ENVS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="playtable.rl.single:PlaytableEnv",
                kwargs={"game": game},
                max_episode_steps=max_steps,
            )
