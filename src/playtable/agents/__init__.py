"""Game-independent players, and the lookup of any game's players by name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from playtable.agents.random_agent import RandomAgent
from playtable.core.errors import BadParameter
from playtable.core.protocol import Agent, Game

GENERIC_AGENTS: dict[str, Callable[[], Agent]] = {"random": RandomAgent}


def available_agents(game: Game[Any, Any]) -> Mapping[str, Callable[[], Agent]]:
    """Every agent name usable for `game`: the generic ones, then the game's own bots."""
    return {**GENERIC_AGENTS, **game.bots()}


def make_agent(game: Game[Any, Any], name: str) -> Agent:
    agents = available_agents(game)
    if name not in agents:
        raise BadParameter(f"unknown agent '{name}' for {game.id} (known: {', '.join(agents)})")
    return agents[name]()
