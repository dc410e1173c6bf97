"""Rotator (seed 004): rules, boards, solver and render helpers.

The game's public face: what a front end, the lab or the command line may use of Rotator beyond
the protocol and the registry (docs/architecture.md, "The game boundary"). Everything else in
this package is the game's own and may change without notice; `tests/test_architecture.py`
fails on any import of one of its modules from outside the game.
"""

from playtable.games.rotator.board import (
    BOARD_TEXT_MAX,
    SAMPLE_NAMES,
    board_problems,
    cell_name,
    load_board,
    parse_cell,
)
from playtable.games.rotator.game import GAME
from playtable.games.rotator.render import GLYPHS, LEGEND, BoardView
from playtable.games.rotator.rules import HINT_MAX_STATES, RotatorParams, RotatorState
from playtable.games.rotator.solver import solve_state
from playtable.games.rotator.verdict import board_verdict

__all__ = [
    # the game, its parameters and positions
    "GAME", "RotatorParams", "RotatorState",
    # boards: the samples, reading one, its problems, cell names ("E7"), a posted board's verdict
    "BOARD_TEXT_MAX", "SAMPLE_NAMES", "board_problems", "board_verdict", "cell_name",
    "load_board", "parse_cell",
    # the solver (hints, `playtable rotator solve`) and its bound on a web request's search
    "HINT_MAX_STATES", "solve_state",
    # the terminal board: its cells' glyphs and legend
    "GLYPHS", "LEGEND", "BoardView",
]
