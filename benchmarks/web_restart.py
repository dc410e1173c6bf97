"""How long a restarted table server takes to answer, as its history grows (target 2:
"a server with 100,000 finished tables starts in under 2 s").

    .venv/bin/python benchmarks/web_restart.py [--finished 0 100000] [--running 20] [--repeats 3]

For each size a database is filled through the server's own store (`SqlStore.create`) with
`--finished` ended tables and `--running` tables still in play. Their records are real games:
random play of the troll, Rotator and wizard games with the game's own engine (an ended table is
a finished game's whole record; a running one stops half way, its seats people's, so nothing
plays after the start). Then `playtable serve` is
started on that database, on 127.0.0.1 and a free port, and the time is taken from the
process's start until `GET /api/tables` answers: Python's imports, the worker processes, the
store's opening and the rebuild of every running table by replaying its record. The best of
`--repeats` starts is kept (the first start also writes SQLite's WAL files).

It prints what writing a snapshot costs the server (`Table.snapshot` and its JSON text, as
`SqlStore.save_snapshot` makes it; the best of 200 writes, CPU time) for a random game of
each game. Then `--long-running` tables still in play with long records (a wizard game of `--moves`
actions each, cut short of its end) are started twice: with the snapshot the server would have
stored (`Table.snapshot` at the last multiple of `tables.SNAPSHOT_EVERY`), so only the actions
after it are replayed, and without one (the whole record replayed, as before snapshots). It
also prints what an undo at the end of such a table replays and costs, from the table's snapshot
and from the first action.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

from playtable.core.chance import Chance
from playtable.core.registry import get_game
from playtable.web.server.store.store import SeatRow, SqlStore, TableRow
from playtable.web.server.tables.tables import SNAPSHOT_EVERY, Table, fresh_start

GAMES = ("troll", "rotator", "wizard")


def _record(game_id: str, seed: int, finished: bool) -> tuple[list[tuple[int | None, str]], int]:
    """A random game's record (seat, action text): whole when `finished`, else its first half;
    and the number of seats."""
    game = get_game(game_id)
    params = game.default_params()
    state = game.new_state(params, seed)
    rng = Chance(seed)
    actions: list[tuple[int | None, str]] = []
    while not state.is_terminal and len(actions) < 3000:
        seat = state.current_player
        action = rng.choice(state.legal_actions())
        actions.append((seat if seat >= 0 else None, str(action)))
        state.apply(action)
    if not finished:
        actions = actions[: max(1, len(actions) // 2)]
    return actions, game.num_players(params)


def _when(n: int) -> str:
    """The n-th table's time: one a minute from 1 Nov 2026 (so no two end at once)."""
    minutes = n
    day, hour, minute = 1 + minutes // 1440, minutes // 60 % 24, minutes % 60
    return f"2026-{11 + (day - 1) // 30:02d}-{1 + (day - 1) % 30:02d}T{hour:02d}:{minute:02d}:00+00:00"


def _row(table_id: str, game: str, seed: int, seats: int, actions: list[tuple[int | None, str]],
         n: int = 0, **more: Any) -> TableRow:
    """A stored table of people only, made at the n-th minute (`_when`), with this record."""
    return TableRow(id=table_id, game=game, variant=None, params={}, seed=seed,
                    seats=[SeatRow(kind="human", name=f"Player {s + 1}") for s in range(seats)],
                    created=_when(n), actions=list(actions), **more)


def fill(path: Path, finished: int, running: int) -> None:
    store = SqlStore(path)
    records = {(g, f): _record(g, 7 + i, f) for i, g in enumerate(GAMES) for f in (True, False)}
    started = time.perf_counter()
    for n in range(finished + running):
        game = GAMES[n % len(GAMES)]
        done = n < finished
        actions, seats = records[(game, done)]
        row = _row(f"t{n:07d}", game, 7 + GAMES.index(game), seats, actions, n,
                   ended=_when(n) if done else None,
                   result={"returns": [0.0] * seats, "text": "over"} if done else None)
        store.create(row)
        if n and n % 20000 == 0:
            print(f"  {n} tables stored ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    store.close()


def _long_record(moves: int) -> tuple[list[tuple[int | None, str]], int, int]:
    """A random wizard game's first `moves` actions (the first seed whose game is longer), its
    seed and number of seats."""
    for seed in range(1, 1000):
        actions, seats = _record("wizard", seed, True)
        if len(actions) > moves:
            return actions[:moves], seed, seats
    raise SystemExit(f"no random wizard game of more than {moves} actions")


def fill_long_running(path: Path, tables: int, moves: int, snapshots: bool) -> None:
    """`tables` running wizard tables of `moves` actions each, with or without the snapshot the
    server would have stored by then."""
    store = SqlStore(path)
    actions, seed, seats = _long_record(moves)
    for n in range(tables):
        row = _row(f"w{n:07d}", "wizard", seed, seats, actions, n)
        store.create(row)
        if snapshots and n == 0:
            at = len(actions) // SNAPSHOT_EVERY * SNAPSHOT_EVERY
            early = TableRow(**{**row.__dict__, "actions": actions[:at]})
            snapshot = Table(early, fresh_start(early)).snapshot()
        if snapshots and snapshot is not None:
            store.save_snapshot(row.id, snapshot)
    store.close()


def undo_costs(moves: int, repeats: int = 20) -> None:
    """Print the CPU time of an undo's replay (`Table.replay_without_last`, the work it does in a
    thread) at the end of a wizard record of `moves` actions: from the snapshot the server keeps
    (the last one stored, at a multiple of `SNAPSHOT_EVERY`), and from the first action as without
    one. Best of `repeats`."""
    actions, seed, seats = _long_record(moves)
    print(f"\nAn undo at the end of a wizard table of {moves} actions (CPU ms, best of {repeats})\n")
    print(f"{'replayed from':>22} {'actions replayed':>17} {'undo ms':>8}")
    at = moves // SNAPSHOT_EVERY * SNAPSHOT_EVERY
    for from_snapshot in (True, False):
        row = _row("u", "wizard", seed, seats, actions[:at] if from_snapshot else actions)
        table = Table(row, fresh_start(row))
        if from_snapshot:
            table.snapshot()  # as the hub does every SNAPSHOT_EVERY actions
            for seat, text in actions[at:]:
                canonical, after, events = table.try_action(text)
                table.commit(seat, canonical, after, events)
        best = float("inf")
        for _ in range(repeats):
            began = time.process_time()
            table.replay_without_last()
            best = min(best, time.process_time() - began)
        replayed = moves - 1 - (at - 1) if from_snapshot else moves - 1
        print(f"{'its snapshot (step ' + str(at - 1) + ')' if from_snapshot else 'the first action':>22} "
              f"{replayed:>17,} {1000 * best:>8.2f}")


def snapshot_costs() -> None:
    """Print the CPU time of one snapshot (the state and its JSON text) of each game's random game
    near its end."""
    print(f"\n{'game':>9} {'actions':>8} {'snapshot ms':>12} {'JSON bytes':>11}")
    for game in ("troll", "rotator", "wizard", "stardice"):
        actions, seats = _record(game, 9, True)
        row = _row("x", game, 9, seats, actions[:-2])
        table = Table(row, fresh_start(row))
        best, text = float("inf"), ""
        for _ in range(200):
            began = time.process_time()
            snapshot = table.snapshot()
            assert snapshot is not None
            text = json.dumps(snapshot.state, separators=(",", ":"))
            best = min(best, time.process_time() - began)
        print(f"{game:>9} {len(row.actions):>8} {1000 * best:>12.3f} {len(text):>11,}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def time_start(path: Path) -> tuple[float, int]:
    """Seconds from `playtable serve`'s start until /api/tables answers; tables it lists."""
    port = _free_port()
    began = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-m", "playtable", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(path), "--workers", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline = began + 600
        while time.perf_counter() < deadline:
            try:
                answer = httpx2.get(f"http://127.0.0.1:{port}/api/tables", timeout=5)
                if answer.status_code == 200:
                    listed: Any = answer.json()
                    return time.perf_counter() - began, len(listed.get("tables", listed))
            except httpx2.HTTPError:
                pass
            if server.poll() is not None:
                said = server.stderr.read().decode()[-2000:] if server.stderr else ""
                raise SystemExit(f"the server ended: {said}")
            time.sleep(0.02)
        raise SystemExit("the server did not answer within 600 s")
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, nargs="+", default=[0, 100000])
    parser.add_argument("--running", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--long-running", type=int, default=200,
                        help="running wizard tables with long records (0: none)")
    parser.add_argument("--moves", type=int, default=625, help="actions in each of their records")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"Table server start with a history of finished tables; {args.running} running tables "
          f"rebuilt at each start; best of {args.repeats}; load average "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} CPUs")
    print(f"  command: python benchmarks/web_restart.py --finished {' '.join(map(str, args.finished))} "
          f"--running {args.running} --repeats {args.repeats} --long-running {args.long_running} "
          f"--moves {args.moves}\n")
    print(f"{'finished tables':>15} {'database MB':>12} {'start s (best)':>15} {'all starts s':>24}")
    with tempfile.TemporaryDirectory() as tmp:
        for finished in args.finished:
            path = Path(tmp) / f"tables-{finished}.sqlite3"
            fill(path, finished, args.running)
            starts = [time_start(path)[0] for _ in range(args.repeats)]
            size = sum(p.stat().st_size for p in Path(tmp).glob(f"tables-{finished}.sqlite3*")) / 1e6
            print(f"{finished:>15} {size:>12.1f} {min(starts):>15.2f} "
                  f"{' '.join(f'{s:.2f}' for s in starts):>24}")
        snapshot_costs()
        if not args.long_running:
            return
        undo_costs(args.moves)
        print(f"\n{args.long_running} running wizard tables of {args.moves} actions each "
              f"(snapshots every {SNAPSHOT_EVERY} actions)\n")
        print(f"{'snapshots':>10} {'actions replayed':>17} {'start s (best)':>15} {'all starts s':>24}")
        for snapshots in (True, False):
            path = Path(tmp) / f"long-{snapshots}.sqlite3"
            fill_long_running(path, args.long_running, args.moves, snapshots)
            starts = [time_start(path)[0] for _ in range(args.repeats)]
            replayed = args.long_running * (args.moves - (args.moves // SNAPSHOT_EVERY * SNAPSHOT_EVERY - 1)
                                            if snapshots else args.moves)
            print(f"{'yes' if snapshots else 'no':>10} {replayed:>17,} {min(starts):>15.2f} "
                  f"{' '.join(f'{s:.2f}' for s in starts):>24}")


if __name__ == "__main__":
    main()
