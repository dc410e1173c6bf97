"""The Wizard's Labyrinth: speed and balance with bots on both sides.

For each player count: games per second, the wizard's win rate with a 95% Wilson interval, how
far that is from the designers' goal of a fair game (50%), how many games would narrow the
interval to ±1 pp, how games end, and how long they are.

    .venv/bin/python benchmarks/wizard_balance.py --games 2000 --players 3 4 5 [--workers 2]
    .venv/bin/python benchmarks/wizard_balance.py --games 500 --variant beta --wizard random

The games are the lab runner's (`run_tasks`, seeds first..first+games-1, each seat's bot stream
`runner.agent_rng`): the same rows as `playtable sim wizard --agent 0=WIZARD --agent HEROES
--param players=N -n GAMES --seed FIRST`, so the two cannot disagree.
The draws are the games that reached the round cap (RULES.md §8.14): the bots play on, so they
should stay under 0.5% (RULES.md §9, "Playing on").
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from typing import Any

from playtable.core.params import resolve_params
from playtable.games.wizard.game import GAME
from playtable.lab.runner import Arm, RunOptions, run_tasks
from playtable.lab.stats import rate_reach, reach_text


def run(players: int, games: int, first: int, variant: str | None, wizard: str, heroes: str,
        extra: list[str], workers: int) -> dict[str, Any]:
    params = resolve_params(GAME.params_type, GAME.variants, variant, [f"players={players}", *extra])
    arm = Arm.build("wizard", params, [wizard] + [heroes] * (players - 1), label=variant or "final")
    start = time.perf_counter()
    rows = run_tasks([(arm, s) for s in range(first, first + games)], RunOptions(workers=workers))
    seconds = time.perf_counter() - start
    ends: Counter[str] = Counter(str(r["metrics"].get("end")) for r in rows)
    winners: Counter[str] = Counter(str(r["metrics"].get("winner")) for r in rows)
    rounds = [int(r["metrics"]["rounds"]) for r in rows]
    wins = winners["wizard"]
    reach = rate_reach(wins, games)
    q = statistics.quantiles(rounds, n=10)
    return {
        "players": players, "games": games, "games_s": games / seconds,
        "actions_s": sum(r["length"] for r in rows) / seconds, "wizard": wins, "heroes": winners["heroes"],
        "draws": winners["draw"], "draw_rate": winners["draw"] / games, "reach": reach,
        "off": reach["rate"] - 0.5,
        "rounds_mean": statistics.fmean(rounds),
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
    ap.add_argument("--first", "--first-seed", dest="first", type=int, default=0, help="first seed")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    print(f"The Wizard's Labyrinth, rules {args.variant or 'final'}, wizard={args.wizard}, "
          f"heroes={args.heroes}, {args.games} games per row "
          f"(seeds {args.first}..{args.first + args.games - 1}) "
          f"{' '.join(args.param)}")
    head = (f"{'players':>7} {'games/s':>8} {'actions/s':>9} {'wizard':>6} {'heroes':>6} "
            f"{'draws':>5} {'draw %':>6} {'wizard win rate [95% CI]':>26} {'vs 50%':>7} "
            f"{'rounds mean/median (p10-p90)':>29}  {'how far it can move':<40}  ends")
    print(head)
    print("-" * len(head))
    for players in args.players:
        r = run(players, args.games, args.first, args.variant, args.wizard, args.heroes, args.param,
                args.workers)
        reach = r["reach"]
        ci = f"{100 * reach['rate']:5.1f}% [{100 * reach['low']:4.1f}, {100 * reach['high']:4.1f}]"
        length = (f"{r['rounds_mean']:5.1f}/{r['rounds_median']:4.1f} "
                  f"({r['rounds_p10']:.0f}-{r['rounds_p90']:.0f})")
        ends = ", ".join(f"{k} {v}" for k, v in sorted(r["ends"].items()))
        print(f"{players:>7} {r['games_s']:8.1f} {r['actions_s']:9.0f} {r['wizard']:>6} "
              f"{r['heroes']:>6} {r['draws']:>5} {100 * r['draw_rate']:5.2f}% {ci:>26} "
              f"{100 * r['off']:+6.1f}% "
              f"{length:>29}  {reach_text(reach):<40}  {ends}", flush=True)


if __name__ == "__main__":
    main()
