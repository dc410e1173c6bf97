"""The clairvoyant troll solver: can this deal be won at all, knowing the deck order and every
future die roll?

A troll state carries its own seeded random stream, so a copy of the *real* state (never a
determinization) replays exactly the future the seed fixes. The solver searches whole turns: every
first action, then every second one (the awakening that follows is resolved by the real stream),
merging turns that reach the same position (the full position JSON, bookkeeping counters left
out), and trying the most promising positions first (`Game.evaluate`). It stops at the first
win (and returns its actions), when every line has been refuted ("no win": the deal is lost
whatever the player does), or when the node budget runs out ("unknown").

Over the same seeds this gives the upper bound no real player can beat (Bjarnason, Fern &
Tadepalli's "thoughtful" solitaire; anchors-ai.md §2): the share of deals that are winnable in
hindsight. With a budget, "unknown" deals make it an interval: [proved winnable, 1 - proved lost].
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from playtable.core.params import params_from_dict
from playtable.core.protocol import State
from playtable.core.registry import get_game


@dataclass
class Verdict:
    seed: int
    result: str
    """"win", "no win" or "unknown" (budget exhausted)."""
    actions: list[str] = field(default_factory=list)
    """A winning line, as action texts, when the result is "win"."""
    nodes: int = 0
    seconds: float = 0.0


def _key(state: State) -> str:
    data = dict(state.to_json())
    data.pop("stats", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _turns(state: State) -> list[tuple[list[str], State]]:
    """Every distinct position after one whole turn (or an end), with the actions taken."""
    out: dict[str, tuple[list[str], State]] = {}
    turn = state.to_json().get("turn")
    frontier: list[tuple[list[str], State]] = [([], state)]
    while frontier:
        line, current = frontier.pop()
        for action in current.legal_actions():
            after = current.clone()
            after.apply(action)
            step = [*line, str(action)]
            if after.is_terminal or after.to_json().get("turn") != turn or len(step) >= 4:
                key = _key(after)
                if key not in out:
                    out[key] = (step, after)
            else:
                frontier.append((step, after))
    return list(out.values())


def solve_deal(seed: int, params: dict[str, Any] | None = None, budget: int = 20_000) -> Verdict:
    """Search deal `seed` of the troll game with everything known; `budget` caps the turns
    expanded."""
    game = get_game("troll")
    the_params = params_from_dict(game.params_type, params or {})
    root = game.new_state(the_params, seed)
    start = time.perf_counter()
    seen: set[str] = {_key(root)}
    nodes = 0
    exhausted = True
    # Depth-first, best child first: a stack of (line so far, state).
    stack: list[tuple[list[str], State]] = [([], root)]
    while stack:
        line, state = stack.pop()
        if nodes >= budget:
            exhausted = False
            break
        nodes += 1
        children = []
        for actions, after in _turns(state):
            if after.is_terminal:
                if after.returns()[0] >= 1:
                    return Verdict(seed, "win", line + actions, nodes, time.perf_counter() - start)
                continue
            key = _key(after)
            if key in seen:
                continue
            seen.add(key)
            children.append((game.evaluate(after, 0), line + actions, after))
        children.sort(key=lambda c: c[0])  # the best is pushed last, so popped first
        stack.extend((ln, st) for _, ln, st in children)
    result = "no win" if exhausted else "unknown"
    return Verdict(seed, result, [], nodes, time.perf_counter() - start)
