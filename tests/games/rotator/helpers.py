"""Shared helpers for the Rotator tests: custom terrains drawn as text."""

from __future__ import annotations

from playtable.games.rotator.board import Board, cell_index, parse_board, territory_cells
from playtable.games.rotator.rules import RotatorParams, RotatorState


def terrain(picture: str, nodes: tuple[tuple[int, int], ...] = ()) -> Board:
    """A board from a drawn picture (`#` land, `.` air; missing rows below are land) with the
    given node cells. Not a legal board: the rules engine runs on any terrain."""
    lines = [ln.strip() for ln in picture.strip().splitlines()]
    lines += ["#" * 10] * (20 - len(lines))
    base = parse_board("\n".join(lines))
    node_cells = tuple(sorted(cell_index(r, c) for r, c in nodes))
    land = base.land
    for node in node_cells:
        land |= 1 << node
    return Board(node_cells, land)


def state_on(board: Board, **params: object) -> RotatorState:
    return RotatorState(RotatorParams(**params), board)  # type: ignore[arg-type]


def at(r: int, c: int) -> int:
    return cell_index(r, c)


def age_of(state: RotatorState, r: int, c: int) -> int | None:
    """0, 1 or 2 for a touched cell (its number of lines), None if untouched."""
    i = cell_index(r, c)
    s = state.core
    for age, mask in enumerate((s.cur, s.m1, s.m2)):
        if mask >> i & 1:
            return age
    return None


def is_solid(state: RotatorState, r: int, c: int) -> bool:
    return bool(state.core.solid >> cell_index(r, c) & 1)


def diamond(r: int, c: int) -> list[int]:
    return territory_cells(cell_index(r, c))
