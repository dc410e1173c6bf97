"""Records (replays): game id + parameters + seed (+ rigged queues) + action texts.

Replaying a record reproduces every event exactly, because all chance comes from the state's
seeded stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from playtable.core.errors import BadPosition
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
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        if data.get("format") != "playtable-record":
            raise BadPosition("'format' must be \"playtable-record\"")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise BadPosition("'actions' must be a list of action texts")
        return cls(
            game=str(data["game"]),
            params=dict(data.get("params", {})),
            seed=int(data["seed"]),
            actions=list(actions),
            rigged={k: list(v) for k, v in dict(data.get("rigged", {})).items()},
        )


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


def record_of(game_id: str, params: Any, seed: int, actions: list[Any],
              rigged: Mapping[str, list[Any]] | None = None) -> Record:
    return Record(game_id, params_as_dict(params), seed, [str(a) for a in actions],
                  {k: list(v) for k, v in (rigged or {}).items()})
