"""How good a troll position is, for the bots' searches and the solver's ordering.

`score` values a position held between turns (or at the end) in [0, 1]: a weighted sum of the
bridge's bricks, empty slots, awake bricks, cards waiting to be played back, anchored ends, tools
in hand, the troll's place and the deck left, through a logistic curve, times the chance that the
troll is not thrown off by a double awakening. The heuristic bot's weights (`HEURISTIC_WEIGHTS`,
its rules of thumb in RULES.md) and the expectimax bot's tuned ones (`TUNED_WEIGHTS`, three more
terms: the bridge's weak points and what lies out of the troll's reach) are two settings of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from playtable.games.troll import bridge as geo
from playtable.games.troll import kernel
from playtable.games.troll.cards import ACE_OF_CLUBS, CLUBS, DIAMONDS, SPADES
from playtable.games.troll.rules import TrollState

_TOOL_VALUE = {CLUBS: 1.0, DIAMONDS: 1.4, SPADES: 0.6}


@dataclass(frozen=True)
class Weights:
    """The terms of `score` (the heuristic's `evaluate` terms, plus the bridge's weak points)."""

    bricks: float = 0.5
    empty: float = 1.5
    awake: float = 2.0
    set_aside: float = 1.2
    end_cover: float = 1.0
    tools: float = 1.0
    centre: float = 0.5
    deck: float = 0.3
    cut: float = 0.0
    thin: float = 0.0
    reach: float = 0.0
    scale: float = 8.0


HEURISTIC_WEIGHTS = Weights()
"""The heuristic's own weights (`bots.evaluate`), no extra terms."""
TUNED_WEIGHTS = Weights(set_aside=0.6, end_cover=0.5, cut=1.0, thin=0.3, reach=5.0)
"""One pass of coordinate search from HEURISTIC_WEIGHTS, each weight halved or doubled (cut, thin
and reach tried from 0) and kept if it won more of 3000 paired default deals at depth 1
(67 wins with HEURISTIC_WEIGHTS, 199 with these)."""


def cut_slots(stacks: list[list[int]]) -> tuple[int, ...]:
    """Slots whose loss alone would collapse the bridge (its articulation points)."""
    mask = 0
    for slot, stack in enumerate(stacks):
        if stack:
            mask |= 1 << slot
    return _cut_slots_of(mask)


@cache
def _cut_slots_of(mask: int) -> tuple[int, ...]:
    return tuple(s for s in range(geo.SLOTS) if mask >> s & 1 and not _stands(mask & ~(1 << s)))


_LEFT_BANK = 1 | 1 << geo.COLUMNS
_RIGHT_BANK = 1 << (geo.COLUMNS - 1) | 1 << (geo.SLOTS - 1)
_NOT_FIRST = sum(1 << s for s in range(geo.SLOTS) if s % geo.COLUMNS)
_NOT_LAST = sum(1 << s for s in range(geo.SLOTS) if s % geo.COLUMNS != geo.COLUMNS - 1)


def _stands(mask: int) -> bool:
    """`bridge.collapse_reason(...) is None` for the slots with bricks given as a bit mask."""
    reached = mask & _LEFT_BANK
    while True:
        grown = reached | ((reached << 1) & _NOT_FIRST) | ((reached >> 1) & _NOT_LAST)
        grown = (grown | (reached << geo.COLUMNS) | (reached >> geo.COLUMNS)) & mask
        if grown == reached:
            return bool(reached & _RIGHT_BANK)
        reached = grown


def out_of_reach(state: TrollState) -> float:
    """The share of the next awakening's (row, die) outcomes that land on a brick the troll
    could not put back to sleep next turn: stomped (on it, or one step away), clubbed (two
    steps, with a club in hand); a diamond in hand reaches about everything (a step into the
    target's row or column, then the throw)."""
    reach = troll_reach(state)
    if reach >= geo.SLOTS:
        return 0.0
    mask = 0
    for slot, stack in enumerate(state.stacks):
        if stack:
            mask |= 1 << slot
    return _out_of_reach(mask, state.troll, reach)


def troll_reach(state: TrollState) -> int:
    """How many steps away an awake brick can be for the troll to put it back to sleep next
    turn: one (step there, stomp), two with a club in hand (step, club), any with a diamond
    (`geo.SLOTS`: step into its row or column, throw)."""
    suits = {c // 13 for c in state.carried if c in state.face_up}
    return geo.SLOTS if DIAMONDS in suits else 2 if CLUBS in suits else 1


@cache
def _out_of_reach(mask: int, troll: int, reach: int) -> float:
    stacks = [[0] if mask >> s & 1 else [] for s in range(geo.SLOTS)]
    troll_row, troll_col = divmod(troll, geo.COLUMNS)
    missed = 0
    for row in (0, 1):
        for column in range(geo.COLUMNS):
            target = geo.awakening_target(stacks, row, column)
            if target is None:
                continue
            t_row, t_col = divmod(target, geo.COLUMNS)
            missed += abs(t_row - troll_row) + abs(t_col - troll_col) > reach
    return missed / (2 * geo.COLUMNS)


def score(state: TrollState, w: Weights = HEURISTIC_WEIGHTS) -> float:
    """A value in [0, 1] of a position held at the end of a turn: `bots.evaluate` with tunable
    weights and three more terms: the slots whose loss would collapse the bridge (weighed by how
    few bricks they hold), slots down to one brick, and the share of the next awakening's
    outcomes out of the troll's reach (`out_of_reach`)."""
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
    column = state.troll % geo.COLUMNS
    raw = (w.bricks * bricks - w.empty * empty - w.awake * awake - w.set_aside * len(state.set_aside)
           + w.end_cover * min(end_cover, 3) + w.tools * tools + w.centre * (1 <= column <= 4)
           - w.deck * len(state.deck))
    if w.cut:
        raw -= w.cut * sum(1.0 / len(stacks[s]) for s in cut_slots(stacks))
    if w.thin:
        raw -= w.thin * sum(1 for s in stacks if len(s) == 1)
    if w.reach:
        raw -= w.reach * out_of_reach(state)
    value = 1.0 / (1.0 + math.exp(-raw / w.scale))
    if stacks[state.troll] and stacks[state.troll][-1] in face_up:
        cards_next_turn = len(state.set_aside) or min(1, len(state.deck))
        value *= (1.0 - hit_chance(state, state.troll)) ** cards_next_turn
    return value


def hit_chance(state: TrollState, slot: int) -> float:
    """The chance that one card played into the stacks awakens `slot`: its row's colour is about
    even odds, and the die faces that land there include the empty positions that redirect to
    it (§7.1 "No brick there...")."""
    row, faces = slot // geo.COLUMNS, 0
    for column in range(geo.COLUMNS):
        faces += kernel.awakening_target(state.stacks, row, column) == slot  # compiled, remembered
    return 0.5 * faces / 6
