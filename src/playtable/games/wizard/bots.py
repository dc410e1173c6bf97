"""Bots for The Wizard's Labyrinth (heuristic bots: see BOTS in RULES.md)."""

from __future__ import annotations

from collections.abc import Callable

from playtable.core.protocol import Agent
from playtable.games.wizard.state import START_HP, WizardState


def evaluate(st: WizardState, seat: int) -> float:
    """A rough value in [0, 1] for `seat`: the heroes' progress (keys, hit points, a door that is
    open) against the wizard's strength."""
    if st.is_terminal:
        return float(st.returns()[seat])
    living = st.living()
    if not living:
        return 1.0 if seat == 0 else 0.0
    health = sum(h.hp for h in living) / (START_HP * len(st.heroes))
    keys = min(st.keys_found, st.params.keys_needed) / st.params.keys_needed
    heroes = 0.15 + 0.35 * health + 0.4 * keys + (0.1 if st.door_open() else 0.0)
    heroes = max(0.0, min(1.0, heroes))
    return 1.0 - heroes if seat == 0 else heroes


BOTS: dict[str, Callable[[], Agent]] = {}
