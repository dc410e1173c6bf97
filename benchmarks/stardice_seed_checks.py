"""Star Dice (seed 002): two cheap checks of the seed's open questions, on paired seeds. It. 4
Q2 and It. 5 ask whether the angle check matters. It. 5-6 Q4 asks whether connecting only once a
die stops matters. Each setting plays single battles on the same seeds, so comparing a battle
with its reference shows what the rule changed. Prints the markdown table in
src/playtable/games/stardice/RULES.md ("Cheap measurements of the seed's open questions").

    .venv/bin/python benchmarks/stardice_seed_checks.py [-n BATTLES] [--seed S] [--workers W]
"""

from __future__ import annotations

import argparse
from typing import Any

from playtable.lab.playtest import play
from playtable.lab.runner import RunOptions

CHECKS: dict[str, list[tuple[str, list[str]]]] = {
    "angle check (none / FR 15° / It. 5's 30°)": [
        ("off", ["war_target=0", "min_angle_deg=0"]),
        ("small", ["war_target=0"]),
        ("wide", ["war_target=0", "min_angle_deg=30"]),
    ],
    "connect (FR: once stopped / before It. 5: while moving)": [
        ("stops", ["war_target=0"]),
        ("moving", ["war_target=0", "connect_while_moving=true"]),
    ],
}


def paired_row(question: str, arms: dict[str, list[dict[str, Any]]]) -> str:
    names = list(arms)
    reference = {r["seed"]: r for r in arms[names[0]]}

    def formations(rows: list[dict[str, Any]]) -> float:
        return sum(r["metrics"]["formations"] for r in rows) / len(rows)

    def differ(rows: list[dict[str, Any]], key: Any) -> str:
        share = sum(key(r) != key(reference[r["seed"]]) for r in rows) / len(rows)
        return f"{100 * share:.1f}%"

    cells = [" / ".join(f"{formations(arms[n]):.2f}" for n in names),
             " / ".join("-" if n == names[0] else differ(arms[n], lambda r: r["metrics"]["formations"])
                        for n in names),
             " / ".join("-" if n == names[0] else differ(arms[n], lambda r: r["metrics"].get("winner"))
                        for n in names)]
    return f"| {question} | {' | '.join(cells)} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=300, help="battles per setting")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    options = RunOptions(workers=args.workers)
    print(f"{args.n} single battles per setting, random-thrower both seats, seeds {args.seed} on\n")
    print("| question | formations per battle | battles whose formations differ "
          "| battles whose winner differs |")
    print("|---|---|---|---|")
    for question, settings in CHECKS.items():
        arms = {name: play("stardice", "random-thrower", args.n, args.seed, options, params=params)
                for name, params in settings}
        print(paired_row(question, arms))


if __name__ == "__main__":
    main()
