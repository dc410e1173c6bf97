"""Running many games: one row per game, in worker processes (default) or on Ray.

A row depends only on (game, parameters, agents, seed): the game's chance stream is seeded by
the seed, and each seat's agent gets its own stream derived from the seed and the seat. So the
same seeds give identical rows with any number of workers and on either backend, and two
variants played on the same seeds face the same deals and dice (common random numbers).

Games are grouped into batches, cut from the task stream as workers need them (a bounded number
in flight, so a run of 10^8 games never holds its task list); finished batches are handed back
in task order (a batch that finishes early waits for the ones before it), so output files have
a stable order. When the run is interrupted, every finished game is still handed back
(`Interrupted.rows`).
"""

from __future__ import annotations

import importlib
import itertools
import json
import math
import multiprocessing
import os
import queue
import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter, PlaytableError
from playtable.core.params import params_from_dict
from playtable.core.protocol import params_as_dict
from playtable.core.registry import resolve_game

AGENT_SALT = 0xA6E27


@dataclass(frozen=True)
class Arm:
    """One configuration to simulate: a game, full parameter values, one agent spec per seat."""

    game: str
    params: dict[str, Any]
    agents: tuple[str, ...]
    label: str = "default"
    max_steps: int = 100_000
    probe: str = ""
    """Optional `module:attribute` of a probe class: made once per game, its `step(state,
    events)` sees every action's events and `result(state)` gives `row["probe"]`, for questions
    the result columns do not answer (lab/playtest*.py). It reads the state only through the
    protocol, and a row without a probe has no `probe` column."""
    keep_records: bool = False
    """Keep each game's action texts in `row["actions"]` (`sim --keep-records`): with the game,
    parameters and seed they are the game's record, replayable exactly (`playtable replay`)."""

    @classmethod
    def build(
        cls,
        game_ref: str,
        params: Any,
        agents: Sequence[str],
        label: str = "default",
        max_steps: int = 100_000,
    ) -> Arm:
        """Check the game, parameters and agents now (so bad input fails before any worker
        starts) and fill one agent per seat (a single agent plays every seat)."""
        game = resolve_game(game_ref)
        seats = game.num_players(params)
        specs = list(agents) or ["random"]
        if len(specs) == 1:
            specs = specs * seats
        if len(specs) != seats:
            raise BadParameter(f"{game.id} with these parameters has {seats} seats, got {len(specs)} agents")
        for spec in specs:
            make_agent(game, spec)
        return cls(game_ref, params_as_dict(params), tuple(specs), label, max_steps)


def agent_rng(seed: int, seat: int) -> Chance:
    """Each seat's agent stream: independent of the game's stream and of the other seats'."""
    return Chance(seed).fork(AGENT_SALT + seat)


@cache
def _params(game_ref: str, params_json: str) -> Any:
    game = resolve_game(game_ref)
    return params_from_dict(game.params_type, json.loads(params_json))


def play_game(arm: Arm, seed: int) -> dict[str, Any]:
    """Play one game and describe it as a result row (see `storage` for the columns)."""
    game = resolve_game(arm.game)
    params_json = json.dumps(arm.params, sort_keys=True)
    params = _params(arm.game, params_json)
    players = game.num_players(params)
    row: dict[str, Any] = {
        "game": game.id,
        "variant": arm.label,
        "seed": seed,
        "params": params_json,
        "agents": list(arm.agents),
        "players": players,
        "seat_names": list(game.seat_names(params)),
        "completed": False,
        "error": None,
        "length": 0,
    }
    decisions = [0] * players
    events: Counter[str] = Counter()
    branching_sum = 0
    branching_max = 0
    state = None
    try:
        state = game.new_state(params, seed)
        agents = [make_agent(game, spec) for spec in arm.agents]
        probe = _load(arm.probe)() if arm.probe else None
        actions: list[str] | None = row.setdefault("actions", []) if arm.keep_records else None
        rngs = [agent_rng(seed, s) for s in range(players)]
        length = 0
        while not state.is_terminal and length < arm.max_steps:
            seat = state.current_player
            width = len(state.legal_actions())
            branching_sum += width
            branching_max = max(branching_max, width)
            action = agents[seat].choose(state, rngs[seat])
            if actions is not None:
                actions.append(str(action))
            applied = state.apply(action)
            for event in applied:
                events[event.kind] += 1
            if probe is not None:
                probe.step(state, applied)
            decisions[seat] += 1
            length += 1
        row["length"] = length
        row["completed"] = state.is_terminal
        if probe is not None:
            row["probe"] = probe.result(state)
    except PlaytableError as err:
        row["error"] = f"{type(err).__name__}: {err}"
    except Exception as err:  # a crash in one game must not lose the run: it is recorded
        row["error"] = f"{type(err).__name__}: {err}"
    returns = [float(r) for r in state.returns()] if state is not None else [math.nan] * players
    metrics = dict(state.metrics()) if state is not None and row["error"] is None else {}
    row.update(_outcome(row["completed"], returns, metrics))
    row["returns"] = returns
    row["return_0"] = returns[0] if returns else math.nan
    row["decisions"] = decisions
    total = sum(decisions)
    row["branching_mean"] = branching_sum / total if total else math.nan
    row["branching_max"] = branching_max
    row["events"] = dict(sorted(events.items()))
    row["metrics"] = metrics
    return row


def _outcome(completed: bool, returns: list[float], metrics: dict[str, Any]) -> dict[str, Any]:
    """winners (the seats with the top return, unless every seat has it: a team game such as
    the wizard's heroes wins together), win (seat 0 is a winner), draw (every seat has the same
    return), winner (the only winner, else -1)."""
    if not completed or not returns:
        return {"win": False, "draw": False, "winner": -1, "winners": []}
    if len(returns) == 1:
        won = metrics.get("won")
        win = bool(won) if isinstance(won, bool) else returns[0] >= 1.0
        return {"win": win, "draw": False, "winner": 0 if win else -1, "winners": [0] if win else []}
    best = max(returns)
    top = [i for i, r in enumerate(returns) if r == best]
    if len(top) == len(returns):
        return {"win": False, "draw": True, "winner": -1, "winners": []}
    return {"win": 0 in top, "draw": False, "winner": top[0] if len(top) == 1 else -1, "winners": top}


@cache
def _load(ref: str) -> Any:
    module_name, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def play_batch(batch: Sequence[tuple[Arm, int]]) -> list[dict[str, Any]]:
    return [play_game(arm, seed) for arm, seed in batch]


# -- execution -------------------------------------------------------------------------------------
class Interrupted(Exception):  # noqa: N818 - it is a control-flow signal, not an error
    """The run was stopped; `rows` holds every game that had finished."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(f"interrupted after {len(rows)} games")
        self.rows = rows


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def _stop_signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM for the block; one that came meanwhile is raised after it as
    KeyboardInterrupt. (Blocking them with pthread_sigmask would not do: the pool's helper
    threads would take the signal, and Python runs the handler in this thread anyway.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: caught.append(signum)) for sig in _STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if caught:
        raise KeyboardInterrupt


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, and take back the signals the parent held while it
    started them (the mask is inherited), so that `terminate` can still stop them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)


def batch_size_for(total: int, workers: int) -> int:
    """Games per batch: enough batches to keep every worker busy to the end, at most 32."""
    return max(1, min(32, math.ceil(total / (max(1, workers) * 8))))


def _batches(tasks: Iterable[tuple[Arm, int]], size: int) -> Iterator[tuple[int, list[tuple[Arm, int]]]]:
    """Numbered batches, cut from the tasks as they are needed (never a whole task list)."""
    source = iter(tasks)
    for index in itertools.count():
        batch = list(itertools.islice(source, size))
        if not batch:
            return
        yield index, batch


def _run_local(
    batches: Iterator[tuple[int, list[tuple[Arm, int]]]], workers: int
) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    if workers <= 1:
        for i, batch in batches:
            yield i, play_batch(batch)
        return
    # spawn: workers start clean (no inherited threads or locks); they import the game by name.
    ctx = multiprocessing.get_context("spawn")
    # Hold Ctrl-C while the pool starts: an interrupt half-way would leave workers running that
    # nobody stops (and that keep the parent's output pipes open). It is delivered right after.
    signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        pool = ctx.Pool(workers, initializer=_worker_init)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    try:
        # A bounded window of batches in flight (Pool.imap would read every task up front);
        # finished batches arrive through a queue the pool's result thread fills.
        done: queue.SimpleQueue[Any] = queue.SimpleQueue()
        in_flight = 0
        exhausted = False
        while in_flight or not exhausted:
            while not exhausted and in_flight < 4 * workers:
                item = next(batches, None)
                if item is None:
                    exhausted = True
                    break
                pool.apply_async(_play_indexed, (item,), callback=done.put, error_callback=done.put)
                in_flight += 1
            if not in_flight:
                break
            result = done.get()
            in_flight -= 1
            if isinstance(result, BaseException):
                raise result
            yield result
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _play_indexed(item: tuple[int, list[tuple[Arm, int]]]) -> tuple[int, list[dict[str, Any]]]:
    return item[0], play_batch(item[1])


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BadParameter("the ray backend needs Ray: pip install 'playtable[ray]'") from None
    return ray


def _run_ray(
    batches: Iterator[tuple[int, list[tuple[Arm, int]]]], workers: int, address: str | None
) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                # A local Ray stays on the loopback interface and reports no usage statistics.
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
                ray.init(
                    num_cpus=max(1, workers),
                    include_dashboard=False,
                    log_to_driver=False,
                    _node_ip_address="127.0.0.1",
                )
        except Exception as err:  # Ray raises several kinds; the user needs one line
            where = f"at {address}" if address else "locally"
            raise BadParameter(f"cannot start or reach Ray {where}: {str(err).splitlines()[0]}") from None
        started = True
    try:
        remote = ray.remote(play_batch)
        limit = max(2, 2 * workers)
        running: dict[Any, int] = {}
        exhausted = False
        while running or not exhausted:
            while not exhausted and len(running) < limit:
                item = next(batches, None)
                if item is None:
                    exhausted = True
                else:
                    running[remote.remote(item[1])] = item[0]
            if not running:
                break
            done, _ = ray.wait(list(running), num_returns=1)
            ref = done[0]
            yield running.pop(ref), ray.get(ref)
    finally:
        if started:
            ray.shutdown()


@dataclass
class RunOptions:
    workers: int = 1
    backend: str = "local"
    address: str | None = None
    batch_size: int | None = None
    on_rows: Callable[[list[dict[str, Any]]], None] | None = field(default=None, repr=False)

    def check(self) -> None:
        """Raise BadParameter now, before any progress is shown, if these options cannot run."""
        if self.backend not in ("local", "ray"):
            raise BadParameter(f"unknown backend '{self.backend}' (known: local, ray)")
        if self.workers < 1:
            raise BadParameter("--workers must be at least 1")
        if self.backend == "ray":
            _import_ray()


def run_tasks(
    tasks: Iterable[tuple[Arm, int]],
    options: RunOptions | None = None,
    total: int | None = None,
    keep_rows: bool = True,
) -> list[dict[str, Any]]:
    """Play every (arm, seed) task; rows come back (and go to `on_rows`) in task order. On
    Ctrl-C, raises `Interrupted` carrying every finished row, after handing them to `on_rows`.

    `tasks` may be a generator: it is read a batch at a time. With `keep_rows=False` the rows
    go only to `on_rows` (and the result is empty), so memory stays bounded however many games
    run; `total` (the number of tasks, when `tasks` has no length) sets the batch size."""
    options = options or RunOptions()
    options.check()
    if total is None:
        total = len(tasks) if isinstance(tasks, Sized) else 32 * 8 * max(1, options.workers)
    size = options.batch_size or batch_size_for(total, options.workers)
    batches = _batches(tasks, size)
    if options.backend == "ray":
        source = _run_ray(batches, options.workers, options.address)
    else:
        source = _run_local(batches, options.workers)
    finished: dict[int, list[dict[str, Any]]] = {}
    rows: list[dict[str, Any]] = []
    next_index = 0

    def hand_over(batch_rows: list[dict[str, Any]]) -> None:
        # Ctrl-C and SIGTERM wait until a batch is wholly handed over (kept, written to the
        # result file and its journal): an interrupt half-way used to lose the batch from the
        # file while counting it as written.
        with _stop_signals_held():
            if keep_rows:
                rows.extend(batch_rows)
            if options.on_rows is not None:
                options.on_rows(batch_rows)

    try:
        for index, batch_rows in source:
            finished[index] = batch_rows
            while next_index in finished:
                hand_over(finished.pop(next_index))
                next_index += 1
    except KeyboardInterrupt:
        for index in sorted(finished):
            hand_over(finished.pop(index))
        raise Interrupted(rows) from None
    finally:
        close = getattr(source, "close", None)
        if callable(close):
            close()
    return rows
