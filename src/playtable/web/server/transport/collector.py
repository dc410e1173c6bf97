"""The table server's settings for Python's cyclic garbage collector.

CPython frees almost everything by reference counting; the cyclic collector is for objects in
reference cycles. Left to itself it runs by allocation counts: with the defaults (700, 10, 10) a
server at 1,000 tables ran a young collection about every 20 actions and a full one every few
seconds, and a full one scans every tracked object of every table in play, 110-210 ms during
which no table moves (`benchmarks/web_processes.py --probe`; docs/web.md, "Measured").

The count that starts a young collection is allocations minus deallocations, and under a load
held for minutes it does not bound the young generation: an action replaces a table's state (a
game's state is 20-30 tracked objects) and frees the one before, so the count hardly moves
while every new state waits in the young generation; the tables that end free old objects too.
With 50,000 as the young threshold, after two minutes at 1,000 tables on one process the young
generation held 460,000 objects and a young collection took 400-560 ms (docs/web.md,
"Sustained load"). No threshold fixes that: at 500 the young generation still reached 70,000
objects at times, a collection of up to 38 ms of CPU (the churn of 1,000 tables through a hub,
counted by temporary instrumentation, 6 Dec).

So, once the server has started (modules imported, tables restored), `settle`:
- freezes what exists then (`gc.freeze`): it lives as long as the server (modules, classes, the
  restored tables while they are played), so no later collection scans it again. A cycle among
  those objects that becomes garbage is never freed; that is at most the tables restored at
  start, which the server held anyway;
- collects by the clock instead of by the count (`Schedule`): the young generation every
  `YOUNG_SECONDS`, so it holds only what a tenth of a second made and kept (about 13,000
  objects at 1,000 tables, 5-20 ms of CPU: `benchmarks/collector_schedule.py`), and a full
  collection every `FULL_SECONDS`. What survives a young collection (mostly the tables'
  current states, which the next action frees by reference counting) waits in the middle
  generation, which only the full collection scans: scanning it every third tick too was
  measured and costs twice the collector's CPU for middle pauses of 41-58 ms (docs/web.md
  "Sustained load"). The price of the schedule is CPU: everything that outlives a tick is
  scanned once, 28-55 us an action at 1,000 tables against 2-3 us by the count. A cycle that became
  garbage after surviving one young collection is freed within `FULL_SECONDS`. The count's own
  young collections stay as a backstop (a burst of allocations between two ticks) at 50,000
  net new objects, and never start a middle or full one (their thresholds are out of reach);
- a table's log is kept as plain tuples (`tables.log_entry`), which the collector stops
  tracking at the first collection that sees them, so a long game adds nothing the old
  generation holds but its state.

`PLAYTABLE_GC_PROBE=DIR` (off by default; `benchmarks/web_hold.py` sets it) records every
collection's generation and pause (`Probe`).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

THRESHOLDS = (50_000, 1_000_000_000, 1_000_000_000)
"""`gc.set_threshold`: the count's own young collections at 50,000 net allocations (a backstop:
the schedule collects first); the middle and the old generation only by the schedule."""

YOUNG_SECONDS = 0.1
"""The young generation is collected this often (the event loop's own timer)."""
FULL_SECONDS = 120.0
"""A full collection this often: every object made since the start that outlived a young
collection (at 1,000 tables 80,000-200,000, 130-430 ms of CPU), and the cycles among them."""

PROBE_ENV = "PLAYTABLE_GC_PROBE"
"""A folder: record every collection of this process there (`Probe`); unset, nothing is."""


class Schedule:
    """The collections by the clock (see the module's text), run on the server's event loop,
    between two handlers, never inside one."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.last_full = time.monotonic()
        self.handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self.handle = self.loop.call_later(YOUNG_SECONDS, self.tick)

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def tick(self) -> None:
        now = time.monotonic()
        if now - self.last_full >= FULL_SECONDS:
            self.last_full = now
            gc.collect()
        else:
            gc.collect(0)
        self.start()


class Probe:
    """Every collection of this process, from `gc.callbacks`: when it ended (wall clock), its
    generation and how long it held the process (wall and CPU seconds). A thread writes them
    to DIR/PID.json every second; when DIR/census exists it also writes the objects the
    collector tracks, by generation, and those frozen (counted then, not during a level: a
    count walks every object)."""

    KEEP = 200_000

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pauses: list[tuple[float, int, float, float]] = []
        self.census: dict[str, int] | None = None
        self._began = self._began_cpu = 0.0
        self._lock = threading.Lock()
        self._stopped = threading.Event()

    def record(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
            return
        took, cpu = time.perf_counter() - self._began, time.thread_time() - self._began_cpu
        with self._lock:
            self.pauses.append((time.time(), info["generation"], took, cpu))
            del self.pauses[:-self.KEEP]

    def write(self) -> None:
        if self.census is None and (self.folder / "census").exists():
            self.census = {f"generation {g}": len(gc.get_objects(g)) for g in range(3)}
            self.census["frozen"] = gc.get_freeze_count()
        with self._lock:
            found: dict[str, Any] = {"pid": os.getpid(), "pauses": list(self.pauses), "census": self.census}
        path = self.folder / f"{os.getpid()}.json"
        path.with_suffix(".tmp").write_text(json.dumps(found))
        path.with_suffix(".tmp").replace(path)

    def run(self) -> None:
        while not self._stopped.wait(1.0):
            self.write()

    def stop(self) -> None:
        self._stopped.set()
        if self.record in gc.callbacks:
            gc.callbacks.remove(self.record)


def start_probe(folder: str) -> Probe:
    probe = Probe(Path(folder))
    gc.callbacks.append(probe.record)
    threading.Thread(target=probe.run, name="gc probe", daemon=True).start()
    return probe


def settle() -> tuple[Schedule, Probe | None]:
    """Freeze what the started server holds, set the thresholds and start the schedule on the
    running event loop (see the module's text); the probe too, when asked for."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    folder = os.environ.get(PROBE_ENV)
    probe = start_probe(folder) if folder else None
    schedule = Schedule(asyncio.get_running_loop())
    schedule.start()
    return schedule, probe
