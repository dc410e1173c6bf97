"""A playtest with people, run end to end by scripted testers: what the report's
"People and bots" section shows for it.

    .venv/bin/python benchmarks/playtest_people.py [--game rotator|wizard] [--games 24]
        [--testers 4] [--hint 0.8]

A playtest is made in a fresh database: Rotator, the `easy` boards against the default ones, one
tester a table; or the wizard game, `final` against `beta`, a heuristic bot as the wizard and
three testers sharing each table as the heroes (`--testers` a multiple of 3). `--games` games,
deals from `--seed`. The testers take its slots through the real app (Starlette's TestClient: the
same routes, hub, worker and store as `playtable serve`), each playing every game the schedule
gives them over the table's WebSocket, the testers of a shared table together. A scripted tester
stands in for a person: at each move it asks the table for a hint and plays it with probability
`--hint`, else a random legal move; it answers fun 4 and hard 2 after a win, fun 2 and hard 4
after a loss (so the questionnaire's columns are filled; they measure the script, not people).
Then the games are exported (`playtest-online export`), random bots play the same deals (the
`compare` command of `playtest-online status`: random on the people's seats, the playtest's
bots on the others), and the section's numbers are printed as a Markdown table.
"""

from __future__ import annotations

import argparse
import random
import secrets
import shlex
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from click.testing import CliRunner
from starlette.testclient import TestClient
from tests.web.lockstep import play_in_step

from playtable.agents import PERSON
from playtable.cli import cli
from playtable.lab.report_people import people_vs_bots
from playtable.lab.storage import connect
from playtable.web.server.app import create_app
from playtable.web.server.playtests.playtest_spec import DEFAULT_QUESTIONS, check_spec
from playtable.web.server.playtests.playtests import PlaytestStore
from playtable.web.server.transport.guard import Policy


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    if result.exit_code:
        raise SystemExit(result.output)
    return result.output


PLAYTESTS = {
    "rotator": (["easy", "default"], None),
    "wizard": (["final", "beta"], ["heuristic", PERSON, PERSON, PERSON]),
}


def play(client: TestClient, paths: list[str], rng: random.Random, hint: float) -> list[bool]:
    """Play the table the testers' join `paths` open to its end, each tester on their own
    socket, in step (`tests/web/lockstep.py`); whether each tester's side won."""
    with ExitStack() as stack:
        sockets, seats = [], []
        for path in paths:
            table_id, query = path.split("/t/", 1)[1].split("?", 1)
            seats.append(int(query.split("seat=", 1)[1].split("&", 1)[0]))
            query = "&".join(p for p in query.split("&") if not p.startswith("playtest="))
            sockets.append(stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}?{query}")))

        def choose(k: int, state: dict[str, Any]) -> str:
            action: str = rng.choice(state["legal"])["action"]
            if rng.random() >= hint:
                return action
            sockets[k].send_json({"type": "hint", "step": state["step"]})
            while True:  # the hint, or an error (no hint this time: the random move)
                message = sockets[k].receive_json()
                if message["type"] == "hint" and message["step"] == state["step"]:
                    return str(message["action"])
                if message["type"] == "error":
                    return action

        end = play_in_step([(ws.receive_json, ws.send_json) for ws in sockets], choose)
        return [end["result"]["returns"][seat] == 1.0 for seat in seats]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(PLAYTESTS), default="rotator")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--testers", type=int, default=4)
    parser.add_argument("--hint", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="playtest-people-"))
    db = folder / "tables.sqlite3"
    store = PlaytestStore(db)
    variants, seats = PLAYTESTS[args.game]
    spec = check_spec(args.game, variants, args.games, args.seed, seats, list(DEFAULT_QUESTIONS))
    per_table = len(spec.people_seats)
    if args.testers % per_table:
        raise SystemExit(f"--testers must be a multiple of {per_table} (the testers of a table)")
    playtest_id = store.create(spec, random.Random(args.seed))
    store.close()
    start = time.perf_counter()
    app = create_app(db, workers=1, rate=10_000, policy=Policy.of(["testserver"]))
    with TestClient(app) as client:
        keys = []
        for k in range(args.testers):
            key = secrets.token_urlsafe(32)
            client.post("/api/players", json={"name": f"scripted-{k + 1}", "key": key})
            keys.append(key)
        waiting = list(keys)
        while len(waiting) >= per_table:
            table, waiting = waiting[:per_table], waiting[per_table:]
            seated = [client.post(f"/api/playtests/{playtest_id}/play", json={"key": key}) for key in table]
            if any(seat.status_code == 409 for seat in seated):
                if per_table == 1:
                    continue  # no game left for this tester; the others play on
                break  # a shared table's testers come and go together: the playtest ends here
            wins = play(client, [seat.json()["path"] for seat in seated], rng, args.hint)
            print(f"  a game {'won' if wins[0] else 'lost'}", file=sys.stderr, flush=True)
            for key, won in zip(table, wins, strict=True):
                me = client.post(f"/api/playtests/{playtest_id}/me", json={"key": key}).json()
                client.post(f"/api/playtests/{playtest_id}/answers", json={
                    "key": key, "table_id": me["last"]["table_id"],
                    "answers": {"fun": 4 if won else 2, "hard": 2 if won else 4}})
            waiting += table
    seconds = time.perf_counter() - start
    people = folder / "people.parquet"
    print(run("playtest-online", "export", playtest_id, "--db", str(db), "--out", str(people)).strip())
    status = run("playtest-online", "status", playtest_id, "--db", str(db), "--agent", "random")
    bots = folder / "bots.parquet"
    command = shlex.split(status.split("bots on the same deals: ", 1)[1].splitlines()[0])[1:]
    command[command.index("--out") + 1] = str(bots)
    run(*command, "-q")
    run("report", str(people), str(bots), "--out", str(folder / "report.html"))
    print(f"{args.game}: {args.games} games by {args.testers} scripted testers (hint {args.hint}) in "
          f"{seconds:.1f} s; report at {folder / 'report.html'}")
    con = connect([people, bots])
    try:
        lines = people_vs_bots(con)
    finally:
        con.close()
    print("| variant | who | games | win rate [95% CI] | mean length | common deals | bots − people [95% CI] "
          "| won only by people / bots | sign test p | Fisher p |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for line in lines:
        low, high = line["interval"]
        cells = [line["variant"], line["side"], str(line["n"]),
                 f"{100 * line['rate']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]", f"{line['length']:.1f}"]
        if "paired" in line:
            d = line["paired"]
            cells += [str(d.n), f"{100 * d.diff:+.1f} pp [{100 * d.low:+.1f}, {100 * d.high:+.1f}]",
                      f"{d.a_only} / {d.b_only}", f"{d.p_value:.3g}", f"{line['fisher']:.3g}"]
        else:
            cells += [""] * 5
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
