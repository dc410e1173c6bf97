"""A table's past rebuilt from its record: the replay viewer's steps and the full position at a
step. Both are seconds of work on a long game (a 729-step wizard game's replay is 7 MB), so they
run in the server's `public` worker (`bots.Workers`), never on the event loop, and come back as
encoded JSON ready to send (`app.py` caches them: a finished table's past never changes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from playtable.core.params import params_from_dict
from playtable.core.position import position_to_json
from playtable.core.presentation import revealed
from playtable.core.protocol import Event, State
from playtable.core.registry import get_game
from playtable.core.story import tell


def start_state(game_id: str, params: Mapping[str, Any], seed: int) -> State:
    """The first state of a game with these settings and seed (a stored table's start)."""
    game = get_game(game_id)
    state: State = game.new_state(params_from_dict(game.params_type, params), seed)
    return state


def replay_steps(start: State, actions: list[tuple[int | None, str]], seat: int | None,
                 hidden_texts: bool, stand_ins: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """Every position from `seat`'s view (None: the public view), from the start: step 0 is the
    setup, step k the position after k actions. `hidden_texts`: the game is still running, so
    each action's text is as `seat` may read it (`State.action_for`, decided by the position the
    table has reached, as the table's own log does). `stand_ins`: step -> the bot that played a
    person's turn there (their clock ran out), marked `stand_in` on that step."""
    state = start.clone()
    view = (lambda s: s.public_observation()) if seat is None else (lambda s: s.observation(seat))
    steps = [{"step": 0, "seat": None, "action": None,
              "events": [e.to_json() for e in state.events_for(list(state.setup_events), seat)],
              "observation": view(state)}]
    story_events: list[list[Event]] = []
    for k, (who, text) in enumerate(actions, start=1):
        events = list(state.apply(state.parse_action(text)))
        story_events.append(events)
        steps.append({"step": k, "seat": who, "action": text,
                      "events": [e.to_json() for e in state.events_for(events, seat)],
                      "observation": view(state)})
        if stand_ins and k in stand_ins:
            steps[-1]["stand_in"] = stand_ins[k]
    if hidden_texts:
        for entry in steps[1:]:
            entry["action"] = state.action_for(entry["action"], entry["seat"], seat)
    if state.is_terminal:  # the last step shows the end screen's reveal and story
        log: list[tuple[int | None, str | None, list[Event]]] = [(None, None, list(start.setup_events))]
        log += [(who, text, story_events[k]) for k, (who, text) in enumerate(actions)]
        steps[-1]["end"] = {"revealed": revealed(state), "story": tell(state, log)}
    return steps


def encode_replay(game_id: str, params: dict[str, Any], seed: int,
                  actions: list[tuple[int | None, str]], seat: int | None, hidden_texts: bool,
                  stand_ins: dict[int, str] | None = None) -> bytes:
    steps = replay_steps(start_state(game_id, params, seed), actions, seat, hidden_texts, stand_ins)
    return json.dumps({"steps": steps}, separators=(",", ":")).encode("utf-8")


def encode_position(game_id: str, params: dict[str, Any], seed: int, actions: list[str]) -> bytes:
    """The full position after `actions` (the record's first k), as `playtable state` reads it."""
    state = start_state(game_id, params, seed)
    for text in actions:
        state.apply(state.parse_action(text))
    return (json.dumps(position_to_json(state), indent=1) + "\n").encode("utf-8")
