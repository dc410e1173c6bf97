"""The shipped tuned variants re-measured on fresh seeds (seeds no tuning run used).

    nice -n 10 .venv/bin/python benchmarks/lab_shipped_variants.py --games 2000
    nice -n 10 .venv/bin/python benchmarks/lab_shipped_variants.py --only wizard --games 2000 [--players 3]
    nice -n 10 .venv/bin/python benchmarks/lab_shipped_variants.py --only troll --agent expectimax --games 200
    nice -n 10 .venv/bin/python benchmarks/lab_shipped_variants.py --only troll-expert \
        --first-seed 9100000

* wizard `balanced` (tuned by benchmarks/tune_shipped.py for the wizard at 50 % at 3, 4 and 5
  players, heuristic bots on every seat) beside the default rules, at each player count;
* troll `ladder-10` ... `ladder-70` (tuned for the heuristic bot) beside the default rules;
  `--agent` measures the same rungs for another bot;
* troll `expert-10` ... `expert-70` (`--only troll-expert`): the same ladder for the strongest bot,
  `expectimax:leaf=learned` by default (slow: about 1-2 CPU s a game, longer on easier rungs).

Seeds start at 7,000,000 (tuning used 0.. and its re-measurement 1,000,000..). Prints one table:
the target, the win rate with its Wilson 95 % interval, and whether the target lies within
+/- 3 points of the measured rate.
"""

from __future__ import annotations

import argparse
import time

from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.lab.runner import Arm, RunOptions, run_tasks
from playtable.lab.stats import wilson

FRESH = 7_000_000
TROLL = (("final", None, None), ("ladder-10", "ladder-10", 0.10), ("ladder-30", "ladder-30", 0.30),
         ("ladder-50", "ladder-50", 0.50), ("ladder-70", "ladder-70", 0.70))
TROLL_EXPERT = (("final", None, None), ("expert-10", "expert-10", 0.10), ("expert-30", "expert-30", 0.30),
                ("expert-50", "expert-50", 0.50), ("expert-70", "expert-70", 0.70))
EXPERT_AGENT = "expectimax:leaf=learned"
"""The strongest troll bot measured (troll RULES.md's strength table), the expert ladder's player."""
WIZARD = (("final", None, None), ("balanced", "balanced", 0.50))


def measure(
    game: str, variant: str | None, extra: list[str], games: int, workers: int, first: int = FRESH,
    agent: str = "heuristic",
) -> tuple[int, int, float]:
    g = get_game(game)
    params = resolve_params(g.params_type, g.variants, variant, extra)
    arm = Arm.build(game, params, [agent], label=variant or "default")
    start = time.perf_counter()
    rows = run_tasks([(arm, s) for s in range(first, first + games)], RunOptions(workers=workers))
    wins = sum(1 for r in rows if 0 in (r.get("winners") or []) or (r["players"] == 1 and r.get("win")))
    return wins, len(rows), time.perf_counter() - start


def line(game: str, label: str, players: str, target: float | None, wins: int, n: int, wall: float) -> str:
    low, high = wilson(wins, n)
    rate = wins / n
    near = "-" if target is None else ("yes" if abs(rate - target) <= 0.03 else "no")
    goal = "-" if target is None else f"{100 * target:.0f}%"
    return (f"| {game} | {label} | {players} | {goal} | {n} | {100 * rate:.1f}% | "
            f"[{100 * low:.1f}, {100 * high:.1f}] | {near} | {wall:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--only", choices=["wizard", "troll", "troll-expert"], default=None)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--first-seed", type=int, default=FRESH, help="first seed (another fresh block)")
    ap.add_argument("--troll-variants", nargs="+", default=None,
                    help="troll rows to measure (default: final and the four rungs)")
    ap.add_argument("--agent", default=None,
                    help=f"agent spec on every seat (default: heuristic; {EXPERT_AGENT} for troll-expert)")
    ap.add_argument("--wizard-variants", nargs="+", default=[w[0] for w in WIZARD],
                    help="wizard rows to measure (default: final and balanced)")
    ap.add_argument("--players", type=int, nargs="+", choices=(3, 4, 5), default=[3, 4, 5],
                    help="wizard player counts to measure (default: 3 4 5)")
    args = ap.parse_args()
    expert = args.only == "troll-expert"
    args.agent = args.agent or (EXPERT_AGENT if expert else "heuristic")
    rows = TROLL_EXPERT if expert else TROLL
    troll_variants = args.troll_variants or [t[0] for t in rows]
    print(f"{args.agent} on every seat, {args.games} fresh seeds from {args.first_seed} per row; "
          "wizard rows: the wizard's win rate")
    print("| game | variant | players | target | games | win rate | 95% CI | target within 3 points "
          "| wall s |")
    print("|---|---|---|---|---|---|---|---|---|")
    if args.only in (None, "troll", "troll-expert"):
        for label, variant, target in [t for t in rows if t[0] in troll_variants]:
            result = measure("troll", variant, [], args.games, args.workers, args.first_seed, args.agent)
            print(line("troll", label, "1", target, *result), flush=True)
    if args.only in (None, "wizard"):
        for label, variant, target in [w for w in WIZARD if w[0] in args.wizard_variants]:
            for players in args.players:
                result = measure("wizard", variant, [f"players={players}"], args.games, args.workers,
                                 args.first_seed, args.agent)
                print(line("wizard", label, str(players), target, *result), flush=True)


if __name__ == "__main__":
    main()
