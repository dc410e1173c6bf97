"""Rotator boards: the 10-column by 20-row map, its control nodes, the text format, the
validator and the generator of random legal boards.

Coordinates: a cell is `(row, col)` with row 0 the top row (where the first move starts) and
row 19 the far end; col 0 is column A. Cells are also numbered `row * 10 + col` so that sets of
cells are Python integers used as bit masks (fast for the rules engine and the solver).

Cell names are column letter + map row 1..20 (`A1` top left, `J20` bottom right). In the seed's
terms map rows 1..10 are grid one's Rows 10..1 and map rows 11..20 are grid two's Rows 1..10, so
map row 1 is "Row 10 of one grid" and map row 20 "Row 10 of the other".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter, BadPosition
from playtable.core.jsonio import read_text

ROWS = 20
COLS = 10
HALF = 10
NODES_PER_HALF = 5
COLUMN_LETTERS = "ABCDEFGHIJ"

AIR = "."
LAND = "#"
NODE = "@"

Placement = Literal["node", "territory"]


def cell_index(row: int, col: int) -> int:
    return row * COLS + col


def cell_name(index: int) -> str:
    row, col = divmod(index, COLS)
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def parse_cell(text: str) -> int:
    """`C7` -> index; raises ValueError naming the problem."""
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in COLUMN_LETTERS or not text[1:].isdigit():
        raise ValueError(f"'{text}' is not a cell name like C7 (column A-J, row 1-20)")
    row = int(text[1:]) - 1
    if not 0 <= row < ROWS:
        raise ValueError(f"'{text}': rows run from 1 to {ROWS}")
    return cell_index(row, COLUMN_LETTERS.index(text[0]))


def territory_cells(node: int, rows: int = ROWS, cols: int = COLS) -> list[int]:
    """The node's diamond: every cell within two orthogonal steps (13 cells), cut off at the
    edges of the map."""
    r0, c0 = divmod(node, cols)
    out = []
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            if abs(dr) + abs(dc) <= 2:
                r, c = r0 + dr, c0 + dc
                if 0 <= r < rows and 0 <= c < cols:
                    out.append(r * cols + c)
    return out


def mask_of(cells: Iterable[int]) -> int:
    m = 0
    for i in cells:
        m |= 1 << i
    return m


def cells_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Board:
    """A map: which cells are land at the start, and where the control nodes are."""

    nodes: tuple[int, ...]
    land: int
    rows: int = ROWS
    cols: int = COLS
    territory: dict[int, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.territory:
            for node in self.nodes:
                self.territory[node] = mask_of(territory_cells(node, self.rows, self.cols))

    @classmethod
    def from_nodes(cls, nodes: Iterable[int]) -> Board:
        """The seed's board: the nodes' diamonds are land, everything else is air."""
        ordered = tuple(sorted(nodes))
        land = 0
        for node in ordered:
            land |= mask_of(territory_cells(node))
        return cls(ordered, land)

    @property
    def full(self) -> int:
        return (1 << (self.rows * self.cols)) - 1

    def is_land(self, index: int) -> bool:
        return bool(self.land >> index & 1)

    def to_text(self, header: bool = True) -> str:
        """The board in its text format (see docs/boards-rotator.md)."""
        lines = []
        if header:
            lines.append("    " + COLUMN_LETTERS[: self.cols])
        nodes = set(self.nodes)
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                i = r * self.cols + c
                row.append(NODE if i in nodes else LAND if self.is_land(i) else AIR)
            lines.append(f"{r + 1:>3} " + "".join(row) if header else "".join(row))
        return "\n".join(lines) + "\n"

    def rows_text(self) -> list[str]:
        return self.to_text(header=False).splitlines()


# -- text format --------------------------------------------------------------------------------


def parse_board(text: str, rows: int = ROWS, cols: int = COLS) -> Board:
    """Read a board drawn in characters: `.` air, `#` land, `@` a control node (land).

    Blank lines and lines starting with `;` are ignored; an optional header line of column
    letters and optional row numbers at the start of a line are skipped; spaces between cells
    are allowed. If no `#` appears at all, the land is drawn from the nodes (each node's
    diamond), so a person may write only the nodes. Raises BadPosition naming the problem."""
    grid: list[str] = []
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        compact = line.replace(" ", "").replace("\t", "")
        if compact.upper() == COLUMN_LETTERS[:cols]:
            continue
        digits = 0
        while digits < len(compact) and compact[digits].isdigit():
            digits += 1
        body = compact[digits:]
        bad = sorted(set(body) - {AIR, LAND, NODE})
        if bad:
            raise BadPosition(
                f"board line {lineno}: unexpected character {bad[0]!r} "
                f"(use '.' for air, '#' for land, '@' for a node)"
            )
        if len(body) != cols:
            raise BadPosition(f"board line {lineno}: a row needs {cols} cells, found {len(body)}")
        grid.append(body)
    if len(grid) != rows:
        raise BadPosition(f"a board needs {rows} rows, found {len(grid)}")
    nodes = []
    land = 0
    for r, line in enumerate(grid):
        for c, ch in enumerate(line):
            i = r * cols + c
            if ch == NODE:
                nodes.append(i)
            if ch in (NODE, LAND):
                land |= 1 << i
    if LAND not in "".join(grid):
        for node in nodes:
            land |= mask_of(territory_cells(node, rows, cols))
    return Board(tuple(sorted(nodes)), land, rows, cols)


def read_board(path: str | Path) -> Board:
    """The board in the file `path`, read with the shared limits (`core.jsonio.read_text`: a
    board file is a few hundred bytes, so 64 KB is plenty; UTF-8, a byte-order mark dropped)."""
    return parse_board(read_text(path, "board file", max_bytes=64 * 1024))


SAMPLES_DIR = Path(__file__).parent / "boards"
SAMPLE_NAMES = ("easy", "medium", "hard")
BOARD_TEXT_MAX = 4096
"""The longest board text taken inline: 20 rows of 10 cells with row numbers, a header line and
a few comment lines (the shipped samples are 607 to 670 characters)."""


def load_board(spec: str) -> Board:
    """A board named by `spec`: a shipped sample (`easy`, `medium`, `hard`); the board's text
    itself, when `spec` holds a line break (at most BOARD_TEXT_MAX characters: how a web client
    sends a board, since a client never names a file on the host); otherwise a file path (the
    command line's)."""
    if spec in SAMPLE_NAMES:
        return read_board(SAMPLES_DIR / f"{spec}.txt")
    if "\n" in spec:
        if len(spec) > BOARD_TEXT_MAX:
            raise BadParameter(f"a board's text is at most {BOARD_TEXT_MAX} characters, not {len(spec)}")
        return parse_board(spec)
    return read_board(spec)


# -- the validator --------------------------------------------------------------------------------


def board_problems(board: Board, placement: Placement = "node") -> list[str]:
    """Every placement rule the board breaks, each naming the rule (empty when legal).

    Rules (seed, "Getting Started"): ten nodes, five on each half; a node's diamond is land and
    everything else air; nodes are not on edge spaces ("a buffer of one row"); nodes do not
    overlap. How "edge" and "overlap" are read depends on `placement` (RULES.md, I1)."""
    problems: list[str] = []
    if (board.rows, board.cols) != (ROWS, COLS):
        problems.append(f"size: the map is {COLS} columns by {ROWS} rows")
        return problems
    halves = [0, 0]
    for node in board.nodes:
        halves[node // COLS // HALF] += 1
    if halves != [NODES_PER_HALF, NODES_PER_HALF]:
        problems.append(
            f"node count: five nodes on each half (found {halves[0]} on rows 1-10 and "
            f"{halves[1]} on rows 11-20)"
        )
    margin = 1 if placement == "node" else 3
    for node in board.nodes:
        r, c = divmod(node, COLS)
        rh = r % HALF
        if not (margin <= rh <= HALF - 1 - margin and margin <= c <= COLS - 1 - margin):
            if placement == "node":
                problems.append(
                    f"edge: node {cell_name(node)} is on an edge space of its grid "
                    "(a buffer of one row is required between an edge and a node)"
                )
            else:
                problems.append(
                    f"edge: node {cell_name(node)}'s territory reaches its grid's edge or "
                    "leaves no buffer row (variant 'territory')"
                )
    for i, a in enumerate(board.nodes):
        for b in board.nodes[i + 1 :]:
            ra, ca = divmod(a, COLS)
            rb, cb = divmod(b, COLS)
            dist = abs(ra - rb) + abs(ca - cb)
            if placement == "node" and dist <= 4:
                problems.append(
                    f"overlap: the territories of nodes {cell_name(a)} and {cell_name(b)} overlap"
                )
            elif dist == 0:
                problems.append(f"overlap: two nodes on {cell_name(a)}")
    expected = 0
    for node in board.nodes:
        expected |= board.territory[node]
    if board.land != expected:
        diff = cells_of(board.land ^ expected)
        first = diff[0]
        what = "land outside every node's territory" if board.is_land(first) else (
            "air inside a node's territory"
        )
        problems.append(
            f"shading: {cell_name(first)} is {what} (territory is land, the rest is air; "
            f"{len(diff)} cell(s) differ)"
        )
    return problems


def open_columns(board: Board) -> list[int]:
    """Columns with no land at all: a first move down one of them falls straight to the far
    row and wins at once (RULES.md, I1)."""
    out = []
    for c in range(board.cols):
        if not any(board.is_land(r * board.cols + c) for r in range(board.rows)):
            out.append(c)
    return out


def is_trivial(board: Board) -> bool:
    return bool(open_columns(board))


# -- the generator ------------------------------------------------------------------------------


def _node_slots(placement: Placement, half: int) -> list[int]:
    margin = 1 if placement == "node" else 3
    slots = []
    for rh in range(margin, HALF - margin):
        for c in range(margin, COLS - margin):
            slots.append(cell_index(half * HALF + rh, c))
    return slots


def _compatible(a: int, b: int, placement: Placement) -> bool:
    ra, ca = divmod(a, COLS)
    rb, cb = divmod(b, COLS)
    dist = abs(ra - rb) + abs(ca - cb)
    return dist >= 5 if placement == "node" else dist > 0


REDRAWS = 1000


def generate_board(
    chance: Chance, placement: Placement = "node", allow_trivial: bool = False,
    trivial: Callable[[Board], bool] = is_trivial,
) -> Board:
    """A random legal board drawn from `chance`: five nodes per half placed one by one
    uniformly among the slots still allowed (restarting a half when it gets stuck). Unless
    `allow_trivial`, boards that `trivial` rejects (by default those with an all-air column, won
    by the first fall; the game passes its stricter test, `engine.first_move_wins`) are redrawn,
    at most `REDRAWS` times (under placement=territory every board is trivial, RULES.md I1, so
    that loop must end)."""
    for _redraw in range(REDRAWS):
        nodes: list[int] = []
        for half in (0, 1):
            for _attempt in range(100):
                placed: list[int] = []
                ok = True
                for _ in range(NODES_PER_HALF):
                    slots = [
                        s
                        for s in _node_slots(placement, half)
                        if all(_compatible(s, n, placement) for n in nodes + placed)
                    ]
                    if not slots:
                        ok = False
                        break
                    placed.append(chance.choice(slots))
                if ok:
                    nodes.extend(placed)
                    break
            else:  # pragma: no cover - never observed: a half always fits
                raise RuntimeError("could not place the nodes")
        board = Board.from_nodes(nodes)
        if allow_trivial or not trivial(board):
            return board
    raise BadParameter(f"every one of {REDRAWS} boards generated under placement={placement} "
                       "is won by its first move: set allow_trivial=true")
