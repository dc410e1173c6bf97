"""A real server killed with SIGKILL mid-game and restarted comes back with every table exactly
where it was (rebuilt by replaying its record): the same step, the same observation, and bots
go on playing."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx2
from tests.web.server_process import start_server
from tests.web.wire_client import Client, create_table, join_query


def test_sigkill_mid_game_then_restart_rebuilds_the_same_position(db_where: str | Path) -> None:
    """On each engine: the SQLite file, and PostgreSQL (`serve --db postgresql://...`)."""
    with start_server(db_where) as server:
        troll = create_table(server.url, game="troll", variant="plus-one", seed=17)
        rotator = create_table(server.url, game="rotator", seed=8)
        positions = {}
        for created, moves in ((troll, 7), (rotator, 3)):
            with Client(server.ws_url, created["table_id"], join_query(created)) as player:
                _, state = player.greet()
                for _ in range(moves):
                    state = player.act(state["legal"][0]["action"], state["step"])
                    assert state["type"] == "state"
                positions[created["table_id"]] = state
        # A deliberately slow bot (about a third of a second a move), so its game is still going.
        bot = create_table(server.url, game="troll", variant="plus-one",
                           seats=[{"kind": "bot", "agent": "ismcts:iterations=2000"}])

        server.kill()
        server.restart()

        for table_id, before in positions.items():
            with Client(server.ws_url, table_id, join_query(troll if table_id == troll["table_id"]
                                                           else rotator)) as player:
                welcome, after = player.greet()
                assert welcome["role"] == "player" and len(welcome["log"]) == before["step"] + 1
                assert after["step"] == before["step"]
                assert after["observation"] == before["observation"]
                assert after["legal"] == before["legal"]
                # ...and the game goes on from there.
                assert player.act(after["legal"][0]["action"], after["step"])["step"] == after["step"] + 1

        def bot_table() -> dict[str, Any]:
            summary: dict[str, Any] = httpx2.get(f"{server.url}/api/tables/{bot['table_id']}",
                                                timeout=10).json()
            return summary

        at_restart = bot_table()
        assert at_restart["status"] == "running"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and bot_table()["step"] <= at_restart["step"]:
            time.sleep(0.1)
        assert bot_table()["step"] > at_restart["step"], server.log()  # the bot went on after the restart


def _descendants(root: int) -> set[int]:
    """Every process below `root` (read from /proc: its children, theirs, ...)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for init, which may not reap here)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_server_killed_outright_leaves_no_bot_workers_behind(tmp_path: Path) -> None:
    """SIGKILL runs no shutdown: the bot workers (and the process they were forked from) must
    notice on their own that the server is gone and exit, not wait for ever."""
    if not Path("/proc/self/stat").exists():
        import pytest

        pytest.skip("reads the process tree from /proc")
    with start_server(tmp_path / "tables.sqlite3", workers=2) as server:
        bot = create_table(server.url, game="troll", seats=[{"kind": "bot", "agent": "heuristic"}])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the bots have played: the workers are up
            summary = httpx2.get(f"{server.url}/api/tables/{bot['table_id']}", timeout=10).json()
            if summary["step"] > 0:
                break
            time.sleep(0.1)
        assert server.process is not None
        below = _descendants(server.process.pid)
        assert len(below) >= 2, below  # the forkserver and at least one worker
        server.kill()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(_running(pid) for pid in below):
            time.sleep(0.2)
        assert not [pid for pid in below if _running(pid)], server.log()
