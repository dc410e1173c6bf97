"""How long a node killed outright takes to have its tables served by another node (docs/web.md,
"Several machines"; target: under 10 s).

    .venv/bin/python benchmarks/web_takeover.py [--tables 1 100] [--moves 10]

For each count: a PostgreSQL on this machine (started as the tests start it, tests/pg_server.py),
two real `playtable serve --node` processes on it, and `--tables` tables made at node one (the
troll game, a person's seat), each played `--moves` acknowledged moves over its WebSocket. Node
one is killed (SIGKILL); from then on, this program:

- asks node two for the first table every 0.1 s (a page reconnecting: node two takes it over on
  demand as soon as its lease has expired) until a move there is accepted: "first move";
- watches the store until node two holds every table (its sweep takes the others, with no
  request): "all held";
- then plays one move at each table at node two: "every move", when the last was accepted.

Each time is wall time from the kill. The lease is 6 s, renewed every 2 s (so it runs out 4 to 6
s after the kill), the sweep runs every second (`tables/leasing.py`). Every acknowledged move is
checked to be in the record at node two (the column "lost", which must be 0). Run it on a quiet
machine: the wall times include whatever else the cores are doing (the load is printed).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.pg_server import PgServer, skip_reason  # noqa: E402
from tests.web.nodes import holders  # noqa: E402
from tests.web.server_process import ServerProcess, free_port, start_server  # noqa: E402
from tests.web.wire_client import Client, create_table, join_query  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from playtable.web.server.store.schema import opened  # noqa: E402
from playtable.web.server.transport.nodes import NODE_SECRET_ENV  # noqa: E402

LIMITS = ("--tables-per-minute", "10000", "--tables-per-network", "100000", "--rate-limit", "1000")
WAIT = 60.0


def node(url: str, name: str) -> ServerProcess:
    port = free_port()
    return start_server(url, port=port, extra_args=(
        "--node", name, "--node-url", f"http://127.0.0.1:{port}", *LIMITS))


def try_move(server: ServerProcess, created: dict[str, Any]) -> dict[str, Any] | None:
    """One move at `created`'s table through `server`; its state, or None when the server does
    not serve the table (yet)."""
    try:
        with Client(server.ws_url, created["table_id"], join_query(created)) as player:
            first = player.recv()
            if first["type"] == "error":
                return None
            state = player.recv_type("state")
            after = player.act(state["legal"][0]["action"], state["step"])
            return after if after["type"] == "state" else None
    except (ConnectionClosed, OSError, TimeoutError):
        return None



def actions(url: str, table_id: str) -> int:
    db = opened(url)
    try:
        return int(db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)).fetchone()[0])
    finally:
        db.close()


def measure(pg: PgServer, count: int, moves: int) -> dict[str, float]:
    url = pg.database()
    with node(url, "one") as one, node(url, "two") as two:
        made: list[dict[str, Any]] = []
        acknowledged = {}
        seed = 0
        while len(made) < count:  # a game over within `moves` is ended: not leased, not counted
            seed += 1
            created = create_table(one.url, game="troll", variant="plus-one", seed=seed)
            with Client(one.ws_url, created["table_id"], join_query(created)) as player:
                _, state = player.greet()
                for _ in range(moves):
                    state = player.act(state["legal"][0]["action"], state["step"])
                    if state["terminal"]:
                        break
            if not state["terminal"]:
                made.append(created)
                acknowledged[created["table_id"]] = state["step"]
        one.kill()
        killed = time.monotonic()
        first = None
        while first is None and time.monotonic() - killed < WAIT:
            after = try_move(two, made[0])
            if after is None:
                time.sleep(0.1)
            else:
                first = time.monotonic() - killed
                acknowledged[made[0]["table_id"]] += 1
        while time.monotonic() - killed < WAIT and \
                set(holders(url).values()) != {"two/0"}:
            time.sleep(0.05)
        held = time.monotonic() - killed
        lost = sum(actions(url, t) < n for t, n in acknowledged.items())
        for created in made[1:]:
            assert try_move(two, created) is not None, two.log()
        every = time.monotonic() - killed
        return {"first": first if first is not None else float("nan"), "held": held,
                "every": every, "lost": lost}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 100])
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args()
    reason = skip_reason()
    if reason is not None:
        sys.exit(f"web_takeover: {reason}")
    os.environ.setdefault(NODE_SECRET_ENV, "takeover-benchmark-secret-0123456789")
    pg = PgServer().start()
    try:
        print(f"load before: {os.getloadavg()[0]:.2f} (1-min average, {os.cpu_count()} cores)")
        print(f"{'tables':>6} {'moves':>5} {'first move':>11} {'all held':>9} {'every move':>11} {'lost':>5}")
        for count in args.tables:
            got = measure(pg, count, args.moves)
            print(f"{count:>6} {args.moves:>5} {got['first']:>10.2f}s {got['held']:>8.2f}s "
                  f"{got['every']:>10.2f}s {got['lost']:>5.0f}", flush=True)
        print(f"load after: {os.getloadavg()[0]:.2f}")
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
