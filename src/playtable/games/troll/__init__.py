"""Angry Troll versus Magic Bridge (seed 000): the solitaire card game of a troll on a bridge.

The game's public face: what a front end, the lab or the command line may use of the troll game
beyond the protocol and the registry (docs/architecture.md, "The game boundary"). Everything
else in this package is the game's own and may change without notice; `tests/test_architecture.py`
fails on any import of one of its modules from outside the game.
"""

from playtable.games.troll.actions import ITEM_VERBS
from playtable.games.troll.game import GAME
from playtable.games.troll.params import TrollParams
from playtable.games.troll.rules import TrollState
from playtable.games.troll.solver import Verdict, solve_deal

__all__ = [
    # the game, its parameters and positions
    "GAME", "TrollParams", "TrollState",
    # the clairvoyant solver of a whole deal (`playtable troll solve`, `claims --luck`)
    "Verdict", "solve_deal",
    # the action verbs that spend an item (a club, a diamond or a spade, seed 000 §7.1)
    "ITEM_VERBS",
]
