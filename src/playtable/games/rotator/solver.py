"""The Rotator solver: a winning line with the fewest turns, then the fewest boost spaces, or a
proof that no win exists.

Breadth-first search by turn over the engine's Core tuples. Two positions that differ only in
the turn number (same rock, same marks, same square, same "down", same phase) have the same
future except for the turn limit and the boost spaces left; one reached no later and with at
least as many boost spaces left dominates, so a position is expanded again only when it comes
back with more boost spaces. Every position is finite (200 cells, bounded boosts), so the search
ends: when it ends without a win, no sequence of moves wins within the turn limit.

Deepening by south turns. Only a turn whose "down" is south can carry the
player to the far row by falling and drilling; the other turns reach it only by a start square
picked after capturing a node whose territory touches that row. So the search is run with a
bound: the next south turn `Ts`, then `Ts + 4`, and so on. Within the last four turns before
the bound, a position is dropped when `Bound.hopeful` proves it cannot win by `Ts`: a sound
relaxation (it never drops a position that can win in time), so every winning line of at most
`Ts` turns survives and the first bound with a win gives the same answer as the unbounded
search (`tests/games/rotator/test_rotator_solver_reference.py` checks 300 boards against the
answers of the plain breadth-first solver). Most positions of the last layers are far up the
map behind rock that no move in time can open, which is where the time of the worst boards went.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from playtable.games.rotator.board import cell_name
from playtable.games.rotator.engine import DRILL, LOST, START, WON, Engine, Raw, sorted_cells


@dataclass
class Solution:
    """What the solver found. `actions` are canonical action texts from the given position."""

    winnable: bool
    actions: list[str] = field(default_factory=list)
    turns: int = 0
    """The turn number on which the win happens (turn 1 is the first move)."""
    boosts: int = 0
    """Boost spaces the winning line uses."""
    states: int = 0
    """Positions the search expanded."""
    complete: bool = True
    """False when the search stopped at `max_states` without an answer."""

    def to_json(self) -> dict[str, Any]:
        return {
            "winnable": self.winnable,
            "complete": self.complete,
            "turns": self.turns,
            "boosts": self.boosts,
            "actions": list(self.actions),
            "states": self.states,
        }


CODE_BITS = 20
"""A stored position keeps its parent's index and the action that made it in one int:
`parent << CODE_BITS | code`, the code being k for `drill k` and START_CODE + cell for a start
(drills of any `max_drill` the parameters allow, starts on any map)."""
START_CODE = 1 << (CODE_BITS - 1)
CODE_MASK = (1 << CODE_BITS) - 1
DEEPENING_ROUNDS = 5
"""Bounds tried (the first south turn, then every fourth turn after it) before the search runs
without a bound: a board with no win at all is proved lost by one unbounded search rather than
by ever longer bounded ones (no generated board of 1,000 needed more than the third bound)."""


class Bound:
    """Which positions can still win by turn `Ts` (a south turn), for one board.

    A relaxation of the rules in which every step only makes winning easier, so a position it
    calls hopeless really cannot win in time. It follows where the player may be, as a box of
    rows and columns, through the (at most three) turns before `Ts`, whose "down" is east,
    north or west:

    * an east turn may take the player to any column to the east (a west turn: west; a north
      turn: any row above). On the first of these turns the rock of the player's row is known
      exactly, so the box stops where the move would have to pass more solid cells than the
      drill allows (the fall, one drill, the fall after it);
    * a capture needs a node in the player's rows to the east or west, or in the player's
      columns above; the next move may start anywhere in its territory (the box grows by the
      territory's reach);
    * every cell those turns open (drilled cells, captured territories) lies in or above the
      box's lowest row, and collapses only add rock. So on turn `Ts`, when the player falls,
      drills at most `min(max_drill, boosts + 1)` cells in one run and falls again, the rock
      below the box in some column of the box must lie within one such run (or be none);
    * a win before `Ts` needs a start square on the far row: the capture of a node whose
      territory reaches it.
    """

    def __init__(self, engine: Engine) -> None:
        geo = engine.geo
        rows, cols = geo.rows, geo.cols
        self.cols = cols
        self.last_row = rows - 1
        self.last_col = cols - 1
        self.far = geo.far
        self.max_drill = engine.max_drill
        full = (1 << (rows * cols)) - 1
        row_mask = [((1 << cols) - 1) << (r * cols) for r in range(rows)]
        column = sum(1 << (r * cols) for r in range(rows))
        self.columns = [column << c for c in range(cols)]
        self.below = [full & ~((1 << ((x + 1) * cols)) - 1) for x in range(rows)]
        self.row_band = [[sum(row_mask[lo:hi + 1]) for hi in range(rows)] for lo in range(rows)]
        self.col_band = [[sum(self.columns[lo:hi + 1]) for hi in range(cols)] for lo in range(cols)]
        reach = 0
        self.nodes = 0
        self.far_nodes = 0
        for node, area in geo.territory.items():
            self.nodes |= 1 << node
            r0, c0 = divmod(node, cols)
            cells = [divmod(i, cols) for i in range(rows * cols) if area >> i & 1]
            reach = max([reach] + [abs(r - r0) for r, _ in cells] + [abs(c - c0) for _, c in cells])
            if area & geo.far:
                self.far_nodes |= 1 << node
        self.reach = reach
        self._boxes: dict[int, tuple[int, int, int, int]] = {}

    def hopeful(self, s: Raw, bound: int) -> bool:
        """False only if the position (START or DRILL, on a turn at most 3 before the south
        turn `bound`) cannot reach the far row by turn `bound`."""
        turn = s[5]
        if bound - turn > 3:
            return True
        if s[7] == START:
            if s[8] & self.far:
                return True
            rlo, rhi, clo, chi = self._box(s[8])
        else:
            rlo, clo = divmod(s[4], self.cols)
            rhi, chi = rlo, clo
        reach = self.reach
        last_row, last_col = self.last_row, self.last_col
        allowed = self.max_drill if s[6] >= self.max_drill else s[6] + 1
        first = True
        while turn < bound:
            down = (turn - 1) & 3
            if down == 1:  # east
                chi = self._run_east(s[0], rlo, chi, allowed) if first and rlo == rhi else last_col
                region = self.row_band[rlo][rhi] & self.col_band[clo][chi]
            elif down == 3:  # west
                clo = self._run_west(s[0], rlo, clo, allowed) if first and rlo == rhi else 0
                region = self.row_band[rlo][rhi] & self.col_band[clo][chi]
            else:  # north
                region = self.row_band[0][rhi] & self.col_band[clo][chi]
                rlo = 0
            caught = self.nodes & region
            if caught:
                if caught & self.far_nodes:
                    return True
                lowest = (caught.bit_length() - 1) // self.cols + reach
                if lowest > rhi:
                    rhi = lowest if lowest < last_row else last_row
                rlo = rlo - reach if rlo > reach else 0
                clo = clo - reach if clo > reach else 0
                chi = chi + reach if chi + reach < last_col else last_col
            first = False
            turn += 1
        rock = s[0] & self.below[rhi] & self.col_band[clo][chi]
        if not rock:
            return True
        # The drilled run holds every rock cell below the box; cells between them may be open
        # now and collapse before the drill, so what counts is the rows they span.
        span = allowed * self.cols
        for column in self.columns[clo:chi + 1]:
            below = rock & column
            if not below or below.bit_length() - (below & -below).bit_length() < span:
                return True
        return False

    def _run_west(self, solid: int, row: int, col: int, allowed: int) -> int:
        """The westmost column a move west from (row, col) can reach passing at most `allowed`
        solid cells of the row: the fall, the drill and the fall after it."""
        rock = (solid >> (row * self.cols)) & ((1 << col) - 1)
        for _ in range(allowed):
            if not rock:
                return 0
            rock ^= 1 << (rock.bit_length() - 1)
        return rock.bit_length() if rock else 0

    def _run_east(self, solid: int, row: int, col: int, allowed: int) -> int:
        """The eastmost column a move east from (row, col) can reach (see `_run_west`)."""
        rock = (solid >> (row * self.cols)) & ((1 << self.cols) - 1) & ~((1 << (col + 1)) - 1)
        for _ in range(allowed):
            if not rock:
                return self.last_col
            rock &= rock - 1
        return (rock & -rock).bit_length() - 2 if rock else self.last_col

    def _box(self, cells: int) -> tuple[int, int, int, int]:
        """The rows and columns a START position's squares span (lowest row, highest row,
        leftmost column, rightmost column): the top row or a territory, so few are asked."""
        box = self._boxes.get(cells)
        if box is None:
            places = [divmod(i, self.cols) for i in sorted_cells(cells)]
            box = (min(r for r, _ in places), max(r for r, _ in places),
                   min(c for _, c in places), max(c for _, c in places))
            self._boxes[cells] = box
        return box


def first_south_turn(turn: int) -> int:
    """The first turn from `turn` on whose "down" is south (turns 1, 5, 9, ...)."""
    return turn + (1 - turn) % 4


def solve_core(engine: Engine, root: Raw, max_states: int = 0) -> Solution:
    """Solve from `root` (a START or DRILL position). `max_states` > 0 caps the work (over all
    the bounded searches together)."""
    phase0 = root[7]
    if phase0 == WON:
        return Solution(True, [], root[5], 0, 0)
    if phase0 == LOST:
        return Solution(False, [], 0, 0, 0)
    bound_of = Bound(engine)
    expanded = 0
    target: int | None = first_south_turn(root[5])
    for round_ in range(DEEPENING_ROUNDS + 1):
        if round_ == DEEPENING_ROUNDS or (engine.turn_limit and target is not None
                                          and target >= engine.turn_limit):
            target = None  # the limit ends the search anyway: no bound needed
        solution, cut = _search(engine, root, bound_of, target, max_states, expanded)
        expanded = solution.states
        if solution.winnable or not solution.complete or not cut or target is None:
            return solution
        target += 4
    raise AssertionError("unreachable: the last round has no bound")  # pragma: no cover


def _search(engine: Engine, root: Raw, bound_of: Bound, bound: int | None, max_states: int,
            expanded: int) -> tuple[Solution, bool]:
    """One breadth-first search from `root`; with `bound`, only for wins by that turn (see
    `Bound`). Returns the solution and whether the bound dropped any position (when it did
    not, a search without a win is a proof that there is none)."""
    # Every position stored: the tuple, its parent's index, the action that made it.
    cores: list[Raw] = [root]
    # parent index << CODE_BITS | action code (see CODE_BITS); -1 for the root
    meta: list[int] = [-1]
    add_core = cores.append
    add_meta = meta.append
    seen: dict[tuple[int, ...], int] = {
        (root[0], root[1], root[2], root[3], root[4], root[5] & 3, root[7], root[8]): root[6]}
    get = seen.get
    start_boosts = root[6]
    # the best win so far: (turn, boosts used, parent index, the actions from there)
    best: tuple[int, int, int, tuple[int, ...]] | None = None
    cand: tuple[int, int, int, tuple[int, ...]]
    frontier = [0]
    cut = False
    start = engine.start
    drill_children = engine.drill_children
    cheapest_win_now = engine.cheapest_win_now
    hopeful = bound_of.hopeful
    horizon = bound if bound is not None else 1 << 30
    prune_from = horizon - 3
    while frontier:
        layer_turn = cores[frontier[0]][5]
        # Once a win on this turn is known (or the bound is this turn), only wins this turn
        # matter: look at the positions using the fewest boost spaces first.
        final = (best is not None and best[0] <= layer_turn) or layer_turn >= horizon
        if final and best is not None:
            frontier.sort(key=lambda i: -cores[i][6])
        queue = deque(frontier)
        nxt: list[int] = []
        while queue:
            idx = queue.popleft()
            s = cores[idx]
            expanded += 1
            if max_states and expanded > max_states:
                return Solution(False, [], 0, 0, expanded, complete=False), cut
            if final:
                if best is not None and start_boosts - s[6] >= best[1]:
                    continue
                if s[7] == DRILL:
                    k = cheapest_win_now(s)
                    if k:
                        cand = (s[5], start_boosts - s[6] + k - 1, idx, (k,))
                        if best is None or cand[:2] < best[:2]:
                            best = cand
                    elif best is None:
                        cut = True  # its later wins lie beyond the bound
                    continue
            if s[7] == START:
                children = [start(s, c) for c in sorted_cells(s[8])]
                codes = [START_CODE + c for c in sorted_cells(s[8])]
            else:
                children = drill_children(s)
                codes = list(range(len(children)))  # drill 0, 1, ... max
            base = idx << CODE_BITS
            for ns, code in zip(children, codes, strict=True):
                ph = ns[7]
                if ph == LOST:
                    continue
                if ph == WON:
                    cand = (ns[5], start_boosts - ns[6], idx, (code,))
                    if best is None or cand[:2] < best[:2]:
                        best = cand
                        final = best[0] <= layer_turn
                    continue
                if ns[5] == horizon and ph == DRILL:
                    # On the bound's turn only a win this turn counts: check it now rather
                    # than keep the position.
                    k = cheapest_win_now(ns)
                    if k:
                        cand = (ns[5], start_boosts - ns[6] + k - 1, idx, (code, k))
                        if best is None or cand[:2] < best[:2]:
                            best = cand
                    else:
                        cut = True
                    continue
                same_turn = ph == DRILL and ns[5] == layer_turn
                if final and not same_turn:
                    cut = cut or best is None
                    continue
                b = ns[6]
                key = (ns[0], ns[1], ns[2], ns[3], ns[4], ns[5] & 3, ph, ns[8])
                old = get(key)
                if old is not None and old >= b:
                    continue
                seen[key] = b
                if ns[5] >= prune_from and not hopeful(ns, horizon):
                    # (kept in `seen`: the same position with no more boost spaces is no
                    # more hopeful)
                    cut = True
                    continue
                add_core(ns)
                add_meta(base | code)
                if same_turn:
                    queue.append(len(cores) - 1)
                else:
                    nxt.append(len(cores) - 1)
        if best is not None and best[0] <= layer_turn + (0 if nxt else 1):
            break
        frontier = nxt
    if best is None:
        return Solution(False, [], 0, 0, expanded), cut
    turn, boosts, parent, last = best
    line = list(reversed(last))
    i = parent
    while meta[i] >= 0:
        line.append(meta[i] & CODE_MASK)
        i = meta[i] >> CODE_BITS
    line.reverse()
    texts = [f"drill {code}" if code < START_CODE else f"start {cell_name(code - START_CODE)}"
             for code in line]
    return Solution(True, texts, turn, boosts, expanded), cut


def solve_state(state: Any, max_states: int = 0) -> Solution:
    """Solve a RotatorState from where it stands."""
    return solve_core(state.engine, state.core, max_states)


def hint(state: Any) -> str | None:
    """The first action of a best line from `state`, or None when no win exists."""
    solution = solve_state(state)
    if solution.winnable and solution.actions:
        return solution.actions[0]
    return None


__all__ = ["Solution", "hint", "solve_core", "solve_state", "START", "DRILL"]
