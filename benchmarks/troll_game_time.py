"""The troll's game time against Klondike's 2-10 minutes (seed 000, "Elements of the gameplay":
Tests #1 and #2 timed Klondike at 1-2 minutes to set up and 2-10 to set up and play), as a
stated model until people have played: minutes a game = decisions a game (measured on the bots'
games, through the lab's one code path) x seconds a decision (an assumption, in three rows), plus
the setup at a real table. Prints the markdown table in src/playtable/games/troll/RULES.md
("Game time against Klondike's, modelled").

    .venv/bin/python benchmarks/troll_game_time.py [-n GAMES] [--seed S] [--workers W]

Seconds a decision: 2.65 s is the Keystroke-Level Model's routine choice made with a mouse (Card,
Moran & Newell, CACM 23(7), 1980: mental preparation M 1.35 s + pointing P 1.1 s + a click
0.2 s), a lower bound for a practised player of the digital game; 5 and 10 s stand for a
considered choice and for one made while still reading the rules. The last two columns turn the
model around: the seconds a decision at which the mean game would last 2 and 10 minutes.
Once a playtest with people has run, `playtable playtest-online export` gives each game's
`minutes` and each seat's `decision_seconds`, which replace this model.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence

from playtable.lab.playtest import play
from playtable.lab.runner import RunOptions
from playtable.lab.stats import Z95, mean_sd

SECONDS_A_DECISION = (2.65, 5.0, 10.0)
"""The model's seconds a decision (see the module's text for their sources)."""
KLONDIKE_MINUTES = (2.0, 10.0)
"""Seed 000, Test #2: a game of Klondike set up and played in 2-10 minutes."""
SETUP_MINUTES = (1.0, 2.0)
"""Seed 000, Test #1: Klondike's setup by hand took 1-2 minutes (28 cards dealt into 7 stacks);
the troll's bridge deals 24 cards into 12 stacks, so the same is taken for it at a real table.
The digital game sets up at once."""
RULES = (("final (default)", None), ("plus-one", "plus-one"), ("tutorial", "tutorial"))
AGENTS = ("heuristic", "random")


def row_for(label: str, agent: str, decisions: Sequence[int], turns: Sequence[int]) -> str:
    mean, sd = mean_sd([float(d) for d in decisions])
    half = Z95 * sd / len(decisions) ** 0.5
    ordered = sorted(decisions)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    minutes = [f"{mean * s / 60:.1f}" for s in SECONDS_A_DECISION]
    crossing = [f"{60 * m / mean:.1f} s" for m in KLONDIKE_MINUTES]
    return (f"| {label} | {agent} | {len(decisions)} | {mean:.1f} [{mean - half:.1f}, {mean + half:.1f}] | "
            f"{statistics.median(decisions):g} / {p90} | {statistics.fmean(turns):.1f} | "
            + " | ".join(minutes) + " | " + " | ".join(crossing) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    options = RunOptions(workers=args.workers)
    seconds = " | ".join(f"minutes at {s:g} s" for s in SECONDS_A_DECISION)
    print(f"| rules | agent | games | decisions a game [95% CI] | median / 90th pct | turns a game | "
          f"{seconds} | s a decision for {KLONDIKE_MINUTES[0]:g} min | for {KLONDIKE_MINUTES[1]:g} min |")
    print("|---" * (9 + len(SECONDS_A_DECISION) - 1) + "|")
    for label, variant in RULES:
        for agent in AGENTS:
            rows = [r for r in play("troll", agent, args.games, args.seed, options, variant=variant)
                    if r["completed"]]
            print(row_for(label, agent, [int(r["decisions"][0]) for r in rows],
                          [int(r["metrics"]["turns"]) for r in rows]), flush=True)
    low, high = SETUP_MINUTES
    print(f"\nAt a real table add {low:g}-{high:g} minutes of setup (Klondike's, seed 000 Test #1); "
          "the digital game sets up at once.")


if __name__ == "__main__":
    main()
