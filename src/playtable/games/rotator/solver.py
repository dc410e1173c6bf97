"""The Rotator solver: a winning line with the fewest turns, then the fewest boost spaces, or a
proof that no win exists.

Breadth-first search by turn over the engine's Core tuples. Two positions that differ only in
the turn number (same rock, same marks, same square, same "down", same phase) have the same
future except for the turn limit and the boost spaces left; one reached no later and with at
least as many boost spaces left dominates, so a position is expanded again only when it comes
back with more boost spaces. Every position is finite (200 cells, bounded boosts), so the search
ends: when it ends without a win, no sequence of moves wins within the turn limit.
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


DRILL_CODES = [0, 1, 2, 3]


def solve_core(engine: Engine, root: Raw, max_states: int = 0) -> Solution:
    """Solve from `root` (a START or DRILL position). `max_states` > 0 caps the work."""
    phase0 = root[7]
    if phase0 == WON:
        return Solution(True, [], root[5], 0, 0)
    if phase0 == LOST:
        return Solution(False, [], 0, 0, 0)
    # Every position stored: the tuple, its parent's index, the action that made it.
    cores: list[Raw] = [root]
    # parent index << 8 | action code (0-3: drill k; 4 + cell: start there); -1 for the root
    meta: list[int] = [-1]
    add_core = cores.append
    add_meta = meta.append
    seen: dict[tuple[int, ...], int] = {
        (root[0], root[1], root[2], root[3], root[4], root[5] & 3, root[7], root[8]): root[6]}
    get = seen.get
    start_boosts = root[6]
    # the best win so far: (turn, boosts used, parent index, action)
    best: tuple[int, int, int, int] | None = None
    frontier = [0]
    expanded = 0
    start = engine.start
    drill_children = engine.drill_children
    cheapest_win_now = engine.cheapest_win_now
    while frontier:
        layer_turn = cores[frontier[0]][5]
        # Once a win on this turn is known, only cheaper wins this turn matter: look at the
        # positions using the fewest boost spaces first, and only for a win this turn.
        final = best is not None and best[0] <= layer_turn
        if final:
            frontier.sort(key=lambda i: -cores[i][6])
        queue = deque(frontier)
        nxt: list[int] = []
        while queue:
            idx = queue.popleft()
            s = cores[idx]
            expanded += 1
            if max_states and expanded > max_states:
                return Solution(False, [], 0, 0, expanded, complete=False)
            if final:
                assert best is not None
                if start_boosts - s[6] >= best[1]:
                    continue
                if s[7] == DRILL:
                    k = cheapest_win_now(s)
                    if k:
                        cand = (s[5], start_boosts - s[6] + k - 1, idx, k)
                        if cand[:2] < best[:2]:
                            best = cand
                    continue
            if s[7] == START:
                children = [start(s, c) for c in sorted_cells(s[8])]
                codes = [4 + c for c in sorted_cells(s[8])]
            else:
                children = drill_children(s)
                codes = DRILL_CODES
            base = idx << 8
            for ns, code in zip(children, codes, strict=False):
                ph = ns[7]
                if ph == LOST:
                    continue
                if ph == WON:
                    cand = (ns[5], start_boosts - ns[6], idx, code)
                    if best is None or cand[:2] < best[:2]:
                        best = cand
                        final = best[0] <= layer_turn
                    continue
                same_turn = ph == DRILL and ns[5] == layer_turn
                if final and not same_turn:
                    continue
                b = ns[6]
                key = (ns[0], ns[1], ns[2], ns[3], ns[4], ns[5] & 3, ph, ns[8])
                old = get(key)
                if old is not None and old >= b:
                    continue
                seen[key] = b
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
        return Solution(False, [], 0, 0, expanded)
    turn, boosts, parent, last = best
    line = [last]
    i = parent
    while meta[i] >= 0:
        line.append(meta[i] & 255)
        i = meta[i] >> 8
    line.reverse()
    texts = [f"drill {code}" if code < 4 else f"start {cell_name(code - 4)}" for code in line]
    return Solution(True, texts, turn, boosts, expanded)


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
