"""Rotator render helpers: the board as the player sees it (rotated so that gravity points down
the screen), with the age of each touched space. Front ends (terminal, web) build on these."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from playtable.games.rotator.board import parse_cell

# Screen triangles for a mark of age 0, 1, 2. A mark points the way gravity pulled when it was
# made; the card has turned clockwise once per turn since, so last turn's marks point left and
# older ones up (seed, "Hypothetical Sequence"). Lines count the age.
MARK = ("▼ ", "◀─", "▲═")
NODE_MARK = ("↓ ", "←─", "↑═")  # spaces opened by capturing a node ("an arrow pointing down")

GLYPHS = {
    "land": "██",
    "node": "◆◆",
    "rubble": "▒▒",
    "air": " ·",
    "player": "◉ ",
}

LEGEND = [
    ("██", "land (node territory)"),
    ("◆◆", "control node"),
    ("▒▒", "collapsed rock (was air)"),
    (" ·", "open air"),
    ("▼ ", "touched this turn"),
    ("◀─", "1 line: touched last turn"),
    ("▲═", "2 lines: collapses next turn"),
    ("↓ ", "opened by a captured node"),
    ("◉ ", "you"),
]


def rotate_cw(grid: list[list[int]]) -> list[list[int]]:
    return [list(row) for row in zip(*grid[::-1], strict=True)]


def screen_cells(rows: int, cols: int, turn: int, rotate: bool = True) -> list[list[int]]:
    """Board cell indices as laid out on screen during `turn`: the board turned clockwise
    (turn - 1) times, so that "down" is always down the screen."""
    grid = [[r * cols + c for c in range(cols)] for r in range(rows)]
    if rotate:
        for _ in range((turn - 1) % 4):
            grid = rotate_cw(grid)
    return grid


@dataclass(frozen=True)
class CellView:
    index: int
    kind: str  # land, node, rubble, air, mark, node_mark, player
    age: int | None
    choice: bool

    @property
    def glyph(self) -> str:
        if self.kind == "mark" and self.age is not None:
            return MARK[self.age]
        if self.kind == "node_mark" and self.age is not None:
            return NODE_MARK[self.age]
        return GLYPHS[self.kind]


class BoardView:
    """A position as the player sees it, read from `observation(0)` only."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        board_rows: list[str] = list(obs["board"])
        self.rows, self.cols = len(board_rows), len(board_rows[0])
        self.land: set[int] = set()
        self.nodes: set[int] = set()
        for r, line in enumerate(board_rows):
            for c, ch in enumerate(line):
                if ch in "#@":
                    self.land.add(r * self.cols + c)
                if ch == "@":
                    self.nodes.add(r * self.cols + c)
        self.solid = {parse_cell(name) for name in obs["solid"]}
        self.ages = {parse_cell(name): int(age) for name, age in obs["ages"].items()}
        self.player = parse_cell(obs["player"]) if obs.get("player") else -1
        self.choices = {parse_cell(name) for name in obs.get("choices", [])}
        self.turn = int(obs["turn"])
        self.phase = str(obs["phase"])

    def cell(self, index: int) -> CellView:
        age = self.ages.get(index)
        choice = index in self.choices
        if index == self.player:
            kind = "player"
        elif index in self.solid:
            kind = "node" if index in self.nodes else "land" if index in self.land else "rubble"
        elif age is not None:
            kind = "node_mark" if index in self.land else "mark"
        else:
            kind = "air"
        return CellView(index, kind, age, choice)

    def screen(self, rotate: bool = True) -> list[list[int]]:
        return screen_cells(self.rows, self.cols, self.turn, rotate)


def render_text(obs: Mapping[str, Any], rotate: bool = True) -> str:
    """The board as plain text, two characters a cell, rotated like the card."""
    view = BoardView(obs)
    lines = []
    for row in view.screen(rotate):
        lines.append("".join(view.cell(i).glyph for i in row).rstrip())
    return "\n".join(lines) + "\n"
