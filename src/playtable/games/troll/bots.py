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
from playtable.games.troll import bridge as geo
from playtable.games.troll.cards import ACE_OF_CLUBS, CLUBS, DIAMONDS, SPADES
from playtable.games.troll.rules import TrollState

_TOOL_VALUE = {CLUBS: 1.0, DIAMONDS: 1.4, SPADES: 0.6}


def evaluate(state: TrollState) -> float:
    """A value in [0, 1] of a position between turns (or at the end) for the troll."""
    if state.outcome == "win":
        return 1.0
    if state.outcome == "loss":
        return 0.0
    stacks, face_up = state.stacks, state.face_up
    bricks = sum(len(s) for s in stacks)
    empty = sum(1 for s in stacks if not s)
    awake = sum(1 for s in stacks if s and s[-1] in face_up)
    end_cover = min(len(stacks[0]) + len(stacks[6]), len(stacks[5]) + len(stacks[11]))
    tools = 0.0
    for card in state.carried:
        if card == ACE_OF_CLUBS:
            tools += 4.0
        elif card in face_up:
            tools += _TOOL_VALUE.get(card // 13, 0.0)
    under_troll = stacks[state.troll][-1] in face_up if stacks[state.troll] else False
    column = state.troll % geo.COLUMNS
    centrality = 1.0 if 1 <= column <= 4 else 0.0
    raw = (0.5 * bricks - 1.5 * empty - 2.0 * awake - 1.2 * len(state.set_aside)
           + 1.0 * min(end_cover, 3) + tools + 0.5 * centrality - 0.3 * len(state.deck))
    value = 1.0 / (1.0 + pow(2.718281828, -raw / 8.0))
    if under_troll:
        cards_next_turn = len(state.set_aside) or min(1, len(state.deck))
        value *= (1.0 - hit_chance(state, state.troll)) ** cards_next_turn
    return value


def hit_chance(state: TrollState, slot: int) -> float:
    """The chance that one card played into the stacks awakens `slot`: its row's colour is about
    even odds, and the die faces that land there include the empty positions that redirect to
    it (§7.1 "No brick there...")."""
    row, faces = slot // geo.COLUMNS, 0
    for column in range(geo.COLUMNS):
        faces += geo.awakening_target(state.stacks, row, column) == slot
    return 0.5 * faces / 6


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
            value -= 0.001 * _cost(first)
            if value > best_value:
                best_value, best = value, first
        return best

    @staticmethod
    def _after(state: TrollState, action: Any) -> float:
        after = state.clone()
        after.apply(action)
        return evaluate(after) - 0.001 * _cost(action)


def _cost(action: Any) -> int:
    """Items cost an awakening; everything else is free."""
    return 1 if action.verb in ("club", "throw", "shovel", "wake") else 0
