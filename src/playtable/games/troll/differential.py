"""The fast engine against the readable reference: both play the same random games side by side
and must never differ over at least 100,000 random steps (`benchmarks/troll_differential.py`).

After the setup and after every step, the two states must agree on the whole position
(`to_json`: bridge, deck, dice stream, stats...), the legal actions in order, the events of the
step (kind, words and data), the outcome and the metrics. Now and then an illegal action is
tried on both: each must refuse it with the same words and stay unchanged. The games cycle
through variants so that every rule is reached: the draft's falls, wakes and throws off the
bridge, two carried aces, the reusable diamond, the gift card, the old win reading, and the
easier bridges that random play can win.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import IllegalAction
from playtable.core.params import resolve_params
from playtable.games.troll.actions import ALL_ACTIONS, TrollAction
from playtable.games.troll.engine import FastTrollState
from playtable.games.troll.params import VARIANTS, TrollParams
from playtable.games.troll.rules import TrollState

VARIANT_CYCLE: tuple[str | None, ...] = (None, "draft", "plus-one", "tutorial", "toys", "troll-card",
                                         "reusable-diamond", "club-start", "owed-awakenings", None)


@dataclass
class Tally:
    """What a differential run played through (so a reader sees that every rule was reached)."""

    games: int = 0
    steps: int = 0
    illegal_tries: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    verbs: Counter[str] = field(default_factory=Counter)


class Mismatch(AssertionError):
    """The fast engine and the reference disagree; the message says where."""


def _pair(params: TrollParams, seed: int) -> tuple[TrollState, FastTrollState]:
    states = []
    for cls in (TrollState, FastTrollState):
        state = cls(params, Chance(seed))
        state.setup()
        states.append(state)
    reference, fast = states
    assert isinstance(fast, FastTrollState)
    return reference, fast


def _compare(where: str, reference: TrollState, fast: TrollState, ref_events: Any, fast_events: Any) -> None:
    checks: list[tuple[str, Any, Any]] = [
        ("events", [e.to_json() for e in ref_events], [e.to_json() for e in fast_events]),
        ("legal actions", list(map(str, reference.legal_actions())), list(map(str, fast.legal_actions()))),
        ("state", reference.to_json(), fast.to_json()),
        ("outcome", (reference.outcome, reference.is_terminal, reference.returns()),
         (fast.outcome, fast.is_terminal, fast.returns())),
        ("metrics", reference.metrics(), fast.metrics()),
    ]
    for what, expected, got in checks:
        if expected != got:
            raise Mismatch(f"{where}: the {what} differ\nreference: {expected}\nfast:      {got}")


def _try_illegal(where: str, reference: TrollState, fast: TrollState, action: TrollAction) -> None:
    words = []
    for state in (reference, fast):
        before = state.to_json()
        try:
            state.apply(action)
        except IllegalAction as err:
            words.append(str(err))
        else:
            raise Mismatch(f"{where}: '{action}' is illegal but was played")
        if state.to_json() != before:
            raise Mismatch(f"{where}: refusing '{action}' changed the state")
    if words[0] != words[1]:
        raise Mismatch(f"{where}: refusals differ: {words[0]!r} / {words[1]!r}")


def run(steps: int, seed: int = 0, illegal_every: int = 50) -> Tally:
    """Play random games through both engines until `steps` actions were played; raise Mismatch
    at the first difference. Deterministic for `seed`."""
    rng = random.Random(seed)
    tally = Tally()
    while tally.steps < steps:
        variant = VARIANT_CYCLE[tally.games % len(VARIANT_CYCLE)]
        params = resolve_params(TrollParams, VARIANTS, variant)
        game_seed = seed * 1_000_003 + tally.games
        reference, fast = _pair(params, game_seed)
        where = f"game {tally.games} ({variant or 'default'}, seed {game_seed})"
        _compare(f"{where} setup", reference, fast, reference.setup_events, fast.setup_events)
        tally.games += 1
        while not reference.is_terminal and tally.steps < steps:
            legal = reference.legal_actions()
            if illegal_every and tally.steps % illegal_every == 0:
                illegal = [a for a in ALL_ACTIONS if a not in legal]
                _try_illegal(f"{where} step {tally.steps}", reference, fast, rng.choice(illegal))
                tally.illegal_tries += 1
            action = legal[rng.randrange(len(legal))]
            # The fast engine gets an equal but distinct object now and then (its identity check).
            twin = TrollAction(action.verb, action.direction, action.slot) if rng.random() < 0.1 else action
            ref_events = reference.apply(action)
            fast_events = fast.apply(twin)
            tally.steps += 1
            tally.verbs[action.verb] += 1
            _compare(f"{where} step {tally.steps} '{action}'", reference, fast, ref_events, fast_events)
            tally.events.update(e.kind for e in fast_events)
        tally.ends[reference.end_reason or "unfinished"] += 1
    return tally
