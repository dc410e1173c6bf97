"""Star Dice (seed 002): dice thrown onto a multitouch table connect into scoring formations.

The game's public face: what a front end, the real-table input, the lab or the command line may
use of Star Dice beyond the protocol and the registry (docs/architecture.md, "The game
boundary"). Everything else in this package is the game's own and may change without notice;
`tests/test_architecture.py` fails on any import of one of its modules from outside the game.
"""

from playtable.games.stardice.actions import SEAT_NAMES, Call, Throw, die_names
from playtable.games.stardice.formation import (
    TABLE_DEPTH,
    TABLE_WIDTH,
    FormationEngine,
    FormationParams,
    Layout,
    Sighting,
)
from playtable.games.stardice.game import GAME
from playtable.games.stardice.live import DieSpec, LiveDice, check_die
from playtable.games.stardice.live_match import LiveMatch
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.params import VARIANTS, StarDiceParams
from playtable.games.stardice.render import render_table, table_summary
from playtable.games.stardice.scoring import DieInfo, ScoringRules, TableScore, scoring_shapes

__all__ = [
    # the game, its parameters (and named variants), positions and actions
    "GAME", "VARIANTS", "StarDiceParams", "StarDiceState", "SEAT_NAMES", "Call", "Throw",
    "die_names",
    # the table and the formations the dice make on it (real-table tracking reads them)
    "TABLE_DEPTH", "TABLE_WIDTH", "FormationEngine", "FormationParams", "Layout", "Sighting",
    "DieInfo", "ScoringRules", "TableScore",
    # a scored table in public terms: its shapes, members, owner, points (front ends, the log)
    "scoring_shapes",
    # live tables: real dice as a device reports them, and a match fed by them
    "DieSpec", "LiveDice", "LiveMatch", "check_die",
    # pictures and summaries of a table (`playtable stardice`)
    "render_table", "table_summary",
]
