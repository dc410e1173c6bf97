"""Star Dice bots: a random thrower, and a search bot that tries sampled throws on copies of the
table (with the future's chance resampled, so it never peeks at the real stream)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import Agent, State
from playtable.games.stardice.actions import Call
from playtable.games.stardice.match import StarDiceState


def evaluate(state: StarDiceState, seat: int) -> float:
    """In [0, 1]: the war so far plus what the table would score now, for `seat` against the
    other player, squashed. Objective 1 (solitaire): `solitaire.evaluate`."""
    from playtable.games.stardice.solitaire import SolitaireState
    from playtable.games.stardice.solitaire import evaluate as solo_evaluate

    if isinstance(state, SolitaireState):
        return solo_evaluate(state)
    if state.is_terminal:
        return float(state.returns()[seat])
    points = state.current_score().points
    mine = state.war[seat] + points[seat]
    theirs = state.war[1 - seat] + points[1 - seat]
    return 0.5 + 0.5 * math.tanh((mine - theirs) / 8.0)


class RandomThrower:
    """Throws a random die in hand at a random spot (`fresh_throws`, one sample; in the
    torpedo phase, or after a die under many_per_turn, that may be `hold`)."""

    name = "random-thrower"

    def choose(self, state: State, rng: Chance) -> Any:
        assert isinstance(state, StarDiceState)
        if state.phase == "call":
            return Call("odd" if rng.below(2) else "even")
        if state.phase in ("torpedo", "more"):  # fire (or throw another die) or hold, evenly
            return rng.choice(state.fresh_throws(rng, 2))
        return state.fresh_throws(rng, 1)[0]


class SearchThrower:
    """Simulates `candidates` sampled throws, each `samples` times on a determinized copy of the
    table, and plays the one whose outcome evaluates best for its seat."""

    def __init__(self, candidates: int = 12, samples: int = 1, name: str = "search") -> None:
        self.candidates = candidates
        self.samples = samples
        self.name = name

    def choose(self, state: State, rng: Chance) -> Any:
        assert isinstance(state, StarDiceState)
        if state.phase == "call":
            return Call("odd" if rng.below(2) else "even")
        seat = state.current_player
        options = state.fresh_throws(rng, self.candidates)
        best, best_value = options[0], -1.0
        for action in options:
            total = 0.0
            for _ in range(self.samples):
                copy = state.determinize(seat, rng)
                copy.apply(action)
                total += evaluate(copy, seat)
            value = total / self.samples
            if value > best_value:
                best, best_value = action, value
        return best


BOTS: dict[str, Callable[[], Agent]] = {
    "random-thrower": RandomThrower,
    "search": SearchThrower,
    "search-strong": lambda: SearchThrower(candidates=24, samples=2, name="search-strong"),
}
