"""Bot time shared fairly (docs/web.md, "Facing a network"): a stranger's heavy all-bot tables must not
freeze the bots of a person's table.

The server's part is measured as an order, never as a time: how many of the stranger's tables
moved while a person's bot was asked to move and answered. Served in order of asking, every
all-bot job queued before the person's (one each of the stranger's tables) would be served
first.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import create, in_process_app, seat_query

from playtable.web.server.bots.bot_queue import BotQueue
from playtable.web.server.bots.bots import Pool
from playtable.web.server.transport.networks import network_of

SLOW_TABLES = 7
SLOW_BOT = {"kind": "bot", "agent": "ismcts:seconds=2"}
"""Every move of the stranger's tables holds a worker two seconds (a search budget in seconds,
inside the declared bounds: the attack needs no absurd option)."""


def _steps(client: TestClient, table_ids: list[str]) -> list[int]:
    return [client.get(f"/api/tables/{t}").json()["step"] for t in table_ids]


@pytest.mark.parametrize("arrived", [True, False], ids=["person connected", "page still loading"])
def test_a_persons_bot_moves_before_a_strangers_all_bot_tables_are_served(tmp_path: Path,
                                                                          arrived: bool) -> None:
    """Also before the person's page has connected: a new table's first bot job is asked at
    once, and its creator's page comes only after the answer to its creation."""
    app = in_process_app(tmp_path / "tables.sqlite3", workers=1, rate=10_000)
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        slow = [create(client, game="troll", seats=[SLOW_BOT], seed=k)["table_id"]
                for k in range(SLOW_TABLES)]
        mine: dict[str, Any] = create(client, game="stardice", seed=3,
                                      seats=[{"kind": "bot", "agent": "greedy"}, {"kind": "human"}])
        before = _steps(client, slow)
        if arrived:
            ws = stack.enter_context(
                client.websocket_connect(f"/ws/tables/{mine['table_id']}?{seat_query(mine, 1)}"))
            assert ws.receive_json()["type"] == "welcome"
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{mine['table_id']}").json()["step"] == 0:
            assert time.monotonic() < deadline, "the person's bot never moved"
            time.sleep(0.02)
        after = _steps(client, slow)
    moved = sum(1 for old, new in zip(before, after, strict=True) if new > old)
    # In order of asking, the one running and every queued stranger's table moves first.
    assert moved <= 3, f"{moved} of the stranger's {SLOW_TABLES} tables moved before the person's bot"


def test_one_network_holds_at_most_its_share_of_the_workers_and_others_take_turns() -> None:
    """Round-robin across networks with a cap a network: a stranger's queued jobs do not stand
    in front of another network's job, whichever came first."""
    async def scenario() -> list[str]:
        play, background = Pool(2, seconds=30.0), Pool(1, seconds=30.0, prestart=False)
        queue = BotQueue(play, background, pace=0.0)
        finished: list[str] = []

        async def job(network: str, name: str) -> None:
            await queue.run(network, name, lambda: True, time.sleep, 0.5)
            finished.append(name)

        try:
            await queue.run("warm", "warm", lambda: True, abs, -1)  # both workers ready
            await queue.run("warm", "warm", lambda: True, abs, -1)
            stranger = [asyncio.ensure_future(job("2001:db8::/64", f"stranger {k}")) for k in range(4)]
            await asyncio.sleep(0)  # the stranger's jobs are all waiting first
            other = asyncio.ensure_future(job("192.0.2.7", "other"))
            await asyncio.gather(*stranger, other)
        finally:
            play.close()
            background.close()
        return finished

    finished = asyncio.run(scenario())
    # The stranger holds one of the two workers (its cap); the other network's job takes the
    # other at once. Served in order of asking, it would finish last.
    assert finished.index("other") <= 1, finished


def test_a_waiting_job_goes_to_the_play_lane_once_a_person_arrives() -> None:
    async def scenario() -> tuple[dict[str, int], dict[str, int]]:
        play, background = Pool(1, seconds=30.0), Pool(1, seconds=30.0, prestart=False)
        queue = BotQueue(play, background, pace=0.0)
        here = {"person": False}
        try:
            await queue.run("n", "warm", lambda: True, abs, -1)
            hold = asyncio.ensure_future(queue.run("n", "busy", lambda: False, time.sleep, 3.0))
            await asyncio.sleep(0.1)  # the background lane's one worker is taken
            waiting = asyncio.ensure_future(queue.run("n", "mine", lambda: here["person"], abs, -2))
            await asyncio.sleep(0.1)
            assert not waiting.done()
            here["person"] = True  # a person sits down at the table: its job is promoted
            assert await waiting == 2
            during = {"background": queue.background.started, "play": queue.play.started}
            await hold
            return during, {"background": queue.background.started, "play": queue.play.started}
        finally:
            play.close()
            background.close()

    during, _ = asyncio.run(scenario())
    assert during == {"background": 1, "play": 2}


def test_an_all_bot_table_waits_after_each_move_as_long_as_it_took() -> None:
    """Pacing: a heavy all-bot table's next move waits, so another table (of the same network,
    asked later) goes first."""
    async def scenario() -> list[str]:
        play, background = Pool(1, seconds=30.0), Pool(1, seconds=30.0, prestart=False)
        queue = BotQueue(play, background)
        finished: list[str] = []

        async def move(table: str, seconds: float) -> None:
            await queue.run("n", table, lambda: False, time.sleep, seconds)
            finished.append(table)

        try:
            await queue.run("n", "warm", lambda: False, abs, -1)  # the background worker is up
            await move("heavy", 1.0)
            await asyncio.gather(move("heavy", 0.0), move("light", 0.0))
        finally:
            play.close()
            background.close()
        return finished

    assert asyncio.run(scenario()) == ["heavy", "light", "heavy"]


def test_networks_are_ipv6_64s_and_ipv4_addresses() -> None:
    assert network_of("2001:db8:1:2:aaaa::1") == network_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert network_of("2001:db8:1:3::1") != network_of("2001:db8:1:2::1")
    assert network_of("::ffff:192.0.2.1") == network_of("192.0.2.1") == "192.0.2.1"
    assert network_of("192.0.2.1") != network_of("192.0.2.2")
    assert network_of("testclient") == "testclient"
