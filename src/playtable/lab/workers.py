"""The lab's local worker processes: each plays the items it is handed, one at a time, and sends
each result back through its own pipe; the parent waits on the pipes in its own thread.

Why not `multiprocessing.Pool`: every result went from the pool's result thread through a queue
to the main thread, and every task through its task thread. Those hand-offs (thread switches,
lock waits) cost the parent more CPU than handing over the results themselves, CPU the two
workers of a two-core machine then missed (`benchmarks/sim_scaling.py` measured it). Here the
parent has no helper thread: it sends, waits (`multiprocessing.connection.wait`) and receives.

Workers are forked from a `forkserver` (`spawn` where there is none): a clean process, started
once, that has imported what every worker needs (`PRELOAD`: the runner, Arrow), so a worker
starts with its imports done instead of paying them again (the second worker's start-up fell
from +0.12-0.21 s to +0.06 s of wall time: docs/lab.md, `playtable sim`). `start_early` starts
that server at once, so that its imports overlap the caller's own. No worker is a fork of the
caller: the caller may have threads (Arrow's, a notebook's) whose locks a fork would copy held.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import forkserver
from multiprocessing.connection import Connection, wait
from typing import Any, cast

STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
PRELOAD = ("playtable.lab.runner", "playtable.lab.columns")
"""What a lab worker imports before any work: `play_work` and the Arrow encoding of a batch."""
JOIN_SECONDS = 5.0
"""How long a worker that was asked to stop may take before it is terminated."""
WORKERS_PER_CPU = 4
"""Local workers beyond the CPUs only share them (the games are CPU-bound); a few per CPU is
allowed (a game that waits on something, a machine whose CPU count is under-reported), more is
a typing mistake (`--workers 100000` forked processes one by one and never played)."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def max_workers() -> int:
    """The most local worker processes a run may start: WORKERS_PER_CPU a CPU, at least 8."""
    return max(8, WORKERS_PER_CPU * usable_cpus())


@dataclass
class _Failure:
    """An exception a worker raised, sent back for the parent to raise."""

    error: BaseException


PARENT_GONE = (EOFError, BrokenPipeError, ConnectionResetError)
"""What a worker's pipe raises once the parent is gone (killed with -9, say): the worker then
ends quietly, its games lost with the parent (the parent's journal kept the finished ones)."""


def _serve(conn: Connection, work: Callable[[Any], Any]) -> None:
    """A worker's life: leave Ctrl-C to the parent, take back the signals the parent held while
    it started the workers (the mask is inherited, and `terminate` must still stop them), then
    play each item received until None or the parent's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    try:
        _play_items(conn, work)
    except PARENT_GONE:
        return


def _play_items(conn: Connection, work: Callable[[Any], Any]) -> None:
    while True:
        item = conn.recv()
        if item is None:
            return
        try:
            result = work(item)
        except Exception as err:  # the parent raises it, as the pool did
            try:
                conn.send(_Failure(err))
            except (pickle.PicklingError, TypeError, AttributeError):
                conn.send(_Failure(RuntimeError(traceback.format_exc())))
            continue
        conn.send(result)


def _context() -> Any:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    return context


def start_early() -> None:
    """Start the server workers are forked from now (it imports `PRELOAD` meanwhile); a no-op
    where there is none, or once it runs."""
    if _context().get_start_method() == "forkserver":
        forkserver.ensure_running()


def run_in_processes(work: Callable[[Any], Any], items: Iterator[Any], workers: int,
                     window: int = 2) -> Iterator[Any]:
    """`work(item)` for every item, in `workers` processes, results as they finish (not in
    order). Each worker holds at most `window` items: one it plays and one waiting, so it never
    idles while the parent takes a result in, and the items are read as they are needed."""
    ctx = _context()
    processes: list[Any] = []
    pipes: list[Connection] = []
    # Hold Ctrl-C while the workers start: an interrupt half-way would leave workers running
    # that nobody stops (and that keep the parent's output pipes open). It comes right after.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        for _ in range(workers):
            mine, theirs = ctx.Pipe()
            process = ctx.Process(target=_serve, args=(theirs, work), daemon=True)
            process.start()
            theirs.close()
            processes.append(process)
            pipes.append(mine)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    try:
        yield from _exchange(pipes, processes, items, window)
        for pipe in pipes:
            pipe.send(None)
        for process in processes:
            process.join(JOIN_SECONDS)
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join()
        for pipe in pipes:
            pipe.close()


def _exchange(pipes: list[Connection], processes: list[Any], items: Iterator[Any],
              window: int) -> Iterator[Any]:
    held = dict.fromkeys(pipes, 0)
    left = True

    def feed(pipe: Connection) -> None:
        nonlocal left
        while left and held[pipe] < window:
            item = next(items, None)
            if item is None:
                left = False
                return
            pipe.send(item)
            held[pipe] += 1

    for pipe in pipes:
        feed(pipe)
    while any(held.values()):
        for ready in wait([p for p in pipes if held[p]]):
            pipe = cast(Connection, ready)
            try:
                result = pipe.recv()
            except EOFError:
                dead = processes[pipes.index(pipe)]
                dead.join(JOIN_SECONDS)  # its pipe closes as it exits: wait for the exit code
                code = dead.exitcode
                raise RuntimeError(f"a worker process died (exit code {code})") from None
            held[pipe] -= 1
            if isinstance(result, _Failure):
                raise result.error
            feed(pipe)  # before the result is handed on: the worker plays meanwhile
            yield result
