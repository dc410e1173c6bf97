"""What one troll action costs the table server, part by part, each part timed alone on the
positions of random games (where the rest of an action's CPU goes once the
stalls, JSON and the event loop were cut).

    .venv/bin/python benchmarks/action_parts.py [--games 60] [--repeats 3]

The positions are those a player meets in random plus-one games (seeds 1 to `--games`, as in
web_load.py and server_actions.py); each part runs once on every position and its mean is
printed, the best of `--repeats` passes. The parts are what `Hub.act` and `Table.state_message`
do for an action of a person at a table nobody else watches:

- the client's frame read and checked (`wire.parse_client_message`);
- the action tried on a copy of the state (`Table.try_action`: clone, parse, apply);
- the commit of the action to SQLite (`SqlStore.append_action`, a file in a temporary
  directory, WAL, synchronous=NORMAL, as the server has it);
- the seat's view (`State.observation`), the legal actions each with its warning
  (`State.action_warning` plays each on a copy), and the whole state message
  (`Table.state_message`, which holds both);
- the message's JSON (`wire.encode`).

Together with `benchmarks/websocket_floor.py` (the least a WebSocket round trip costs the server)
and `server_actions.py` (an action through the hub, and through the whole server), it says how
much of an action is the game's, how much the store's and how much the transport's.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playtable.web.server.store.store import SqlStore  # noqa: E402
from playtable.web.server.tables.table_request import row_from_request  # noqa: E402
from playtable.web.server.tables.tables import Table, fresh_start  # noqa: E402
from playtable.web.server.transport.wire import encode, parse_client_message  # noqa: E402


def positions(games: int) -> list[tuple[Table, str]]:
    """(a table at a position, the random action then played), over `games` random games; each
    table is a copy at its position, so every part sees the real position."""
    rng = random.Random(1)
    out = []
    for seed in range(1, games + 1):
        row, _tokens, _ = row_from_request({"game": "troll", "variant": "plus-one",
                                            "seats": [{"kind": "human"}], "seed": seed})
        table = Table(row, fresh_start(row))
        while not table.state.is_terminal:
            text = str(rng.choice(table.state.legal_actions()))
            out.append((Table(replace(row, actions=list(row.actions), stand_ins={}), fresh_start(row)), text))
            canonical, after, events = table.try_action(text)
            table.commit(0, canonical, after, events)
    return out


def mean_us(cases: list[tuple[Table, str]], part: Callable[[Table, str], Any], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        began = time.process_time()
        for table, text in cases:
            part(table, text)
        best = min(best, time.process_time() - began)
    return best / len(cases) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cases = positions(args.games)
    load = os.getloadavg()
    print(f"{len(cases)} positions of {args.games} random plus-one troll games; CPU time, best of "
          f"{args.repeats} passes; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"  command: python benchmarks/action_parts.py --games {args.games} --repeats {args.repeats}\n")
    with tempfile.TemporaryDirectory() as tmp:
        store = SqlStore(Path(tmp) / "tables.sqlite3")
        stored = replace(cases[0][0].row, id="commits", actions=[])
        store.create(stored)
        steps = iter(range(1, 10**9))

        def commit(table: Table, text: str) -> None:
            store.append_action(stored.id, next(steps), 0, text)

        messages = {id(t): t.state_message(0, []) for t, _ in cases}
        frames = {id(t): f'{{"type":"act","action":"{a}","step":{t.step}}}' for t, a in cases}
        parts: list[tuple[str, Callable[[Table, str], Any]]] = [
            ("parse the client's frame", lambda t, a: parse_client_message(frames[id(t)])),
            ("try the action on a copy (clone, parse, apply)", lambda t, a: t.try_action(a)),
            ("commit it to SQLite", commit),
            ("the seat's view (observation)", lambda t, a: t.state.observation(0)),
            ("legal actions with their warnings", lambda t, a: [
                (str(x), t.state.action_warning(x)) for x in t.state.legal_actions()]),
            ("the whole state message (holds the two above)", lambda t, a: t.state_message(0, [])),
            ("its JSON (wire.encode)", lambda t, a: encode(messages[id(t)])),
        ]
        print("| part of an action | us (CPU) |")
        print("|---|---:|")
        total = 0.0
        for name, part in parts:
            cost = mean_us(cases, part, args.repeats)
            if not name.startswith(("the seat", "legal")):  # in the whole message
                total += cost
            print(f"| {name} | {cost:.1f} |")
        print(f"| **sum** (frame, try, commit, message, JSON) | **{total:.1f}** |")
        store.close()


if __name__ == "__main__":
    main()
