"""The game protocol, seeded chance, parameters, positions, records and the registry."""

from playtable.core.chance import Chance
from playtable.core.errors import (
    BadParameter,
    BadPosition,
    IllegalAction,
    PlaytableError,
    UnknownGame,
)
from playtable.core.protocol import TERMINAL, Action, Agent, Event, Game, State, params_as_dict

__all__ = [
    "TERMINAL",
    "Action",
    "Agent",
    "BadParameter",
    "BadPosition",
    "Chance",
    "Event",
    "Game",
    "IllegalAction",
    "PlaytableError",
    "State",
    "UnknownGame",
    "params_as_dict",
]
