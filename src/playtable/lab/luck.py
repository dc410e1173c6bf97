"""Luck against skill: how much of a solitaire design's difficulty is the deal, how much the play.

Every deal of a set is played by the random agent and by the best agent, and judged by a
clairvoyant solver (one that knows every hidden card and future die, so its verdict is whether
the deal can be won at all). Each deal then falls in exactly one class, from most luck to most
skill:

- **won even by random play**: the deal wins itself;
- **won by the best agent** (random play lost it): skill that a bot already has;
- **won only in hindsight**: the clairvoyant solver wins it, the best agent did not: the skill
  still to find, or the luck of guessing the hidden cards;
- **won by no one**: the solver proves that no play wins it: the deal alone decides;
- **undecided**: no agent won and the solver ran out of budget first.

The lab knows games only through the protocol and the registry, so the solver comes in as a
function (`clairvoyant(params, seed) -> "win" | "no win" | "unknown"`); the command line passes
the troll's (`games/troll/solver.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playtable.core.params import resolve_params
from playtable.core.protocol import params_as_dict
from playtable.core.registry import get_game
from playtable.lab.runner import Arm, RunOptions, run_tasks
from playtable.lab.stats import wilson

CLASSES = ("won even by random play", "won by the best agent", "won only in hindsight",
           "won by no one", "undecided")

Clairvoyant = Callable[[dict[str, Any], int], str]


@dataclass
class LuckRow:
    """One variant's split of the deals into `CLASSES`."""

    variant: str
    deals: int
    counts: dict[str, int] = field(default_factory=dict)

    def share(self, name: str) -> tuple[float, float, float]:
        """The share of deals in class `name`, with its Wilson 95% interval."""
        k = self.counts.get(name, 0)
        low, high = wilson(k, self.deals)
        return k / max(1, self.deals), low, high


def classify(random_won: bool, best_won: bool, verdict: str) -> str:
    if random_won:
        return CLASSES[0]
    if best_won:
        return CLASSES[1]
    return {"win": CLASSES[2], "no win": CLASSES[3]}.get(verdict, CLASSES[4])


def luck_report(game_id: str, variants: list[str | None], deals: int, first_seed: int,
                best_agent: str, clairvoyant: Clairvoyant, workers: int = 1) -> list[LuckRow]:
    """Split deals `first_seed..first_seed+deals-1` of each variant (None: the default rules)."""
    game = get_game(game_id)
    out = []
    for variant in variants:
        params = resolve_params(game.params_type, game.variants, variant)
        seeds = range(first_seed, first_seed + deals)
        won: dict[str, dict[int, bool]] = {}
        for spec in ("random", best_agent):
            arm = Arm.build(game_id, params, [spec], label=spec)
            rows = run_tasks([(arm, s) for s in seeds], RunOptions(workers=workers))
            won[spec] = {r["seed"]: bool(r["win"]) for r in rows}
        row = LuckRow(variant or "default", deals, {name: 0 for name in CLASSES})
        as_dict = params_as_dict(params)
        for seed in seeds:
            random_won, best_won = won["random"][seed], won[best_agent][seed]
            # The solver is only needed when no agent won (it is the slowest part).
            verdict = "win" if random_won or best_won else clairvoyant(as_dict, seed)
            row.counts[classify(random_won, best_won, verdict)] += 1
        out.append(row)
    return out
