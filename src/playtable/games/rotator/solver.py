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
from playtable.games.rotator.engine import DRILL, LOST, START, WON, Core, Engine, sorted_cells


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


def _key(s: Core) -> tuple[int, ...]:
    return (s.solid, s.cur, s.m1, s.m2, s.pos, s.turn & 3, s.phase, s.choices)


def solve_core(engine: Engine, root: Core, max_states: int = 0) -> Solution:
    """Solve from `root` (a START or DRILL position). `max_states` > 0 caps the work."""
    if root.phase == WON:
        return Solution(True, [], root.turn, 0, 0)
    if root.phase == LOST:
        return Solution(False, [], 0, 0, 0)
    # entries: (core, parent index, action text)
    cores: list[Core] = [root]
    parents: list[int] = [-1]
    actions: list[str] = [""]
    seen: dict[tuple[int, ...], int] = {_key(root): root.boosts}
    start_boosts = root.boosts
    # best win so far: (turn, boosts used, parent index, action)
    best: tuple[int, int, int, str] | None = None
    frontier = [0]
    expanded = 0
    start = engine.start
    drill = engine.drill
    run_of = engine.drill_run

    def note_win(ns: Core, parent: int, action: str) -> None:
        nonlocal best
        cand = (ns.turn, start_boosts - ns.boosts, parent, action)
        if best is None or cand[:2] < best[:2]:
            best = cand

    while frontier:
        layer_turn = cores[frontier[0]].turn
        queue = deque(frontier)
        nxt: list[int] = []
        while queue:
            idx = queue.popleft()
            s = cores[idx]
            expanded += 1
            if max_states and expanded > max_states:
                return Solution(False, [], 0, 0, expanded, complete=False)
            if s.phase == START:
                moves = [(start(s, c), f"start {cell_name(c)}") for c in sorted_cells(s.choices)]
            else:
                moves = [(drill(s, k), f"drill {k}") for k in range(run_of(s) + 1)]
            for ns, text in moves:
                if ns.phase == WON:
                    note_win(ns, idx, text)
                    continue
                if ns.phase == LOST:
                    continue
                key = _key(ns)
                old = seen.get(key)
                if old is not None and old >= ns.boosts:
                    continue
                seen[key] = ns.boosts
                cores.append(ns)
                parents.append(idx)
                actions.append(text)
                if ns.turn == layer_turn and ns.phase == DRILL:
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
    while parents[i] >= 0:
        line.append(actions[i])
        i = parents[i]
    line.reverse()
    return Solution(True, line, turn, boosts, expanded)


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
