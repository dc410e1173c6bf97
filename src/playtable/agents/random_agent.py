"""The uniformly random player: the baseline every game gets for free."""

from __future__ import annotations

from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import State


class RandomAgent:
    name = "random"

    def choose(self, state: State, rng: Chance) -> Any:
        return rng.choice(state.sample_actions(rng, 64))
