"""A troll bot that searches a third turn where the two-turn search is unsure, sampling its odds.

The two-turn search (`search.ExpectimaxTroll`, the bot `strongest`) weighs every ending of this
turn by the exact odds of the next awakening and the best reply turn, scored by a static leaf.
A full third turn costs 30-70 CPU s a game, because every reply is followed by another exact
enumeration of about 43 awakening outcomes (docs/lab.md, "Three turns deep"); keeping only the
likeliest outcomes was tried and made the search optimistic (the rare disasters left out).

Here the third turn is searched selectively and without bias:

- The root is the two-turn search, exact, on every ending of the turn.
- Only the `width` best root endings by that value are searched one turn deeper: the next
  awakening is still enumerated exactly; at each of its outcomes the troll's `inner_width` best
  replies by the leaf are followed by the awakening after them, whose outcomes are *sampled*
  (`samples` of them, systematic sampling over the outcomes' probabilities with one random
  offset: every outcome, rare disasters included, is drawn with its own odds, so the mean is an
  unbiased estimate of the exact expectation), and each sampled position is scored by the troll's
  best third turn on the leaf.
- The root ending with the best three-turn value is played; with `width=1` this is `strongest`.
- Only where the call is close (`close`): when the best root ending leads the next by `close`
  or more in two-turn value, it is played as the two-turn search found it.
- With `outer_samples=0` and `samples=0` (a lab setting: a move's cost has no bound) nothing is
  sampled: an ending's value is then its exact three-turn expectimax value, and the values
  found are remembered within the decision, since outcomes and replies can reach the same
  position again.

It never reads a hidden card: it plans on the belief copy (`search.belief`) as the two-turn search
does, and the sampling offsets come from the rng it is given (never the deal's own stream), so it
is deterministic for a seed. Its cost is bounded in positions, not time: at most `width` root
endings, each with one exact awakening layer, `inner_width` replies per outcome and `samples`
outcomes per reply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.games.troll.actions import TrollAction, priced
from playtable.games.troll.leaves import LEAVES
from playtable.games.troll.rules import TrollState
from playtable.games.troll.search import (
    ExpectimaxTroll,
    Outcomes,
    PlansEachTurn,
    awakening_outcomes,
    belief,
    best_turn_value,
    position_key,
    turn_ends,
)

Weighed = tuple[float, list[TrollAction], TrollState]
"""A root ending weighed by the two-turn search: its value, the actions that reach it, the position."""


def systematic_sample(outcomes: Outcomes, count: int, offset: float) -> list[TrollState]:
    """`count` outcomes drawn by systematic sampling: the points (offset + i) / count on the
    outcomes' cumulative probabilities. Each outcome is drawn count × p times on average, so the
    mean of a value over the draws is unbiased, with less spread than independent draws."""
    total = sum(p for p, _ in outcomes)
    drawn: list[TrollState] = []
    cumulative, index = 0.0, 0
    for i in range(count):
        point = (offset + i) / count * total
        while index < len(outcomes) - 1 and cumulative + outcomes[index][0] <= point:
            cumulative += outcomes[index][0]
            index += 1
        drawn.append(outcomes[index][1])
    return drawn


@dataclass
class ThirdTurnTroll(PlansEachTurn):
    """The two-turn search, then a sampled third turn for its best few endings; see the module
    documentation."""

    # Remote bounds (`core.params`): the dearest setting (width=4, outer_samples=16, inner_width=3,
    # samples=16, leaf=network) took at most 1.9 CPU s a move on the first turns of deals 0 and 1
    # (a spot check; `benchmarks/remote_bounds.py` lists it for the full measurement).
    width: int = field(default=3, metadata={"range": (1, 4)})
    """Root endings (the two-turn search's best first) searched a third turn (1: `strongest`)."""
    inner_width: int = field(default=2, metadata={"range": (1, 3)})
    """Replies searched deeper at each outcome of the next awakening (the leaf's best first)."""
    outer_samples: int = field(default=8, metadata={"range": (1, 16)})
    """Outcomes of the next awakening sampled below each root ending (systematic sampling on their
    odds, the same offset for every ending); all are weighed exactly when there are no more."""
    samples: int = field(default=8, metadata={"range": (1, 16)})
    """Outcomes of the awakening after a reply sampled (systematic sampling on their odds); when
    there are no more outcomes than this, all are weighed exactly instead."""
    leaf: str = field(default="rows", metadata={"one_of": tuple(LEAVES)})
    """The static score, one of `leaves.LEAVES` (as the two-turn search's `leaf`)."""
    close: float = field(default=1.0, metadata={"range": (0.0, 1.0)})
    """Search the third turn only when the best root ending leads the next by less than this in
    two-turn value (1: always); a clear lead is played as the two-turn search found it."""
    name = "thirdturn"
    _two_turns: ExpectimaxTroll = field(default_factory=ExpectimaxTroll, init=False, repr=False,
                                        compare=False)
    _plan: dict[Any, TrollAction] = field(default_factory=dict, init=False, repr=False, compare=False)
    # Values already found in this decision, by `position_key`: a position's best last turn, and
    # (weighing every outcome) a reply's exact next awakening. Different outcomes and replies can
    # reach the same position (a brick woken and stomped back to sleep): in the first three
    # decisions of deal 3, 26%, 23% and 1% of the turns the exact third turn enumerated were
    # repeats.
    _last_turns: dict[Any, float] = field(default_factory=dict, init=False, repr=False, compare=False)
    _next_awakenings: dict[Any, float] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.leaf not in LEAVES:
            raise BadParameter(f"thirdturn: leaf must be one of {', '.join(LEAVES)}, not '{self.leaf}'")
        if min(self.width, self.inner_width) < 1:
            raise BadParameter("thirdturn: width and inner_width must be at least 1")
        if min(self.samples, self.outer_samples) < 0:
            raise BadParameter("thirdturn: samples and outer_samples must be at least 0 (0: every outcome)")
        self._two_turns = ExpectimaxTroll(depth=2, leaf=self.leaf)

    def best_line(self, state: TrollState, rng: Chance) -> list[TrollAction]:
        """The actions of the best rest of this turn: the two-turn search's `width` best endings,
        compared by their three-turn values."""
        candidates = self.candidates(state)
        if len(candidates) == 1:
            return candidates[0][1]
        self._last_turns.clear()
        self._next_awakenings.clear()
        offset = rng.random()  # one for every candidate: their corrections are compared on the same draws
        best_value, best = -2.0, candidates[0][1]
        for two_turns, line, after in candidates:
            value = priced(self.three_turns(after, two_turns, offset, rng), line)
            if value > best_value:
                best_value, best = value, line
        return best

    def candidates(self, state: TrollState) -> list[Weighed]:
        """The root endings to weigh three turns deep, each with its two-turn value: the two-turn
        search's `width` best, or only the best when it leads the next by `close` or more."""
        weighed = sorted(((self._two_turns.value_after_turn(after, 1), line, after)
                          for line, after in turn_ends(belief(state))),
                         key=ranked_value, reverse=True)[: self.width]
        if len(weighed) > 1 and ranked_value(weighed[0]) - ranked_value(weighed[1]) >= self.close:
            return weighed[:1]
        return weighed

    def three_turns(self, state: TrollState, two_turns: float, offset: float, rng: Chance) -> float:
        """The value of a position held at the end of this turn with two more troll turns:
        `two_turns` (its exact two-turn value) corrected by what the third turn changes, the mean
        over sampled outcomes of the next awakening of (the best reply searched a turn deeper)
        minus (the best reply by the leaf). The correction is small where the leaf already judges
        well, so its sampling spread is much smaller than that of the values themselves."""
        if state.outcome:
            return _terminal(state)
        outcomes = awakening_outcomes(state)
        if self.outer_samples == 0 or len(outcomes) <= self.outer_samples:
            weighed = outcomes
        else:
            weight = 1.0 / self.outer_samples
            weighed = [(weight, after) for after in systematic_sample(outcomes, self.outer_samples, offset)]
        correction = 0.0
        for p, after in weighed:
            if not after.outcome:
                correction += p * self._deeper_by(after, rng)
        return two_turns + correction

    def _deeper_by(self, state: TrollState, rng: Chance) -> float:
        """How much better the best reply turn from the start of an action phase is when its
        `inner_width` best endings by the leaf are weighed over the sampled awakening after them
        than by the leaf alone."""
        leaf = self._two_turns.evaluate
        # The first of equals by the leaf, as the two-turn search ranks its replies.
        ends = sorted(((leaf(after), after) for _, after in turn_ends(state)),
                      key=lambda e: e[0], reverse=True)[: self.inner_width]
        return max(self._sampled_next(after, rng) for _, after in ends) - ends[0][0]

    def _sampled_next(self, state: TrollState, rng: Chance) -> float:
        if state.outcome:
            return _terminal(state)
        if self.samples == 0:
            key = position_key(state)
            if key not in self._next_awakenings:
                outcomes = awakening_outcomes(state)
                self._next_awakenings[key] = sum(p * self._last_turn(after) for p, after in outcomes)
            return self._next_awakenings[key]
        outcomes = awakening_outcomes(state)
        if len(outcomes) <= self.samples:
            return sum(p * self._last_turn(after) for p, after in outcomes)
        drawn = systematic_sample(outcomes, self.samples, rng.random())
        return sum(self._last_turn(after) for after in drawn) / len(drawn)

    def _last_turn(self, state: TrollState) -> float:
        if state.outcome:
            return _terminal(state)
        key = position_key(state)
        if key not in self._last_turns:
            self._last_turns[key] = best_turn_value(state, self._two_turns.evaluate)
        return self._last_turns[key]


def ranked_value(weighed: Weighed) -> float:
    """A weighed root ending's place in the ranking: its two-turn value, each item a thousandth."""
    return priced(weighed[0], weighed[1])


def _terminal(state: TrollState) -> float:
    return 1.0 if state.outcome == "win" else 0.0
