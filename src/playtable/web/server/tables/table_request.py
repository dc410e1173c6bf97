"""Reading a stranger's request for a new table: every field is checked, every parameter and bot
option against the bounds its game or agent declares (`core.params.check_remote_values`,
`agents.check_remote_agent_spec`), before anything is made. Nothing here names a path on the
host: a parameter that could (Rotator's board file, the wizard game's content directory) takes
only a shipped name or inline text over the web, or is refused as the operator's setting.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from playtable.agents import available_agents, check_remote_agent_spec
from playtable.core.errors import BadParameter, PlaytableError
from playtable.core.params import check_remote_values, params_from_dict, resolve_params
from playtable.core.protocol import Game, params_as_dict
from playtable.core.registry import game_ids, get_game
from playtable.web.server.store.store import SeatRow, TableRow
from playtable.web.server.tables.clocks import settings_from_request
from playtable.web.server.tables.tables import hash_token

REQUEST_FIELDS = frozenset({"game", "variant", "params", "seed", "seats", "players", "clock", "key",
                            "rated"})
SEAT_FIELDS = frozenset({"kind", "agent", "reserved", "mine"})
MAX_SEAT_NUMBER_DIGITS = 3


class BadRequest(Exception):
    """A request that cannot be served; `status` is the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def parse_seat(text: str | None) -> int | None:
    """A seat number from a URL's text (ASCII digits only: `²` and `①` are digits to Python's
    `isdigit` but not numbers to `int`), or None."""
    if text is None or not text.isascii() or not text.isdecimal() or len(text) > MAX_SEAT_NUMBER_DIGITS:
        return None
    return int(text)


def row_from_request(body: Any, trusted: bool = False,
                     table_id: str | None = None) -> tuple[TableRow, list[str | None], list[int]]:
    """The new table's row, each seat's token (None for a bot) and the seats the creator takes
    (`"mine": true`: the hub seats the player of the body's `key` there) from a request body;
    BadRequest names the first thing wrong. `trusted`: the body comes from the server itself (a
    rematch copies the old table's parameters, already checked), so parameters are not
    re-bounded. `table_id`: the new table's id (`owners.Owner.new_table_id`: one its process
    owns); by default a fresh random one."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    unknown = sorted(set(body) - REQUEST_FIELDS)
    if unknown:
        raise BadRequest(f"unknown field '{unknown[0][:40]}' (known: {', '.join(sorted(REQUEST_FIELDS))})")
    game_id = body.get("game")
    if not isinstance(game_id, str) or game_id not in game_ids():
        raise BadRequest(f"unknown game {str(game_id)[:40]!r} (known: {', '.join(game_ids())})")
    game = get_game(game_id)
    variant, values = body.get("variant"), body.get("params") or {}
    if variant is not None and not isinstance(variant, str):
        raise BadRequest("'variant' must be a variant name or null")
    if not isinstance(values, dict) or not all(isinstance(k, str) for k in values):
        raise BadRequest("'params' must be an object of parameter names to values")
    players = body.get("players")
    if players is not None:
        if "players" not in params_as_dict(game.default_params()):
            raise BadRequest(f"{game.name} has no choice of player count")
        values = {**values, "players": players}
    try:
        if not trusted:
            check_remote_values(game.params_type, values)
        params = resolve_params(game.params_type, game.variants, variant or None)
        params = params_from_dict(game.params_type, values, params)
    except BadParameter as err:
        raise BadRequest(str(err)) from None
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**31)
    elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise BadRequest("'seed' must be a whole number from 0 to 2^63-1, or null")
    seats, tokens, mine = _seats(game, body.get("seats"), game.seat_names(params), trusted)
    try:
        clock = settings_from_request(body.get("clock"), trusted)
    except BadParameter as err:
        raise BadRequest(f"'clock': {err}") from None
    row = TableRow(table_id or secrets.token_urlsafe(6), game_id, variant or None, params_as_dict(params),
                   seed, seats, now(), clock=None if clock is None else {"settings": clock.to_json()})
    return row, tokens, mine


def _seats(game: Game[Any, Any], requested: Any, names: list[str],
           trusted: bool) -> tuple[list[SeatRow], list[str | None], list[int]]:
    if requested is None:
        requested = [{"kind": "human"} for _ in names]
    if not isinstance(requested, list) or len(requested) != len(names):
        raise BadRequest(f"'seats' must list {len(names)} seat(s) for these settings")
    seats: list[SeatRow] = []
    tokens: list[str | None] = []
    mine: list[int] = []
    for i, (name, seat) in enumerate(zip(names, requested, strict=True)):
        if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot") \
                or not set(seat) <= SEAT_FIELDS:
            raise BadRequest('each seat must be {"kind": "human"} (with "reserved": true to keep it '
                             'for someone invited, "mine": true to sit there yourself) or '
                             '{"kind": "bot", "agent": NAME}')
        if seat["kind"] == "human":
            reserved, me = seat.get("reserved", False), seat.get("mine", False)
            if not isinstance(reserved, bool) or not isinstance(me, bool):
                raise BadRequest("a seat's 'reserved' and 'mine' must be true or false")
            token = secrets.token_urlsafe(18)
            seats.append(SeatRow("human", name, None, hash_token(token), reserved=reserved))
            tokens.append(token)
            if me:
                mine.append(i)
            continue
        agent = seat.get("agent")
        if not isinstance(agent, str) or len(agent) > 200:
            raise BadRequest(f"a bot seat needs an 'agent' (known: {', '.join(available_agents(game))})")
        try:
            if not trusted:
                check_remote_agent_spec(game, agent)
        except PlaytableError as err:
            raise BadRequest(str(err)) from None
        seats.append(SeatRow("bot", name, agent))
        tokens.append(None)
    return seats, tokens, mine
