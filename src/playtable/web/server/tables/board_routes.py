"""The Rotator board editor (seed 004, "Getting Started": a player chooses where the
ten Control Nodes go): its page, and the check a page asks for as a person edits a board.

The check (`games.rotator.verdict`) validates the board and solves it, so it runs in the
public worker under that pool's time limit, never on the event loop, and its search is bounded
(`games.rotator.rules.HINT_MAX_STATES`, the same bound as a hint's). Like a table's past, each
address may ask a bounded number of times a minute, a burst of strangers' checks waits in a
bounded line (503 past it), and an answer is kept (`past.PastCache`): an editor going back to a
board it had, or two people trying the same sample, costs nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from playtable.core.errors import BadParameter
from playtable.core.params import check_remote_values, params_from_dict
from playtable.games.rotator import (
    BOARD_TEXT_MAX,
    HINT_MAX_STATES,
    SAMPLE_NAMES,
    RotatorParams,
    board_verdict,
    cell_name,
    load_board,
)
from playtable.web.server.bots.bots import JobFailed, Workers
from playtable.web.server.tables.past import Busy, PastCache
from playtable.web.server.tables.table_request import BadRequest

CHECKS_PER_MINUTE = 30.0
"""Checks one address may ask for a minute (bursts of as many): the editor asks once a pause in
editing (it waits 400 ms after the last change), so a person placing ten nodes stays inside. A
legal board's check costs about 14 ms of CPU at the median and 0.6 s at worst
(benchmarks/rotator_board_check.py), so an address asking its most keeps the public worker busy
a third of the time at worst."""
CHECK_PARAMS = frozenset({"turn_limit", "placement"})
"""The parameters a check may set. The auger's dials (boost_total, max_drill) are left out: at
their bounds one check searches for 2.2 s of CPU (100,000 positions, then gives up), and the
editor never sends them."""
CHECKS_WAITING = 4
"""Checks that may wait for the public worker at once; past that a check gets 503."""
CHECKS_KEPT_BYTES = 2 * 1024 * 1024
"""Answers kept (a few kilobytes each)."""
CHECK_FIELDS = frozenset({"board", "params"})


def check_board(text: str, values: dict[str, Any]) -> bytes:
    """The verdict on a board, encoded as JSON (runs in the public worker)."""
    params = params_from_dict(RotatorParams, {**values, "board": text})
    return json.dumps(board_verdict(text, params, HINT_MAX_STATES)).encode("utf-8")


@cache
def sample_boards() -> list[dict[str, Any]]:
    """The shipped sample boards' nodes (seed 004, "Getting Started": "If you prefer, you can
    choose from one of the example boards provided"), for the editor to start from."""
    return [{"name": name, "nodes": [cell_name(n) for n in load_board(name).nodes]} for name in SAMPLE_NAMES]


def read_check_request(body: Any) -> tuple[str, dict[str, Any]]:
    """The board text and the parameter values of a check request, every field bounded
    (BadRequest names the first thing wrong; 413 for a board's text past BOARD_TEXT_MAX)."""
    if not isinstance(body, dict) or not set(body) <= CHECK_FIELDS:
        raise BadRequest('the request body must be {"board": TEXT} with optional "params": '
                         '{"turn_limit": N, "placement": "node"|"territory"}')
    text, values = body.get("board"), body.get("params") or {}
    if not isinstance(text, str):
        raise BadRequest("'board' must be the board's text (docs/boards-rotator.md)")
    if len(text) > BOARD_TEXT_MAX:
        raise BadRequest(f"a board's text is at most {BOARD_TEXT_MAX} characters, not {len(text)}", 413)
    if not isinstance(values, dict) or not set(values) <= CHECK_PARAMS:
        raise BadRequest(f"'params' may set only {' and '.join(sorted(CHECK_PARAMS))}")
    try:
        check_remote_values(RotatorParams, values)
        params_from_dict(RotatorParams, {**values, "board": text})
    except BadParameter as err:
        raise BadRequest(str(err)) from None
    return text, dict(values)


def board_routes(workers: Callable[[], Workers], body_of: Callable[[Request], Any],
                 client_of: Callable[[Request], str], page: Any) -> list[BaseRoute]:
    """The editor's page and its check route. `workers`: the server's worker pools (once it has
    started); `body_of`: a request's JSON body, read within the guard's size bound;
    `client_of`: a request's client address."""
    answers = PastCache(CHECKS_KEPT_BYTES, CHECKS_WAITING, CHECKS_PER_MINUTE)

    async def check(request: Request) -> Response:
        text, values = read_check_request(await body_of(request))
        if not answers.admit(client_of(request)):
            return JSONResponse({"error": "too many board checks from your address; wait a minute"},
                                status_code=429)
        key = (text, json.dumps(values, sort_keys=True))
        try:
            data = await answers.get(key, lambda: workers().public.run(check_board, text, values))
        except Busy:
            return JSONResponse({"error": "the server is busy checking other boards; try again in a moment"},
                                status_code=503)
        except JobFailed:
            return JSONResponse({"error": "the board could not be checked in time"}, status_code=503)
        return Response(data, media_type="application/json")

    async def samples(request: Request) -> Response:
        return JSONResponse({"samples": sample_boards()})

    return [Route("/rotator/editor", page),
            Route("/api/rotator/boards/samples", samples),
            Route("/api/rotator/boards/check", check, methods=["POST"])]
