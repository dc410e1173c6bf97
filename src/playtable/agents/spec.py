"""Agent specs: a name optionally followed by options (`ismcts:iterations=2000,c=0.5`), and
building an agent from a spec out of a table of factories.

This module sits below every agent, so that an agent that plays another by name (ISMCTS's
rollout policy) and the package's lookup (`playtable.agents.make_agent`) share it without an
import circle.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from playtable.core.errors import BadParameter
from playtable.core.params import check_remote_values, params_from_dict, split_assignments
from playtable.core.protocol import Agent, Game


def split_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`"ismcts:iterations=200,c=0.5"` -> ("ismcts", {"iterations": "200", "c": "0.5"})."""
    name, _, rest = spec.strip().partition(":")
    options = split_assignments(p for p in rest.split(",") if p.strip()) if rest else {}
    return name.strip(), options


MAX_SPEC_LENGTH = 200
"""The longest agent spec a remote client may send (the longest real one is under 60)."""


def check_remote_spec(game: Game[Any, Any], agents: Mapping[str, Callable[[], Agent]], spec: str) -> None:
    """Raise BadParameter unless `spec` names one of `agents` and each of its options may be set
    by a remote client and lies in the bounds its field declares (`core.params`); an agent
    that is not a dataclass takes no options. Nothing is built or bound."""
    if not isinstance(spec, str) or len(spec) > MAX_SPEC_LENGTH:
        raise BadParameter(f"an agent must be a name with options, at most {MAX_SPEC_LENGTH} characters")
    agent_name, options = split_agent_spec(spec)
    if agent_name not in agents:
        raise BadParameter(f"unknown agent {agent_name[:40]!r} for {game.id} (known: {', '.join(agents)})")
    if not options:
        return
    factory = agents[agent_name]
    if not (isinstance(factory, type) and dataclasses.is_dataclass(factory)):
        raise BadParameter(f"agent '{agent_name}' takes no options")
    try:
        check_remote_values(factory, options)
    except BadParameter as err:
        raise BadParameter(f"agent '{agent_name}': {str(err).replace('parameter', 'option', 1)}") from None
    params_from_dict(factory, options)  # the agent's own checks between options


def build_agent(game: Game[Any, Any], agents: Mapping[str, Callable[[], Agent]], name: str) -> Agent:
    """The agent named by the spec `name`, made by its factory in `agents`, bound to `game`."""
    agent_name, options = split_agent_spec(name)
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
