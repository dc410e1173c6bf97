"""Troll: how well the app's warning odds match what happens (RULES.md W2).

    .venv/bin/python benchmarks/troll_warning_odds.py [--games 300] [--variant plus-one]

The heuristic bot plays seeds 0..N-1. Whenever a turn's last action ends with the troll on an
awake brick, the warning's estimate (`fatal.double_awakening_chance`) is noted, and the next
awakening phase says whether the troll really flew away. Prints one table: estimates grouped in
bins, against the observed share with its Wilson 95% interval, and how often the warnings came.
"""

from __future__ import annotations

import argparse

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.params import resolve_params
from playtable.games.troll.fatal import double_awakening_chance
from playtable.games.troll.game import GAME
from playtable.lab.stats import wilson

BINS = ((0.0, 0.05), (0.05, 0.1), (0.1, 0.15), (0.15, 0.2), (0.2, 1.01))


def measure(games: int, variant: str | None) -> tuple[list[tuple[float, bool]], int, int]:
    """(estimate, flew away) per warned turn end, the turn ends seen, and the collapse warnings."""
    params = resolve_params(GAME.params_type, GAME.variants, variant)
    agent = make_agent(GAME, "heuristic")
    noted: list[tuple[float, bool]] = []
    turn_ends = collapses = 0
    for seed in range(games):
        state = GAME.new_state(params, seed)
        rng = Chance(seed + 1_000_003)
        while not state.is_terminal:
            action = agent.choose(state, rng)
            ends_turn = state.actions_left == 1
            words = state.action_warning(action) if ends_turn else None
            estimate = None
            if ends_turn:
                turn_ends += 1
                held = state.clone()
                held.hold_next_turn = True
                held.apply(action)
                if words and "collapses" in words:
                    collapses += 1
                elif words:
                    estimate = double_awakening_chance(held)
            events = state.apply(action)
            if estimate is not None:
                noted.append((estimate, any(e.data.get("reason") == "double_awakening" for e in events)))
    return noted, turn_ends, collapses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--variant", default=None)
    args = parser.parse_args()
    noted, turn_ends, collapses = measure(args.games, args.variant)
    print(f"troll, heuristic bot, {args.games} games ({args.variant or 'default'} rules): "
          f"{turn_ends} turn ends, {len(noted)} warned for an awake brick, {collapses} for a collapse")
    print(f"{'estimate':>12} {'turn ends':>10} {'mean estimate':>14} {'flew away':>10} {'observed':>9} "
          f"{'95% CI':>15}")
    for lo, hi in BINS:
        group = [(p, hit) for p, hit in noted if lo <= p < hi]
        if not group:
            continue
        hits = sum(hit for _, hit in group)
        low, high = wilson(hits, len(group))
        mean = sum(p for p, _ in group) / len(group)
        print(f"{f'{lo:.2f}-{min(hi, 1):.2f}':>12} {len(group):>10} {mean:>14.3f} {hits:>10} "
              f"{hits / len(group):>9.3f} {f'[{low:.3f}, {high:.3f}]':>15}")


if __name__ == "__main__":
    main()
