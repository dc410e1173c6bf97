"""The Wizard's Labyrinth: the wizard-versus-heroes board game of seed 003.

The game's public face: what a front end, the lab or the command line may use of the game beyond
the protocol and the registry (docs/architecture.md, "The game boundary"). Nothing outside the
game needs more than these yet; everything else in this package is the game's own, and
`tests/test_architecture.py` fails on any import of one of its modules from outside the game.
"""

from playtable.games.wizard.game import GAME
from playtable.games.wizard.params import WizardParams
from playtable.games.wizard.state import WizardState

__all__ = ["GAME", "WizardParams", "WizardState"]
