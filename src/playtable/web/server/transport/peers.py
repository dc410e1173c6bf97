"""What one table-owning worker process asks the others (`processes.py`; docs/web.md, "Beyond
one process"): the lobby's list of tables in play, whose turn it is at a player's tables, a
player's new name for the seats of tables in play; and of one worker, about a playtest's table
it plays (`playtests.py`). A line of JSON to each other worker's Unix
socket (in a private directory the front makes), a line back, bounded in time.

With several nodes (docs/web.md, "Several machines") the same questions also go to every
other live node (`node_peers.py`), which answers for all its processes: the question and its
answers (`peer_answers.py`) are the same, only the line differs.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from playtable.web.server.transport.node_peers import NodePeers
from playtable.web.server.transport.owners import Owner, owner_of

log = logging.getLogger("playtable.web")

PEER_SECONDS = 2.0
"""The longest a worker waits for another's answer (a worker being restarted is left out)."""
MAX_PEER_LINE = 4 << 20
Answer = Callable[[dict[str, Any]], Awaitable[Any]]
SHARED_SECONDS = 1.0
"""How long one answer to a question of no one's in particular (the lobby's tables in play, the
site's live tables) serves every request that needs it: however many requests come, from however
many networks, a process asks the others that question at most once in this time (the lobby's
page asks every 15 s, `lobby.js`)."""
Kept = TypeVar("Kept")


class SharedAnswers:
    """The newest answer to each shared question, kept SHARED_SECONDS and shared with the
    requests that come meanwhile, even while it is still being asked; an answer that failed is
    not kept. The questions are few (each route checks its own before asking)."""

    def __init__(self, seconds: float = SHARED_SECONDS) -> None:
        self.seconds = seconds
        self._kept: dict[str, tuple[float, asyncio.Future[Any]]] = {}

    async def get(self, key: str, ask: Callable[[], Awaitable[Kept]]) -> Kept:
        loop = asyncio.get_running_loop()
        kept = self._kept.get(key)
        if kept is None or loop.time() - kept[0] >= self.seconds:
            kept = (loop.time(), asyncio.ensure_future(ask()))
            self._kept[key] = kept
        try:  # shielded: one request that goes away does not cancel the others' answer
            answer: Kept = await asyncio.shield(kept[1])
        except Exception:
            if self._kept.get(key) is kept:
                del self._kept[key]
            raise
        return answer


class Peers:
    """This worker's line to the others: `ask` sends every other worker (`directory`: their
    sockets' folder; None: this node has one process) and every other live node (`nodes`) a
    question, which each answers with `answer` (the hub's part: `app.create_app` says which
    questions there are)."""

    def __init__(self, owner: Owner, directory: Path | None = None) -> None:
        self.owner, self.directory = owner, directory
        self.answer: Answer | None = None
        self.nodes: NodePeers | None = None
        self.shared = SharedAnswers()
        self._server: asyncio.AbstractServer | None = None

    def path(self, index: int) -> Path:
        assert self.directory is not None
        return self.directory / f"worker-{index}.sock"

    async def start(self, answer: Answer, nodes: NodePeers | None = None) -> None:
        self.answer, self.nodes = answer, nodes
        if self.directory is not None:
            path = self.path(self.owner.index)
            path.unlink(missing_ok=True)  # left by this worker's predecessor, if it died
            self._server = await asyncio.start_unix_server(self._serve, path=str(path), limit=MAX_PEER_LINE)
        if nodes is not None:
            await nodes.start()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self.path(self.owner.index).unlink(missing_ok=True)
        if self.nodes is not None:
            await self.nodes.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), PEER_SECONDS)
            assert self.answer is not None
            reply = await self.answer(json.loads(line))
            writer.write(json.dumps(reply).encode() + b"\n")
            await writer.drain()
        except Exception as err:  # a question cut short or not understood: the asker goes without
            log.error("worker %d: a peer's question failed: %r", self.owner.index, err)
        finally:
            writer.close()

    async def _ask_one(self, index: int, question: bytes) -> Any:
        reader, writer = await asyncio.open_unix_connection(str(self.path(index)), limit=MAX_PEER_LINE)
        try:
            writer.write(question)
            await writer.drain()
            return json.loads(await reader.readline())
        finally:
            writer.close()

    async def ask_one(self, index: int, question: dict[str, Any]) -> Any:
        """Worker `index`'s answer (a JSON object), or None when it is down, slower than
        PEER_SECONDS or could not answer (logged)."""
        line = json.dumps(question).encode() + b"\n"
        try:
            return await asyncio.wait_for(self._ask_one(index, line), PEER_SECONDS)
        except Exception as err:
            log.warning("worker %d did not answer worker %d: %r", index, self.owner.index, err)
            return None

    async def ask(self, question: dict[str, Any]) -> list[Any]:
        """Every other process's answer, this node's and every other live node's; one that is
        down or slower than PEER_SECONDS (NODE_SECONDS for a node) is left out (logged): a list
        is then short of its tables for the moment, never wrong."""
        siblings = self.ask_siblings(question)
        if self.nodes is None:
            return await siblings
        here, there = await asyncio.gather(siblings, self.nodes.ask(question))
        return [*here, *there]

    async def ask_shared(self, question: dict[str, Any]) -> list[Any]:
        """`ask`'s answer to a question of no one's in particular, shared (`SharedAnswers`)."""
        return await self.shared.get(json.dumps(question, sort_keys=True), lambda: self.ask(question))

    async def ask_here(self, question: dict[str, Any]) -> list[Any]:
        """Every process of this node's answer, this one's first (another node's question)."""
        assert self.answer is not None
        return [await self.answer(question), *await self.ask_siblings(question)]

    async def ask_owner(self, table_id: str, question: dict[str, Any], across: bool = True) -> Any:
        """The answer of the process holding `table_id` (a playtest's table): on another node
        when the leases say so (`across`: not when that node asked), else this node's owner
        of it (`owners.py`); None when it is down, slower than its bound or could not answer."""
        if across and self.nodes is not None:
            where = await self.nodes.holder(table_id)
            if where is not None:
                try:
                    return await self.nodes.ask_node(where, question, table_id)
                except Exception as err:
                    log.warning("node %s did not answer node %s: %r", where, self.nodes.node.name, err)
                    return None
        index = owner_of(table_id, self.owner.count)
        if index != self.owner.index:
            return await self.ask_one(index, question)
        assert self.answer is not None
        try:
            return await self.answer(question)
        except Exception as err:
            log.warning("worker %d could not answer about table %s: %r", index, table_id, err)
            return None

    async def ask_siblings(self, question: dict[str, Any]) -> list[Any]:
        """Every other worker's answer of this node (see `ask`)."""
        line = json.dumps(question).encode() + b"\n"
        others = [i for i in range(self.owner.count) if i != self.owner.index]
        replies = await asyncio.gather(*(asyncio.wait_for(self._ask_one(i, line), PEER_SECONDS)
                                         for i in others), return_exceptions=True)
        out = []
        for index, reply in zip(others, replies, strict=True):
            if isinstance(reply, BaseException):
                log.warning("worker %d did not answer worker %d: %r", index, self.owner.index, reply)
            else:
                out.append(reply)
        return out
