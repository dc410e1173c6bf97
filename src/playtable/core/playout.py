"""Playing a state to its end with one agent per seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import Agent, Event, State


def play_out(
    state: State,
    agents: Sequence[Agent],
    rng: Chance,
    max_steps: int = 100_000,
    events: list[Event] | None = None,
) -> list[Any]:
    """Apply agents' choices until the game ends; returns the actions played. Events are
    appended to `events` when a list is given."""
    actions: list[Any] = []
    for _ in range(max_steps):
        if state.is_terminal:
            return actions
        action = agents[state.current_player].choose(state, rng)
        happened = state.apply(action)
        if events is not None:
            events.extend(happened)
        actions.append(action)
    raise RuntimeError(f"{state.game_id}: no end after {max_steps} steps")
