"""A troll bot that adds hindsight optimisation to the expectimax bot near the end of a deal.

Hindsight optimisation (perfect-information Monte Carlo; Bjarnason, Fern and Tadepalli, ICAPS
2009, who lower-bounded Klondike's win rate this way): to judge a move, sample futures that
agree with everything the player has seen, solve each sampled future as a perfect-information
puzzle, and count the futures in which the move still leads to a win.

Here:
- The candidates are the `width` best distinct endings of the rest of this turn, ranked by the
  expectimax bot's own search (`search.ExpectimaxTroll`), planned on its belief copy.
- While the deck of awakening still holds more than `late` cards, the expectimax bot decides
  alone: the clairvoyant solver wins almost every deal from the start, so early on every
  candidate "wins in hindsight" and the count tells nothing (and costs a lot).
- Near the end, each of `samples` futures is a `determinize` of the real position (every card
  the player has not seen, and every future die, drawn afresh from the rng; the real deck order
  and dice never enter). Each candidate's actions are played in that future and the clairvoyant
  solver (`solver.solve`, at most `nodes` turns) searches on. A candidate's value is its share
  of futures won (an undecided search counts as half a win), plus the expectimax value as a
  small tie-break. The same futures serve every candidate (common random numbers).

It is deterministic for a given rng and never reads a hidden card: the futures come from
`determinize`, which sorts the unseen cards before shuffling them, and the candidates from the
belief copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import State
from playtable.games.troll.actions import TrollAction, priced
from playtable.games.troll.leaves import LEAVES
from playtable.games.troll.rules import TrollState
from playtable.games.troll.search import ExpectimaxTroll, belief, follow_plan, seen_key, turn_ends
from playtable.games.troll.solver import solve


@dataclass
class HindsightTroll:
    """Expectimax early, hindsight optimisation over the clairvoyant solver late; see the module
    documentation."""

    # Remote bounds (`core.params`): every one at its dearest (samples=32, width=8, late=52,
    # nodes=200, depth=2, leaf=network) took at most 4.6 s a move (benchmarks/remote_bounds.py).
    samples: int = field(default=8, metadata={"range": (0, 32)})
    """Futures sampled at each late decision (0: the expectimax bot alone)."""
    width: int = field(default=4, metadata={"range": (1, 8)})
    """Turn endings compared at a late decision (the expectimax bot's best first)."""
    late: int = field(default=6, metadata={"range": (0, 52)})
    """Hindsight starts once the deck of awakening holds at most this many cards."""
    nodes: int = field(default=60, metadata={"range": (1, 200)})
    """Turns the clairvoyant solver may expand in one sampled future."""
    depth: int = field(default=2, metadata={"range": (1, 2)})
    """The expectimax bot's depth (see `search.ExpectimaxTroll`)."""
    leaf: str = field(default="tuned", metadata={"one_of": tuple(LEAVES)})
    """The expectimax bot's static score, one of `leaves.LEAVES`."""
    expectimax_width: int = field(default=0, metadata={"range": (0, 1000)})
    """The expectimax bot's root width (0 = every turn ending)."""
    name = "hindsight"
    _expectimax: ExpectimaxTroll = field(default_factory=ExpectimaxTroll, init=False, repr=False)
    _plan: dict[Any, TrollAction] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self._expectimax = ExpectimaxTroll(depth=self.depth, leaf=self.leaf, width=self.expectimax_width)

    def choose(self, state: State, rng: Chance) -> Any:
        assert isinstance(state, TrollState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if len(state.deck) > self.late or self.samples <= 0:
            self._plan.clear()
            return self._expectimax.choose(state, rng)
        return follow_plan(self._plan, state, legal, lambda: self.best_line(state, rng), seen_key)

    def best_line(self, state: TrollState, rng: Chance) -> list[TrollAction]:
        """The actions of the best rest of this turn: the hindsight count over sampled futures
        among the expectimax bot's best few."""
        search = self._expectimax
        ranked = []
        for line, after in turn_ends(belief(state)):
            ranked.append((priced(search.value_after_turn(after, search.depth - 1), line), line))
        ranked.sort(key=lambda r: r[0], reverse=True)
        candidates = ranked[: max(1, self.width)]
        if len(candidates) == 1:
            return candidates[0][1]
        futures = [state.determinize(0, rng) for _ in range(self.samples)]
        best_value, best_line = -1.0, candidates[0][1]
        for prior, line in candidates:
            won = sum(self._wins(future, line) for future in futures)
            value = won / len(futures) + 0.01 * prior
            if value > best_value:
                best_value, best_line = value, line
        return best_line

    def _wins(self, future: TrollState, line: list[TrollAction]) -> float:
        """1 if the clairvoyant solver wins `future` after `line`, 0 if it proves a loss, 0.5
        when its budget runs out first."""
        current = future.clone()
        for action in line:
            current.apply(action)
        solution = solve(current, node_limit=self.nodes)
        return {"win": 1.0, "loss": 0.0}.get(solution.status, 0.5)

