"""Reinforcement-learning interfaces to the games: Gymnasium and PettingZoo environments with
action masks (the `rl` extra: numpy, gymnasium, pettingzoo).

Floor: beside `lab`, `tui` and `web`; it may import `agents`, `games` (only through the protocol
and the registry) and `core`, never `lab` or another front end.

* `encoding`: observations and actions as fixed-size arrays, per game;
* `single`: one seat as a Gymnasium environment (`PlaytableEnv`);
* `multi`: every seat as a PettingZoo AEC environment (`PlaytableAEC`, `aec_env`);
* `registration`: `register_envs()` for `gymnasium.make`.
"""
