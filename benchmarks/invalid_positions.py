"""Invalid positions against every game's loader: mutate positions met in
random play so that each breaks one invariant, feed them to the loader, and print a table of how
many were refused (BadPosition), accepted (a hole), or crashed it (another exception). Also runs
the scrambles (edits that may or may not be valid) and counts crashes of whatever was accepted.

    .venv/bin/python benchmarks/invalid_positions.py [--per-game 430] [--games troll rotator ...]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.games.position_mutations import SCRAMBLES, fresh, mutations, valid_positions  # noqa: E402
from tests.games.position_mutations_games import GAME_MUTATIONS  # noqa: E402
from tests.games.test_invalid_positions import plays_on  # noqa: E402

from playtable.core.errors import BadPosition  # noqa: E402
from playtable.core.position import position_from_json  # noqa: E402
from playtable.core.registry import get_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-game", type=int, default=430, help="Invalid positions per game.")
    parser.add_argument("--games", nargs="*", default=sorted(GAME_MUTATIONS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="Accepted examples to print per game.")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    totals: Counter[str] = Counter()
    print("| game | mutation | tried | refused | accepted | crashed |")
    print("|---|---|---|---|---|---|")
    for game_id in args.games:
        game = get_game(game_id)
        positions = valid_positions(game_id)
        rows: dict[str, Counter[str]] = {}
        shown = 0
        made = 0
        while made < args.per_game:
            mutation = rng.choice(mutations(game_id))
            broken = mutation(fresh(rng.choice(positions)), rng)
            if broken is None:
                continue
            made += 1
            row = rows.setdefault(mutation.__name__, Counter())
            row["tried"] += 1
            try:
                position_from_json(game, broken)
            except BadPosition:
                row["refused"] += 1
                continue
            except Exception as err:  # noqa: BLE001 - counted and shown, that is the point
                row["crashed"] += 1
                if shown < args.show:
                    shown += 1
                    print(f"  crash {game_id} {mutation.__name__}: {type(err).__name__}: {err}",
                          file=sys.stderr)
                continue
            row["accepted"] += 1
            if shown < args.show:
                shown += 1
                print(f"  accepted {game_id} {mutation.__name__}", file=sys.stderr)
        for name, row in sorted(rows.items()):
            print(f"| {game_id} | {name} | {row['tried']} | {row['refused']} | {row['accepted']} | "
                  f"{row['crashed']} |")
            totals.update(row)
        scrambled = Counter[str]()
        for i in range(args.per_game // 2):
            scramble = SCRAMBLES[i % len(SCRAMBLES)]
            changed = scramble(fresh(rng.choice(positions)), rng)
            if changed is None:
                continue
            scrambled["tried"] += 1
            try:
                state = position_from_json(game, changed)
            except BadPosition:
                scrambled["refused"] += 1
                continue
            except Exception:  # noqa: BLE001 - a loader crash is counted like a play crash
                scrambled["crashed"] += 1
                continue
            try:
                plays_on(state)
                scrambled["accepted"] += 1
            except Exception as err:  # noqa: BLE001
                scrambled["crashed"] += 1
                if shown < args.show + 3:
                    shown += 1
                    print(f"  scramble {scramble.__name__} crashed {game_id}: "
                          f"{type(err).__name__}: {err}", file=sys.stderr)
        print(f"| {game_id} | (scrambles: accepted must play on) | {scrambled['tried']} | "
              f"{scrambled['refused']} | {scrambled['accepted']} | {scrambled['crashed']} |")
    print(f"| all | invalid positions | {totals['tried']} | {totals['refused']} | "
          f"{totals['accepted']} | {totals['crashed']} |")


if __name__ == "__main__":
    main()
