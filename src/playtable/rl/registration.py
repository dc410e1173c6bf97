"""Registration of the single-agent environments with Gymnasium, so that
`gymnasium.make("playtable/Troll-v0")` works after `register_envs()`.
"""

from __future__ import annotations

import gymnasium


def register_envs() -> None:
    """Register `playtable/Troll-v0` and `playtable/Rotator-v0` with gymnasium.make."""
    for name, game in (("Troll", "troll"), ("Rotator", "rotator")):
        env_id = f"playtable/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id, entry_point="playtable.rl.single:PlaytableEnv", kwargs={"game": game}
            )
