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
from playtable.agents.random_agent import RandomAgent
from playtable.agents.spec import build_agent, split_agent_spec
from playtable.core.protocol import Agent, Game

__all__ = ["GENERIC_AGENTS", "available_agents", "make_agent", "split_agent_spec"]

GENERIC_AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "ismcts": IsmctsAgent,
}


def available_agents(game: Game[Any, Any]) -> Mapping[str, Callable[[], Agent]]:
    """Every agent name usable for `game`: the generic ones, then the game's own bots."""
    return {**GENERIC_AGENTS, **game.bots()}


def make_agent(game: Game[Any, Any], name: str) -> Agent:
    """The agent named by `name` (a spec, see the module documentation), bound to `game`."""
    return build_agent(game, available_agents(game), name)
