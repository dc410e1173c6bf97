"""PettingZoo environments of the wizard-versus-heroes game (game `wizard`): `env()`, the AEC
environment with PettingZoo's standard wrappers, `raw_env()`, the AEC environment, and
`parallel_env()`, the Parallel API (the heroes move at once).
Keyword arguments: the game's parameters by name, `variant`, `params` (a dict) and
`render_mode` (see `playtable.rl.multi`)."""

from __future__ import annotations

from typing import Any

from playtable.rl import multi

GAME = "wizard"


def raw_env(**kwargs: Any) -> multi.PlaytableAEC:
    return multi.raw_env(GAME, **multi.game_kwargs(kwargs))


def env(**kwargs: Any) -> Any:
    return multi.env(GAME, **multi.game_kwargs(kwargs))


def parallel_env(**kwargs: Any) -> multi.PlaytableParallel:
    return multi.parallel_env(GAME, **multi.game_kwargs(kwargs))
