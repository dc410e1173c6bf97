"""The server's collector settings (transport/collector.py): young collections by the clock,
so what replaces older objects cannot pile up in the young generation however the
allocation count stands; cycles that outlived a young collection are still freed by the
scheduled full one; the probe (PLAYTABLE_GC_PROBE, off by default) records every collection."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import weakref
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pytest

from playtable.web.server.transport import collector


@pytest.fixture(autouse=True)
def _restored_collector() -> Iterator[None]:
    """`settle` changes the whole interpreter's collector: put it back after each test."""
    thresholds, callbacks = gc.get_threshold(), list(gc.callbacks)
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        gc.callbacks[:] = callbacks


class Cell:
    """An object the collector tracks, as a game state's parts are."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.me: Cell | None = None


async def _young_after_churn(rounds: int, per_round: int) -> int:
    """Replace frozen old objects by new ones (allocations matched by deallocations: the
    count that starts CPython's own young collections hardly moves, as when a table's next
    state replaces its last), then the young generation's size once the schedule ran."""
    kept = deque(Cell(k) for k in range(rounds * per_round))
    schedule, _probe = collector.settle()
    try:
        for _ in range(rounds):
            for k in range(per_round):
                kept.append(Cell(k))
                kept.popleft()
            await asyncio.sleep(0.01)
        young = len(gc.get_objects(0))
        for _ in range(100):  # bounded: the schedule's tick comes every YOUNG_SECONDS
            await asyncio.sleep(0.02)
            young = len(gc.get_objects(0))
            if young < per_round:
                break
        return young
    finally:
        schedule.stop()


def test_objects_that_replace_older_ones_do_not_pile_up_in_the_young_generation() -> None:
    young = asyncio.run(_young_after_churn(rounds=20, per_round=1000))
    assert young < 1000, f"{young:,} objects still young: 20,000 new ones replaced frozen ones"


async def _cycle_freed_after_a_young_collection() -> bool:
    schedule, _probe = collector.settle()
    try:
        cell = Cell(1)
        cell.me = cell  # a cycle: reference counting alone never frees it
        alive = weakref.ref(cell)
        for _ in range(100):  # until a young collection has moved it on (bounded)
            await asyncio.sleep(0.02)
            if not any(o is cell for o in gc.get_objects(0)):
                break
        del cell
        for _ in range(200):  # bounded: FULL_SECONDS is short here
            await asyncio.sleep(0.02)
            if alive() is None:
                return True
        return False
    finally:
        schedule.stop()


def test_a_cycle_that_outlived_a_young_collection_is_freed_by_the_full_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector, "FULL_SECONDS", 0.5)
    assert asyncio.run(_cycle_freed_after_a_young_collection())


def test_the_probe_records_each_collection_and_counts_on_request(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(collector.PROBE_ENV, str(tmp_path))

    async def probed() -> collector.Probe:
        schedule, probe = collector.settle()
        schedule.stop()
        assert probe is not None
        gc.collect(0)
        gc.collect()
        return probe

    probe = asyncio.run(probed())
    try:
        probe.write()
        found = json.loads((tmp_path / f"{os.getpid()}.json").read_text())
        assert [generation for _at, generation, *_ in found["pauses"]][-2:] == [0, 2]
        assert found["census"] is None  # nothing counted until asked
        (tmp_path / "census").touch()
        probe.write()
        census = json.loads((tmp_path / f"{found['pid']}.json").read_text())["census"]
        assert census["frozen"] > 0
        assert set(census) == {"generation 0", "generation 1", "generation 2", "frozen"}
    finally:
        probe.stop()


def test_no_probe_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(collector.PROBE_ENV, raising=False)

    async def settled() -> collector.Probe | None:
        schedule, probe = collector.settle()
        schedule.stop()
        return probe

    assert asyncio.run(settled()) is None
