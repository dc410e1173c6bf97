"""Troll: speed (games/s, steps/s on one core) and win rate with a Wilson 95% interval per bot.

    .venv/bin/python benchmarks/troll_speed.py [--games 10000] [--variants default,plus-one]

Games use seeds 0..N-1, the same deals for every bot, played by the lab runner (`run_tasks`,
one process, each bot's stream `runner.agent_rng`): the same rows as `playtable sim troll --agent
BOT -n N --workers 1`. The speeds therefore include the runner's result rows. Prints one table.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from playtable.core.params import resolve_params
from playtable.games.troll.game import GAME
from playtable.lab.runner import Arm, RunOptions, run_tasks
from playtable.lab.stats import wilson


def measure(variant: str | None, bot: str, games: int) -> dict[str, object]:
    params = resolve_params(GAME.params_type, GAME.variants, variant)
    arm = Arm.build("troll", params, [bot], label=variant or "default")
    start = time.perf_counter()
    rows = run_tasks([(arm, seed) for seed in range(games)], RunOptions(workers=1))
    elapsed = time.perf_counter() - start
    wins = sum(1 for r in rows if r["win"])
    perfect = sum(1 for r in rows if r["metrics"].get("perfect"))
    steps = sum(r["length"] for r in rows)
    longest = max(int(r["metrics"].get("turns", 0)) for r in rows)
    reasons: Counter[str] = Counter(str(r["metrics"].get("end_reason")) for r in rows)
    low, high = wilson(wins, games)
    return {"variant": variant or "default", "bot": bot, "games": games, "games/s": games / elapsed,
            "steps/s": steps / elapsed, "win %": 100 * wins / games,
            "95% CI": f"{100 * low:.2f}-{100 * high:.2f}", "perfect %": 100 * perfect / games,
            "longest": longest,
            "ends": ", ".join(f"{k} {v}" for k, v in reasons.most_common())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--variants", default="default,plus-one")
    parser.add_argument("--bots", default="random,heuristic")
    args = parser.parse_args()
    rows = []
    for variant in args.variants.split(","):
        for bot in args.bots.split(","):
            rows.append(measure(None if variant == "default" else variant, bot, args.games))
            row = rows[-1]
            print(f"  done {row['variant']} / {row['bot']}", flush=True)
    header = ["variant", "bot", "games", "games/s", "steps/s", "win %", "95% CI", "perfect %",
              "longest", "ends"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        cells = [f"{row[h]:.1f}" if isinstance(row[h], float) else str(row[h]) for h in header]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
