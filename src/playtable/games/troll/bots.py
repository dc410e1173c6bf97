"""The troll's own heuristic player.

Rules of thumb (also in RULES.md, "The heuristic bot"):
1. Plan the whole turn: try every pair of actions, resolve the flight phase and the collapse
   check (all deterministic), and stop before the next awakening (that is chance, never peeked).
2. Never lose this turn if any pair avoids it.
3. Value, in this order: bricks left on the bridge and both ends anchored; no awake brick left
   to flee (each flight is a lost brick and an extra awakening); few cards waiting to be played
   back (each is an extra awakening); an empty slot costs more than a short stack; holding a
   useful tool (THE CLUB above all, then a diamond, a club, a spade); standing near the middle,
   where most of the bridge is in reach; not standing on an awake brick, which a double
   awakening would throw into the air with the troll on it (weighed by the exact chance that
   the next card lands there, empty positions that redirect to it included).
4. Stomping is free, items cost an awakening: with equal outcomes, the cheaper pair wins.
"""

from __future__ import annotations

from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import State
from playtable.games.troll.actions import priced
from playtable.games.troll.evaluation import HEURISTIC_WEIGHTS, hit_chance, score
from playtable.games.troll.rules import TrollState

__all__ = ["HeuristicTroll", "evaluate", "hit_chance"]

def evaluate(state: TrollState) -> float:
    """A value in [0, 1] of a position between turns (or at the end) for the troll: the rules of
    thumb above as `evaluation.score` with the heuristic's weights."""
    return score(state, HEURISTIC_WEIGHTS)


class HeuristicTroll:
    name = "heuristic"

    def choose(self, state: State, rng: Chance) -> Any:
        assert isinstance(state, TrollState)
        best_value, best = -1.0, None
        for first in state.legal_actions():
            after_first = state.clone()
            after_first.hold_next_turn = True
            after_first.apply(first)
            if after_first.actions_left != 1 or after_first.outcome:  # the turn is over
                value = evaluate(after_first)
            else:
                value = max(self._after(after_first, second) for second in after_first.legal_actions())
            value = priced(value, [first])
            if value > best_value:
                best_value, best = value, first
        return best

    @staticmethod
    def _after(state: TrollState, action: Any) -> float:
        after = state.clone()
        after.apply(action)
        return priced(evaluate(after), [action])
