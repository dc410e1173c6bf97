"""The routes of playtests with people (`playtests.py` says what each one may do): the tester's
page `/p/{id}` and its JSON API. No route creates a playtest: the designer does, with
`playtable playtest-online create` (the server's operator)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from playtable.web.server.playtests.playtests import Playtests


def playtest_routes(playtests: Callable[[], Playtests], page: Any,
                    body: Callable[[Request], Awaitable[Any]],
                    client: Callable[[Request], str]) -> list[BaseRoute]:
    async def info(request: Request) -> Response:
        return JSONResponse(playtests().info(request.path_params["playtest_id"]))

    async def mine(request: Request) -> Response:
        return JSONResponse(await playtests().mine(request.path_params["playtest_id"], await body(request)))

    async def play(request: Request) -> Response:
        answer = await playtests().play(request.path_params["playtest_id"], await body(request),
                                        client(request))
        return JSONResponse(answer, status_code=200 if answer["resumed"] else 201)

    async def answers(request: Request) -> Response:
        return JSONResponse(await playtests().answer(request.path_params["playtest_id"],
                                                     await body(request)))

    return [
        Route("/p/{playtest_id}", page),
        Route("/api/playtests/{playtest_id}", info),
        Route("/api/playtests/{playtest_id}/me", mine, methods=["POST"]),
        Route("/api/playtests/{playtest_id}/play", play, methods=["POST"]),
        Route("/api/playtests/{playtest_id}/answers", answers, methods=["POST"]),
    ]
