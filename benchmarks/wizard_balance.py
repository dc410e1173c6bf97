"""The Wizard's Labyrinth: speed and balance with bots on both sides.

For each player count: games per second, the wizard's win rate with a 95% Wilson interval, how
far that is from the designers' goal of a fair game (50%), how games end, and how long they are.

    .venv/bin/python benchmarks/wizard_balance.py --games 2000 --players 3 4 5
    .venv/bin/python benchmarks/wizard_balance.py --games 500 --variant beta --wizard random

    .venv/bin/python benchmarks/wizard_balance.py --games 2000 --first-seed 100000 --workers 2

Seeds are first-seed..first-seed+games-1 (game seed s, bot rng seed s + 1_000_003), so every run
is reproducible. The draws are the games that reached the round cap (RULES.md §8.14): the bots
play on, so they should stay under 0.5% (RULES.md §9, "Playing on"). With `--workers` the
games/s column is the wall clock's over all the workers.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections import Counter
from typing import Any

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.params import resolve_params
from playtable.games.wizard.game import GAME
from playtable.games.wizard.params import WizardParams
from playtable.lab.stats import wilson


def play(players: int, seed: int, variant: str | None, wizard: str, heroes: str,
         extra: list[str]) -> tuple[dict[str, Any], int]:
    params: WizardParams = resolve_params(WizardParams, GAME.variants, variant,
                                          [f"players={players}", *extra])
    state = GAME.new_state(params, seed)
    agents = [make_agent(GAME, wizard)] + [make_agent(GAME, heroes) for _ in range(players - 1)]
    rng = Chance(seed + 1_000_003)
    actions = 0
    while not state.is_terminal:
        state.apply(agents[state.current_player].choose(state, rng))
        actions += 1
    return dict(state.metrics()), actions


def _play_one(job: tuple[int, int, str | None, str, str, list[str]]) -> tuple[dict[str, Any], int]:
    return play(*job)


def run(players: int, games: int, variant: str | None, wizard: str, heroes: str,
        extra: list[str], first_seed: int = 0, workers: int = 1) -> dict[str, Any]:
    start = time.perf_counter()
    ends: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    rounds: list[int] = []
    actions = 0
    jobs = [(players, seed, variant, wizard, heroes, extra)
            for seed in range(first_seed, first_seed + games)]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(_play_one, jobs, chunksize=20)
    else:
        results = [_play_one(job) for job in jobs]
    for m, n in results:
        ends[str(m["end"])] += 1
        winners[str(m["winner"])] += 1
        rounds.append(int(m["rounds"]))
        actions += n
    seconds = time.perf_counter() - start
    wins = winners["wizard"]
    low, high = wilson(wins, games)
    rate = wins / games
    q = statistics.quantiles(rounds, n=10)
    return {
        "players": players, "games": games, "games_s": games / seconds,
        "draw_rate": winners["draw"] / games,
        "actions_s": actions / seconds, "wizard": wins, "heroes": winners["heroes"],
        "draws": winners["draw"], "rate": rate, "low": low, "high": high,
        "off": rate - 0.5, "rounds_mean": statistics.fmean(rounds),
        "rounds_median": statistics.median(rounds), "rounds_p10": q[0], "rounds_p90": q[-1],
        "ends": dict(ends),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--variant", default=None, help="final (default), beta or alpha")
    ap.add_argument("--wizard", default="heuristic", help="the wizard's bot (heuristic, random)")
    ap.add_argument("--heroes", default="heuristic", help="the heroes' bot (heuristic, random)")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--first-seed", type=int, default=0, help="the first game's seed")
    ap.add_argument("--workers", type=int, default=1, help="processes playing games at once")
    args = ap.parse_args()
    print(f"The Wizard's Labyrinth, rules {args.variant or 'final'}, wizard={args.wizard}, "
          f"heroes={args.heroes}, {args.games} games per row from seed {args.first_seed} "
          f"{' '.join(args.param)}")
    head = (f"{'players':>7} {'games/s':>8} {'actions/s':>9} {'wizard':>6} {'heroes':>6} "
            f"{'draws':>5} {'draw %':>6} {'wizard win rate [95% CI]':>26} {'vs 50%':>7} "
            f"{'rounds mean/median (p10-p90)':>29}  ends")
    print(head)
    print("-" * len(head))
    for players in args.players:
        r = run(players, args.games, args.variant, args.wizard, args.heroes, args.param,
                args.first_seed, args.workers)
        ci = f"{100 * r['rate']:5.1f}% [{100 * r['low']:4.1f}, {100 * r['high']:4.1f}]"
        length = (f"{r['rounds_mean']:5.1f}/{r['rounds_median']:4.1f} "
                  f"({r['rounds_p10']:.0f}-{r['rounds_p90']:.0f})")
        ends = ", ".join(f"{k} {v}" for k, v in sorted(r["ends"].items()))
        print(f"{players:>7} {r['games_s']:8.1f} {r['actions_s']:9.0f} {r['wizard']:>6} "
              f"{r['heroes']:>6} {r['draws']:>5} {100 * r['draw_rate']:5.2f}% {ci:>26} "
              f"{100 * r['off']:+6.1f}% "
              f"{length:>29}  {ends}", flush=True)


if __name__ == "__main__":
    main()
