"""Game-independent players, and the lookup of any game's players by name.

An agent is named by a spec: its name, optionally followed by options,
`ismcts:iterations=2000,c=0.5` or `greedy:samples=16`. Options are the fields of the agent's
dataclass, read like game parameters.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from playtable.agents.greedy import GreedyAgent
from playtable.agents.ismcts import IsmctsAgent
from playtable.agents.random_agent import RandomAgent
from playtable.core.errors import BadParameter
from playtable.core.params import params_from_dict, split_assignments
from playtable.core.protocol import Agent, Game

GENERIC_AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "ismcts": IsmctsAgent,
}


def available_agents(game: Game[Any, Any]) -> Mapping[str, Callable[[], Agent]]:
    """Every agent name usable for `game`: the generic ones, then the game's own bots."""
    return {**GENERIC_AGENTS, **game.bots()}


def split_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`"ismcts:iterations=200,c=0.5"` -> ("ismcts", {"iterations": "200", "c": "0.5"})."""
    name, _, rest = spec.strip().partition(":")
    options = split_assignments(p for p in rest.split(",") if p.strip()) if rest else {}
    return name.strip(), options


def make_agent(game: Game[Any, Any], name: str) -> Agent:
    """The agent named by `name` (a spec, see the module documentation), bound to `game`."""
    agent_name, options = split_agent_spec(name)
    agents = available_agents(game)
    if agent_name not in agents:
        raise BadParameter(f"unknown agent '{agent_name}' for {game.id} (known: {', '.join(agents)})")
    factory = agents[agent_name]
    if options:
        if not (isinstance(factory, type) and dataclasses.is_dataclass(factory)):
            raise BadParameter(f"agent '{agent_name}' takes no options")
        public = {f.name for f in dataclasses.fields(factory) if f.init and not f.name.startswith("_")}
        for key in options:
            if key not in public:
                raise BadParameter(
                    f"agent '{agent_name}' has no option '{key}' (known: {', '.join(sorted(public))})"
                )
        agent: Agent = params_from_dict(factory, options)
    else:
        agent = factory()
    bind = getattr(agent, "bind", None)
    if callable(bind):
        bind(game)
    return agent
