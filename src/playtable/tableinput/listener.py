"""The UDP side of table input: a socket feeding a `TuioTable`, recordings, and their replay.

A recording is JSON lines of {"t": seconds, "from": "host:port", "data": base64 datagram};
replaying one feeds the same datagrams with the same quiet-time ticks the live listener gives
(`QuietTicks`: ticks are timed from the newest datagram, never from when a timer woke, so a
live table and the replay of its recording decide the same).
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import socket
import time
from pathlib import Path
from typing import TextIO

from playtable.core.errors import BadParameter
from playtable.core.files import check_new_output
from playtable.core.jsonio import read_text
from playtable.tableinput.samples import resolve
from playtable.tableinput.tracking import TuioTable

log = logging.getLogger("playtable.tableinput")

MAX_RECORDING_BYTES = 256 * 1024 * 1024
"""A recording of a few hours of a busy table (about 65 MB an hour at 60 frames a second)."""

TICK = 0.05
"""Seconds of quiet after which the listener lets time pass for the engine (`tick`)."""


class QuietTicks:
    """The quiet-time ticks of one stream: every TICK after its newest datagram, at times counted
    from that datagram's (one float sum after another), never from when a timer or a socket
    timeout happened to wake. Settling is timed and the formation engine decides on the order
    dice settle in, so ticks at other instants could join dice the live table did not (or the
    other way round); at these instants, a table fed the same datagrams at the same times
    reports the same frames, live or replayed."""

    def __init__(self, table: TuioTable) -> None:
        self.table = table
        self.next: float | None = None
        """When the next tick is due; None before the first datagram (nothing to settle)."""

    def due(self, now: float) -> list[float]:
        """The ticks due before `now`, taken off the schedule (a tick that fails is not
        retried: the table goes on)."""
        times: list[float] = []
        while self.next is not None and self.next < now:
            times.append(self.next)
            self.next += TICK
        return times

    def run(self, now: float) -> None:
        """Let the table tick at every instant due before `now`."""
        for t in self.due(now):
            self.table.tick(t)

    def heard(self, now: float) -> None:
        """A datagram came at `now` (after `run(now)`): the quiet is counted from it."""
        self.next = now + TICK


class TuioListener:
    """A UDP socket on `host:port` (port 0: any free port) feeding a TuioTable; optional
    recording of every datagram (JSON lines: time, sender, base64 data). An existing
    recording file is refused unless `replace` (the command's --force)."""

    def __init__(self, table: TuioTable, host: str = "127.0.0.1", port: int = 3333,
                 record: str | Path | None = None, replace: bool = False) -> None:
        self.table = table
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        with contextlib.suppress(OSError):  # room for bursts (a split frame, a busy moment)
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        try:
            self.sock.bind((host, port))
        except OSError as err:
            self.sock.close()
            raise BadParameter(f"cannot listen on {host}:{port}: {err.strerror}") from None
        self.sock.settimeout(TICK)
        self.address: tuple[str, int] = self.sock.getsockname()
        try:
            self.record_file = open_recording(record, replace) if record else None
        except BadParameter:
            self.sock.close()
            raise
        self.start = time.monotonic()
        self.stopped = False
        self.ticks = QuietTicks(table)

    def serve(self, duration: float | None = None, max_frames: int | None = None) -> None:
        """Receive until `stop()`, `duration` seconds, or `max_frames` committed frames."""
        try:
            while not self.stopped:
                now = time.monotonic() - self.start
                if duration is not None and now >= duration:
                    break
                if max_frames is not None and self.table.stats.frames >= max_frames:
                    break
                try:
                    data, addr = self.sock.recvfrom(65536)
                except TimeoutError:
                    self.ticks.run(self.now())
                    continue
                except OSError:
                    if self.stopped:
                        break
                    raise
                now = self.now()
                sender = f"{addr[0]}:{addr[1]}"
                if self.record_file is not None:
                    self._record(recording_line(now, sender, data))
                self.ticks.run(now)
                self.table.feed(data, sender, now)
                self.ticks.heard(now)
        finally:
            self.close()

    def now(self) -> float:
        """Seconds since the listener started, to the microsecond a recording keeps (a replay
        feeds the very times the table was fed)."""
        return round(time.monotonic() - self.start, 6)

    def _record(self, line: str) -> None:
        """One line of the recording; a full disk (any failed write) ends the recording with a
        notice, never the listener: the table goes on tracking."""
        assert self.record_file is not None
        try:
            self.record_file.write(line)
            self.record_file.flush()
        except OSError as err:
            log.warning("the recording stopped: %s; the table goes on without it",
                        err.strerror or err)
            with contextlib.suppress(OSError):
                self.record_file.close()
            self.record_file = None

    def stop(self) -> None:
        self.stopped = True

    def close(self) -> None:
        self.sock.close()
        if self.record_file is not None:
            with contextlib.suppress(OSError):  # a full disk: what was written stays
                self.record_file.close()
            self.record_file = None


def recording_line(t: float, sender: str, data: bytes) -> str:
    """One datagram as a line of a recording (JSON: seconds, sender, base64 data)."""
    return json.dumps({"t": round(t, 6), "from": sender,
                       "data": base64.b64encode(data).decode("ascii")}) + "\n"


def open_recording(path: str | Path, replace: bool = False) -> TextIO:
    """The recording, a new file created at its name (O_EXCL: never through a symlink planted
    there, never over an existing file). With `replace` (--force) an existing file or symlink
    at the name is removed first, not written through. The recording streams to its own name
    rather than a temporary one, so a live session can be followed and survives a crash."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    check_new_output(path, replace)  # never a device, a FIFO or a directory, even with --force
    try:
        if replace:
            Path(path).unlink(missing_ok=True)
        return os.fdopen(os.open(path, flags, 0o644), "w", encoding="utf-8")
    except FileExistsError:
        raise BadParameter(f"{path} exists; pass --force to replace it") from None
    except OSError as err:
        raise BadParameter(f"cannot write the recording {path}: {err.strerror or err}") from None


def read_recording(path: str | Path) -> list[tuple[float, str, bytes | None]]:
    """A recorded session as (t, sender, datagram) in file order; a broken line is kept as
    (t of the line before, "", None) so a replay counts it as a malformed packet. `sample`
    names the shipped recording (samples.py). A file too large or unreadable: BadParameter."""
    path = resolve(str(path), "session")
    # the size is checked before the file is read: a huge file is refused, not loaded
    with contextlib.suppress(OSError):  # a missing file: read_text names it
        if Path(path).stat().st_size > MAX_RECORDING_BYTES:
            raise BadParameter(f"recording {path} is larger than {MAX_RECORDING_BYTES // 2**20} MB")
    lines = read_text(path, "recording", max_bytes=MAX_RECORDING_BYTES, error=BadParameter).splitlines()
    out: list[tuple[float, str, bytes | None]] = []
    for line in lines:
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            t = float(item["t"])
            data = base64.b64decode(item["data"], validate=True)
            sender = str(item.get("from", "replay"))
        except (ValueError, KeyError, TypeError):
            out.append((out[-1][0] if out else 0.0, "", None))
            continue
        out.append((t, sender, data))
    return out


def load_recording(path: str | Path) -> list[tuple[float, str, bytes | None]]:
    """`read_recording`, refusing (one BadParameter) a file with no datagram in it at all."""
    items = read_recording(path)
    if not any(data is not None for _, _, data in items):
        raise BadParameter(f"{path} is not a TUIO recording: no line holds a datagram "
                           '(expected JSON lines {"t", "from", "data"})')
    return items


def replay_recording(table: TuioTable, path: str | Path, realtime: bool = False, quiet: float = 1.0) -> int:
    """Feed a recorded session into `table`; returns the number of datagrams. Broken lines are
    counted as malformed packets. `sample` names the shipped recording (samples.py). After the
    last datagram, `quiet` seconds pass without a packet (dice settle, lost ones expire); 0 when
    more datagrams follow, whose times would otherwise run backwards."""
    count = 0
    started = time.monotonic()
    ticks = QuietTicks(table)
    last_t: float | None = None
    for t, sender, data in read_recording(path):
        if data is None:
            table.stats.packets += 1
            table.stats.malformed += 1
            continue
        if realtime:
            delay = t - (time.monotonic() - started)
            if delay > 0:
                time.sleep(delay)
        ticks.run(t)  # the quiet time between packets, as the live listener sees it
        table.feed(data, sender, t)
        ticks.heard(t)
        last_t = t
        count += 1
    if last_t is not None and quiet > 0:
        ticks.run(last_t + quiet)
        table.tick(last_t + quiet)
    return count
