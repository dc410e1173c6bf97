"""The multi-agent RL environment: every seat of any registered game as a PettingZoo AEC
environment (agents `seat_0`, `seat_1`, ...), each observing only its own seat's observation.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from playtable.core.params import params_from_dict
from playtable.core.protocol import State
from playtable.core.registry import resolve_game
from playtable.rl.encoding import ILLEGAL_REWARD, encoding_for, obs_space


def aec_env(game: str, params: dict[str, Any] | None = None, render_mode: str | None = None) -> Any:
    """A PettingZoo AEC environment of every seat of `game` (see `PlaytableAEC`)."""
    return PlaytableAEC(game, params, render_mode)


class PlaytableAEC(AECEnv):
    """Every seat of a game as PettingZoo agents `seat_0`, `seat_1`, ... taking turns as the
    game's `current_player` says (seats may act several times in a row). Each agent observes only
    its own `observation(seat)`; the mask of an agent not to move is all zeros. Rewards are the
    returns at the end; an action outside the mask ends the game with -1 for that agent."""

    metadata = {"render_modes": ["ansi"], "name": "playtable_v0", "is_parallelizable": False}

    def __init__(
        self, game: str, params: dict[str, Any] | None = None, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.game = resolve_game(game)
        self.params = params_from_dict(self.game.params_type, params or {})
        seats = self.game.num_players(self.params)
        self.possible_agents = [f"seat_{i}" for i in range(seats)]
        self.encoding = encoding_for(self.game, self.params)
        space = obs_space(self.encoding)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoding.num_actions) for a in self.possible_agents}
        self.render_mode = render_mode
        self.state: State | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.state.is_terminal:
            for i in self.encoding.legal_map(self.state):
                mask[i] = 1
        return {"observation": self.encoding.encode(self.state.observation(seat)), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**62)) if seed is None else int(seed)
        self.state = self.game.new_state(self.params, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def step(self, action: Any) -> None:
        assert self.state is not None
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        chosen = self.encoding.legal_map(self.state).get(int(action))
        if chosen is None:
            self.rewards[agent] = ILLEGAL_REWARD
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {"illegal": True}
        else:
            self.state.apply(chosen)
            if self.state.is_terminal:
                returns = self.state.returns()
                for i, name in enumerate(self.possible_agents):
                    if name in self.rewards:
                        self.rewards[name] = float(returns[i])
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.state is not None:
            seat = self.possible_agents.index(self.agent_selection) if self.agent_selection else 0
            return json.dumps(self.state.observation(seat), indent=1)
        return None

    def close(self) -> None:
        pass
