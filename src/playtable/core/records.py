"""Records (replays): game id + parameters + seed (+ rigged queues) + action texts.

Replaying a record reproduces every event exactly, because all chance comes from the state's
seeded stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playtable.core.errors import BadPosition, PlaytableError
from playtable.core.params import params_from_dict
from playtable.core.protocol import Event, State, params_as_dict
from playtable.core.registry import get_game


@dataclass
class Record:
    game: str
    params: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)
    rigged: dict[str, list[Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": "playtable-record",
            "version": 1,
            "game": self.game,
            "params": self.params,
            "seed": self.seed,
            "actions": list(self.actions),
        }
        if self.rigged:
            out["rigged"] = self.rigged
        return out

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """A record from its JSON form; BadPosition names what is missing or malformed."""
        if not isinstance(data, Mapping) or data.get("format") != "playtable-record":
            raise BadPosition("'format' must be \"playtable-record\"")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise BadPosition("'actions' must be a list of action texts")
        game, params, seed = data.get("game"), data.get("params", {}), data.get("seed")
        if not isinstance(game, str):
            raise BadPosition("'game' must be a game id")
        if not isinstance(params, Mapping):
            raise BadPosition("'params' must be an object of parameter values")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise BadPosition("'seed' must be a whole number from 0 to 2^64-1")
        rigged = data.get("rigged", {})
        if not isinstance(rigged, Mapping) or not all(isinstance(v, list) for v in rigged.values()):
            raise BadPosition("'rigged' must map queue names to lists of values")
        return cls(game, dict(params), seed, list(actions), {str(k): list(v) for k, v in rigged.items()})


def start_state(record: Record) -> State:
    game = get_game(record.game)
    params = params_from_dict(game.params_type, record.params)
    state: State = game.new_state(params, record.seed, record.rigged or None)
    return state


def replay(record: Record) -> tuple[State, list[Event]]:
    """The final state and every event, in order, of a record."""
    state = start_state(record)
    events: list[Event] = list(state.setup_events)
    for text in record.actions:
        events.extend(state.apply(state.parse_action(text)))
    return state, events


@dataclass(frozen=True)
class Step:
    """One step of a replay: the position after `index` actions, the action that led there
    (None at the start), the seat that took it, and the events it caused."""

    index: int
    action: str | None
    seat: int | None
    events: list[Event]
    state: State


def replay_steps(record: Record) -> list[Step]:
    """Every position of a record, from the start (with the setup events) to the end. An
    action that is not legal where the record has it raises BadPosition naming the step."""
    state = start_state(record)
    steps = [Step(0, None, None, list(state.setup_events), state.clone())]
    for i, text in enumerate(record.actions, start=1):
        seat = state.current_player
        try:
            events = state.apply(state.parse_action(text))
        except PlaytableError as err:
            raise BadPosition(f"action {i} of the record, {text!r}: {err}") from None
        steps.append(Step(i, text, seat, list(events), state.clone()))
    return steps


def record_of(game_id: str, params: Any, seed: int, actions: list[Any],
              rigged: Mapping[str, list[Any]] | None = None) -> Record:
    return Record(game_id, params_as_dict(params), seed, [str(a) for a in actions],
                  {k: list(v) for k, v in (rigged or {}).items()})


class Recorder:
    """The record of a game being played (a front end's): actions added as they are applied,
    taken back by undo, and saved as a record file on request."""

    def __init__(self, game_id: str, params: Any, seed: int) -> None:
        self.record = record_of(game_id, params, seed, [])

    def add(self, action: Any) -> None:
        self.record.actions.append(str(action))

    def undo(self) -> None:
        if self.record.actions:
            self.record.actions.pop()

    def save(self, path: str | Path, force: bool = True) -> Path:
        """Write the record to `path` (atomically, never through a planted symlink)."""
        import json

        from playtable.core.files import check_new_output, write_atomic

        check_new_output(path, force)
        write_atomic(path, json.dumps(self.record.to_json(), indent=1) + "\n")
        return Path(path)
