"""Bots' moves and hints, computed in worker processes so that a thinking bot or a slow solver
never stalls the event loop, other tables or other players.

A job carries the full position as JSON (the worker is part of the server, so it may see
hidden parts, exactly as a bot playing at a physical table sees only what its seat may: the
agents themselves decide from `observation`/`determinize`) and returns an action text, which
the table then applies like any other action. Workers start with the `forkserver` method
(`spawn` where that is missing): a fork of the running server would copy its event loop and
sockets into the child.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import cache
from typing import Any

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.protocol import Agent, State
from playtable.core.registry import get_game


@cache
def _agent(game_id: str, spec: str) -> Agent:
    """One agent per game and spec in each worker: building some (tables, caches) is costly."""
    return make_agent(get_game(game_id), spec)


def _state(game_id: str, position: dict[str, Any]) -> State:
    state: State = get_game(game_id).state_from_json(position)
    return state


def bot_move(game_id: str, spec: str, position: dict[str, Any], rng_seed: int) -> str:
    """The action text the agent `spec` plays in `position` (runs in a worker)."""
    state = _state(game_id, position)
    return str(_agent(game_id, spec).choose(state, Chance(rng_seed)))


def hint(game_id: str, position: dict[str, Any]) -> tuple[str, str] | None:
    """The game's hint in `position`: (action text, plain words), or None (runs in a worker)."""
    found = _state(game_id, position).hint()
    if found is None:
        return None
    action, text = found
    return str(action), text


def _warm_up() -> None:
    """Import the games in a new worker so the first bot move is not slowed by imports."""
    from playtable.core.registry import game_ids

    for game_id in game_ids():
        get_game(game_id)


def make_pool(workers: int) -> Executor:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_warm_up)


class Workers:
    """The pool, with awaitable jobs."""

    def __init__(self, workers: int = 1) -> None:
        self.pool = make_pool(max(1, workers))

    async def bot_move(self, game_id: str, spec: str, position: dict[str, Any], rng_seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, bot_move, game_id, spec, position, rng_seed)

    async def hint(self, game_id: str, position: dict[str, Any]) -> tuple[str, str] | None:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, hint, game_id, position)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
