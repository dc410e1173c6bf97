"""The rotated view: gravity always points down the screen (seed, "Part 4: Rotate")."""

from __future__ import annotations

from playtable.games.rotator.engine import Geometry, down_of
from playtable.games.rotator.game import GAME
from playtable.games.rotator.render import MARK, BoardView, render_text, screen_cells
from playtable.games.rotator.rules import RotatorParams


def test_screen_down_is_the_current_board_down() -> None:
    """Part 4: the card turns clockwise each turn; the screen shows it turned, so the cell
    below any cell on screen is its neighbour in the current "down" direction."""
    geo = Geometry(GAME.new_state(RotatorParams(), 0).board)
    for turn in range(1, 9):
        grid = screen_cells(20, 10, turn)
        d = down_of(turn)
        for r in range(len(grid) - 1):
            for c in range(len(grid[0])):
                assert geo.nxt[d][grid[r][c]] == grid[r + 1][c]
    assert (len(screen_cells(20, 10, 2)), len(screen_cells(20, 10, 2)[0])) == (10, 20)


def test_marks_show_their_age_as_the_seed_draws_them() -> None:
    """Step 2 / Hypothetical Sequence: this turn's marks point down, last turn's left with one
    line, the turn before's up with two lines."""
    assert MARK == ("▼ ", "◀─", "▲═")
    state = GAME.new_state(RotatorParams(board="easy"), 0)
    state.apply_text("start E1")
    state.apply_text("drill 0")
    view = BoardView(state.observation(0))
    kinds = {view.cell(i).kind for i in range(200)}
    assert "player" in kinds
    text = render_text(state.observation(0))
    assert "◉" in text and len(text.splitlines()) == 10
