"""What one node asks the site's other nodes (docs/web.md, "Several machines"): the questions
`peers.Peers` asks this node's other processes (`peer_answers.py`), sent to every live node as
an HTTP POST to `NODE_PATH` signed with the nodes' secret as a forwarded request is
(`forward.forwarded_headers`: the secret itself never travels); each node answers for all its processes
(`node_routes.py`). Who is live comes from the store (`node_registry.py`), refreshed with this
node's own heartbeat.

The client is httpx2's (the `server` extra's, as the forwarding's is): one kept-alive client a
process, no environment proxies, each answer's length declared and bounded.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from playtable.web.server.store.database import DatabaseError
from playtable.web.server.store.node_registry import HEARTBEAT_SECONDS, NodeRegistry
from playtable.web.server.transport.forward import forwarded_headers
from playtable.web.server.transport.nodes import Locate, Node

if TYPE_CHECKING:  # imported where a question is sent: httpx2 is the `server` extra's
    import httpx2

log = logging.getLogger("playtable.web")

NODE_PATH = "/_node/ask"
"""The internal route of the nodes' questions (the site's nginx refuses `/_node/` from outside)."""
NODE_SECONDS = 3.0
"""The longest a node waits for another's answer: longer than the other's own wait for its
processes (`peers.PEER_SECONDS`), so that a slow process there leaves out only its part."""
MAX_NODE_ANSWER = 4 << 20
"""The largest answer read from another node, in bytes."""
FORGET_EVERY = 30
"""Every this many heartbeats, the nodes long dead are forgotten (`NodeRegistry.forget_dead`)."""


class NodeRefused(Exception):
    """Another node's answer that is not a question's answer (refused, too large, cut short)."""


def signed(path: str, host: str, asker: str, secret: str) -> list[tuple[bytes, bytes]]:
    """The headers that prove a question comes from one of the site's nodes (`asker`): the
    signature a forwarded request carries (`forward.believe` checks it at the other end)."""
    scope = {"type": "http", "method": "POST", "path": path, "scheme": "http",
             "client": (f"node:{asker}", 0), "headers": [(b"host", host.encode())]}
    return forwarded_headers(scope, secret)


async def post_json(client: httpx2.AsyncClient, url: str, path: str, node: Node, payload: Any) -> Any:
    """POST `payload` as JSON to `url` + `path`, signed as from `node`; the answer's JSON.
    NodeRefused when the answer is not a 200 with a declared length of at most MAX_NODE_ANSWER."""
    host = urlsplit(url).netloc
    headers = [(b"content-type", b"application/json"), *signed(path, host, node.name, node.secret)]
    async with client.stream("POST", url + path, content=json.dumps(payload).encode(),
                             headers=headers) as answer:
        length = answer.headers.get("content-length", "")
        if answer.status_code != 200 or not length.isdecimal() or int(length) > MAX_NODE_ANSWER:
            raise NodeRefused(f"{url} answered {answer.status_code} (length {length or None})")
        body = b""
        async for chunk in answer.aiter_bytes():
            body += chunk
            if len(body) > int(length):
                raise NodeRefused(f"{url} sent more than it declared")
        return json.loads(body)


class NodePeers:
    """This node's line to the others: its heartbeat in the store (`registry`), the live
    others' addresses (`others`, by name), and its questions to them."""

    def __init__(self, node: Node, registry: NodeRegistry, locate: Locate | None = None) -> None:
        self.node, self.registry, self.locate = node, registry, locate
        self.others: dict[str, str] = {}
        self._beating: asyncio.Task[None] | None = None
        self._client: httpx2.AsyncClient | None = None

    @property
    def client(self) -> httpx2.AsyncClient:
        import httpx2

        if self._client is None:  # made in the server's event loop, at the first question
            self._client = httpx2.AsyncClient(timeout=NODE_SECONDS, trust_env=False, follow_redirects=False)
        return self._client

    async def start(self) -> None:
        """Register this node (a StoreError when another live node has its name) and keep its
        heartbeat until `close`."""
        self.others = self.registry.beat()
        self._beating = asyncio.get_running_loop().create_task(self._beat())

    async def close(self) -> None:
        if self._beating is not None:
            self._beating.cancel()
        if self._client is not None:
            await self._client.aclose()
        try:
            self.registry.leave()
        except DatabaseError as err:  # it stops being live when its heartbeat is old enough
            log.error("node %s: its row could not be removed: %s", self.node.name, err)

    async def _beat(self) -> None:
        beats = 0
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            beats += 1
            try:
                self.others = self.registry.beat()
                if beats % FORGET_EVERY == 0:
                    self.registry.forget_dead()
            except Exception as err:  # the store down a while: the last list stands meanwhile
                log.error("node %s: heartbeat not written: %r", self.node.name, err)

    async def ask_node(self, url: str, question: dict[str, Any], table: str | None = None) -> Any:
        """The answer of the node at `url`: with `table`, of that table's holder there; else a
        list, one answer for each of its processes. Raises when it is down, refuses or is slower
        than NODE_SECONDS."""
        payload = {"question": question} if table is None else {"question": question, "table": table}
        asking = post_json(self.client, url, NODE_PATH, self.node, payload)
        return await asyncio.wait_for(asking, NODE_SECONDS)

    async def ask(self, question: dict[str, Any]) -> list[Any]:
        """Every process's answer at every other live node; a node that is down, refuses or is
        slower than NODE_SECONDS is left out (logged): a list is then short for the moment,
        never wrong."""
        others = list(self.others.items())
        replies = await asyncio.gather(*(self.ask_node(url, question) for _, url in others),
                                       return_exceptions=True)
        out: list[Any] = []
        for (name, _), reply in zip(others, replies, strict=True):
            if isinstance(reply, BaseException) or not isinstance(reply, list):
                log.warning("node %s did not answer node %s: %r", name, self.node.name, reply)
            else:
                out.extend(reply)
        return out

    async def holder(self, table_id: str) -> str | None:
        """The address of the other node holding `table_id`; None when it is this one's."""
        where = None if self.locate is None else await self.locate(table_id)
        return None if where is None or where.rstrip("/") == self.node.url else where
