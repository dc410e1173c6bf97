"""Which games exist. A new game is a folder under `games/` plus one line here."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from playtable.core.errors import UnknownGame
from playtable.core.protocol import Game

_GAMES: dict[str, str] = {
    "troll": "playtable.games.troll.game:GAME",
    "rotator": "playtable.games.rotator.game:GAME",
    "stardice": "playtable.games.stardice.game:GAME",
    "wizard": "playtable.games.wizard.game:GAME",
}


def game_ids() -> list[str]:
    """Registered games, in registry order."""
    return list(_GAMES)


@cache
def get_game(game_id: str) -> Game[Any, Any]:
    if game_id not in _GAMES:
        raise UnknownGame(f"unknown game '{game_id}' (known: {', '.join(game_ids())})")
    module_name, _, attr = _GAMES[game_id].partition(":")
    game: Game[Any, Any] = getattr(importlib.import_module(module_name), attr)
    return game
