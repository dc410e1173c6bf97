"""The troll engine the game plays with: `FastTrollState`, the rules of rules.py made fast.

rules.py's `TrollState` is the readable reference, cited rule by rule in RULES.md; this class
overrides only the steps a random game spends its time in, each doing exactly what the
reference method of the same name does (`tests/games/troll/test_engine_differential.py` and
`benchmarks/troll_differential.py` play both side by side and compare the state, the legal
actions, the events and the outcome after every step). The position's fields are the
reference's (lists, sets), so the bots, views and front ends read the same state.

Where the time went (a cProfile of random play): building event objects and their
text (now records, built when read: events.py), the legal actions rebuilt from direction names
and `_top_awake` calls, the collapse search after every turn, the awakening's target search,
and the SplitMix stream's function calls (core/chance.py). Here:
- legal actions come from per-slot tables of neighbours and ready-made actions (kernel.py);
- the collapse check depends only on which of the 12 slots hold bricks, so its answer is kept
  per occupancy mask (4,096 at most), computed once by the reference `bridge.collapse_reason`;
- the awakening's target likewise depends only on the row's occupancy and the die, and is kept;
- `apply` checks legality by identity first (actions are shared constants) and moves inline.
The loops live in kernel.py, plain functions that the install compiles with mypyc where it can
(setup.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playtable.core.protocol import Event
from playtable.games.troll import events as ev
from playtable.games.troll import kernel
from playtable.games.troll.actions import TrollAction
from playtable.games.troll.bridge import NEIGHBOUR
from playtable.games.troll.events import Record, TrollEvents
from playtable.games.troll.rules import THROWN_OFF, TrollState

compiled = kernel.compiled


class FastTrollState(TrollState):
    """`TrollState` with the hot steps of a game made fast; the rules are rules.py's."""

    def _events(self, records: list[Record]) -> Sequence[Event]:
        return TrollEvents(records)

    def legal_actions(self) -> list[TrollAction]:
        legal = self._legal
        if legal is None:
            legal = [] if self.outcome else kernel.legal(
                self.stacks, self.face_up, self.troll, self.visited, self.carried,
                self.params.rules == "draft")
            if legal is None:  # a dormant brick in hand: the reference lists where to lay it
                legal = self._compute_legal()
            self._legal = legal
        return legal

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
            target = NEIGHBOUR[self.troll][action.direction]
            self.troll = target
            self.visited.add(target)
            events.append((ev.moved, action.direction, target))
        else:
            self._act(action, events)
        self.actions_left -= 1
        if self.actions_left > 0:
            return TrollEvents(events)
        # The end of the turn (TrollState._finish_turn), written out here: the flight, then in
        # the usual case (final rules, the bridge stands, the deck goes on: no win, R15) the next
        # turn; every other case is the reference's to judge.
        stacks, params = self.stacks, self.params
        fled = kernel.flight(stacks, self.face_up, self.troll, self.set_aside, events)
        if fled:
            self.stats["fled"] += fled
        if params.rules == "draft":
            self._unsupported_fall(events)
            if self.outcome:
                return TrollEvents(events)
        reason = kernel.collapse_reason(stacks)
        if reason is None and self.deck and not self.hold_next_turn and self.turn < params.turn_limit:
            self._start_turn(events)
        else:
            self._judge_bridge(events, reason)
        return TrollEvents(events)

    # -- the next turn's awakening, and the deal --------------------------------------------------
    def _awakening_phase(self, events: list[Record]) -> None:
        cards = self._cards_to_play(events)
        if not cards:
            return
        lost = kernel.play_cards(self.stacks, self.face_up, self.seen, self.played, self.lower_red,
                                 self.troll, self.chance, cards, self.set_aside, events, self.stats)
        if lost >= 0:
            self._end("loss", THROWN_OFF, "double_awakening", events)
            self.set_aside = cards[lost + 1:] + self.set_aside

    def _deal(self, cards: list[int], heights: tuple[int, ...]) -> None:
        kernel.deal(self.stacks, cards, heights)
