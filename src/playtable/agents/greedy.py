"""Greedy one-step lookahead with a game's own evaluation (`Game.evaluate`).

For each candidate action the agent applies it in a few *determinizations* of the current
position (hidden cards and future chance resampled from what the deciding seat has seen, never
the real hidden state or the real random stream) and scores the result with `Game.evaluate`.
Every action is judged on the same sampled worlds (common random numbers), so differences
between actions are not drowned by sampling noise. Depth one means no later decision is made
inside a sampled world, so the "averaging over clairvoyance" trap of deeper hindsight search
does not arise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import Game, State


def game_of(state: State, bound: Game[Any, Any] | None) -> Game[Any, Any] | None:
    """The game to evaluate `state` with: the bound one, else the registry's, else None."""
    if bound is not None:
        return bound
    from playtable.core.errors import UnknownGame
    from playtable.core.registry import get_game

    try:
        return get_game(state.game_id)
    except UnknownGame:
        return None


def evaluate(game: Game[Any, Any] | None, state: State, seat: int) -> float:
    if game is not None:
        return float(game.evaluate(state, seat))
    if state.is_terminal:
        return float(state.returns()[seat])
    return 0.5


@dataclass
class GreedyAgent:
    """Pick the action whose successor `Game.evaluate` rates best, averaged over `samples`
    determinizations. Deterministic given the rng handed to `choose`."""

    # Remote bounds (`core.params`): a move costs samples x candidates evaluations, each a
    # physics throw in Star Dice, the dearest game: 32 x 64 took 24 s a move there with 12 d20s
    # a side (benchmarks/remote_bounds.py, on the shared 2-core machine), so samples stop at 16
    # (the most the tests use).
    samples: int = field(default=8, metadata={"range": (1, 16)})
    """How many determinizations each action is judged on (the same ones for every action)."""
    candidates: int = field(default=64, metadata={"range": (1, 64)})
    """At most this many actions are considered (`State.sample_actions`)."""
    _game: Any = field(default=None, init=False, repr=False, compare=False)

    name = "greedy"

    def bind(self, game: Game[Any, Any]) -> None:
        """Use `game.evaluate` (set by `make_agent`; otherwise the registry's game is used)."""
        self._game = game

    def action_values(self, state: State, rng: Chance) -> list[tuple[Any, float]]:
        """Each candidate action with its mean evaluation, in the candidates' order (a lone
        candidate is not judged: its value is NaN)."""
        seat = state.current_player
        candidates = state.sample_actions(rng, self.candidates)
        if len(candidates) == 1:
            return [(candidates[0], float("nan"))]  # nothing to judge
        game = game_of(state, self._game)
        worlds = [state.determinize(seat, Chance(rng.next_u64())) for _ in range(max(1, self.samples))]
        out: list[tuple[Any, float]] = []
        for action in candidates:
            total = 0.0
            for world in worlds:
                after = world.clone()
                after.apply(action)
                total += evaluate(game, after, seat)
            out.append((action, total / len(worlds)))
        return out

    def choose(self, state: State, rng: Chance) -> Any:
        values = self.action_values(state, rng)
        if len(values) == 1:
            return values[0][0]
        best = max(v for _, v in values)
        # Ties go to the earliest candidate: stable and deterministic.
        return next(a for a, v in values if v >= best - 1e-12)
