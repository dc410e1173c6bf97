"""Loaded by every Python process started with this folder on PYTHONPATH (Python imports a
`sitecustomize` module at start-up): records each garbage collection that held the process for
a millisecond or more (when it ended, wall clock; its generation; how long; the unreachable
objects it found, `collected`; the CPU time it took, which excludes time the process waited for a
core), and writes them to
$PLAYTABLE_STALL_PROBE/PID.json after each such collection (a server process stopped at the end
of a level may never run `atexit`).

`benchmarks/web_processes.py --probe` starts the server with it and prints the table processes'
pauses during each level. Nothing is recorded unless PLAYTABLE_STALL_PROBE names a
folder."""

from __future__ import annotations

import gc
import json
import os
import sys
import time

_FOLDER = os.environ.get("PLAYTABLE_STALL_PROBE")
_KEEP = 10_000
_began = _began_cpu = 0.0
_pauses: list[tuple[float, int, float, int, float]] = []  # (ended at, generation, seconds, collected, CPU s)


def _timed(phase: str, info: dict[str, int]) -> None:
    global _began, _began_cpu
    if phase == "start":
        _began, _began_cpu = time.perf_counter(), time.thread_time()
        return
    took = time.perf_counter() - _began
    if took < 1e-3 or _FOLDER is None:
        return
    cpu = time.thread_time() - _began_cpu
    _pauses.append((time.time(), info["generation"], took, info["collected"], cpu))
    del _pauses[:-_KEEP]
    path = os.path.join(_FOLDER, f"{os.getpid()}.json")
    with open(path + ".tmp", "w") as out:
        json.dump({"argv": sys.argv[:3], "pauses": _pauses}, out)
    os.replace(path + ".tmp", path)


if _FOLDER:
    gc.callbacks.append(_timed)
