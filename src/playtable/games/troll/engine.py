"""The troll engine the game plays with: `FastTrollState`, the rules of rules.py made fast.

rules.py's `TrollState` is the readable reference, cited rule by rule in RULES.md; this class
overrides only the steps a random game spends its time in, each doing exactly what the
reference method of the same name does (`tests/games/troll/test_engine_differential.py` and
`benchmarks/troll_differential.py` play both side by side and compare the state, the legal
actions, the events and the outcome after every step). The position's fields are the
reference's (lists, sets), so the bots, views and front ends read the same state.

Where the time went (issue 13, a cProfile of random play): building event objects and their
text (now records, built when read: events.py), the legal actions rebuilt from direction names
and `_top_awake` calls, the collapse search after every turn, the awakening's target search,
and the SplitMix stream's function calls (core/chance.py). Here:
- legal actions come from per-slot tables of neighbours and ready-made actions;
- the collapse check depends only on which of the 12 slots hold bricks, so its answer is kept
  per occupancy mask (4,096 at most), computed once by the reference `bridge.collapse_reason`;
- the awakening's target likewise depends only on the row's occupancy and the die, and is kept;
- `apply` checks legality by identity first (actions are shared constants).

This module is plain typed Python. `make fast` compiles it with mypyc into an extension module
beside it, which Python then imports instead; without a compiler nothing changes but the speed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playtable.core.protocol import Event
from playtable.games.troll import bridge as geo
from playtable.games.troll import events as ev
from playtable.games.troll.actions import DIRECTED_ACTIONS, DIRECTIONS, STOMP, WAIT, TrollAction
from playtable.games.troll.cards import HEARTS
from playtable.games.troll.events import Record, TrollEvents
from playtable.games.troll.rules import TrollState

COLUMNS = geo.COLUMNS
_CLUBS, _DIAMONDS, _SPADES = 0, 1, 3

# Per slot, one entry per direction (DIRECTIONS order): the neighbour (-1 off the bridge), the
# slots a thrown diamond passes in that direction, and the actions aimed that way.
_Near = tuple[int, tuple[int, ...], TrollAction, TrollAction, TrollAction, TrollAction,
              TrollAction, TrollAction]


def _ray(slot: int, direction: str) -> tuple[int, ...]:
    out = []
    slot = geo.NEIGHBOUR[slot][direction]
    while slot >= 0:
        out.append(slot)
        slot = geo.NEIGHBOUR[slot][direction]
    return tuple(out)


def _near(slot: int, d: str) -> _Near:
    def act(verb: str) -> TrollAction:
        return DIRECTED_ACTIONS[verb, d]

    return (geo.NEIGHBOUR[slot][d], _ray(slot, d), act("move"), act("pick"), act("club"),
            act("throw"), act("shovel"), act("wake"))


_NEAR: list[tuple[_Near, ...]] = [tuple(_near(s, d) for d in DIRECTIONS) for s in range(geo.SLOTS)]
_NEIGHBOUR: list[tuple[int, ...]] = [tuple(near[0] for near in _NEAR[s] if near[0] >= 0)
                                     for s in range(geo.SLOTS)]
# _STEP[troll][slot]: the fleeing step (-1 left, +1 right) of an awake brick at `slot` (I6);
# _ORDER[troll][slot]: its place in the flight (nearest the bank first, I4).
_STEP: list[list[int]] = [[geo.flight_step(s, t) for s in range(geo.SLOTS)] for t in range(geo.SLOTS)]
_ORDER: list[list[int]] = [[s % COLUMNS if _STEP[t][s] < 0 else COLUMNS - s % COLUMNS
                            for s in range(geo.SLOTS)] for t in range(geo.SLOTS)]
_COLLAPSE: dict[int, str | None] = {}  # occupancy mask -> geo.collapse_reason
_TARGET: dict[int, int] = {}  # row mask * 16 + row * 8 + column -> slot, or -1


def compiled() -> bool:
    """Whether this module runs compiled by mypyc (`make fast`) rather than as Python source."""
    return not __file__.endswith(".py")


def occupancy(stacks: Sequence[Sequence[int]]) -> int:
    """The 12-bit mask of the slots that hold at least one brick."""
    mask, bit = 0, 1
    for stack in stacks:
        if stack:
            mask |= bit
        bit <<= 1
    return mask


def collapse_reason(stacks: Sequence[Sequence[int]]) -> str | None:
    """`bridge.collapse_reason`, remembered per occupancy mask."""
    mask = occupancy(stacks)
    if mask not in _COLLAPSE:
        _COLLAPSE[mask] = geo.collapse_reason(stacks)
    return _COLLAPSE[mask]


def awakening_target(stacks: Sequence[Sequence[int]], row: int, column: int) -> int:
    """`bridge.awakening_target` (-1 for None), remembered per row occupancy and die."""
    base = row * COLUMNS
    mask = 0
    for c in range(COLUMNS):
        if stacks[base + c]:
            mask |= 1 << c
    key = mask * 16 + row * 8 + column
    if key not in _TARGET:
        target = geo.awakening_target(stacks, row, column)
        _TARGET[key] = -1 if target is None else target
    return _TARGET[key]


class FastTrollState(TrollState):
    """`TrollState` with the hot steps of a game made fast; the rules are rules.py's."""

    def _events(self, records: list[Record]) -> Sequence[Event]:
        return TrollEvents(records)

    def _compute_legal(self) -> list[TrollAction]:
        stacks, face_up, troll = self.stacks, self.face_up, self.troll
        near = _NEAR[troll]
        visited = self.visited
        out: list[TrollAction] = []
        for n, _ray, move, _pick, _club, _throw, _shovel, _wake in near:
            if n >= 0 and stacks[n] and n not in visited:
                out.append(move)
        here = stacks[troll]
        if here and here[-1] in face_up:
            out.append(STOMP)
        carried = self.carried
        if not carried:
            for n, _ray, _move, pick, _club, _throw, _shovel, _wake in near:
                if n >= 0:
                    stack = stacks[n]
                    if stack and stack[-1] in face_up and stack[-1] // 13 != HEARTS:
                        out.append(pick)
            return out or [WAIT]
        draft = self.params.rules == "draft"
        for card in carried:
            if card not in face_up:
                out.extend(self._lay_actions(draft))
                continue
            suit = card // 13
            if suit == _CLUBS:
                for n, _ray, _move, _pick, club, _throw, _shovel, _wake in near:
                    if n >= 0 and stacks[n] and stacks[n][-1] in face_up:
                        out.append(club)
            elif suit == _DIAMONDS:
                for _n, ray, _move, _pick, _club, throw, _shovel, _wake in near:
                    if draft or any(stacks[s] and stacks[s][-1] in face_up for s in ray):
                        out.append(throw)
            elif suit == _SPADES:
                for n, _ray, _move, _pick, _club, _throw, shovel, wake in near:
                    if n >= 0 and stacks[n]:
                        if stacks[n][-1] in face_up:
                            out.append(shovel)
                        elif draft:
                            out.append(wake)
        return out or [WAIT]

    def apply(self, action: Any) -> Sequence[Event]:
        legal = self._legal if self._legal is not None else self.legal_actions()
        for candidate in legal:
            if candidate is action:
                break
        else:
            if self.outcome or action not in legal or not isinstance(action, TrollAction):
                return super().apply(action)  # raises IllegalAction with the reference's words
        self._legal = None
        self._unseen_plan = None
        events: list[Record] = []
        if action.verb == "move":  # the commonest action, inlined
            target = geo.NEIGHBOUR[self.troll][action.direction]
            self.troll = target
            self.visited.add(target)
            events.append((ev.moved, action.direction, target))
        else:
            self._act(action, events)
        self.actions_left -= 1
        if self.actions_left == 0:
            self._finish_turn(events)
        return TrollEvents(events)

    # -- end of turn ----------------------------------------------------------------------------
    def _collapse_reason(self) -> str | None:
        return collapse_reason(self.stacks)

    def _flight_phase(self, events: list[Record]) -> None:
        stacks, face_up, troll = self.stacks, self.face_up, self.troll
        movers = [s for s in range(geo.SLOTS) if s != troll and stacks[s] and stacks[s][-1] in face_up]
        if not movers:
            return
        if len(movers) > 1:
            movers.sort(key=_ORDER[troll].__getitem__)
        steps = _STEP[troll]
        for slot in movers:
            card = stacks[slot].pop()
            step = steps[slot]
            column = slot % COLUMNS + step
            if 0 <= column < COLUMNS:
                stacks[slot + step].append(card)
                events.append((ev.fled_step, card, slot, slot + step))
            else:
                face_up.discard(card)
                self.set_aside.append(card)
                self.stats["fled"] += 1
                events.append((ev.fled, card, slot, "left" if column < 0 else "right"))

    # -- the next turn's awakening ----------------------------------------------------------------
    def _start_turn(self, events: list[Record]) -> None:
        self.turn += 1
        self.visited = {self.troll}
        self.actions_left = 2
        events.append((ev.turn, self.turn))
        if self.set_aside:
            self._awakening_phase(events)
            return
        if not self.deck:
            events.append((ev.no_awakening,))
            return
        self._play_card(self.deck.pop(), events)  # the usual phase: one card from the deck

    def _awakening_target(self, row: int, column: int) -> int | None:
        target = awakening_target(self.stacks, row, column)
        return None if target < 0 else target
