"""Does searching deeper help the troll? Two paired measurements against the two-turn search.

    .venv/bin/python benchmarks/troll_deeper.py late [--games 300] [--first-seed 0] [--left 5]
        [--results FILE] [--stop-at HH:MM]
    .venv/bin/python benchmarks/troll_deeper.py third [--games 100] [--first-seed 0]
        [--candidates 2] [--inner-width 2] [--close 1] [--results FILE] [--stop-at HH:MM]

Both use the two-turn search on the `draws` leaf (`expectimax:leaf=draws`, the best measured on
seeds 0-1999) as the reference, and every arm plays the same deals.

`late`: the end of a deal. The reference plays each deal until the first turn that starts with
at most `--left` cards still to come (the deck and the cards set aside), where the two-turn
search no longer sees far from the end (seed 000 §7.1 "Winning": the deck must run out). From a
copy of that position (its random stream included) each arm plays the deal out: the reference,
and the search three turns deep (`inner_width=4`) once at most 2, 3 or 5 cards are to come. With
2 to come, three turns reach the end of the deck, so that arm plays the last turns exactly by
the odds. The table counts the deals that reached the late position and what each arm won of
them.

`third`: a third turn from the start. The reference's `--candidates` best endings of each turn
(by their exact two-turn values) are weighed again three turns deep, exactly: every outcome of
both awakenings enumerated, `--inner-width` replies by the leaf at each outcome of the first.
It is `thirdturn` (`games/troll/deep.py`) weighing every outcome (`outer_samples=0,samples=0`);
on every turn (`--close 1`) it costs far more than the 10 CPU s a game a bot may take: it
measures what a third turn is worth. `--close C` searches it only where the best ending leads
the next by less than C in two-turn value.

`--results FILE` keeps each deal's result (JSON lines) and reads back the deals it holds for the
same mode and settings, so a stopped run goes on, and two halves run at once
(`--first-seed`) are read together by a run over both with `--games` covering them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import time
from pathlib import Path
from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import Agent
from playtable.games.troll.actions import TrollAction, priced
from playtable.games.troll.deep import ThirdTurnTroll, Weighed, ranked_value
from playtable.games.troll.game import GAME
from playtable.games.troll.rules import TrollState
from playtable.games.troll.search import ExpectimaxTroll
from playtable.lab.stats import paired, wilson
from troll_strength import stop_time

LEAF = "draws"


class DeeperNearTheEnd(ExpectimaxTroll):
    """The two-turn search, three turns deep once at most `left` cards are still to come."""

    def __init__(self, left: int):
        super().__init__(leaf=LEAF, inner_width=4)
        self.left = left

    def best_line(self, state: TrollState) -> list[TrollAction]:
        self.depth = 3 if to_come(state) <= self.left else 2
        return super().best_line(state)


def to_come(state: TrollState) -> int:
    return len(state.deck) + len(state.set_aside)


def play_out(state: TrollState, bot: Agent, seed: int) -> dict[str, Any]:
    """Play `state` to its end with `bot` (the state's own random stream decides the awakenings;
    the bot's stream is unused by these searches)."""
    start, rng = time.process_time(), Chance(seed)
    while not state.is_terminal:
        state.apply(bot.choose(state, rng))
    return {"win": state.outcome == "win", "deck_left": len(state.deck),
            "cpu_s": round(time.process_time() - start, 3)}


def late_deal(seed: int, left: int) -> dict[str, Any]:
    reference = ExpectimaxTroll(leaf=LEAF)
    state, rng = GAME.new_state(seed=seed), Chance(seed)
    start = time.process_time()
    while not state.is_terminal and not (to_come(state) <= left and state.actions_left == 2):
        state.apply(reference.choose(state, rng))
    row: dict[str, Any] = {"seed": seed, "reached": not state.is_terminal,
                           "prefix_cpu_s": round(time.process_time() - start, 3)}
    if row["reached"]:
        arms: dict[str, ExpectimaxTroll] = {"two turns": ExpectimaxTroll(leaf=LEAF)}
        for n in (2, 3, 5):
            arms[f"three turns at <= {n} to come"] = DeeperNearTheEnd(n)
        row["arms"] = {name: play_out(state.clone(), bot, seed) for name, bot in arms.items()}
    return row


class RecordedThirdTurn(ThirdTurnTroll):
    """`thirdturn` noting, for each decision where it searched a third turn (two root endings
    or more, the lead under `close`), the best ending's two-turn lead over the next (as the
    ranking counts it), whether the third turn chose another ending, what that gained in
    three-turn value (its choice's over the two-turn choice's, each item a thousandth), and the
    decision's CPU s."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self.decisions: list[dict[str, Any]] = []
        self._searched: list[Weighed] = []
        self._three_turn_values: list[float] = []

    def candidates(self, state: TrollState) -> list[Weighed]:
        self._searched = super().candidates(state)
        self._three_turn_values = []
        return self._searched

    def three_turns(self, state: TrollState, two_turns: float, offset: float, rng: Chance) -> float:
        value = super().three_turns(state, two_turns, offset, rng)
        self._three_turn_values.append(value)
        return value

    def best_line(self, state: TrollState, rng: Chance) -> list[TrollAction]:
        start = time.process_time()
        line = super().best_line(state, rng)
        if len(self._searched) > 1:
            first, second = self._searched[:2]
            values = [priced(v, w[1]) for v, w in zip(self._three_turn_values, self._searched, strict=True)]
            self.decisions.append({"lead": round(ranked_value(first) - ranked_value(second), 6),
                                   "changed": line != first[1],
                                   "gain": round(max(values) - values[0], 6),
                                   "cpu_s": round(time.process_time() - start, 3)})
        return line


def third_deal(seed: int, candidates: int, inner_width: int, close: float) -> dict[str, Any]:
    third = RecordedThirdTurn(width=candidates, inner_width=inner_width, outer_samples=0, samples=0,
                              leaf=LEAF, close=close)
    row = {"seed": seed, "arms": {
        "two turns": play_out(GAME.new_state(seed=seed), ExpectimaxTroll(leaf=LEAF), seed),
        f"third turn for {candidates}, {inner_width} replies":
            play_out(GAME.new_state(seed=seed), third, seed)}}
    row["decisions"] = third.decisions
    return row


def close_calls(rows: list[dict[str, Any]]) -> None:
    """How often the third turn changed the choice, by the two-turn lead it had to overturn, and
    the share of its CPU those decisions took: what a `close` setting keeps and costs."""
    decisions = [d for r in rows for d in r.get("decisions", [])]
    if not decisions:
        return
    total = sum(d["cpu_s"] for d in decisions) or 1.0
    # The value the changes gained, where recorded (runs before it was noted have none).
    gained = [d for d in decisions if "gain" in d]
    total_gain = sum(d["gain"] for d in gained) or 1.0
    print(f"\n{len(decisions)} decisions searched a third turn; {sum(d['changed'] for d in decisions)} "
          "changed the two-turn choice")
    print("\n| lead under | decisions | changed | share of the third turn's CPU | share of the three-turn "
          "value its changes gained |")
    print("|---:|---:|---:|---:|---:|")
    for limit in (0.002, 0.003, 0.005, 0.0075, 0.01, 0.02, 0.05, 0.1, 1.0):
        under = [d for d in decisions if d["lead"] < limit]
        gain = f"{sum(d['gain'] for d in gained if d['lead'] < limit) / total_gain:.2f}" if gained else ""
        print(f"| {limit} | {len(under)} | {sum(d['changed'] for d in under)} | "
              f"{sum(d['cpu_s'] for d in under) / total:.2f} | {gain} |")
    if gained:
        print(f"\n({len(gained)} decisions with the gain noted: {total_gain:.3f} of three-turn value in all, "
              f"{total_gain / len(gained):.5f} a decision)")


def report(rows: list[dict[str, Any]]) -> None:
    played = [r for r in rows if r.get("arms")]
    if not played:
        print("no deal reached an arm")
        return
    names = list(played[0]["arms"])
    first = [float(r["arms"][names[0]]["win"]) for r in played]
    print(f"\n| arm | deals | wins | win rate | 95% CI | vs {names[0]}, paired (pp) | CPU s a deal | p95 |")
    print("|---|---:|---:|---:|---|---|---:|---:|")
    for name in names:
        wins = [float(r["arms"][name]["win"]) for r in played]
        cpu = sorted(r["arms"][name]["cpu_s"] + r.get("prefix_cpu_s", 0.0) for r in played)
        low, high = wilson(sum(wins), len(wins))
        diff = ""
        if name != names[0]:
            d = paired(first, wins)
            diff = f"{100 * d.diff:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
        print(f"| {name} | {len(wins)} | {int(sum(wins))} | {100 * sum(wins) / len(wins):.1f}% | "
              f"[{100 * low:.1f}, {100 * high:.1f}] | {diff} | {statistics.mean(cpu):.2f} | "
              f"{cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("late", "third"))
    parser.add_argument("--games", type=int, default=None, help="deals (late: 300, third: 100)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--left", type=int, default=5, help="late: cards to come at the late position")
    parser.add_argument("--candidates", type=int, default=2, help="third: endings weighed three turns deep")
    parser.add_argument("--inner-width", type=int, default=2, help="third: replies at each outcome")
    parser.add_argument("--close", type=float, default=1.0,
                        help="third: only where the best ending leads the next by less (1: always)")
    parser.add_argument("--results", type=Path, default=None, help="JSON lines: keep and reuse deals")
    parser.add_argument("--stop-at", default=None, help="HH:MM UTC: play no new deal after then")
    args = parser.parse_args()
    games = args.games if args.games is not None else (300 if args.mode == "late" else 100)
    settings = (f"late, left={args.left}" if args.mode == "late"
                else f"third, candidates={args.candidates}, inner_width={args.inner_width}"
                + (f", close={args.close}" if args.close < 1.0 else ""))
    deadline = stop_time(args.stop_at)
    kept: dict[int, dict[str, Any]] = {}
    if args.results and args.results.exists():
        for line in args.results.read_text().splitlines():
            row = json.loads(line)
            if row.get("settings") == settings:
                kept[row["seed"]] = row
    print(f"troll (default rules), {settings}, seeds {args.first_seed}..{args.first_seed + games - 1}, "
          f"leaf={LEAF}", flush=True)
    rows = []
    for seed in range(args.first_seed, args.first_seed + games):
        if seed in kept:
            rows.append(kept[seed])
            continue
        if deadline and dt.datetime.now(dt.UTC) >= deadline:
            print(f"stopped at {args.stop_at} UTC", flush=True)
            break
        row = (late_deal(seed, args.left) if args.mode == "late"
               else third_deal(seed, args.candidates, args.inner_width, args.close))
        row["settings"] = settings
        rows.append(row)
        if args.results:
            with args.results.open("a") as out:
                out.write(json.dumps(row) + "\n")
        won = {name: arm["win"] for name, arm in row.get("arms", {}).items()}
        print(f"  seed {seed}: {won or 'over before the late position'}", flush=True)
    if args.mode == "late":
        reached = sum(1 for r in rows if r.get("reached"))
        print(f"\n{len(rows)} deals, {reached} reached a turn with at most {args.left} cards to come")
    report(rows)
    close_calls(rows)


if __name__ == "__main__":
    main()
