"""The multi-agent RL environments: every seat of any registered game as PettingZoo agents
(`seat_0`, `seat_1`, ...), each observing only its own seat's observation.

PettingZoo's usual entry points, for any game (and per game in `playtable.rl.envs.<game>_v0`):

* `raw_env(game, ...)`: the AEC environment itself (`PlaytableAEC`);
* `env(game, ...)`: the same with PettingZoo's standard wrappers, as its classic games ship
  it: `TerminateIllegalWrapper` (an action outside the mask ends the game, -1 for the agent
  that played it), `AssertOutOfBoundsWrapper` and `OrderEnforcingWrapper` (reset before step,
  no attribute access before reset);
* `parallel_env(game, ...)`: the Parallel API (`PlaytableParallel`), for the games whose turns
  allow it (`PARALLEL_GAMES`): each step, every seat the game waits for acts at once
  (`State.waiting_for`). In the wizard game the heroes move simultaneously (seed 003: each hero
  commits a move in secret, then all are revealed), so those commits are one parallel step; the
  solitaire games (troll, rotator) have one seat, for which both APIs are the same. Star Dice
  has none: its two players alternate throws, each landing on the table the other's last throw
  left, so there is never more than one player to move and no step to share (PettingZoo's
  `turn_based_aec_to_parallel` converts its AEC environment for a library that wants the
  Parallel API anyway).

All take the rules as elsewhere: the defaults, a named `variant`, then `params` over them.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from playtable.core.protocol import State
from playtable.core.registry import resolve_game
from playtable.rl.encoding import ILLEGAL_REWARD, Encoding, encoding_for, obs_space
from playtable.rl.single import game_params

PARALLEL_GAMES = {
    "wizard": "the heroes' moves are simultaneous (secret commits, revealed together)",
    "troll": "one seat: a parallel step is a turn",
    "rotator": "one seat: a parallel step is a turn",
}
"""Games with `parallel_env`, and why their turns allow it."""


class _Seats:
    """What the AEC and the parallel environments share: the game, its rules, the seats as
    agents, their spaces (the same objects each call, as PettingZoo's tests ask) and their
    observations with the action mask."""

    game: Any
    params: Any
    encoding: Encoding
    possible_agents: list[str]
    state: State | None

    def _setup(self, game: str, params: dict[str, Any] | None, variant: str | None) -> None:
        self.game = resolve_game(game)
        self.variant = variant
        self.params = game_params(self.game, variant, params)
        seats = self.game.num_players(self.params)
        self.possible_agents = [f"seat_{i}" for i in range(seats)]
        self.encoding = encoding_for(self.game, self.params)
        space = obs_space(self.encoding)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoding.num_actions) for a in self.possible_agents}
        self.state = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _new_game(self, seed: int | None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**62)) if seed is None else int(seed)
        self.state = self.game.new_state(self.params, game_seed)

    def _observation(self, agent: str, legal: dict[int, Any]) -> dict[str, np.ndarray]:
        assert self.state is not None
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        for i in legal:
            mask[i] = 1
        seat = self.possible_agents.index(agent)
        return {"observation": self.encoding.encode(self.state.observation(seat)), "action_mask": mask}

    def _render(self, seat: int) -> str | None:
        if getattr(self, "render_mode", None) == "ansi" and self.state is not None:
            return json.dumps(self.state.observation(seat), indent=1)
        return None


class PlaytableAEC(_Seats, AECEnv):
    """Every seat of a game as PettingZoo agents `seat_0`, `seat_1`, ... taking turns as the
    game's `current_player` says (seats may act several times in a row). Each agent observes only
    its own `observation(seat)`; the mask of an agent not to move is all zeros. Rewards are the
    returns at the end; an action outside the mask ends the game with -1 for that agent."""

    metadata = {"render_modes": ["ansi"], "name": "playtable_v0", "is_parallelizable": False}

    def __init__(self, game: str, params: dict[str, Any] | None = None, render_mode: str | None = None,
                 variant: str | None = None) -> None:
        super().__init__()
        self._setup(game, params, variant)
        self.metadata = {**self.metadata, "name": f"playtable_{self.game.id}_v0"}
        self.render_mode = render_mode

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None
        to_move = agent == self.agent_selection and not self.state.is_terminal
        return self._observation(agent, self.encoding.legal_map(self.state) if to_move else {})

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_game(seed)
        assert self.state is not None
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
        return self._render(self.possible_agents.index(self.agent_selection) if self.agent_selection else 0)

    def close(self) -> None:
        pass


class PlaytableParallel(_Seats, ParallelEnv):
    """Every seat of a game as PettingZoo agents in the Parallel API: each step, every seat the
    game waits for (`State.waiting_for`: in the wizard game, every hero yet to commit a move)
    gets a mask and acts; the others' masks are all zeros and their actions are ignored. The
    actions of one step are applied in the order the game takes them (secret commits, so none
    of them sees another), each observation is taken before any of them. Rewards are the
    returns at the end; an action outside the mask ends the game with -1 for that agent."""

    metadata = {"render_modes": ["ansi"], "name": "playtable_v0"}

    def __init__(self, game: str, params: dict[str, Any] | None = None, render_mode: str | None = None,
                 variant: str | None = None) -> None:
        self._setup(game, params, variant)
        self.metadata = {**self.metadata, "name": f"playtable_{self.game.id}_v0"}
        self.render_mode = render_mode
        self.agents: list[str] = []
        self._legal: dict[str, dict[int, Any]] = {}

    def _plan(self) -> None:
        """The legal actions of every seat the game waits for, each in the position where it
        will play: after the seats before it in the game's order have committed (their choice
        does not change its options, the commits being secret: the first legal one stands in)."""
        assert self.state is not None
        self._legal = {}
        if self.state.is_terminal:
            return
        waiting = set(self.state.waiting_for())
        probe = self.state
        while not probe.is_terminal and probe.current_player in waiting:
            seat = probe.current_player
            legal = self.encoding.legal_map(probe)
            self._legal[self.possible_agents[seat]] = legal
            waiting.discard(seat)
            if not waiting or not legal:
                break
            if probe is self.state:
                probe = self.state.clone()
            probe.apply(legal[min(legal)])

    def _observations(self) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        observations = {a: self._observation(a, self._legal.get(a, {})) for a in self.possible_agents}
        infos = {a: {"legal_actions": [str(x) for x in self._legal.get(a, {}).values()]}
                 for a in self.possible_agents}
        return observations, infos

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self._plan()
        return self._observations()

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                    dict[str, bool], dict[str, dict[str, Any]]]:
        if self.state is None or not self.agents:
            raise RuntimeError("call reset() before step(), and again once the game has ended")
        rewards = dict.fromkeys(self.agents, 0.0)
        illegal: str | None = None
        acting = set(self._legal)
        while not self.state.is_terminal and self.possible_agents[self.state.current_player] in acting:
            agent = self.possible_agents[self.state.current_player]
            acting.discard(agent)
            action = actions.get(agent)
            chosen = None if action is None else self.encoding.legal_map(self.state).get(int(action))
            if chosen is None:
                illegal = agent
                break
            self.state.apply(chosen)
        ended = illegal is not None or self.state.is_terminal
        if illegal is not None:
            rewards[illegal] = ILLEGAL_REWARD
        elif self.state.is_terminal:
            rewards = {a: float(r) for a, r in zip(self.possible_agents, self.state.returns(), strict=True)}
        if ended:
            self._legal = {}
        else:
            self._plan()
        observations, infos = self._observations()
        if illegal is not None:
            infos[illegal]["illegal"] = True
        terminations = dict.fromkeys(self.agents, ended)
        truncations = dict.fromkeys(self.agents, False)
        if ended:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        seat = self.state.current_player if self.state is not None and not self.state.is_terminal else 0
        return self._render(seat)

    def close(self) -> None:
        pass


def game_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """A per-game module's keyword arguments (`wizard_v0.env(players=4, variant="beta")`) as
    `params`, `variant` and `render_mode`: every other keyword is a parameter of the game."""
    rest = dict(kwargs)
    params = dict(rest.pop("params", None) or {})
    params.update({k: rest.pop(k) for k in list(rest) if k not in ("variant", "render_mode")})
    return {"params": params, **rest}


def raw_env(game: str, params: dict[str, Any] | None = None, render_mode: str | None = None,
            variant: str | None = None) -> PlaytableAEC:
    """The AEC environment of every seat of `game`, without wrappers (see `PlaytableAEC`)."""
    return PlaytableAEC(game, params, render_mode, variant)


def env(game: str, params: dict[str, Any] | None = None, render_mode: str | None = None,
        variant: str | None = None) -> Any:
    """The AEC environment with PettingZoo's standard wrappers (see the module docstring)."""
    wrapped: Any = raw_env(game, params, render_mode, variant)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(game: str, params: dict[str, Any] | None = None, render_mode: str | None = None,
                 variant: str | None = None) -> PlaytableParallel:
    """The Parallel API environment of `game`, for the games in `PARALLEL_GAMES`."""
    the_game = resolve_game(game)
    if the_game.id not in PARALLEL_GAMES:
        from playtable.core.errors import BadParameter

        offered = ", ".join(sorted(PARALLEL_GAMES))
        raise BadParameter(f"{the_game.id} has no parallel environment: its players never act at once "
                           f"(those with one: {offered}); use env() or raw_env()")
    return PlaytableParallel(game, params, render_mode, variant)


aec_env = raw_env
"""The AEC environment, by its earlier name."""
