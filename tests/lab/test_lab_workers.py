"""The lab's worker processes (`lab/workers.py`): every item's result comes back, a worker's
exception is raised in the parent, a worker that dies is reported, and the items are read only
as the workers need them. The work functions are the standard library's, which a spawned
worker imports by name."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator

import pytest

from playtable.lab.workers import run_in_processes


def test_every_item_is_worked_once() -> None:
    results = list(run_in_processes(math.isqrt, iter(range(50)), workers=2))
    assert sorted(results) == [math.isqrt(n) for n in range(50)]


def test_a_workers_exception_is_raised_in_the_parent() -> None:
    with pytest.raises(ValueError, match="math domain error"):
        list(run_in_processes(math.sqrt, iter([4.0, -1.0, 9.0]), workers=2))


def test_a_worker_that_dies_is_reported() -> None:
    with pytest.raises(RuntimeError, match=r"a worker process died \(exit code 3\)"):
        list(run_in_processes(os._exit, iter([3]), workers=1))


def test_items_are_read_as_the_workers_need_them() -> None:
    read: list[int] = []

    def items() -> Iterator[int]:
        for n in range(1000):
            read.append(n)
            yield n

    results = run_in_processes(math.isqrt, items(), workers=2, window=2)
    next(results)
    assert len(read) <= 2 * 2 + 1  # each worker's window, and the one sent after the result
    results.close()
