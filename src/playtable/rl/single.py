"""The single-agent RL environment: one seat of any registered game as a Gymnasium `Env`, the
other seats played by agents (`playtable.agents`). Observations and the action mask come from
the game's encoding (`rl.encoding`); the reward is the seat's return at the end of the game.

The rules are the game's defaults, a named variant (`variant="plus-one"`) and explicit values
over either (`params={"extra_end_bricks": 2}`), as everywhere else in playtable; both are
keyword arguments of `gymnasium.make` too: `gymnasium.make("playtable/Troll-v0",
variant="plus-one")`.

Standard tools need no wrapper: the mask is in the observation, in `info["action_mask"]` and
from `action_masks()` (what sb3-contrib's MaskablePPO asks for). `shaped_reward=True` adds
potential-based shaping (Ng, Harada & Russell 1999) with the game's own position value
(`Game.evaluate`, the troll's heuristic score of the bridge): each step earns
Phi(after) - Phi(before), with Phi = 0 once the game ends, so an agent gets signal long before
its first win while the order of policies by return is unchanged (the shaping sums to
-Phi(start) in every episode).
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.errors import IllegalAction
from playtable.core.params import params_from_dict, resolve_params
from playtable.core.protocol import State
from playtable.core.registry import resolve_game
from playtable.rl.encoding import ILLEGAL_REWARD, encoding_for, obs_space


def game_params(game: Any, variant: str | None, params: dict[str, Any] | None) -> Any:
    """The game's parameters: its defaults, then the named `variant`'s, then `params`."""
    base = resolve_params(game.params_type, game.variants, variant)
    return params_from_dict(game.params_type, dict(params or {}), base)


class PlaytableEnv(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """One seat of a game as a Gymnasium environment; other seats are played by `opponents`
    (an agent spec). `reset(seed=s)` deals game seed s, so episodes are reproducible."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        game: str = "troll",
        params: dict[str, Any] | None = None,
        seat: int = 0,
        opponents: str = "random",
        render_mode: str | None = None,
        shaped_reward: bool = False,
        variant: str | None = None,
    ) -> None:
        self.game = resolve_game(game)
        self.variant = variant
        self.params = game_params(self.game, variant, params)
        self.seat = seat
        seats = self.game.num_players(self.params)
        if not 0 <= seat < seats:
            raise IllegalAction(f"{self.game.id} has seats 0..{seats - 1}")
        self.opponents = [make_agent(self.game, opponents) for _ in range(seats)]
        self.encoding = encoding_for(self.game, self.params)
        self.observation_space: spaces.Space[Any] = obs_space(self.encoding)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.render_mode = render_mode
        self.shaped_reward = shaped_reward
        self._potential = 0.0
        self.state: State | None = None
        self._legal: dict[int, Any] = {}
        self._opponent_rng = Chance(0)

    def _observe(self) -> dict[str, np.ndarray]:
        assert self.state is not None
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        self._legal = (
            self.encoding.legal_map(self.state)
            if not self.state.is_terminal and self.state.current_player == self.seat
            else {}
        )
        for i in self._legal:
            mask[i] = 1
        return {"observation": self.encoding.encode(self.state.observation(self.seat)), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        return {"legal_actions": [str(a) for a in self._legal.values()], "action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """The legal actions of the seat as booleans (MaskablePPO's `action_masks()`)."""
        mask = np.zeros(self.encoding.num_actions, dtype=bool)
        mask[list(self._legal)] = True
        return mask

    def _phi(self) -> float:
        assert self.state is not None
        if self.state.is_terminal:
            return 0.0
        return float(self.game.evaluate(self.state, self.seat))

    def _others_play(self) -> None:
        assert self.state is not None
        while not self.state.is_terminal and self.state.current_player != self.seat:
            player = self.state.current_player
            self.state.apply(self.opponents[player].choose(self.state, self._opponent_rng))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62)) if seed is None else int(seed)
        self.state = self.game.new_state(self.params, game_seed)
        self._opponent_rng = Chance(game_seed).fork(0x0770)
        self._others_play()
        obs = self._observe()
        self._potential = self._phi() if self.shaped_reward else 0.0
        return obs, self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        chosen = self._legal.get(int(action))
        if chosen is None:
            obs = self._observe()
            return obs, ILLEGAL_REWARD, True, False, {**self._info(), "illegal": True}
        self.state.apply(chosen)
        self._others_play()
        obs = self._observe()
        done = self.state.is_terminal
        reward = float(self.state.returns()[self.seat]) if done else 0.0
        if self.shaped_reward:
            potential = self._phi()
            reward += potential - self._potential
            self._potential = potential
        return obs, reward, done, False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.state is not None:
            return json.dumps(self.state.observation(self.seat), indent=1)
        return None
