"""Reinforcement-learning interfaces to the games: Gymnasium and PettingZoo environments with
action masks (the `rl` extra: numpy, gymnasium, pettingzoo).

Floor: beside `lab`, `tui` and `web`; it may import `agents`, `games` (only through the protocol
and the registry) and `core`, never `lab` or another front end.

* `encoding`: observations and actions as fixed-size arrays, per game;
* `single`: one seat as a Gymnasium environment (`PlaytableEnv`);
* `multi`: every seat as PettingZoo agents: `raw_env` (AEC), `env` (AEC with PettingZoo's
  standard wrappers) and `parallel_env` (the Parallel API, for the wizard game's simultaneous
  hero moves and the one-seat games);
* `envs`: the same per game, in PettingZoo's layout (`from playtable.rl.envs import wizard_v0`);
* `registration`: the ids `playtable/Troll-v0`, `Rotator-v0`, `StarDice-v0` and `Wizard-v0`,
  registered with `gymnasium.make` when this package is imported (`variant=` and `params=` are
  keyword arguments of each: `gymnasium.make("playtable/Troll-v0", variant="plus-one")`).
"""

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
except ImportError:
    raise ImportError("playtable.rl needs the 'rl' extra: pip install 'playtable[rl]'") from None

from playtable.rl.registration import register_envs

register_envs()
