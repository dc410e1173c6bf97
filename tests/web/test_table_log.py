"""A table's log keeps each step's events packed (docs/web.md "Sustained load"): the
events read back are the events played, for every game, and a long log adds no object the
cyclic collector scans but the step itself."""

from __future__ import annotations

import gc
import random

import pytest

from playtable.core.protocol import Event
from playtable.core.registry import game_ids
from playtable.web.server.tables.replays import start_state
from playtable.web.server.tables.tables import Step


def _played(game: str, seed: int, limit: int = 200) -> list[list[Event]]:
    """The events of a random game's actions, as the games give them."""
    state, rng, steps = start_state(game, {}, seed), random.Random(seed), []
    while not state.is_terminal and len(steps) < limit:
        steps.append(list(state.apply(rng.choice(state.legal_actions()))))
    return steps


@pytest.mark.parametrize("game", game_ids())
def test_a_step_gives_back_the_events_played(game: str) -> None:
    for events in _played(game, 3):
        step = Step(0, "action", events, "stand-in")
        assert step.events == events
        assert [type(e.data) for e in step.events] == [type(e.data) for e in events]
        assert (step.seat, step.action, step.stand_in) == (0, "action", "stand-in")


def test_packed_events_are_not_objects_the_collector_scans() -> None:
    events = [event for step in _played("wizard", 1) for event in step]
    assert any(gc.is_tracked(e) for e in events)
    step = Step(1, "play", events)
    parts = [part for part in gc.get_referents(step) if part is not None and part is not Step]
    assert len(parts) == 3 and not any(gc.is_tracked(part) for part in parts), \
        "the seat, the action and the packed events"


def test_events_marshal_cannot_pack_stay_as_they_are() -> None:
    """Event data is JSON-ready by the protocol; a game's own object in it still keeps its log."""

    class Odd:
        pass

    odd = Event("odd", "Something odd.", {"what": Odd()})
    step = Step(None, None, [odd])
    assert step.events == [odd] and step.events[0].data["what"] is odd.data["what"]
