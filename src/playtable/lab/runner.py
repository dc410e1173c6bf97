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

Batch sizes adapt (`Batcher`): the first batches are small, then each worker gets about
`BATCH_SECONDS` of games at a time, measured from the batches so far, and fewer towards the end
so that no worker idles while another finishes a long batch. With `on_chunk` a worker also
encodes its batch (`chunks.py`: journal lines, Arrow table, summary), so the parent's work per
game is nearly nothing and two workers are not held back by it.
"""

from __future__ import annotations

import importlib
import itertools
import json
import math
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from playtable.agents import make_agent
from playtable.core.chance import Chance, derived_seed
from playtable.core.errors import BadParameter, PlaytableError
from playtable.core.params import params_from_dict
from playtable.core.protocol import params_as_dict
from playtable.core.registry import resolve_game
from playtable.lab.chunks import Chunk, ChunkSpec, encode
from playtable.lab.quality import QualityTrace
from playtable.lab.quality import empty as quality_empty
from playtable.lab.workers import STOP_SIGNALS, max_workers, run_in_processes, usable_cpus

AGENT_STREAMS = 0xA6E27
"""The purpose tag of the agents' streams in `derived_seed(seed, AGENT_STREAMS, seat)`."""


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
    quality: bool = True
    """Take the game's value of each position (`Game.evaluate`) for the game-quality columns
    (`quality.py`: lead changes, drama, decisiveness); False leaves them empty and saves the
    evaluations."""

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
    """Each seat's agent stream: independent of the game's stream and of the other seats'
    (tested over many seeds in tests/lab/test_agent_streams.py; measured on games in
    benchmarks/agent_streams.py). Derived by hashing (seed, purpose, seat), not by forking the
    game's seed with a salt: see `derived_seed`."""
    return Chance(derived_seed(seed, AGENT_STREAMS, seat))


@cache
def _params(game_ref: str, params_json: str) -> Any:
    game = resolve_game(game_ref)
    return params_from_dict(game.params_type, json.loads(params_json))


def play_game(arm: Arm, seed: int, record: Sequence[str] | None = None) -> dict[str, Any]:
    """Play one game and describe it as a result row (see `storage` for the columns).

    `record`: the game's action texts, played in order instead of asking the agents (a game
    people played on the web: its row is computed by the very code of `sim`'s, so the
    two can stand side by side; `arm.agents` then only labels the seats, e.g. "person")."""
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
    trace = QualityTrace(game, players) if arm.quality else None
    try:
        state = game.new_state(params, seed)
        agents = [make_agent(game, spec) for spec in arm.agents] if record is None else []
        limit = arm.max_steps if record is None else min(arm.max_steps, len(record))
        probe = _load(arm.probe)() if arm.probe else None
        actions: list[str] | None = row.setdefault("actions", []) if arm.keep_records else None
        rngs = [agent_rng(seed, s) for s in range(players)]
        length = 0
        while not state.is_terminal and length < limit:
            seat = state.current_player
            width = len(state.legal_actions())
            branching_sum += width
            branching_max = max(branching_max, width)
            if trace is not None:
                trace.step(state)
            action = (agents[seat].choose(state, rngs[seat]) if record is None
                      else state.parse_action(record[length]))
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
    row.update(trace.result(row["completed"], row["win"], row["winners"])
               if trace is not None and row["error"] is None else quality_empty())
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


def winners_of(returns: list[float]) -> list[int]:
    """The winning seats of a finished game from its returns alone (`_outcome`'s rule; a
    solitaire game won at a return of 1), for results stored without a replay."""
    return list(_outcome(True, returns, {})["winners"])


@cache
def _load(ref: str) -> Any:
    module_name, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def play_batch(batch: Sequence[tuple[Arm, int]]) -> list[dict[str, Any]]:
    return [play_game(arm, seed) for arm, seed in batch]


Work = tuple[int, list[tuple[Arm, int]], ChunkSpec | None]
"""A numbered batch, and how to encode it (None: hand back the rows)."""


def play_work(work: Work, keep: bool = False) -> tuple[int, Any, float]:
    """Play a batch: (its number, its rows or its Chunk, the seconds it took to play)."""
    index, batch, spec = work
    start = time.perf_counter()
    rows = play_batch(batch)
    seconds = time.perf_counter() - start
    if spec is None:
        return index, rows, seconds
    return index, encode(rows, spec, seconds, keep), seconds


# -- execution -------------------------------------------------------------------------------------
class Interrupted(Exception):  # noqa: N818 - it is a control-flow signal, not an error
    """The run was stopped; `rows` holds every game that had finished."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(f"interrupted after {len(rows)} games")
        self.rows = rows


@contextmanager
def stop_signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM for the block; one that came meanwhile is raised after it as
    KeyboardInterrupt. (Blocking them with pthread_sigmask would not do in a process with other
    threads: one of them would take the signal, and Python runs the handler here anyway.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: caught.append(signum)) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if caught:
        raise KeyboardInterrupt


def batch_size_for(total: int, workers: int) -> int:
    """Games of the first batch: enough batches to keep every worker busy to the end, at most 32."""
    return max(1, min(32, math.ceil(total / (max(1, workers) * 8))))


BATCH_SECONDS = 0.25
"""Playing time a batch aims at once the games' speed is known: long enough that handing a batch
over (a few milliseconds) is noise, short enough for a lively progress bar and a balanced end."""

MAX_BATCH = 4096


class Batcher:
    """Numbered batches cut from the tasks as they are needed (never a whole task list), of
    `fixed` games each, or adaptive: `batch_size_for` games at first, then about
    `BATCH_SECONDS` of play as measured (`played`), never more than an eighth of each worker's
    share of what is left (`total` is the number of tasks, an estimate for a generator)."""

    def __init__(self, tasks: Iterable[tuple[Arm, int]], total: int, workers: int,
                 fixed: int | None, spec: ChunkSpec | None) -> None:
        self.source = iter(tasks)
        self.left = total
        self.workers = max(1, workers)
        self.fixed = fixed
        self.spec = spec
        self.size = fixed or batch_size_for(total, workers)
        self.index = 0
        self.games = 0
        self.seconds = 0.0

    def played(self, games: int, seconds: float) -> None:
        """A batch of `games` took `seconds` to play: size the next ones by it."""
        self.games += games
        self.seconds += seconds
        if self.fixed or not self.games or self.seconds <= 0:
            return
        per_game = self.seconds / self.games
        share = math.ceil(max(self.left, 0) / (self.workers * 8))
        self.size = max(1, min(MAX_BATCH, round(BATCH_SECONDS / per_game), max(share, 32)))

    def __iter__(self) -> Iterator[Work]:
        return self

    def __next__(self) -> Work:
        batch = list(itertools.islice(self.source, self.size))
        if not batch:
            raise StopIteration
        self.left -= len(batch)
        work = (self.index, batch, self.spec)
        self.index += 1
        return work


def _run_local(batches: Batcher, workers: int, keep: bool) -> Iterator[tuple[int, Any, float]]:
    if workers <= 1:
        for work in batches:
            yield play_work(work, keep)
        return
    yield from run_in_processes(play_work, batches, workers)


@dataclass
class RunOptions:
    workers: int = 1
    backend: str = "local"
    address: str | None = None
    batch_size: int | None = None
    """Games per batch; None: adaptive (`Batcher`)."""
    on_rows: Callable[[list[dict[str, Any]]], None] | None = field(default=None, repr=False)
    on_chunk: Callable[[Chunk], None] | None = field(default=None, repr=False)
    """Take each batch as a Chunk the worker encoded (`sim`: the parent stays light)."""
    chunk_spec: ChunkSpec = field(default_factory=ChunkSpec)

    def check(self) -> None:
        """Raise BadParameter now, before any progress is shown, if these options cannot run."""
        if self.backend not in ("local", "ray"):
            raise BadParameter(f"unknown backend '{self.backend}' (known: local, ray)")
        if self.workers < 1:
            raise BadParameter("--workers must be at least 1")
        if self.backend == "local" and self.workers > max_workers():
            raise BadParameter(
                f"--workers {self.workers}: this machine has {usable_cpus()} CPUs, so at most "
                f"{max_workers()} local worker processes (for more, a Ray cluster: --backend ray)")
        if self.backend == "ray":
            from playtable.lab.runner_ray import import_ray

            import_ray()


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
    run; `total` (the number of tasks, when `tasks` has no length) sets the batch sizes.

    With `on_chunk`, each batch is handed over as a `Chunk` encoded by the worker (see
    `chunks.py`) instead of rows, and nothing is kept (`keep_rows` is ignored)."""
    options = options or RunOptions()
    options.check()
    if total is None:
        total = len(tasks) if isinstance(tasks, Sized) else 32 * 8 * max(1, options.workers)
    chunked = options.on_chunk is not None
    spec = options.chunk_spec if chunked else None
    batches = Batcher(tasks, total, options.workers, options.batch_size, spec)
    local = options.backend != "ray"
    if local:
        source = _run_local(batches, options.workers, keep=options.workers <= 1)
    else:
        from playtable.lab.runner_ray import run_ray

        source = run_ray(batches, options.workers, options.address, play_work)
    finished: dict[int, Any] = {}
    rows: list[dict[str, Any]] = []
    next_index = 0

    def hand_over(result: Any) -> None:
        # Ctrl-C and SIGTERM wait until a batch is wholly handed over (kept, written to the
        # result file and its journal): an interrupt half-way used to lose the batch from the
        # file while counting it as written.
        with stop_signals_held():
            if chunked:
                assert options.on_chunk is not None
                options.on_chunk(result)
                return
            if keep_rows:
                rows.extend(result)
            if options.on_rows is not None:
                options.on_rows(result)

    try:
        for index, result, seconds in source:
            batches.played(result.count if chunked else len(result), seconds)
            finished[index] = result
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
