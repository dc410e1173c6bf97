"""Game-independent players, and the lookup of any game's players by name.

An agent is named by a spec: its name, optionally followed by options,
`ismcts:iterations=2000,c=0.5` or `greedy:samples=16`. Options are the fields of the agent's
dataclass, read like game parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from playtable.agents.greedy import GreedyAgent
from playtable.agents.ismcts import IsmctsAgent
from playtable.agents.levels import LADDERS, Level, ladder, level_agents
from playtable.agents.random_agent import RandomAgent
from playtable.agents.spec import build_agent, check_remote_spec, split_agent_spec
from playtable.core.protocol import Agent, Game

__all__ = ["GENERIC_AGENTS", "LADDERS", "PERSON", "Level", "available_agents",
           "check_remote_agent_spec", "ladder", "make_agent", "split_agent_spec"]

PERSON = "person"
"""Not an agent: the label of a seat a person plays, in a playtest's seats and a lab row's
`agents` (a person's games are lab rows too: `lab/people.py`); `make_agent` knows no such name."""

GENERIC_AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "ismcts": IsmctsAgent,
}


def available_agents(game: Game[Any, Any]) -> Mapping[str, Callable[[], Agent]]:
    """Every agent name usable for `game`: the generic ones, the game's own bots, then its
    ladder's levels (`levels.py`), each played by a spec of the others."""
    agents = {**GENERIC_AGENTS, **game.bots()}
    return {**agents, **level_agents(game, agents)}


def make_agent(game: Game[Any, Any], name: str) -> Agent:
    """The agent named by `name` (a spec, see the module documentation), bound to `game`."""
    return build_agent(game, available_agents(game), name)


def check_remote_agent_spec(game: Game[Any, Any], spec: str) -> None:
    """Raise BadParameter unless a remote client may seat the agent `spec` at `game`: a known
    agent whose options are each declared and in bounds (see `playtable.core.params`), so
    that no bot move runs unbounded (`ismcts:iterations=1000000000` is refused)."""
    check_remote_spec(game, available_agents(game), spec)
