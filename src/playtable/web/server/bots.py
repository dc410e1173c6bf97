"""Bots' moves and hints, computed in worker processes so that a thinking bot or a slow solver
never stalls the event loop, other tables or other players.

A job carries the full position as JSON (the worker is part of the server, so it may see
hidden parts, exactly as a bot playing at a physical table sees only what its seat may: the
agents themselves decide from `observation`/`determinize`) and returns an action text, which
the table then applies like any other action. Workers start with the `forkserver` method
(`spawn` where that is missing): a fork of the running server would copy its event loop and
sockets into the child. Each worker watches the server and exits with it: a server killed
outright (SIGKILL, out of memory) runs no shutdown, and its workers, blocked on a queue whose
writing end they hold themselves, would otherwise wait for ever.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from typing import Any, TypeVar

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.protocol import Agent, State
from playtable.core.registry import get_game

T = TypeVar("T")

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


SERVER_POLL_SECONDS = 2.0
"""How often a worker looks for its server where it cannot wait on it (no pidfd)."""


def _exit_with(server: int) -> None:
    """Return never: end this worker once the process `server` has exited."""
    try:
        gone = os.pidfd_open(server)
    except (AttributeError, OSError):  # no pidfd (not Linux, or an old kernel), or already gone
        while True:
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                pass
            time.sleep(SERVER_POLL_SECONDS)
    select.select([gone], [], [])
    os._exit(0)


def _warm_up(server: int) -> None:
    """Watch the server (`_exit_with`), then import the games in a new worker so the first bot
    move is not slowed by imports."""
    from playtable.core.registry import game_ids

    threading.Thread(target=_exit_with, args=(server,), name="watch-server", daemon=True).start()

    for game_id in game_ids():
        try:
            get_game(game_id)
        except Exception:  # a game that fails to import fails its own jobs, not the whole pool
            continue


def make_pool(workers: int) -> Executor:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_warm_up,
                               initargs=(os.getpid(),))


class Workers:
    """The pool, with awaitable jobs. A worker that dies (killed, out of memory) breaks the
    whole pool; the pool is then replaced and the job tried once more."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self.pool = make_pool(self.workers)

    async def _run(self, job: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self.pool
            try:
                return await loop.run_in_executor(pool, job, *args)
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                if self.pool is pool:
                    pool.shutdown(wait=False, cancel_futures=True)
                    self.pool = make_pool(self.workers)
        raise AssertionError("unreachable")

    async def bot_move(self, game_id: str, spec: str, position: dict[str, Any], rng_seed: int) -> str:
        return await self._run(bot_move, game_id, spec, position, rng_seed)

    async def hint(self, game_id: str, position: dict[str, Any]) -> tuple[str, str] | None:
        return await self._run(hint, game_id, position)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
