"""Where the table server's CPU goes: run `playtable serve` under cProfile (switched on by
SIGUSR1, off by SIGUSR2) and print its event loop thread's CPU time per action, grouped by
layer and by the server's own steps.

`benchmarks/web_load.py --profile DIR` starts its server through this file; by hand:

    .venv/bin/python benchmarks/server_profile.py OUT.prof -m playtable serve --port 8001 ...
    # kill -USR1 PID; ... load it ...; kill -USR2 PID; kill -TERM PID (the profile is written)
    .venv/bin/python benchmarks/server_profile.py --show OUT.prof --actions 12345

The timer is the event loop thread's CPU time, so a busy machine's preemptions and the loop's
idle waits are not counted (a wall-time profile on this shared machine was mostly time spent
preempted, charged to whatever function was running). The SQLite
checkpoint thread and the worker processes are not in it. cProfile's own overhead inflates code
of many small calls, so read the shares, not the absolute microseconds.
"""

from __future__ import annotations

import cProfile
import pstats
import runpy
import signal
import sys
import time
from typing import Any

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # (layer, substrings of the file name, or of the built-in's name, that belong to it)
    ("JSON (encode/decode)", ("/json/", "_json.", "method dumps", "method loads")),
    ("SQLite", ("sqlite3",)),
    ("WebSocket protocol (websockets)", ("/websockets/",)),
    ("uvicorn", ("/uvicorn/",)),
    ("Starlette", ("/starlette/",)),
    ("h11 / httpx2 (HTTP)", ("/h11/", "/httpx2/", "/anyio/")),
    ("asyncio and sockets", ("/asyncio/", "selectors.py", "socket.py", "method send", "method recv",
                             "_asyncio.", "select.epoll", "method _run", "sock_")),
    ("games (engine: views, legal actions, apply)", ("/playtable/games/", "/playtable/core/")),
    ("web server (tables, hub, wire)", ("/playtable/web/",)),
)

STEPS: tuple[tuple[str, str], ...] = (
    # (what, a function of the server: its inclusive time)
    ("Table.state_message (the per-seat view)", "tables.py:state_message"),
    ("Table.try_action (the engine plays it)", "tables.py:try_action"),
    ("SqlStore.append_action (the commit)", "store.py:append_action"),
    ("Hub.act (all of an action's handling)", "hub.py:act"),
    ("socket_pump._write (encode + send, the writer task)", "socket_pump.py:_write"),
    ("socket_pump._flush (encode + send, the reader's own answers)", "socket_pump.py:_flush"),
    ("wire.encode (JSON of every message sent)", "wire.py:encode"),
    ("wire.parse_client_message", "wire.py:parse_client_message"),
    ("Hub.rematch (a new deal)", "hub.py:rematch"),
    ("Table.welcome (on connect/rematch)", "tables.py:welcome"),
)


def layer_of(filename: str, name: str) -> str:
    where = f"{filename}:{name}"
    for layer, marks in LAYERS:
        if any(mark in where for mark in marks):
            return layer
    return "other (Python built-ins, stdlib)"


IDLE = "select.epoll' objects>"
"""The event loop waiting for something to do (`epoll.poll`): its CPU is the system call's."""


def layers(stats: pstats.Stats) -> dict[str, float]:
    """Each layer's own (exclusive) seconds, the loop's idle wait left out."""
    out: dict[str, float] = {}
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (filename, _line, name), (_cc, _nc, tottime, _ct, _callers) in raw.items():
        if IDLE in name:
            continue
        layer = layer_of(filename, name)
        out[layer] = out.get(layer, 0.0) + tottime
    return out


def steps(stats: pstats.Stats) -> dict[str, float]:
    """The inclusive CPU seconds of the server's own steps (STEPS)."""
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    out = {what: 0.0 for what, _ in STEPS}
    for (filename, _line, name), (_cc, _nc, _tt, cumtime, _callers) in raw.items():
        for what, mark in STEPS:
            file_mark, function = mark.split(":")
            if filename.endswith("/" + file_mark) and name == function:
                out[what] += cumtime
    return out


def report(path: str, actions: int, top: int = 25) -> str:
    """Markdown tables: CPU per action by layer, by the server's steps, and the top functions."""
    stats = pstats.Stats(path)
    total = sum(layers(stats).values())
    per = 1e6 / max(1, actions)
    lines = [f"profile {path}: {total:.2f} s of the event loop thread's work, {actions:,} actions "
             f"({total * per:.0f} us an action under cProfile)", "",
             "| layer (own time) | us per action | share |", "|---|---:|---:|"]
    for layer, seconds in sorted(layers(stats).items(), key=lambda kv: -kv[1]):
        lines.append(f"| {layer} | {seconds * per:.0f} | {100 * seconds / total:.0f}% |")
    lines += ["", "| step of the server (inclusive) | us per action | share |", "|---|---:|---:|"]
    for what, seconds in steps(stats).items():
        lines.append(f"| {what} | {seconds * per:.0f} | {100 * seconds / total:.0f}% |")
    lines += ["", f"| top {top} functions by own time | calls per action | us per action |",
              "|---|---:|---:|"]
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    ranked = sorted(((k, v) for k, v in raw.items() if IDLE not in k[2]), key=lambda kv: -kv[1][2])[:top]
    for (filename, line, name), (_cc, calls, tottime, _ct, _callers) in ranked:
        short = "/".join(filename.split("/")[-2:])
        lines.append(f"| {short}:{line} {name} | {calls / max(1, actions):.1f} | {tottime * per:.1f} |")
    return "\n".join(lines)


def run(out: str, argv: list[str]) -> None:
    """Run `python -m MODULE ARGS` (argv: ["-m", MODULE, *ARGS]) under cProfile and write the
    profile to `out` however it ends (SIGTERM makes uvicorn return). The profiler runs only
    between a SIGUSR1 and the next SIGUSR2 (web_load.py sends them around a level's play, so
    making the tables and connecting the players are not in it)."""
    if argv[:1] != ["-m"] or len(argv) < 2:
        raise SystemExit("usage: server_profile.py OUT.prof -m MODULE [ARGS...]")
    sys.argv = [argv[1], *argv[2:]]
    # The thread's CPU time: what the thread waits for (epoll, or the machine's other work when
    # it is preempted: this machine is shared) costs nothing. Dearer than wall time (a system
    # call per function call), hence profiled only during a level's play.
    profiler = cProfile.Profile(time.thread_time)
    # uvicorn shuts down on SIGTERM, then raises it again under the handler it found: make that
    # one an exit that unwinds (the default would kill the process before the profile is written).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    signal.signal(signal.SIGUSR1, lambda signum, frame: profiler.enable())
    signal.signal(signal.SIGUSR2, lambda signum, frame: profiler.disable())
    try:
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    finally:
        profiler.disable()
        profiler.dump_stats(out)


def main() -> None:
    if sys.argv[1:2] == ["--show"]:
        path = sys.argv[2]
        actions = int(sys.argv[sys.argv.index("--actions") + 1]) if "--actions" in sys.argv else 1
        print(report(path, actions))
        return
    run(sys.argv[1], sys.argv[2:])


if __name__ == "__main__":
    main()
