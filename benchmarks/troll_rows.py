"""Do troll bots win by emptying a row of the bridge? The question behind `leaf=rows`.

    .venv/bin/python benchmarks/troll_rows.py [--games 1000] [--first-seed 0] [--variant NAME]
        AGENT_SPEC [AGENT_SPEC ...]

A card whose colour names an empty row awakens nothing (seed 000 §7.1, "No brick there..."), so a
bridge left with one row faces about half the deck; a playtester of Test #6 "won with a single-row
strategy" (seed 000 §5.3). For each agent this plays the deals (seeds `--first-seed`.., the
agent's random stream as the lab's runner gives it, so the wins are `troll_strength.py`'s for the
same seeds) and splits them by whether a row of the bridge was empty at some point: how many of
those deals were won, against the others. Wilson 95% intervals.
"""

from __future__ import annotations

import argparse
import time

from playtable.agents import make_agent
from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.games.troll.learned import ROW_FEATURES, row_features
from playtable.lab.runner import agent_rng
from playtable.lab.stats import wilson

ROW_EMPTY = ROW_FEATURES.index("row_empty")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agents", nargs="+", help="agent specs, e.g. expectimax:depth=1,leaf=learned")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--variant", default=None, help="a named troll variant, e.g. plus-one")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    game = get_game("troll")
    params = resolve_params(game.params_type, game.variants, args.variant, [])
    seeds = range(args.first_seed, args.first_seed + args.games)
    print(f"troll ({args.variant or 'default'} rules), seeds {seeds[0]}..{seeds[-1]}")
    print(f"\n{'agent':40} {'deals':>6} {'wins':>5} {'a row emptied':>14} {'wins then':>10} "
          f"{'win rate then [95% CI]':>24} {'win rate otherwise [95% CI]':>28} {'s':>6}")
    for spec in args.agents:
        started = time.process_time()
        tally = {True: [0, 0], False: [0, 0]}  # row emptied -> [deals, wins]
        for seed in seeds:
            state, agent, rng = game.new_state(params, seed), make_agent(game, spec), agent_rng(seed, 0)
            emptied = False
            while not state.is_terminal:
                state.apply(agent.choose(state, rng))
                emptied = emptied or row_features(state)[ROW_EMPTY] == 1.0
            tally[emptied][0] += 1
            tally[emptied][1] += state.returns()[0] >= 1.0
        (n_yes, w_yes), (n_no, w_no) = tally[True], tally[False]
        print(f"{spec:40} {n_yes + n_no:6} {w_yes + w_no:5} {n_yes:14} {w_yes:10} "
              f"{_rate(w_yes, n_yes):>24} {_rate(w_no, n_no):>28} {time.process_time() - started:6.1f}")


def _rate(wins: int, deals: int) -> str:
    if not deals:
        return "-"
    low, high = wilson(wins, deals)
    return f"{100 * wins / deals:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


if __name__ == "__main__":
    main()
