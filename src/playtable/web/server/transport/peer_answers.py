"""What another table-owning process asks of this one's memory (`peers.Peers`, with
`serve --processes N`, or another node): its tables in play, a player's entries and new name, a
playtest's table's status and next tester's seat, and the live tables it runs (another node's
lobby lists them)."""

from __future__ import annotations

from typing import Any

from playtable.web.server.context import ServerContext
from playtable.web.server.store.store import PlayerRow
from playtable.web.server.tables.table_request import BadRequest


async def answer_peer(server: ServerContext, question: dict[str, Any]) -> Any:
    hub = server.hub
    if question["ask"] == "playing":
        return hub.playing(question["status"])
    if question["ask"] == "mine":
        return hub.players.entries(question["player"], question["tables"])
    if question["ask"] == "renamed":
        hub.players.renamed(question["player"], question["name"])
        return {}
    if question["ask"] == "table_status":  # of a playtest's table this process plays
        table = await hub.fetch(question["table"])
        return {"over": table.is_over, "terminal": bool(table.state.is_terminal)}
    if question["ask"] == "seat_invited":  # a playtest's next tester, at such a table
        table = await hub.fetch(question["table"])
        player = PlayerRow(question["player"], question["name"], None, "")
        try:
            return {"token": hub.sitting.seat_invited(table, int(question["seat"]), player)}
        except BadRequest as refused:
            return {"refused": refused.message}
    if question["ask"] == "live":  # process 0's; never their control links (live_routes.py)
        return [table.summary() for table in server.lives.tables.values()]
    raise ValueError(f"unknown question {question['ask']!r}")
