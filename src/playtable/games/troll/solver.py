"""The clairvoyant troll solver: can this deal be won at all, knowing everything?

With the deck order and the whole die sequence known (the state's own chance stream, which
yields the same k-th roll whatever the troll does), the game is a deterministic puzzle. The
solver searches it turn by turn: from the start of a troll action phase, every pair of actions
leads to the next turn's start (or an end); pairs that lead to the same position are merged,
positions already explored are never explored again, and the most promising positions (by the
heuristic bot's evaluation) are tried first. It answers "win" with a winning line, "loss" when
the whole tree is exhausted (a proof that no play wins this deal), or "unknown" when the node
budget runs out first.

No real player can beat this: over many seeds its win share is the upper bound on any bot's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from playtable.core.params import params_from_dict
from playtable.core.registry import get_game
from playtable.games.troll.bots import evaluate
from playtable.games.troll.params import TrollParams
from playtable.games.troll.rules import TrollState

Key = tuple[object, ...]


@dataclass
class Solution:
    status: str  # "win", "loss" or "unknown"
    line: list[list[str]] = field(default_factory=list)  # the troll's actions, turn by turn
    nodes: int = 0  # turn starts expanded

    @property
    def winnable(self) -> bool | None:
        return {"win": True, "loss": False}.get(self.status)


def position_key(state: TrollState) -> Key:
    """Everything that decides the future of a position (the flight stacks and counters don't)."""
    return (tuple(tuple(s) for s in state.stacks), frozenset(state.face_up), state.troll,
            tuple(state.carried), tuple(state.set_aside), len(state.deck), state.chance.counter,
            state.actions_left, frozenset(state.visited), state.outcome)


def turn_successors(state: TrollState) -> list[tuple[list[str], TrollState]]:
    """Every distinct position the troll can reach by the end of its actions this turn."""
    out: dict[Key, tuple[list[str], TrollState]] = {}
    frontier: list[tuple[list[str], TrollState]] = [([], state)]
    while frontier:
        actions, current = frontier.pop()
        for action in current.legal_actions():
            after = current.clone()
            after.apply(action)
            line = [*actions, str(action)]
            if after.is_terminal or after.turn != state.turn:
                out.setdefault(position_key(after), (line, after))
            else:
                frontier.append((line, after))
    return list(out.values())


def solve(state: TrollState, node_limit: int = 20_000) -> Solution:
    """Search `state` (as it is, chance stream included) for a win."""
    if state.outcome:
        return Solution("win" if state.outcome == "win" else "loss")
    explored: set[Key] = set()
    nodes = 0
    # Depth-first with an explicit stack of (position, line so far) sorted best-last.
    stack: list[tuple[TrollState, list[list[str]]]] = [(state, [])]
    while stack:
        current, line = stack.pop()
        key = position_key(current)
        if key in explored:
            continue
        explored.add(key)
        nodes += 1
        if nodes > node_limit:
            return Solution("unknown", nodes=nodes - 1)
        children = []
        for actions, after in turn_successors(current):
            if after.outcome == "win":
                return Solution("win", [*line, actions], nodes)
            if after.outcome is None and position_key(after) not in explored:
                children.append((evaluate(after), actions, after))
        children.sort(key=lambda c: c[0])
        stack.extend((after, [*line, actions]) for _, actions, after in children)
    return Solution("loss", nodes=nodes)


@dataclass
class Verdict:
    """One deal's answer, as `playtable solve troll` and the bound benchmarks report it."""

    seed: int
    result: str  # "win", "no win" or "unknown" (budget exhausted)
    actions: list[str] = field(default_factory=list)  # a winning line, flat, when "win"
    nodes: int = 0
    seconds: float = 0.0


def solve_deal(seed: int, params: dict[str, Any] | None = None, budget: int = 20_000) -> Verdict:
    """Search deal `seed` (with `params` as key/values) knowing everything; `budget` caps the
    turns expanded."""
    # through the registry: the game module (game.py) offers the bots, which use this solver
    state = get_game("troll").new_state(params_from_dict(TrollParams, params or {}), seed)
    start = time.perf_counter()
    solution = solve(state, node_limit=budget)
    result = {"win": "win", "loss": "no win"}.get(solution.status, "unknown")
    actions = [text for turn in solution.line for text in turn]
    return Verdict(seed, result, actions, solution.nodes, time.perf_counter() - start)
