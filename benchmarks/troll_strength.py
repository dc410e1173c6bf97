"""Troll bots' strength against their time: win rate (Wilson 95% interval) and CPU seconds a game.

    .venv/bin/python benchmarks/troll_strength.py [--games 200] [--first-seed 0] [--variant NAME]
        [--stop-at HH:MM] [--chunk 50] [--results FILE] AGENT_SPEC [AGENT_SPEC ...]

Every agent plays the same deals, seeds `--first-seed`.. (the same deals and dice for every
agent: common random numbers), through the lab's runner in this one process. The table gives
wins, the win rate with its Wilson 95% interval, the paired difference from the first agent on
the deals both played, and CPU seconds a game (`time.process_time`, so a busy machine does not
inflate it; wall seconds are shown too). `--stop-at HH:MM` (UTC) stops an agent's run at the
first chunk of `--chunk` deals that ends after that time, and the table says how many deals
it played: a long run reports honestly what fitted in the time.

`--results FILE` (JSON lines) keeps every deal's result as it is played, one line per agent and
seed, and reads back the deals it already holds for the same rules and agent instead of playing
them again: a run stopped or crashed goes on where it stopped, and agents measured in separate
runs (or halves run at once with `--first-seed`) are compared deal by deal in one table.

Default rules unless `--variant` (e.g. plus-one, tutorial). Example, the strength-vs-time curve:

    .venv/bin/python benchmarks/troll_strength.py --games 200 expectimax:depth=1 \\
        rollout:samples=4 rollout:samples=8 rollout:samples=16
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.lab.runner import Arm, RunOptions, run_tasks
from playtable.lab.stats import paired, wilson


def stop_time(text: str | None) -> dt.datetime | None:
    """The next time it is `text` (HH:MM, UTC): tomorrow's when today's has passed, so that a
    run started before midnight with `--stop-at 00:50` stops after midnight, not at once."""
    if not text:
        return None
    hour, _, minute = text.partition(":")
    now = dt.datetime.now(dt.UTC)
    then = now.replace(hour=int(hour), minute=int(minute or 0), second=0, microsecond=0)
    return then if then > now else then + dt.timedelta(days=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agents", nargs="+", help="agent specs, e.g. rollout:samples=8")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--variant", default=None, help="a named troll variant, e.g. plus-one")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a troll parameter on top of the variant (repeatable), e.g. extra_end_bricks=2")
    parser.add_argument("--stop-at", default=None, help="HH:MM UTC: stop an agent's run after then")
    parser.add_argument("--chunk", type=int, default=50, help="deals between progress lines")
    parser.add_argument("--results", type=Path, default=None,
                        help="JSON lines file: keep each deal's result, reuse those already kept")
    args = parser.parse_args()
    game = get_game("troll")
    params = resolve_params(game.params_type, game.variants, args.variant, args.param)
    deadline = stop_time(args.stop_at)
    seeds = list(range(args.first_seed, args.first_seed + args.games))
    settings = "".join(", " + p for p in args.param)
    rules = f"{args.variant or 'default'} rules{settings}"
    kept = kept_results(args.results, rules)
    print(f"troll ({rules}), seeds {seeds[0]}..{seeds[-1]}, one process")
    results: list[tuple[str, dict[int, bool], float, float]] = []
    lost_where: dict[str, Counter[tuple[str, str]]] = {}
    for spec in args.agents:
        arm = Arm.build("troll", params, [spec], label=spec)
        old = {seed: kept[spec, seed] for seed in seeds if (spec, seed) in kept}
        won = {seed: bool(r["win"]) for seed, r in old.items()}
        lost = lost_where.setdefault(spec, Counter())
        for r in old.values():
            if not r["win"]:
                lost[r["end_reason"], _bucket(r["deck_left"])] += 1
        cpu_s, wall_s = sum(r["cpu_s"] for r in old.values()), sum(r["wall_s"] for r in old.values())
        todo = [seed for seed in seeds if seed not in old]
        if old:
            print(f"  {spec}: {len(old)} deals read back from {args.results}", flush=True)
        for i in range(0, len(todo), args.chunk):
            cpu, wall = time.process_time(), time.perf_counter()
            rows = list(run_tasks([(arm, s) for s in todo[i: i + args.chunk]], RunOptions(workers=1)))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            cpu_s, wall_s = cpu_s + cpu, wall_s + wall
            for row in rows:
                if row["error"]:  # a broken game is no loss: stop rather than count it
                    raise SystemExit(f"{spec}, seed {row['seed']}: {row['error']}")
                won[row["seed"]] = bool(row["win"])
                if not row["win"]:
                    lost[row["metrics"]["end_reason"], _bucket(row["metrics"]["score"])] += 1
            keep(args.results, rules, spec, rows, cpu / len(rows), wall / len(rows))
            print(f"  {spec}: {sum(won.values())}/{len(won)} won, "
                  f"{cpu_s / len(won):.3f} CPU s/game", flush=True)
            if deadline and dt.datetime.now(dt.UTC) >= deadline:
                break
        results.append((spec, won, cpu_s / len(won), wall_s / len(won)))
    first = results[0][1]
    print(f"\n{'agent':52} {'deals':>6} {'wins':>5} {'win rate':>9} {'95% CI':>16} "
          f"{'vs first (pp)':>22} {'CPU s/game':>10} {'wall s/game':>11}")
    for spec, won, cpu_s, wall_s in results:
        n, wins = len(won), sum(won.values())
        low, high = wilson(wins, n)
        common = sorted(set(won) & set(first))
        diff = ""
        if won is not first and common:
            d = paired([float(first[s]) for s in common], [float(won[s]) for s in common])
            diff = f"{100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
        print(f"{spec:52} {n:6d} {wins:5d} {100 * wins / n:8.1f}% [{100 * low:5.1f}, {100 * high:5.1f}] "
              f"{diff:>22} {cpu_s:10.3f} {wall_s:11.3f}", flush=True)
    # Where the losses happen: how they ended and how many cards the deck still held. Hindsight
    # (hindsight.py) changes decisions only once the deck holds 6 cards or fewer.
    print(f"\nlosses: collapse / double awakening, by cards left in the deck\n{'agent':52} "
          + " ".join(f"{b:>10}" for b in _BUCKETS))
    for spec, lost in lost_where.items():
        print(f"{spec:52} " + " ".join(f"{lost['collapse', b]:>4} / {lost['double_awakening', b]:<3}"
                                      for b in _BUCKETS))


def kept_results(path: Path | None, rules: str) -> dict[tuple[str, int], dict[str, Any]]:
    """The deals `--results` already holds for these rules, by agent and seed."""
    if path is None or not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            if r["rules"] == rules:
                out[r["agent"], r["seed"]] = r
    return out


def keep(path: Path | None, rules: str, spec: str, rows: list[dict[str, Any]], cpu_s: float,
         wall_s: float) -> None:
    """Append a chunk's deals to `--results` (each with the chunk's mean seconds a game)."""
    if path is None:
        return
    with path.open("a") as f:
        for row in rows:
            f.write(json.dumps({"rules": rules, "agent": spec, "seed": row["seed"], "win": bool(row["win"]),
                                "end_reason": row["metrics"]["end_reason"],
                                "deck_left": row["metrics"]["score"], "cpu_s": cpu_s,
                                "wall_s": wall_s}) + "\n")


_BUCKETS = ("> 18", "13-18", "7-12", "1-6", "0")


def _bucket(deck: int) -> str:
    for bucket, top in zip(_BUCKETS[::-1], (0, 6, 12, 18), strict=False):
        if deck <= top:
            return bucket
    return _BUCKETS[0]


if __name__ == "__main__":
    main()
