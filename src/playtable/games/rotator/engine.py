"""The Rotator rules as fast pure functions on a compact tuple, shared by the game state and
the solver.

A `Core` tuple is `(solid, cur, m1, m2, pos, turn, boosts, phase, choices)`:

* `solid`: bit mask of the cells that are solid rock now (the rest of the map is open).
* `cur`, `m1`, `m2`: touched cells by age -- touched this turn (a bare triangle), last turn
  (one line), two turns ago (two lines). Touched cells are always open. At the Collapse step
  of a turn, `m2` collapses into solid rock and the others age by one (seed, "Step 2").
* `pos`: the player's cell (-1 before the first move); `turn`: 1-based turn number;
  `boosts`: boost spaces left; `phase`: START (pick a square: the first move, or after
  capturing a node), DRILL, WON or LOST; `choices`: mask of the squares a START may pick.

"Down" in board terms during turn t is DOWN[(t - 1) % 4]: south, east, north, west -- each
clockwise turn of the card brings the board's former east side to the bottom.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from playtable.games.rotator.board import Board, cell_name, cells_of

START, DRILL, WON, LOST = 0, 1, 2, 3
PHASE_NAMES = ("start", "drill", "won", "lost")

SOUTH, EAST, NORTH, WEST = 0, 1, 2, 3
DIRECTION_NAMES = ("south", "east", "north", "west")


class Core(NamedTuple):
    solid: int
    cur: int
    m1: int
    m2: int
    pos: int
    turn: int
    boosts: int
    phase: int
    choices: int


Raw = tuple[int, int, int, int, int, int, int, int, int]
"""A Core as a plain tuple (what the engine returns: cheaper to build in the solver)."""


class Log:
    """Collects what happened during a transition (the state turns it into Events)."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[tuple[str, dict[str, object]]] = []

    def add(self, kind: str, **data: object) -> None:
        self.items.append((kind, data))


def down_of(turn: int) -> int:
    return (turn - 1) % 4


class Geometry:
    """Per-board constants: neighbour tables per direction, far row, top row, nodes."""

    def __init__(self, board: Board) -> None:
        rows, cols = board.rows, board.cols
        n = rows * cols
        self.rows, self.cols = rows, cols
        self.nxt: list[list[int]] = [[-1] * n for _ in range(4)]
        for i in range(n):
            r, c = divmod(i, cols)
            self.nxt[SOUTH][i] = i + cols if r + 1 < rows else -1
            self.nxt[EAST][i] = i + 1 if c + 1 < cols else -1
            self.nxt[NORTH][i] = i - cols if r > 0 else -1
            self.nxt[WEST][i] = i - 1 if c > 0 else -1
        self.top = (1 << cols) - 1
        self.far = self.top << ((rows - 1) * cols)
        self.nodes = frozenset(board.nodes)
        self.territory = dict(board.territory)


@lru_cache(maxsize=64)
def geometry_of(board: Board) -> Geometry:
    return Geometry(board)


class Engine:
    """Transitions for one board and one set of numeric rules."""

    def __init__(self, board: Board, boost_total: int = 10, max_drill: int = 3,
                 turn_limit: int = 200) -> None:
        self.board = board
        self.geo = geometry_of(board)
        self.boost_total = boost_total
        self.max_drill = max_drill
        self.turn_limit = turn_limit

    def initial(self) -> Core:
        return Core(self.board.land, 0, 0, 0, -1, 1, self.boost_total, START, self.geo.top)

    # -- steps ------------------------------------------------------------------------------
    def _fall(self, solid: int, touched: int, new: int, pos: int, d: int,
              log: Log | None) -> tuple[int, int, int, bool]:
        """Step 1 (Fall): move through open cells along `d` until the next one is solid or
        the edge. Untouched cells passed are marked in `new`. Returns pos, new, touched, won."""
        nxt = self.geo.nxt[d]
        far = self.geo.far
        path: list[int] | None = [] if log is not None else None
        j = nxt[pos]
        won = False
        while j >= 0 and not (solid >> j) & 1:
            pos = j
            bit = 1 << j
            if not touched & bit:
                new |= bit
                touched |= bit
            if path is not None:
                path.append(j)
            if far & bit:
                won = True
                break
            j = nxt[j]
        if log is not None and path:
            log.add("fall", cells=path, to=pos)
        return pos, new, touched, won

    def _begin_turn(self, s: Raw, solid: int, pos: int, new: int, won: bool,
                    log: Log | None) -> Raw:
        """Fall from `pos` (unless already won), then Collapse (Step 2). `s` is the position
        after the rotation (its masks not yet aged)."""
        _, cur, m1, m2, _, turn, boosts, _, _ = s
        if not won:
            pos, new, _, won = self._fall(solid, cur | m1 | m2 | new, new, pos, (turn - 1) & 3,
                                          log)
        if won:
            if log is not None:
                log.add("win", cell=pos, turn=turn)
            return (solid, cur | new, m1, m2, pos, turn, boosts, WON, 0)
        solid |= m2
        if log is not None and m2:
            log.add("collapse", cells=sorted_cells(m2))
        if m2 >> pos & 1:
            if log is not None:
                log.add("loss", cell=pos, reason="collapse", turn=turn)
            return (solid, new, cur, m1, pos, turn, boosts, LOST, 0)
        return (solid, new, cur, m1, pos, turn, boosts, DRILL, 0)

    def start(self, s: Raw, cell: int, log: Log | None = None) -> Raw:
        """Pick the square to move from: a top-row square on the first move, or any space of
        a node just captured. The square becomes touched and open."""
        bit = 1 << cell
        solid = s[0] & ~bit
        new = 0 if (s[1] | s[2] | s[3]) & bit else bit
        won = bool(self.geo.far & bit)
        if log is not None:
            log.add("start", cell=cell, turn=s[5])
        return self._begin_turn(s, solid, cell, new, won, log)

    def drill_run(self, s: Raw) -> int:
        """The most spaces a Drill may take now (0 when the ground below is the map edge)."""
        solid = s[0]
        limit = min(self.max_drill, s[6] + 1)
        nxt = self.geo.nxt[(s[5] - 1) & 3]
        nodes = self.geo.nodes
        j = s[4]
        k = 0
        while k < limit:
            j = nxt[j]
            if j < 0 or not (solid >> j) & 1:
                break
            k += 1
            if j in nodes:
                break
        return k

    def drill(self, s: Raw, k: int, log: Log | None = None) -> Raw:
        """Step 3 (Drill) with `k` spaces (0 skips), then Step 4 (Rotate) and the next turn's
        Fall and Collapse. `k` must be at most `drill_run(s)`."""
        solid, cur, m1, m2, pos, turn, boosts, _, _ = s
        geo = self.geo
        d = (turn - 1) & 3
        far = geo.far
        won = False
        captured = -1
        if k:
            nxt = geo.nxt[d]
            drilled: list[int] = []
            for _ in range(k):
                pos = nxt[pos]
                bit = 1 << pos
                solid &= ~bit
                cur |= bit
                drilled.append(pos)
                if far & bit:
                    won = True
                    break
            boosts -= len(drilled) - 1
            if log is not None:
                log.add("drill", cells=drilled, boost=len(drilled) - 1, boosts_left=boosts)
            if not won:
                if pos in geo.nodes:
                    captured = pos
                    cleared = geo.territory[pos] & solid
                    solid &= ~cleared
                    cur |= cleared
                    if log is not None:
                        log.add("capture", node=pos, cells=sorted_cells(cleared))
                else:
                    pos, cur, _, won = self._fall(solid, cur | m1 | m2, cur, pos, d, log)
            if won:
                if log is not None:
                    log.add("win", cell=pos, turn=turn)
                return (solid, cur, m1, m2, pos, turn, boosts, WON, 0)
        turn += 1
        if log is not None:
            log.add("rotate", turn=turn, down=DIRECTION_NAMES[(turn - 1) & 3])
        if self.turn_limit and turn > self.turn_limit:
            if log is not None:
                log.add("loss", cell=pos, reason="turn limit", turn=turn)
            return (solid, cur, m1, m2, pos, turn, boosts, LOST, 0)
        if captured >= 0:
            return (solid, cur, m1, m2, pos, turn, boosts, START,
                    geo.territory[captured])
        return self._begin_turn((solid, cur, m1, m2, pos, turn, boosts, START, 0), solid, pos,
                                0, False, log)


    def cheapest_win_now(self, s: Raw) -> int:
        """For a DRILL position: the fewest spaces whose drill (and the fall after it) reaches
        the far row this turn, or 0 when no drill does. (The solver's last-layer check.)"""
        solid, _, _, _, pos, turn, boosts, _, _ = s
        geo = self.geo
        nxt = geo.nxt[(turn - 1) & 3]
        far = geo.far
        nodes = geo.nodes
        maxk = min(self.max_drill, boosts + 1)
        p = pos
        for k in range(1, maxk + 1):
            p = nxt[p]
            if p < 0 or not (solid >> p) & 1:
                return 0
            solid &= ~(1 << p)
            if far >> p & 1:
                return k
            if p in nodes:
                return 0
            j = nxt[p]
            while j >= 0 and not (solid >> j) & 1:
                if far >> j & 1:
                    return k
                j = nxt[j]
        return 0

    def drill_children(self, s: Raw) -> list[Raw]:
        """`[drill(s, k) for k in range(drill_run(s) + 1)]` without logging, built in one pass
        (the solver's hot path; tests check it equals the one-by-one `drill`)."""
        solid, cur, m1, m2, pos, turn, boosts, _, _ = s
        geo = self.geo
        d = (turn - 1) & 3
        nd = turn & 3
        far = geo.far
        nodes = geo.nodes
        nxt = geo.nxt[d]
        limit = self.turn_limit
        turn1 = turn + 1
        over = bool(limit) and turn1 > limit
        out: list[Raw] = []
        k = 0
        maxk = min(self.max_drill, boosts + 1)
        p = pos
        while True:
            # the position after drilling k spaces (already applied to solid/cur/p)
            b = boosts - (k - 1 if k else 0)
            q = p
            c = cur
            so = solid
            won = False
            captured = -1
            if k:
                if far >> p & 1:
                    out.append((so, c, m1, m2, p, turn, b, WON, 0))
                    break
                if p in nodes:
                    captured = p
                    cleared = geo.territory[p] & so
                    so &= ~cleared
                    c |= cleared
                else:
                    q, c, _, won = self._fall(so, c | m1 | m2, c, q, d, None)
            if won:
                out.append((so, c, m1, m2, q, turn, b, WON, 0))
            elif over:
                out.append((so, c, m1, m2, q, turn1, b, LOST, 0))
            elif captured >= 0:
                out.append((so, c, m1, m2, q, turn1, b, START, geo.territory[captured]))
            else:
                # next turn: Fall along the new down, then Collapse
                q, new, _, won = self._fall(so, c | m1 | m2, 0, q, nd, None)
                if won:
                    out.append((so, c | new, m1, m2, q, turn1, b, WON, 0))
                elif m2 >> q & 1:
                    out.append((so | m2, new, c, m1, q, turn1, b, LOST, 0))
                else:
                    out.append((so | m2, new, c, m1, q, turn1, b, DRILL, 0))
            # drill one more space if allowed
            if k >= maxk or (k and p in nodes):
                break
            j = nxt[p]
            if j < 0 or not (solid >> j) & 1:
                break
            k += 1
            p = j
            bit = 1 << j
            solid &= ~bit
            cur |= bit
        return out


sorted_cells = cells_of  # the set bits of a mask, lowest first


def first_move_wins(board: Board, boost_total: int = 10, max_drill: int = 3) -> bool:
    """Whether the board is won by its first move: from some top-row square the fall, one
    drill (boost spaces allowed) and the fall after it reach the far row on turn 1. Such a board
    needs no thought at all (look down each column), so the generator redraws it; an all-air
    column (`board.is_trivial`) is the simplest case."""
    engine = Engine(board, boost_total, max_drill, turn_limit=0)
    root = engine.initial()
    for cell in sorted_cells(root[8]):
        s = engine.start(root, cell)
        if s[7] == WON or (s[7] == DRILL and engine.cheapest_win_now(s)):
            return True
    return False


def describe_cells(cells: list[int]) -> str:
    return ", ".join(cell_name(c) for c in cells)
