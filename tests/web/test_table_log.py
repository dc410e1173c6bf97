"""A table's log keeps each step's events packed (docs/web.md "Sustained load"): the
events read back are the events played, for every game, and once a collection has seen them a
long log and record hold no object the cyclic collector tracks."""

from __future__ import annotations

import gc
import random

import pytest

from playtable.core.protocol import Event
from playtable.core.registry import game_ids
from playtable.web.server.tables.replays import start_state
from playtable.web.server.tables.table_request import row_from_request
from playtable.web.server.tables.tables import Step, Table, fresh_start


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
    parts = [part for part in step.entry if part is not None]
    assert len(parts) == 3 and not any(gc.is_tracked(part) for part in parts), \
        "the seat, the action and the packed events"


@pytest.mark.parametrize("game", game_ids())
def test_a_played_tables_log_and_record_are_untracked_after_a_collection(game: str) -> None:
    """What a table keeps an action (its log step and its record's entry) is plain tuples,
    which the collector stops tracking once a collection has seen them: only the table's state
    stays for collections to scan, however long the game (collector.py)."""
    seats = {"wizard": 4, "stardice": 2}.get(game, 1)
    row, _tokens, _mine = row_from_request({"game": game, "seed": 5, "seats": [{"kind": "human"}] * seats})
    table, rng = Table(row, fresh_start(row)), random.Random(5)
    while not table.state.is_terminal and table.step < 60:
        canonical, after, events = table.try_action(str(rng.choice(table.state.legal_actions())))
        seat = table.state.current_player
        stand_in = None if table.step % 7 else "random"
        table.commit(seat if seat >= 0 else None, canonical, after, events, stand_in)
    assert table.step >= 5
    gc.collect()
    log, record = table._steps, table.row.actions
    assert len(log) == table.step + 1 and len(record) == table.step
    assert [gc.is_tracked(entry) for entry in log] == [False] * len(log)
    assert [gc.is_tracked(entry) for entry in record] == [False] * len(record)
    # and the log reads back as the table played it
    assert [s.action for s in table.steps[1:]] == [text for _seat, text in record]
    assert table.last_step.action == record[-1][1]


def test_events_marshal_cannot_pack_stay_as_they_are() -> None:
    """Event data is JSON-ready by the protocol; a game's own object in it still keeps its log."""

    class Odd:
        pass

    odd = Event("odd", "Something odd.", {"what": Odd()})
    step = Step(None, None, [odd])
    assert step.events == [odd] and step.events[0].data["what"] is odd.data["what"]
