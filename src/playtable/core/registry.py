"""Which games exist. A new game is a folder under `games/` plus one line here."""

from __future__ import annotations

import importlib
from functools import cache
from importlib import resources
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


def resolve_game(ref: str) -> Game[Any, Any]:
    """A registered game id, or `module:attribute` naming a Game instance (for games under
    development and tests)."""
    if ":" not in ref:
        return get_game(ref)
    module_name, _, attr = ref.partition(":")
    try:
        game = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as err:
        raise UnknownGame(f"cannot load game '{ref}': {err}") from None
    if not isinstance(game, Game):
        raise UnknownGame(f"'{ref}' is not a Game")
    return game


@cache
def player_rules(game_id: str) -> str:
    """The game's rules for players (`HOW_TO_PLAY.md` in its package, plain markdown), the one
    text that every front end shows; RULES.md stays the designers' cited reference."""
    module_name = _GAMES[game_id].partition(":")[0] if game_id in _GAMES else ""
    get_game(game_id)  # the same clear error for an unknown id
    package = module_name.rpartition(".")[0]
    return resources.files(package).joinpath("HOW_TO_PLAY.md").read_text(encoding="utf-8")
