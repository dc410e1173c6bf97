"""A finished game's story, told from its log for an end screen: the key moments the game
names (`Presentation.story_kinds`), who did what (each seat's actions and key moments), and the
game's own figures in words (`Presentation.story_figures`). Built from the public side of the log only
(`events_for(..., None)`), so it says nothing a watcher could not read; front ends show it once
the game is over, next to what `core.presentation.revealed` uncovers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from playtable.core.presentation import presentation
from playtable.core.protocol import Event, State

MAX_MOMENTS = 40
"""Key moments kept (the first half and the last half of them, when a long game has more)."""
MAX_FIGURES = 16


def _actor(event: Event, seat: int | None) -> int | None:
    """Whom a moment is about: the seat its data names (a hero hurt on another's move), nobody
    for the result (its data names a winner), else the seat whose action it followed."""
    if "winner" in event.data:
        return None
    for key in ("hero", "seat", "player"):
        value = event.data.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return seat


def tell(state: State, log: Iterable[tuple[int | None, str | None, Sequence[Event]]]) -> dict[str, Any]:
    """The story of the game that reached `state` through `log` (step by step: the seat that
    acted, its action text, its events; step 0 the setup). Empty before the end."""
    if not state.is_terminal:
        return {}
    kinds = presentation(state).story_kinds
    moments: list[dict[str, Any]] = []
    actions = [0] * state.num_players
    tallies: list[dict[str, int]] = [{} for _ in range(state.num_players)]
    for step, (seat, action, events) in enumerate(log):
        if action is not None and seat is not None and 0 <= seat < state.num_players:
            actions[seat] += 1
        for event in state.events_for(list(events), None):
            if event.kind not in kinds:
                continue
            who = _actor(event, seat)
            moments.append({"step": step, "seat": who, "kind": event.kind, "text": event.text})
            if who is not None and 0 <= who < state.num_players:
                tallies[who][event.kind] = tallies[who].get(event.kind, 0) + 1
    left_out = max(0, len(moments) - MAX_MOMENTS)
    if left_out:
        half = MAX_MOMENTS // 2
        moments = moments[:half] + moments[-half:]
    figures = presentation(state).story_figures()
    return {
        "moments": moments,
        "moments_left_out": left_out,
        "seats": [{"seat": i, "actions": actions[i], "moments": tallies[i]}
                  for i in range(state.num_players)],
        "figures": figures[:MAX_FIGURES],
    }
