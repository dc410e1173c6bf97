"""Star Dice (seed 002): the seed's playtest questions that need two sets of rules or two kinds of
player, measured on paired seeds. Every arm of a question plays the same seeds
(common random numbers), so a difference is the rule's, with a paired 95% interval
(`lab.stats.paired`); shares get Wilson intervals. Prints markdown tables for
docs/playtest-answers.md.

    .venv/bin/python benchmarks/stardice_questions.py QUESTION [-n GAMES] [--search-games M]
        [--seed S] [--workers W]

-n: seeds per arm for the random thrower; --search-games: seeds per arm (each way, where seats
are swapped) for the search bots, whose battles cost about twenty times as much.

QUESTION is one of: range, dice, scoring, neutral, disconnect, borg, torpedoes, objective1,
objective2, skill, seat, borders, modes.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from playtable.lab.playtest import play
from playtable.lab.playtest_stardice import QUESTION_PROBE
from playtable.lab.runner import RunOptions
from playtable.lab.stats import Z95, mean_sd, paired, wilson

Rows = list[dict[str, Any]]
SEARCH_GAMES = [40]
"""Seeds per arm for the search bots (`--search-games`)."""


def run(variant: str, params: Sequence[str], agent: str | Sequence[str], n: int, seed: int,
        options: RunOptions) -> Rows:
    rows = play("stardice", agent, n, seed, options, variant=variant, params=params,
                probe=QUESTION_PROBE)
    bad = [r for r in rows if r.get("error")]
    if bad:
        sys.exit(f"{variant} {params}: {len(bad)} games failed, e.g. {bad[0]['error']}")
    return sorted(rows, key=lambda r: r["seed"])


def share(hits: float, n: int) -> str:
    lo, hi = wilson(hits, n)
    return f"{100 * hits / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]" if n else "-"


def mean_ci(values: Sequence[float], digits: int = 2) -> str:
    m, sd = mean_sd(values)
    half = Z95 * sd / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return f"{m:.{digits}f} [{m - half:.{digits}f}, {m + half:.{digits}f}]"


def diff_ci(a: Sequence[float], b: Sequence[float], digits: int = 2) -> str:
    d = paired(a, b)
    return f"{d.diff:+.{digits}f} [{d.low:+.{digits}f}, {d.high:+.{digits}f}]"


def battle(r: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = r["probe"]["per_battle"][-1]
    return out


def pts(r: dict[str, Any]) -> list[int]:
    return list(battle(r)["points"])


def margin(r: dict[str, Any]) -> float:
    a, b = pts(r)
    return float(abs(a - b))


def closed(r: dict[str, Any]) -> float:
    return float(sum(r["probe"]["closed"].values()))


def tie(r: dict[str, Any]) -> float:
    a, b = pts(r)
    return float(a == b)


def total(r: dict[str, Any]) -> float:
    return float(sum(pts(r)))


BATTLE_COLUMNS: list[tuple[str, Callable[[dict[str, Any]], float]]] = [
    ("closed formations a battle", closed),
    ("points of both", total),
    ("margin", margin),
    ("tied battles", tie),
    ("formations broken a battle", lambda r: float(battle(r)["broken"])),
]


def table_of_arms(title: str, arms: list[tuple[str, Rows]],
                  columns: list[tuple[str, Callable[[dict[str, Any]], float]]]) -> None:
    """One row per arm: each column's mean with its interval and, below the first arm, the
    paired difference from the first arm (same seeds) with its interval."""
    print(f"\n{title}\n")
    head = ["arm", "games"] + [c for c, _ in columns]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    base = arms[0][1]
    for label, rows in arms:
        cells = [label, str(len(rows))]
        for _, f in columns:
            cell = mean_ci([f(r) for r in rows])
            if rows is not base:
                cell += "; paired diff. " + diff_ci([f(r) for r in base], [f(r) for r in rows])
            cells.append(cell)
        print("| " + " | ".join(cells) + " |")


def strength(label: str, variant: str, params: Sequence[str], weak: str, strong: str, n: int,
             seed: int, options: RunOptions) -> tuple[str, float, int]:
    """The strong agent's share of the points against the weak one, seats swapped on the same
    seeds (n seeds each way): 50% = playing better buys nothing."""
    a = run(variant, params, [strong, weak], n, seed, options)
    b = run(variant, params, [weak, strong], n, seed, options)
    score = [float(r["returns"][0]) for r in a] + [float(r["returns"][1]) for r in b]
    return label, sum(score), len(score)


# -- the questions ----------------------------------------------------------------------------


def q_range(n: int, seed: int, o: RunOptions) -> None:
    arms = [(f"connect_range={v}", run("battle", [f"connect_range={v}", "hysteresis=0.02"],
                                       "random-thrower", n, seed, o))
            for v in ("0.25", "0.15", "0.2", "0.3", "0.35")]
    table_of_arms("Connection range (random-thrower, single battles)", arms, BATTLE_COLUMNS)


def q_dice(n: int, seed: int, o: RunOptions) -> None:
    sets = [("final 7 (2d20 d12 d8 3d6)", "dice=d20,d20,d12,d8,d6,d6,d6"),
            ("iteration 8's 6 (d20 d12 d8 3d6)", "dice=d20,d12,d8,d6,d6,d6"),
            ("8 (one d6 more)", "dice=d20,d20,d12,d8,d6,d6,d6,d6"),
            ("9 (two more: past the 15 touches)", "dice=d20,d20,d12,d8,d6,d6,d6,d6,d6")]
    arms = [(label, run("battle", [p], "random-thrower", n, seed, o)) for label, p in sets]
    table_of_arms("Number of dice (random-thrower, single battles)", arms, BATTLE_COLUMNS)


def q_scoring(n: int, seed: int, o: RunOptions) -> None:
    arms = [(v, run(v, [], "random-thrower", n, seed, o))
            for v in ("iteration3_scoring1", "iteration3_scoring2")]
    table_of_arms("Scoring 1 against Scoring 2 (random-thrower, one battle)", arms,
                  BATTLE_COLUMNS[:4] + [("battles won by the higher d20", d20_decides)])
    gap(["iteration3_scoring1", "iteration3_scoring2"], SEARCH_GAMES[0], seed, o)


def d20_decides(r: dict[str, Any]) -> float:
    """1 when the battle went to the player whose d20 rolled higher, 0 otherwise (ties, equal
    d20s or a missing d20 count 0)."""
    a, b = pts(r)
    best = [0, 0]
    for piece in r["probe"]["table"] or []:
        if piece.get("kind") == "d20" and piece.get("owner") in (0, 1):
            best[piece["owner"]] = max(best[piece["owner"]], int(piece["value"] or 0))
    if a == b or best[0] == best[1]:
        return 0.0
    return float((a > b) == (best[0] > best[1]))


def gap(variants: list[str], n: int, seed: int, o: RunOptions, params: Sequence[str] = ()) -> None:
    print(f"\nSearch against random throws, seats swapped on the same {n} seeds (its share of "
          "the points; 50% = aiming buys nothing)\n")
    print("| rules | search's share of the points | games |")
    print("|---|---|---|")
    for v in variants:
        label, got, games = strength(v, v, list(params), "random-thrower", "search", n, seed, o)
        print(f"| {label} | {share(got, games)} | {games} |")


def q_neutral(n: int, seed: int, o: RunOptions) -> None:
    d12 = "borg_faces=" + ",".join(str(i) for i in range(1, 13))
    pips = "borg_pips=" + ",".join("0" for _ in range(12))
    arms = [("neutral d20 (iteration3_scoring1)",
             run("iteration3_scoring1", [], "random-thrower", n, seed, o)),
            ("neutral d12, same rules",
             run("iteration3_scoring1", [d12, pips], "random-thrower", n, seed, o))]
    table_of_arms("A d12 instead of the neutral d20 (Scoring 1, random-thrower, one battle)", arms,
                  BATTLE_COLUMNS[:4] + [("shapes the neutral die spoils", neutral_spoils)])


def neutral_spoils(r: dict[str, Any]) -> float:
    score = r["probe"]["score"] or {}
    return float(sum(1 for s in score.get("shapes", [])
                     if "borg" in s.get("dice", []) and len(s["dice"]) > 1 and s.get("owner") is None))


def q_disconnect(n: int, seed: int, o: RunOptions) -> None:
    arms = [("disconnect_on_move=true (It. 7, final)",
             run("battle", [], "random-thrower", n, seed, o)),
            ("disconnect_on_move=false (It. 6)",
             run("battle", ["disconnect_on_move=false"], "random-thrower", n, seed, o))]
    table_of_arms("Auto-disconnect (random-thrower, single battles)", arms, BATTLE_COLUMNS)


def borg_rows(rows: Rows) -> tuple[int, int, dict[int, list[int]]]:
    """Shapes holding the Borg with at least one die of a player; how many a player won; and
    per Borg value [won, shapes]."""
    held = won = 0
    by_value: dict[int, list[int]] = {}
    for r in rows:
        score = r["probe"]["score"] or {}
        value = next((int(p["value"]) for p in r["probe"]["table"] or []
                      if p["id"] == "borg"), None)
        for s in score.get("shapes", []):
            if "borg" not in s.get("dice", []) or len(s["dice"]) < 2 or value is None:
                continue
            held += 1
            ok = s.get("owner") is not None
            won += ok
            cell = by_value.setdefault(value, [0, 0])
            cell[0] += ok
            cell[1] += 1
    return held, won, by_value


def q_borg(n: int, seed: int, o: RunOptions) -> None:
    arms = [(v, run(v, [], "random-thrower", n, seed, o))
            for v in ("iteration7_borg2", "iteration7_borg1")]
    final = run("battle", ["dice=d4,d6,d8,d10,d12,d20", "slide_d6=false"], "random-thrower", n, seed, o)
    print("\nThe Borg die: shapes holding it (and a player's die) that a player wins, by the "
          "Borg's value (random-thrower, one battle, one die of each type)\n")
    print("| rules | shapes with the Borg won | by Borg value: won of shapes |")
    print("|---|---|---|")
    for label, rows in arms + [("final faces 8-32 (It. 8), same dice", final)]:
        held, won, by_value = borg_rows(rows)
        detail = ", ".join(f"{v}: {c[0]}/{c[1]}" for v, c in sorted(by_value.items()))
        print(f"| {label} | {share(won, held)} | {detail} |")
    gap(["iteration7_borg1", "iteration7_borg2"], SEARCH_GAMES[0], seed, o)


def q_torpedoes(n: int, seed: int, o: RunOptions) -> None:
    one = ["war_target=0"]  # one battle of each (the torpedo presets are wars)
    arms = [(v, run(v, one, "random-thrower", n, seed, o))
            for v in ("battle", "torpedoes_iter9", "torpedoes_iter8")]
    cols = BATTLE_COLUMNS + [("dice knocked a battle", lambda r: float(battle(r)["knocked"])),
                             ("dice knocked off a battle", lambda r: float(battle(r)["knocked_off"]))]
    table_of_arms("Torpedoes (random-thrower, one battle; `battle` is the final rules)", arms, cols)
    m = SEARCH_GAMES[0]
    print(f"\nWhen does the search bot throw its d6s? Mean position of a d6 among its own "
          f"throws (1 = first; 4.0 = no preference among 7 dice), {m} battles search vs search\n")
    print("| rules | mean throw number of a d6 | d6s thrown |")
    print("|---|---|---|")
    for v in ("battle", "torpedoes_iter9", "torpedoes_iter8"):
        rows = run(v, one, "search", m, seed, o)
        places: list[float] = []
        for r in rows:
            for seat in (0, 1):
                own = [k for s, k in battle(r)["throws"] if s == seat]
                places += [float(i + 1) for i, k in enumerate(own) if k == "d6"]
        print(f"| {v} | {mean_ci(places)} | {len(places)} |")
    gap(["battle", "torpedoes_iter9", "torpedoes_iter8"], m, seed, o, params=one)


def q_objective1(n: int, seed: int, o: RunOptions) -> None:
    print("\nObjective 1 (solitaire rounds): how far a player gets and how long it takes\n")
    print("| agent | games | rounds cleared | rounds played | throws a game | best round's points |")
    print("|---|---|---|---|---|---|")
    for agent, m in (("random-thrower", n), ("search", SEARCH_GAMES[0])):
        rows = run("objective1", [], agent, m, seed, o)
        def get(k: str, rows: Rows = rows) -> list[float]:
            return [float(r["metrics"][k]) for r in rows]

        print(f"| {agent} | {len(rows)} | {mean_ci(get('rounds_cleared'))} | "
              f"{mean_ci(get('rounds_played'))} | {mean_ci(get('throws'), 1)} | "
              f"{mean_ci(get('best_round_points'), 1)} |")


def q_objective2(n: int, seed: int, o: RunOptions) -> None:
    from playtable.core.params import params_from_dict
    from playtable.games.stardice.game import GAME
    from playtable.games.stardice.params import VARIANTS

    params = params_from_dict(GAME.params_type, VARIANTS["objective2"])
    print("\nObjective 2 (beat the red dice): how often the player wins, and how much the red "
          "dice's initial roll decides it (their score on the table at setup, before the first "
          "white die; the same seeds give the same red roll to both agents)\n")
    print("| agent | games | wins | red score at setup: mean, sd, range | final red score, mean | "
          "wins when the red roll was in its lowest third | middle third | highest third |")
    print("|---|---|---|---|---|---|---|---|")
    for agent, m in (("random-thrower", n), ("search", SEARCH_GAMES[0])):
        rows = run("objective2", [], agent, m, seed, o)
        setup = [float(GAME.new_state(params, r["seed"]).current_score().points[1]) for r in rows]
        red = [float(r["metrics"]["red_points"]) for r in rows]
        win = [float(r["metrics"]["won"]) for r in rows]
        order = sorted(range(len(rows)), key=lambda i: (setup[i], i))
        third = len(rows) // 3
        groups = [order[:third], order[third:len(rows) - third], order[len(rows) - third:]]
        mean, sd = mean_sd(setup)
        cells = [share(sum(win[i] for i in g), len(g)) for g in groups]
        print(f"| {agent} | {len(rows)} | {share(sum(win), len(win))} | {mean:.1f}, {sd:.1f}, "
              f"{min(setup):.0f}-{max(setup):.0f} | {sum(red) / len(red):.1f} | "
              + " | ".join(cells) + " |")


def q_skill(n: int, seed: int, o: RunOptions) -> None:
    m = SEARCH_GAMES[0]
    print(f"\nBots of graded strength, one battle, seats swapped on the same {m} seeds: the "
          "stronger one's share of the points (50% = pure chance)\n")
    print("| pairing | stronger's share of the points | games |")
    print("|---|---|---|")
    for weak, strong in (("random-thrower", "search"), ("search", "search-strong")):
        label, got, games = strength(f"{strong} against {weak}", "battle", [], weak, strong, m, seed, o)
        print(f"| {label} | {share(got, games)} | {games} |")
    print("\nSearch against random throws with noiseless throws (roll_dir_noise_deg=0, "
          "roll_speed_noise=0: all skill in the aim) and with twice the final noise\n")
    print("| throws | search's share of the points against random-thrower | games |")
    print("|---|---|---|")
    for label, params in (("no noise", ["roll_dir_noise_deg=0", "roll_speed_noise=0"]),
                          ("twice the noise", ["roll_dir_noise_deg=12", "roll_speed_noise=0.24"])):
        _, got, games = strength(label, "battle", params, "random-thrower", "search", m, seed, o)
        print(f"| {label} | {share(got, games)} | {games} |")


def q_seat(n: int, seed: int, o: RunOptions) -> None:
    for agent in ("random",):
        rows = run("final", [], agent, n, seed, o)
        kl = sum(1 for r in rows if r["winner"] == 1)
        print(f"\nWars to 50, agent {agent}, seeds {seed}-{seed + n - 1}: the Klingon wins "
              f"{share(kl, len(rows))}\n")
        first = roller = klingon = decided = 0
        by_battle: dict[int, list[int]] = {}
        for r in rows:
            for i, b in enumerate(r["probe"]["per_battle"]):
                a, k = b["points"]
                if a == k:
                    continue
                win = 0 if a > k else 1
                decided += 1
                first += b["first"] == win
                roller += b["roller"] == win
                klingon += win == 1
                cell = by_battle.setdefault(min(i + 1, 3), [0, 0])
                cell[0] += win == 1
                cell[1] += 1
        print("| decided battles | won by the first to throw | won by the Borg's roller | won by "
              "the Klingon | Klingon in battle 1 | battle 2 | battles 3+ |")
        print("|---|---|---|---|---|---|---|")
        cells = [share(by_battle.get(i, [0, 0])[0], by_battle.get(i, [0, 0])[1]) for i in (1, 2, 3)]
        print(f"| {decided} | {share(first, decided)} | {share(roller, decided)} | "
              f"{share(klingon, decided)} | " + " | ".join(cells) + " |")


def q_borders(n: int, seed: int, o: RunOptions) -> None:
    rows = run("battle", [], "random-thrower", n, seed, o)
    off = [float(battle(r)["knocked_off"]) for r in rows]
    some = sum(1 for v in off if v)
    print(f"\nNo borders (final rules, random-thrower, {n} battles): dice knocked off the table "
          f"a battle {mean_ci(off)}; battles with any {share(some, len(rows))}")


def q_modes(n: int, seed: int, o: RunOptions) -> None:
    print("\nThe seed's other modes (random-thrower): outcome and length\n")
    print("| variant | games | seat 0 wins (or the solo player's result) | draws | actions a game |")
    print("|---|---|---|---|---|")
    for v in ("rounds_iter4", "best_of_iter7", "any_dice_iter9", "borg_enemy", "blank_dice",
              "solo_iteration1"):
        rows = run(v, [], "random-thrower", n, seed, o)
        wins = sum(1 for r in rows if r["win"])
        draws = sum(1 for r in rows if r["draw"])
        print(f"| {v} | {len(rows)} | {share(wins, len(rows))} | {share(draws, len(rows))} | "
              f"{mean_ci([float(r['length']) for r in rows], 1)} |")


QUESTIONS: dict[str, Callable[[int, int, RunOptions], None]] = {
    "range": q_range, "dice": q_dice, "scoring": q_scoring, "neutral": q_neutral,
    "disconnect": q_disconnect, "borg": q_borg, "torpedoes": q_torpedoes,
    "objective1": q_objective1, "objective2": q_objective2, "skill": q_skill, "seat": q_seat,
    "borders": q_borders, "modes": q_modes,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("question", choices=sorted(QUESTIONS))
    ap.add_argument("-n", "--games", type=int, default=300)
    ap.add_argument("--search-games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    wall = time.perf_counter()
    SEARCH_GAMES[0] = args.search_games
    QUESTIONS[args.question](args.games, args.seed, RunOptions(workers=args.workers))
    print(f"\n({args.question}, -n {args.games} --search-games {args.search_games} "
          f"--seed {args.seed}: "
          f"{time.perf_counter() - wall:.0f} s wall)")


if __name__ == "__main__":
    main()
