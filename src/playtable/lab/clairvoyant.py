"""The clairvoyant bound of the troll game for the lab: one deal's verdict with its timing.

The search itself is the troll package's own solver (`playtable.games.troll.solver`): a copy of
the real state (never a determinization) replays exactly the future its seed fixes, so the deal
is a deterministic puzzle. Over the same seeds, the share of winnable deals is the upper bound no
real player can beat (Bjarnason, Fern & Tadepalli's "thoughtful" solitaire; anchors-ai.md §2).
With a budget, "unknown" deals make it an interval: [proved winnable, 1 - proved lost].
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from playtable.core.params import params_from_dict
from playtable.core.registry import get_game
from playtable.games.troll.solver import solve


@dataclass
class Verdict:
    seed: int
    result: str
    """"win", "no win" or "unknown" (budget exhausted)."""
    actions: list[str] = field(default_factory=list)
    """A winning line, as action texts, when the result is "win"."""
    nodes: int = 0
    seconds: float = 0.0


def solve_deal(seed: int, params: dict[str, Any] | None = None, budget: int = 20_000) -> Verdict:
    """Search deal `seed` of the troll game with everything known; `budget` caps the turns
    expanded."""
    game = get_game("troll")
    state = game.new_state(params_from_dict(game.params_type, params or {}), seed)
    start = time.perf_counter()
    solution = solve(state, node_limit=budget)
    result = {"win": "win", "loss": "no win"}.get(solution.status, "unknown")
    actions = [text for turn in solution.line for text in turn]
    return Verdict(seed, result, actions, solution.nodes, time.perf_counter() - start)
