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
import contextlib
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.presentation import presentation
from playtable.core.protocol import Agent, State
from playtable.core.registry import get_game
from playtable.web.server.bots.bot_queue import BACKGROUND_NICE, BotQueue

T = TypeVar("T")

@cache
def _agent(game_id: str, spec: str) -> Agent:
    """One agent per game and spec in each worker: building some (tables, caches) is costly."""
    return make_agent(get_game(game_id), spec)


def _state(game_id: str, position: dict[str, Any]) -> State:
    state: State = get_game(game_id).state_from_json(position)
    return state


def bot_seed(table_seed: int, step: int) -> int:
    """The chance a table's bot draws from at `step`: fixed by the table's seed, so a table's
    bots choose the same again on the same position (a replay, a tutorial's fixed deal)."""
    return (table_seed * 1_000_003 + step) % 2**62


def bot_move(game_id: str, spec: str, position: dict[str, Any], rng_seed: int) -> str:
    """The action text the agent `spec` plays in `position` (runs in a worker)."""
    state = _state(game_id, position)
    return str(_agent(game_id, spec).choose(state, Chance(rng_seed)))


def hint(game_id: str, position: dict[str, Any]) -> tuple[str, str] | None:
    """The game's hint in `position`: (action text, plain words), or None (runs in a worker)."""
    found = presentation(_state(game_id, position)).hint()
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


def new_position(game_id: str, params: dict[str, Any], seed: int) -> dict[str, Any]:
    """A new table's starting position as JSON, or {"error": why} (runs in a worker: Rotator's
    boards of a given difficulty are solved, seconds of work a stranger may ask for)."""
    from playtable.core.errors import PlaytableError
    from playtable.web.server.tables.replays import start_state

    try:
        state = start_state(game_id, params, seed)
    except PlaytableError as err:
        return {"error": str(err)}
    return {"position": state.to_json(), "setup_events": [e.to_json() for e in state.setup_events]}


def replay(game_id: str, params: dict[str, Any], seed: int, actions: list[tuple[int | None, str]],
           seat: int | None, hidden_texts: bool, stand_ins: dict[int, str] | None = None) -> bytes:
    """A table's replay (`api.replay_steps`), already encoded as JSON (runs in a worker: a long
    game's replay is seconds of work and megabytes of text)."""
    from playtable.web.server.tables.replays import encode_replay

    return encode_replay(game_id, params, seed, actions, seat, hidden_texts, stand_ins)


def position(game_id: str, params: dict[str, Any], seed: int, actions: list[str]) -> bytes:
    """The full position after `actions`, encoded (`replays.encode_position`; runs in a worker)."""
    from playtable.web.server.tables.replays import encode_position

    return encode_position(game_id, params, seed, actions)


class JobFailed(Exception):
    """A job that raised in its worker, or whose worker died twice."""


class JobTimedOut(JobFailed):
    """A job that ran past its pool's time limit: its worker was killed and replaced."""


def _serve(conn: Any, server: int, nice: int = 0) -> None:
    """A worker's life: lower its CPU priority by `nice`, say it is ready, then run each job it
    is sent and send back ("ok", result) or ("error", why)."""
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    _warm_up(server)
    try:
        conn.send(("ready", None))
    except (BrokenPipeError, OSError):
        os._exit(0)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        if item is None:
            os._exit(0)
        job, args = item
        try:
            answer: tuple[str, Any] = ("ok", job(*args))
        except Exception as err:  # the job's own failure, reported to the server
            answer = ("error", f"{type(err).__name__}: {err}"[:500])
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            os._exit(0)


class _Worker:
    """One worker process and the pipe to it; its methods block and run in a thread."""

    def __init__(self, context: Any, nice: int = 0) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, os.getpid(), nice), daemon=True,
                                       name="playtable-worker")
        self.process.start()
        child.close()
        self.ready = False

    def call(self, job: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
        try:
            if not self.ready:
                # A job's time starts once the worker has imported the games, not before: a
                # fresh worker on a loaded machine may take seconds to start.
                if not self.conn.poll(STARTUP_SECONDS):
                    self.kill()
                    raise _WorkerDied("the worker did not start")
                self.conn.recv()
                self.ready = True
            self.conn.send((job, args))
            if not self.conn.poll(seconds):
                self.kill()
                raise JobTimedOut(f"gave no answer within {seconds:g} s")
            status, value = self.conn.recv()
        except (EOFError, BrokenPipeError, ConnectionResetError) as err:
            self.kill()
            raise _WorkerDied(str(err)) from None
        if status != "ok":
            raise JobFailed(value)
        return value

    @property
    def alive(self) -> bool:
        return bool(self.process.is_alive())

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.process.join(timeout=1)
        self.kill()


class _WorkerDied(Exception):
    pass


STARTUP_SECONDS = 120.0
"""The longest a new worker may take to import the games before it is given up on."""


class Pool:
    """`size` worker processes, each running one job at a time for at most `seconds`. A job
    past its time has its worker killed and replaced (`JobTimedOut`); a worker that dies (killed,
    out of memory) is replaced and the job tried once more. Jobs wait their turn in order.
    `nice`: how much lower the workers run (`os.nice`); `prestart`: start the workers now
    (else each at its first job, for a pool that may never be used)."""

    def __init__(self, size: int, seconds: float, nice: int = 0, prestart: bool = True) -> None:
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        self.seconds = seconds
        self.size = max(1, size)
        self.nice = nice
        self._idle: list[_Worker] = [_Worker(self.context, nice) for _ in range(self.size if prestart else 0)]
        self._free = asyncio.Semaphore(self.size)
        self.waiting = 0
        """Jobs waiting for a free worker (callers may refuse new work when it is high)."""
        self.closed = False

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        self.waiting += 1
        try:
            await self._free.acquire()
        finally:
            self.waiting -= 1
        try:
            for attempt in (1, 2):
                worker = self._idle.pop() if self._idle else None
                if worker is None or not worker.alive:
                    if worker is not None:
                        worker.kill()
                    worker = await asyncio.to_thread(_Worker, self.context, self.nice)
                try:
                    result: T = await asyncio.to_thread(worker.call, job, args, self.seconds)
                except _WorkerDied:
                    if attempt == 2:
                        raise JobFailed("its worker process died twice") from None
                    continue
                except JobTimedOut:
                    raise
                except JobFailed:
                    self._idle.append(worker)
                    raise
                self._idle.append(worker)
                return result
            raise AssertionError("unreachable")
        finally:
            self._free.release()

    def close(self) -> None:
        self.closed = True
        for worker in self._idle:
            worker.stop()
        self._idle.clear()


BOT_SECONDS = 30.0
"""The longest a bot move or a hint may think before its worker is killed (the agents' own
bounds keep every allowed setting well inside it; this is the backstop)."""
REPLAY_SECONDS = 60.0


class Workers:
    """The server's worker processes: `play` for bots and hints (seated players' and bots'
    work), `public` for what anyone may ask of a table (replays), so that no stranger's request
    can hold up a table's bot. Bot moves go through `bots` (`bot_queue.BotQueue`): tables where
    a person waits play in `play`, the others in `background` (half as many workers, started at
    their first job, at a lower CPU priority), each lane shared fairly across networks."""

    def __init__(self, workers: int = 1, bot_seconds: float = BOT_SECONDS) -> None:
        self.workers = max(1, workers)
        self.play = Pool(self.workers, bot_seconds)
        self.background = Pool(max(1, self.workers // 2), bot_seconds, nice=BACKGROUND_NICE,
                               prestart=False)
        self.bots = BotQueue(self.play, self.background)
        self.public = Pool(1, REPLAY_SECONDS)

    async def bot_move(self, game_id: str, spec: str, position: dict[str, Any], rng_seed: int,
                       network: str = "", table_id: str = "",
                       urgent: Callable[[], bool] | None = None) -> str:
        """The bot's move for table `table_id`, created from `network`, in its turn
        (`urgent()`: a person is waiting for it; by default one is)."""
        return await self.bots.run(network, table_id, urgent or (lambda: True), bot_move,
                                   game_id, spec, position, rng_seed)

    async def hint(self, game_id: str, position: dict[str, Any],
                   network: str = "") -> tuple[str, str] | None:
        """The game's hint, asked by a seated person from `network`: in the play lane, in that
        network's turn (a stranger asking for hints as fast as they may waits for them alone)."""
        return await self.bots.run(network, "", lambda: True, hint, game_id, position)

    async def new_position(self, game_id: str, params: dict[str, Any], seed: int) -> dict[str, Any]:
        return await self.public.run(new_position, game_id, params, seed)

    async def replay(self, game_id: str, params: dict[str, Any], seed: int,
                     actions: list[tuple[int | None, str]], seat: int | None,
                     hidden_texts: bool, stand_ins: dict[int, str] | None = None) -> bytes:
        return await self.public.run(replay, game_id, params, seed, actions, seat, hidden_texts,
                                     stand_ins)

    async def position(self, game_id: str, params: dict[str, Any], seed: int, actions: list[str]) -> bytes:
        return await self.public.run(position, game_id, params, seed, actions)

    def close(self) -> None:
        self.play.close()
        self.background.close()
        self.public.close()
