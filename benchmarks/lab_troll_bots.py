"""Troll win rate of each bot on the same seeds, with Wilson 95% intervals and paired
differences from the game's heuristic bot (common random numbers: the same deals and dice).

    .venv/bin/python benchmarks/lab_troll_bots.py [--games 1000] [--search-games 200]
        [--iterations 200] [--workers 2] [--out troll_bots.parquet]
        [--variant plus-one] [--expectimax expectimax --expectimax-games 500] [--only heuristic,expectimax]

The cheap bots play `--games` seeds; the search bots (greedy, ISMCTS) play the first
`--search-games` of them, and their paired difference is taken on those seeds only. The
clairvoyant solver (deck order and dice known) runs on the first `--clairvoyant-games` seeds
with a budget of `--budget` turns per deal; each bot's wins on those seeds are then shown as a
share of the deals the solver could win (an interval when some deals stay undecided).

`--expectimax SPEC` (repeatable; default `expectimax`, '' for none) adds the troll's expectimax
bot (search.py) on the first `--expectimax-games` seeds (default: `--search-games`);
`--only a,b` keeps only the listed bots (names before any options, e.g. `heuristic,expectimax`;
the heuristic always plays, it is the baseline);
`--variant NAME` plays a named variant of the game (`plus-one`, ...), for the bots and the solver.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time

from playtable.core.params import resolve_params
from playtable.core.protocol import params_as_dict
from playtable.core.registry import get_game
from playtable.games.troll.solver import Verdict, solve_deal
from playtable.lab.compare import value_of
from playtable.lab.runner import Arm, RunOptions, run_tasks
from playtable.lab.stats import paired, wilson
from playtable.lab.storage import ResultWriter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clairvoyant-games", type=int, default=None, help="default: --search-games")
    parser.add_argument("--budget", type=int, default=5000, help="solver turns per deal")
    parser.add_argument(
        "--rollout-variant", action="store_true", help="also ISMCTS with heuristic playouts (slow)"
    )
    parser.add_argument("--out", default=None, help="also write every game to this Parquet file")
    parser.add_argument("--variant", default=None, help="a named variant of the game, e.g. plus-one")
    parser.add_argument(
        "--expectimax",
        action="append",
        default=None,
        help="an expectimax spec (repeatable; default: expectimax)",
    )
    parser.add_argument("--expectimax-games", type=int, default=None, help="default: --search-games")
    parser.add_argument("--only", default=None, help="comma-separated bot names to keep")
    args = parser.parse_args()
    game = get_game("troll")
    params = resolve_params(game.params_type, game.variants, args.variant)
    solver_params = params_as_dict(params)
    bots = [
        ("random", args.games),
        ("heuristic", args.games),
        ("greedy", args.search_games),
        (f"ismcts:iterations={args.iterations}", args.search_games),
        (f"ismcts:iterations={args.iterations},info_sets=false", args.search_games),
    ]
    if args.rollout_variant:
        spec = f"ismcts:iterations={args.iterations},rollout_agent=heuristic,rollout_depth=2"
        bots.append((spec, args.search_games))
    n = args.expectimax_games if args.expectimax_games is not None else args.search_games
    bots.extend((spec, n) for spec in (args.expectimax or ["expectimax"]) if spec)
    if args.only:
        keep = {name.strip() for name in args.only.split(",")} | {"heuristic"}
        bots = [(spec, n) for spec, n in bots if spec.partition(":")[0] in keep]
    results: dict[str, dict[int, dict]] = {}
    timings: dict[str, float] = {}
    writer = ResultWriter(args.out) if args.out else None
    for spec, n in bots:
        arm = Arm.build("troll", params, [spec], label=spec)
        start = time.perf_counter()
        rows = run_tasks([(arm, s) for s in range(n)], RunOptions(workers=args.workers))
        timings[spec] = time.perf_counter() - start
        results[spec] = {r["seed"]: r for r in rows}
        if writer is not None:
            writer.write(rows)
    if writer is not None:
        writer.close()
    m = args.clairvoyant_games if args.clairvoyant_games is not None else args.search_games
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        verdicts: list[Verdict] = pool.starmap(
            solve_deal, [(s, solver_params, args.budget) for s in range(m)]
        )
    solver_time = time.perf_counter() - start
    base = results["heuristic"]
    print(f"troll ({args.variant or 'default'} parameters), seeds from 0; {args.workers} workers")
    print(
        f"{'bot':58} {'games':>6} {'wins':>5} {'win rate':>9} {'95% CI':>17} "
        f"{'vs heuristic (paired, pp)':>30} {'s/game':>7}"
    )
    for spec, n in bots:
        rows = results[spec]
        wins = sum(1 for r in rows.values() if r["win"])
        low, high = wilson(wins, n)
        seeds = sorted(set(rows) & set(base))
        d = paired([value_of(base[s], "win") for s in seeds], [value_of(rows[s], "win") for s in seeds])
        diff = (
            ""
            if spec == "heuristic"
            else f"{100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}] p={d.p_value:.2g}"
        )
        print(
            f"{spec:58} {n:6d} {wins:5d} {100 * wins / n:8.1f}% [{100 * low:5.1f}%, {100 * high:5.1f}%] "
            f"{diff:>30} {args.workers * timings[spec] / n:7.3f}"
        )
    won = [v.seed for v in verdicts if v.result == "win"]
    lost = sum(1 for v in verdicts if v.result == "no win")
    unknown = m - len(won) - lost
    low, high = wilson(len(won), m)
    print(
        f"\nclairvoyant solver on seeds 0..{m - 1} (budget {args.budget} turns, "
        f"{args.workers * solver_time / max(1, m):.2f} s/deal): {len(won)} winnable, {lost} proved lost, "
        f"{unknown} undecided"
    )
    most = f", at most {100 * (len(won) + unknown) / m:.1f}%" if unknown else ""
    print(
        f"winnable in hindsight: {100 * len(won) / m:.1f}% "
        f"(Wilson [{100 * low:.1f}%, {100 * high:.1f}%]){most}"
    )
    print(f"{'bot':58} {'wins on these seeds':>20} {'share of the clairvoyant bound':>32}")
    for spec, n in bots:
        if n < m:
            continue
        wins = sum(1 for s in range(m) if results[spec][s]["win"])
        top = wins / len(won) if won else float("nan")
        bottom = wins / (len(won) + unknown) if won or unknown else float("nan")
        share = f"{top:.3f}" if not unknown else f"{bottom:.3f} .. {top:.3f}"
        print(f"{spec:58} {wins:20d} {share:>32}")


if __name__ == "__main__":
    main()
