"""Rotator's own bot: follows the solver's best line (or skips drilling when none wins)."""

from __future__ import annotations

from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import State


class SolverAgent:
    """Plays the solver's fewest-turn line; when no win exists it plays the first legal action."""

    name = "solver"

    def choose(self, state: State, rng: Chance) -> Any:
        from playtable.games.rotator.solver import hint

        text = hint(state)
        if text is None:
            return state.legal_actions()[0]
        return state.parse_action(text)
