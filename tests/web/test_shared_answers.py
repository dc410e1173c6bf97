"""A question of no one's in particular is shared (`peers.SharedAnswers`; docs/web.md, "What
the nodes ask each other"): the lobby's tables in play and the site's live tables are asked of the
other processes and nodes at most once in SHARED_SECONDS, however many requests need them, so a
flood of lobby requests does not become a flood across the site. Two real `Peers` of one node,
in one event loop, answering each other over their Unix sockets."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from playtable.web.server.transport.owners import Owner
from playtable.web.server.transport.peers import Peers, SharedAnswers

pytestmark = pytest.mark.timeout(60)
PLAYING = {"ask": "playing", "status": "running"}


async def _two_peers(folder: Path, asked: list[dict[str, Any]]) -> tuple[Peers, Peers]:
    async def answer(question: dict[str, Any]) -> Any:
        asked.append(question)
        await asyncio.sleep(0.05)  # an answer takes a while: requests meanwhile share it too
        return [{"id": f"t{len(asked)}"}]

    first, second = Peers(Owner(0, 2), folder), Peers(Owner(1, 2), folder)
    for peers in (first, second):
        await peers.start(answer)
    return first, second


def test_a_flood_of_lobby_questions_asks_the_other_process_once_a_period(tmp_path: Path) -> None:
    async def scenario() -> None:
        asked: list[dict[str, Any]] = []
        first, second = await _two_peers(tmp_path, asked)
        first.shared.seconds = 0.5
        try:
            answers = await asyncio.gather(*(first.ask_shared(PLAYING) for _ in range(100)))
            assert asked == [PLAYING] and all(a == [[{"id": "t1"}]] for a in answers)
            assert await first.ask_shared(PLAYING) == [[{"id": "t1"}]]  # still within the period
            assert await first.ask_shared({**PLAYING, "status": "open"}) == [[{"id": "t2"}]]  # another
            await asyncio.sleep(0.6)
            assert await first.ask_shared(PLAYING) == [[{"id": "t3"}]]  # a period later: asked again
            assert await first.ask(PLAYING) == [[{"id": "t4"}]]  # `ask` itself shares nothing
            assert len(asked) == 4
        finally:
            await first.close()
            await second.close()

    asyncio.run(scenario())


def test_an_answer_that_failed_is_not_kept_and_a_request_gone_away_does_not_cancel_it() -> None:
    async def scenario() -> None:
        shared, calls = SharedAnswers(seconds=60), []

        async def failing() -> list[Any]:
            calls.append("failed")
            raise RuntimeError("down")

        async def slow() -> list[Any]:
            calls.append("slow")
            await asyncio.sleep(0.1)
            return ["answer"]

        with pytest.raises(RuntimeError):
            await shared.get("q", failing)
        impatient = asyncio.ensure_future(shared.get("q", slow))  # asked again: the failure was not kept
        await asyncio.sleep(0.01)
        impatient.cancel()  # its request went away
        assert await shared.get("q", slow) == ["answer"]  # the answer under way serves the next one
        assert calls == ["failed", "slow"]

    asyncio.run(scenario())
