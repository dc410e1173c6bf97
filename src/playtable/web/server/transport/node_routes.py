"""The internal route another node asks its questions on (`node_peers.py`; docs/web.md,
"Several machines"): only when signed with the nodes' shared secret as a node's own question
(`forward.believe`, in constant time, before the body is read; the signed client is then
`node:NAME`, where a forwarded client's request names an address), so a stranger who reaches it
gets 403 and nothing else; the site's nginx refuses `/_node/` from outside as well. This node
answers for every one of its processes (the receiving one asks its siblings as it would for
itself), bounded in time as they are.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from playtable.web.server.context import server_of
from playtable.web.server.tables.table_request import BadRequest
from playtable.web.server.transport.forward import FORWARDED
from playtable.web.server.transport.http import json_error, read_body
from playtable.web.server.transport.node_peers import NODE_PATH

BROADCAST = frozenset({"playing", "mine", "renamed", "live"})
"""The questions every node is asked (`peers.Peers.ask`)."""
OF_A_TABLE = frozenset({"table_status", "seat_invited"})
"""The questions only a table's holder is asked (`peers.Peers.ask_owner`), with its id."""


def _question(body: Any) -> tuple[dict[str, Any], str | None]:
    """The question of a node's body and the table it is about (None: asked of every node)."""
    if not isinstance(body, dict) or set(body) - {"question", "table"}:
        raise BadRequest("the body is a JSON object with 'question' and, for one table's holder, 'table'")
    question, table = body.get("question"), body.get("table")
    if not isinstance(question, dict) or not isinstance(question.get("ask"), str):
        raise BadRequest("'question' is a JSON object with 'ask'")
    if table is None and question["ask"] not in BROADCAST:
        raise BadRequest(f"'ask' is one of {', '.join(sorted(BROADCAST))} without 'table'")
    if table is not None and (question["ask"] not in OF_A_TABLE or question.get("table") != table
                              or not isinstance(table, str)):
        raise BadRequest(f"'ask' is one of {', '.join(sorted(OF_A_TABLE))} about 'table'")
    return question, table


async def node_question(request: Request) -> Response:
    server = server_of(request)
    node, peers = server.node, server.peers
    asker = request.client.host if request.client else ""
    if node is None or peers is None or not request.scope.get(FORWARDED) or not asker.startswith("node:"):
        return json_error("only the site's nodes may ask this (their shared secret)", 403)
    question, table = _question(await read_body(request))
    try:
        if table is None:
            return JSONResponse(await peers.ask_here(question))
        return JSONResponse(await peers.ask_owner(table, question, across=False))
    except (KeyError, TypeError, ValueError) as err:  # a field missing or of the wrong kind
        raise BadRequest(f"the question cannot be answered: {err!r}"[:200]) from None


def node_routes() -> list[BaseRoute]:
    return [Route(NODE_PATH, node_question, methods=["POST"])]
