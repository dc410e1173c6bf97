"""A troll bot that judges its best few turns by playing sampled futures out with a fast policy.

Policy rollout (Bertsekas' rollout algorithm; Yan, Diaconis, Rusmevichientong and Van Roy,
NIPS 2004, used it to play Klondike with a hand-made base policy): to choose a turn, take the
`width` best distinct endings of this turn by the static score, and for each of `samples`
futures drawn from what the player knows (`determinize`: every unseen card and future die
drawn afresh from the rng; the real deck and dice never enter), play the candidate's actions
and then let the base policy play on, `horizon` turns or to the end of the game. The base
policy is the one-turn search: every distinct ending of a turn is tried and the best by the
static score kept (`search.turn_ends`; it reads no hidden card, only the bridge, the face-up
cards and what the troll holds). A finished game counts 1 (win) or 0; a rollout stopped at the
horizon counts the static score of where it stopped. Each candidate's value is its mean over the
futures, and every candidate meets the same futures (common random numbers), so the comparison
is sharper than the sample size alone would make it.

Unlike hindsight optimisation over the clairvoyant solver (`hindsight.py`), the base policy
never knows the future it plays in, so a rollout is a fair sample of how the game would go on:
no candidate looks good merely because a clairvoyant player could rescue it.

Deterministic for a given rng; the candidates come from the belief copy (`search.belief`), and
the futures from `determinize`, so two positions that look the same to the player get the same
move for the same rng.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.games.troll.actions import TrollAction, priced
from playtable.games.troll.leaves import LEAVES, Value
from playtable.games.troll.rules import TrollState
from playtable.games.troll.search import PlansEachTurn, belief, turn_ends


def greedy_turn(state: TrollState, value: Value) -> tuple[list[TrollAction], TrollState]:
    """The one-turn search: the ending of this turn (held before the next awakening) that
    `value` rates best, cheaper items first among equals."""
    return max(turn_ends(state), key=lambda e: priced(value(e[1]), e[0]))


def play_out(state: TrollState, value: Value, horizon: int) -> float:
    """Play `state` (a sampled future, at the start of a turn) on with the one-turn search:
    1 or 0 when the game ends within `horizon` turns, else `value` where it stopped."""
    for _ in range(horizon):
        if state.outcome:
            break
        line, _ = greedy_turn(state, value)
        for action in line:
            state.apply(action)
    if state.outcome:
        return 1.0 if state.outcome == "win" else 0.0
    held = state.clone()
    held.hold_next_turn = True
    return value(held)


@dataclass
class RolloutTroll(PlansEachTurn):
    """Policy rollout over sampled futures; see the module documentation."""

    # Remote bounds (`core.params`): samples=64, width=8, horizon=4, leaf=network took at most
    # 7.3 s a move, with every toy of §4.1 (benchmarks/remote_bounds.py).
    samples: int = field(default=16, metadata={"range": (0, 64)})
    """Futures sampled at each turn (0: the one-turn search alone)."""
    width: int = field(default=4, metadata={"range": (1, 8)})
    """Turn endings compared (the static score's best first)."""
    horizon: int = field(default=2, metadata={"range": (0, 4)})
    """Turns each rollout plays before the static score judges where it stopped."""
    leaf: str = field(default="learned", metadata={"one_of": tuple(LEAVES)})
    """The static score of the candidates, the base policy and the horizon: "tuned"
    (`evaluation.score` with `TUNED_WEIGHTS`) or "learned" (`learned.win_chance`)."""
    name = "rollout"
    _plan: dict[Any, TrollAction] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.leaf not in LEAVES:
            raise BadParameter(f"rollout: leaf must be one of {', '.join(LEAVES)}, not '{self.leaf}'")
        if self.samples < 0 or self.width < 1 or self.horizon < 0:
            raise BadParameter("rollout: samples and horizon must be at least 0, width at least 1")

    def best_line(self, state: TrollState, rng: Chance) -> list[TrollAction]:
        """The actions of the best rest of this turn by the rollouts' means."""
        value = LEAVES[self.leaf]
        ends = turn_ends(belief(state))
        ranked = sorted(ends, key=lambda e: priced(value(e[1]), e[0]), reverse=True)
        candidates = ranked[: max(1, self.width)]
        if len(candidates) == 1 or self.samples <= 0:
            return candidates[0][0]
        futures = [state.determinize(0, rng) for _ in range(self.samples)]
        best_value, best_line = -1.0, candidates[0][0]
        for line, after in candidates:
            if after.outcome:
                total = float(after.outcome == "win") * len(futures)
            else:
                total = 0.0
                for future in futures:
                    current = future.clone()
                    for action in line:
                        current.apply(action)
                    total += play_out(current, value, self.horizon)
            mean = priced(total / len(futures), line)
            if mean > best_value:
                best_value, best_line = mean, line
        return best_line

