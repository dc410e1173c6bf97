"""What encoding a table's messages costs: every `state` message a person's seat gets
over a few random troll games, encoded by the server's `wire.encode` (orjson) and by the
standard library's encoder as the server used it before (compact separators, no circular check).

    .venv/bin/python benchmarks/wire_encode.py [--games 5] [--repeats 20]

Prints the mean microseconds a message for each, and the messages' mean size. Both texts are
checked to read back as the same JSON value.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playtable.web.server.tables.table_request import row_from_request  # noqa: E402
from playtable.web.server.tables.tables import Table, fresh_start  # noqa: E402
from playtable.web.server.transport.wire import encode  # noqa: E402

STANDARD = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def messages(games: int) -> list[dict[str, Any]]:
    """The state messages seat 0 gets over `games` random troll games (plus-one)."""
    out = []
    rng = random.Random(1)
    for seed in range(1, games + 1):
        row, _tokens, _ = row_from_request({"game": "troll", "variant": "plus-one",
                                            "seats": [{"kind": "human"}], "seed": seed})
        table = Table(row, fresh_start(row))
        events: list[Any] = []
        while not table.state.is_terminal:
            out.append(table.state_message(0, events))
            canonical, after, events = table.try_action(str(rng.choice(table.state.legal_actions())))
            table.commit(0, canonical, after, events)
        out.append(table.state_message(0, events))
    return out


def per_message(encoder: Any, built: list[dict[str, Any]], repeats: int) -> float:
    began = time.perf_counter()
    for _ in range(repeats):
        for message in built:
            encoder(message)
    return 1e6 * (time.perf_counter() - began) / (repeats * len(built))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    built = messages(args.games)
    for message in built:
        assert json.loads(encode(message)) == json.loads(STANDARD.encode(message))
    size = sum(len(encode(m)) for m in built) / len(built)
    print(f"{len(built):,} state messages of {args.games} random troll games (plus-one), "
          f"{size:,.0f} bytes on average, each encoded {args.repeats} times\n")
    print("| encoder | microseconds a message |\n|---|---:|")
    print(f"| standard library (`json.JSONEncoder`, compact, no circular check) | "
          f"{per_message(STANDARD.encode, built, args.repeats):.1f} |")
    print(f"| `wire.encode` (orjson) | {per_message(encode, built, args.repeats):.1f} |")


if __name__ == "__main__":
    main()
