"""A playtest with people, run end to end by scripted testers (issue 31): what the report's
"People and bots" section shows for it.

    .venv/bin/python benchmarks/playtest_people.py [--games 24] [--testers 4] [--hint 0.8]

A Rotator playtest (the `easy` boards against the default ones, `--games` games, deals from
`--seed`) is made in a fresh database; `--testers` testers take its slots through the real app
(Starlette's TestClient: the same routes, hub, worker and store as `playtable serve`), each playing
every game the schedule gives them over the table's WebSocket. A scripted tester stands in for a
person: at each move it asks the table for a hint and plays it with probability `--hint`, else a
random legal move; it answers fun 4 and hard 2 after a win, fun 2 and hard 4 after a loss (so the
questionnaire's columns are filled; they measure the script, not people). Then the games are
exported (`playtest-online export`), random bots play the same deals (the `compare` command of
`playtest-online status`), and the section's numbers are printed as a Markdown table.
"""

from __future__ import annotations

import argparse
import random
import secrets
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from starlette.testclient import TestClient

from playtable.cli import cli
from playtable.lab.report_people import people_vs_bots
from playtable.lab.storage import connect
from playtable.web.server.app import create_app
from playtable.web.server.guard import Policy
from playtable.web.server.playtest_spec import DEFAULT_QUESTIONS, check_spec
from playtable.web.server.playtests import PlaytestStore


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    if result.exit_code:
        raise SystemExit(result.output)
    return result.output


def play(client: TestClient, path: str, rng: random.Random, hint: float) -> bool:
    """Play the table at `path` to its end; whether the tester won."""
    table_id, query = path.split("/t/", 1)[1].split("?", 1)
    query = "&".join(p for p in query.split("&") if not p.startswith("playtest="))
    with client.websocket_connect(f"/ws/tables/{table_id}?{query}") as ws:
        asked = -1
        legal: list[dict[str, Any]] = []
        while True:
            message: dict[str, Any] = ws.receive_json()
            if message["type"] == "hint" and message["step"] == asked:
                ws.send_json({"type": "act", "action": message["action"], "step": asked})
            elif message["type"] == "error" and legal:  # no hint this time: a random move
                ws.send_json({"type": "act", "action": rng.choice(legal)["action"], "step": asked})
            if message["type"] != "state":
                continue
            legal = message["legal"]
            if message["terminal"]:
                return bool(message["result"]["returns"] == [1.0])
            if not message["your_turn"] or message["step"] == asked:
                continue
            asked = message["step"]
            if rng.random() < hint:
                ws.send_json({"type": "hint", "step": asked})
            else:
                ws.send_json({"type": "act", "action": rng.choice(message["legal"])["action"],
                              "step": asked})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--testers", type=int, default=4)
    parser.add_argument("--hint", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="playtest-people-"))
    db = folder / "tables.sqlite3"
    store = PlaytestStore(db)
    spec = check_spec("rotator", ["easy", "default"], args.games, args.seed, [], list(DEFAULT_QUESTIONS))
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
        while waiting:
            key = waiting.pop(0)
            seated = client.post(f"/api/playtests/{playtest_id}/play", json={"key": key})
            if seated.status_code == 409:
                continue  # no game left for this tester
            won = play(client, seated.json()["path"], rng, args.hint)
            print(f"  a game {'won' if won else 'lost'}", file=sys.stderr, flush=True)
            me = client.post(f"/api/playtests/{playtest_id}/me", json={"key": key}).json()
            client.post(f"/api/playtests/{playtest_id}/answers", json={
                "key": key, "table_id": me["last"]["table_id"],
                "answers": {"fun": 4 if won else 2, "hard": 2 if won else 4}})
            waiting.append(key)
    seconds = time.perf_counter() - start
    people = folder / "people.parquet"
    print(run("playtest-online", "export", playtest_id, "--db", str(db), "--out", str(people)).strip())
    status = run("playtest-online", "status", playtest_id, "--db", str(db), "--agent", "random")
    bots = folder / "bots.parquet"
    command = shlex.split(status.split("bots on the same deals: ", 1)[1].splitlines()[0])[1:]
    command[command.index("--out") + 1] = str(bots)
    run(*command, "-q")
    run("report", str(people), str(bots), "--out", str(folder / "report.html"))
    print(f"{args.games} games by {args.testers} scripted testers (hint {args.hint}) in {seconds:.1f} s; "
          f"report at {folder / 'report.html'}")
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
