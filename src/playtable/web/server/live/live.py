"""Live tables: a real multitouch table's TUIO stream, drawn by the Star Dice
live page (`static/live.html`) as the seed's table software drew it.

A `LiveTable` owns a `TuioTable` (tableinput) fed by an asyncio UDP endpoint and/or a replayed
recording, both on the event loop (datagrams are parsed as they come; nothing here blocks: the
only file reads run in a thread). Every report the TuioTable makes (a committed TUIO frame, a
quiet-time tick that settled a die, a value entered) goes to every page of the table as one
`{"type": "frame", "seq", "report"}` message; each connection keeps at most `FRAMES_KEPT` frames
waiting, dropping the oldest (a frame is the whole table, so a slow page skips to the newest and
never builds a backlog). Fouls and the Borg die leaving (`tableinput.fouls`) go out as ordered
`live_event` messages, never dropped. Pages may enter a die's value (checked completely; a bad
one gets one error and changes nothing) and start or stop a recording, which the server writes
under its own recordings directory (never a path a client chose), created O_EXCL.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from playtable.core.errors import BadParameter
from playtable.games.stardice import DieSpec, LiveMatch, StarDiceParams
from playtable.tableinput.fouls import FoulWatch
from playtable.tableinput.listener import (
    MAX_RECORDING_BYTES,
    TICK,
    QuietTicks,
    load_recording,
    open_recording,
    recording_line,
)
from playtable.tableinput.samples import sample_file
from playtable.tableinput.tracking import TuioTable
from playtable.tableinput.tuio import SILENT_SECONDS
from playtable.web.server.live.operator import new_token
from playtable.web.server.store.database import StoreError
from playtable.web.server.store.live_places import LivePlaces
from playtable.web.server.tables.tables import Connection

log = logging.getLogger("playtable.web")
FRAMES_KEPT = 32
"""Frames a connection may have waiting; older ones are dropped (each frame is the whole table)."""
EVENTS_KEPT = 50
"""Foul and Borg announcements a table keeps for pages that join later."""
MAX_LIVE_TABLES = 8
"""Live tables one server runs (each may hold a UDP port)."""
MAX_RECORDINGS = 500
"""Recordings the server's directory may hold before pages may record no more."""
RECORDINGS_PER_TABLE = 20
"""Recordings one live table may make in its life."""
RECORDING_BYTES_PER_TABLE = 512 * 1024 * 1024
"""Bytes one live table's recordings may take together (each at most MAX_RECORDING_BYTES)."""
LIVE_IDLE_SECONDS = 30 * 60.0
"""A live table started through the API closes after this long with no page open and no
datagram (tables the command line started stay until the server stops)."""
RECORDING_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.jsonl$")


class LiveConnection(Connection):
    """A page of a live table: ordered messages, then up to FRAMES_KEPT newest frames."""

    def __init__(self) -> None:
        super().__init__(None)
        self.frames: deque[dict[str, Any]] = deque(maxlen=FRAMES_KEPT)
        self.controls = False
        """Whether this page presented the table's control token (or the operator's)."""

    def push_frame(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        self.wake.set()

    async def next_messages(self) -> list[dict[str, Any]]:
        while not (self.outbox or self.frames or self.closed):
            self.wake.clear()
            await self.wake.wait()
        out = list(self.outbox) + list(self.frames)
        self.outbox.clear()
        self.frames.clear()
        return out


@dataclass(frozen=True)
class LiveSpec:
    """What a live table listens to: a UDP port (None: none) and/or a recording to replay."""

    dice: Mapping[int, DieSpec]
    params: StarDiceParams = StarDiceParams()
    tuio_host: str = "127.0.0.1"
    tuio_port: int | None = 3333
    replay: str | None = None
    record: str | None = None
    """The whole stream recorded to this file from the start (the CLI's --record)."""
    force: bool = False
    grace: float = 0.25
    profiles: tuple[str, ...] = ("2Dobj", "2Dblb")
    control: str | None = None
    """The table's control token (None: a new random one); the command line prints it."""
    expires: bool = True
    """Whether the table closes after LIVE_IDLE_SECONDS idle (the command line's do not)."""
    silent_after: float | None = SILENT_SECONDS
    """Seconds after which a silent TUIO source's dice leave the table (None: never)."""


class _Udp(asyncio.DatagramProtocol):
    def __init__(self, table: LiveTable) -> None:
        self.table = table

    def datagram_received(self, data: bytes, addr: tuple[str | Any, int]) -> None:
        self.table.datagram(data, f"{addr[0]}:{addr[1]}")


class LiveTable:
    def __init__(self, table_id: str, spec: LiveSpec, record_dir: Path | None) -> None:
        self.id = table_id
        self.spec = spec
        self.control = spec.control or new_token()
        self.record_dir = record_dir
        p = spec.params
        self.tuio = TuioTable(spec.dice, p.formation_params(), p.scoring_rules(), spec.profiles,
                              grace=spec.grace, borg_faces=p.borg_faces, borg_pips=p.borg_pips,
                              on_frame=self._on_frame, silent_after=spec.silent_after)
        self.watch = FoulWatch()
        self.match: LiveMatch | None = None
        self.match_note = ""
        try:
            self.match = LiveMatch(p, self.tuio.live)
        except BadParameter as err:  # a variant the real table cannot referee: shapes only
            self.match_note = str(err)
        self.match_sent: dict[str, Any] | None = None
        self.connections: set[LiveConnection] = set()
        self.events: deque[dict[str, Any]] = deque(maxlen=EVENTS_KEPT)
        self.seq = 0
        self.started = time.monotonic()
        self.last_datagram = -1.0
        self.ticks = QuietTicks(self.tuio)
        self.transport: asyncio.DatagramTransport | None = None
        self.address: tuple[str, int] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.recording: TextIO | None = None
        self.recording_name: str | None = None
        self.recording_started = 0.0
        self.recording_bytes = 0
        self.recording_count = 0
        self.recordings_made = 0
        self.recorded_bytes = 0
        """Bytes of all this table's recordings (RECORDING_BYTES_PER_TABLE)."""
        self.last_page = 0.0
        """When a page last connected or left (`now`), for the idle time."""
        self.whole: TextIO | None = None  # the CLI's --record of the whole stream
        self.replay_state = "none" if spec.replay is None else "waiting"
        self.first_page = asyncio.Event()
        """A replay starts when the first page connects, so that page sees it from the start."""

    def now(self) -> float:
        """Seconds since the table started, to the microsecond its reports and recordings keep
        (an engine fed a recording offline is fed the very times this one was)."""
        return round(time.monotonic() - self.started, 6)

    # -- input ---------------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the UDP port (BadParameter if it cannot), the --record file, start ticking and
        the replay."""
        loop = asyncio.get_running_loop()
        items = None  # the replay is read (in a thread) before anything is opened
        if self.spec.replay is not None:
            items = await asyncio.to_thread(load_recording, self.spec.replay)
        if self.spec.record:
            self.whole = open_recording(self.spec.record, self.spec.force)
        if self.spec.tuio_port is not None:
            try:
                transport, _ = await loop.create_datagram_endpoint(
                    lambda: _Udp(self), local_addr=(self.spec.tuio_host, self.spec.tuio_port))
            except OSError as err:
                self._close_files()
                raise BadParameter(f"cannot listen for TUIO on {self.spec.tuio_host}:"
                                   f"{self.spec.tuio_port}: {err.strerror or err}") from None
            self.transport = transport
            self.address = transport.get_extra_info("sockname")[:2]
        self._spawn(self._tick())
        if items is not None:
            self._spawn(self._replay(items))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def datagram(self, data: bytes, sender: str) -> None:
        now = self.now()
        self.last_datagram = now
        if self.whole is not None:
            try:
                self.whole.write(recording_line(now, sender, data))
            except OSError as err:
                self._whole_failed(err)
        if self.recording is not None:
            self._record(recording_line(now - self.recording_started, sender, data))
        self._run_ticks(now)  # those the ticking task had not reached: they came first
        try:
            self.tuio.feed(data, sender, now)
        except Exception:  # noqa: BLE001 - one bad datagram never stops the table
            log.exception("live table %s: a datagram could not be handled", self.id)
        self.ticks.heard(now)

    def _record(self, line: str) -> None:
        """One line of the page's recording, which stops at its limits or a failed write."""
        assert self.recording is not None
        try:
            self.recording.write(line)
        except OSError as err:
            self._recording_failed(err)
            return
        self.recording_bytes += len(line)
        self.recorded_bytes += len(line)
        self.recording_count += 1
        if self.recording_bytes > MAX_RECORDING_BYTES:
            self.stop_recording("the recording reached its size limit")
        elif self.recorded_bytes > RECORDING_BYTES_PER_TABLE:
            self.stop_recording("this table's recordings reached their size limit")

    def _recording_failed(self, err: OSError) -> None:
        """A full disk (or any failed write) stops the page's recording, never the table."""
        log.warning("live table %s: the recording %s stopped: %s", self.id, self.recording_name,
                    err.strerror or err)
        self.stop_recording(f"the recording stopped: {err.strerror or err}; the table goes on")

    def _whole_failed(self, err: OSError) -> None:
        """A failed write ends the command line's --record file, never the table."""
        log.warning("live table %s: --record stopped: %s; the table goes on", self.id,
                    err.strerror or err)
        if self.whole is not None:
            with contextlib.suppress(OSError):
                self.whole.close()
        self.whole = None

    async def _tick(self) -> None:
        """Quiet time lets still dice settle (`QuietTicks`: at the listener's instants, however
        late this task wakes); recordings are flushed."""
        while True:
            await asyncio.sleep(TICK)
            self._run_ticks(self.now())
            self._flush()

    def _run_ticks(self, now: float) -> None:
        for t in self.ticks.due(now):
            try:
                self.tuio.tick(t)
            except Exception:  # noqa: BLE001 - the table keeps ticking whatever happened
                log.exception("live table %s: a tick failed", self.id)

    def _flush(self) -> None:
        if self.whole is not None:
            try:
                self.whole.flush()
            except OSError as err:
                self._whole_failed(err)
        if self.recording is not None:
            try:
                self.recording.flush()
            except OSError as err:
                self._recording_failed(err)

    async def _replay(self, items: list[tuple[float, str, bytes | None]]) -> None:
        """The recording at its own pace (real time), through the same path as UDP, from the
        moment the first page connects."""
        await self.first_page.wait()
        self.replay_state = "playing"
        self._announce_replay()
        began = time.monotonic()
        first = items[0][0] if items else 0.0  # the quiet before the first datagram is skipped
        for t, sender, data in items:
            delay = t - first - (time.monotonic() - began)
            if delay > 0:
                await asyncio.sleep(delay)
            if data is None:
                self.tuio.stats.packets += 1
                self.tuio.stats.malformed += 1
            else:
                self.datagram(data, sender)
        self.replay_state = "done"
        self._announce_replay()

    def _announce_replay(self) -> None:
        self.broadcast({"type": "replay", "state": self.replay_state})

    # -- output --------------------------------------------------------------------------------
    def _on_frame(self, report: dict[str, Any]) -> None:
        self.seq += 1
        frame = {"type": "frame", "seq": self.seq, "report": report}
        for conn in list(self.connections):
            conn.push_frame(frame)
        for event in self.watch.see(report):
            event["seq"] = self.seq
            self.events.append(event)
            self.broadcast({"type": "live_event", **event})
        if self.match is not None:
            self.match.see(self.tuio.engine.layout())
            self.send_match()

    def match_view(self) -> dict[str, Any]:
        if self.match is None:
            return {"type": "match", "phase": "unavailable", "prompt": self.match_note, "log": []}
        return self.match.view()

    def send_match(self, force: bool = False) -> None:
        """The match to every page, when it changed (a frame that changes nothing sends none)."""
        view = self.match_view()
        if force or view != self.match_sent:
            self.match_sent = view
            self.broadcast(view)

    def act(self, do: str, seat: int = 0, parity: str = "", die: str = "", why: str = "") -> None:
        """A player's confirmation (live_routes checks the message); BadParameter, nothing
        changed, when the match cannot take it now."""
        match = self.match
        if match is None:
            raise BadParameter(f"this table keeps no match: {self.match_note}")
        if do == "start":
            match.start()
        elif do == "call":
            match.call(seat, parity)
        elif do == "borg_off":
            match.borg_off()
        elif do == "borg_on_frame":
            match.borg_on_frame()
        elif do == "unseen":
            match.unseen(die)
        elif do == "forfeit":
            match.forfeit(seat, why)
        else:
            match.score_battle()
        self.send_match()

    def broadcast(self, message: dict[str, Any]) -> None:
        for conn in list(self.connections):
            conn.push(message)

    def summary(self) -> dict[str, Any]:
        source = []
        if self.address is not None:
            source.append(f"TUIO on udp {self.address[0]}:{self.address[1]}")
        if self.spec.replay is not None:
            name = Path(self.spec.replay).name
            source.append(f"replay of {'sample' if name == 'session.jsonl' else name}")
        return {"id": self.id, "url": f"/live/{self.id}", "source": ", ".join(source),
                "tuio_port": self.address[1] if self.address else None,
                "replay": self.replay_state, "pages": len(self.connections)}

    def welcome(self) -> dict[str, Any]:
        live = self.tuio.live
        dice = [{"id": s.die, "owner": s.owner, "faces": list(live.faces(s.die)),
                 "pips": list(self.spec.params.borg_pips) if s.die == "borg" else None}
                for s in sorted(live.specs.values(), key=lambda s: s.die)]
        return {"type": "welcome", "table": self.summary(), "dice": dice,
                "touch_limit": self.tuio.touch_limit,
                "borg_faces": list(self.spec.params.borg_faces),
                "connect_range": self.tuio.params.connect_range,
                "events": list(self.events), "recording": self.recording_status(),
                "match": self.match_view()}

    def idle_for(self) -> float:
        """Seconds with no page open and no datagram (0 while a page is open)."""
        if self.connections:
            return 0.0
        return self.now() - max(self.last_datagram, self.last_page, 0.0)

    def leave(self, conn: LiveConnection) -> None:
        self.connections.discard(conn)
        conn.closed = True
        self.last_page = self.now()

    def connect(self) -> LiveConnection:
        conn = LiveConnection()
        self.connections.add(conn)
        self.last_page = self.now()
        self.first_page.set()
        conn.push(self.welcome())
        if self.tuio.last_report is not None:
            conn.push_frame({"type": "frame", "seq": self.seq, "report": self.tuio.last_report})
        return conn

    # -- what a page may ask -------------------------------------------------------------------
    def enter_value(self, die: str, value: int) -> None:
        """BadParameter (nothing changed) unless `die` is a die of this table and `value` a face."""
        now = self.now()
        self._run_ticks(now)
        self.tuio.enter_value(die, value, now)

    def recording_status(self) -> dict[str, Any]:
        return {"type": "recording", "on": self.recording is not None, "file": self.recording_name,
                "datagrams": self.recording_count, "available": self.record_dir is not None}

    def start_recording(self) -> None:
        if self.recording is not None:
            raise BadParameter(f"already recording to {self.recording_name}")
        if self.record_dir is None:
            raise BadParameter("this server keeps no recordings (start it with --record-dir)")
        if self.recordings_made >= RECORDINGS_PER_TABLE:
            raise BadParameter(f"this table has made its {RECORDINGS_PER_TABLE} recordings; "
                               "the operator may start another table")
        if self.recorded_bytes >= RECORDING_BYTES_PER_TABLE:
            raise BadParameter(f"this table's recordings already take "
                               f"{RECORDING_BYTES_PER_TABLE // 2**20} MB, all it may write")
        self.record_dir.mkdir(parents=True, exist_ok=True)
        if sum(1 for _ in self.record_dir.glob("live-*.jsonl")) >= MAX_RECORDINGS:
            raise BadParameter(f"the recordings directory already holds {MAX_RECORDINGS} "
                               "recordings; make room first")
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        for n in range(1, 100):
            name = f"live-{self.id}-{stamp}{'' if n == 1 else f'-{n}'}.jsonl"
            try:
                self.recording = open_recording(self.record_dir / name)
            except BadParameter:
                if (self.record_dir / name).exists():
                    continue
                raise
            break
        else:
            raise BadParameter("too many recordings this second; try again")
        self.recording_name, self.recording_started = name, self.now()
        self.recording_bytes = self.recording_count = 0
        self.recordings_made += 1
        self.broadcast(self.recording_status())

    def stop_recording(self, why: str | None = None) -> None:
        if self.recording is None:
            raise BadParameter("no recording is running")
        with contextlib.suppress(OSError):  # a full disk: what was written stays
            self.recording.close()
        self.recording = None
        status = self.recording_status()
        status["file"] = self.recording_name
        if why:
            status["note"] = why
        self.broadcast(status)

    def _close_files(self) -> None:
        for file in (self.whole, self.recording):
            if file is not None:
                with contextlib.suppress(OSError):
                    file.close()
        self.whole = self.recording = None

    async def close(self, why: str | None = None) -> None:
        """Stop listening and end every page's connection (`why`: a `closed` notice first)."""
        if self.transport is not None:
            self.transport.close()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        if tasks:  # wait() lets the caller's own cancellation through (a suppress would eat it)
            await asyncio.wait(tasks)
        self._close_files()
        for conn in list(self.connections):
            if why:
                conn.push({"type": "closed", "message": why})
            conn.closed = True
            conn.wake.set()


class LiveTables:
    """Every live table of one server. `places`: on a site of nodes (process 0's), where the
    store says which node runs each, so the other nodes send its requests here."""

    def __init__(self, record_dir: Path | None, idle_seconds: float = LIVE_IDLE_SECONDS,
                 places: LivePlaces | None = None) -> None:
        self.record_dir = record_dir
        self.idle_seconds = idle_seconds
        self.places = places
        self.tables: dict[str, LiveTable] = {}
        self.reaper: asyncio.Task[None] | None = None
        if places is not None:
            self._placing(LivePlaces.forget_mine)

    async def create(self, spec: LiveSpec, table_id: str | None = None) -> LiveTable:
        if len(self.tables) >= MAX_LIVE_TABLES:
            raise BadParameter(f"this server already runs {MAX_LIVE_TABLES} live tables; "
                               "close one first")
        table = LiveTable(table_id or secrets.token_urlsafe(6), spec, self.record_dir)
        await table.start()
        self.tables[table.id] = table
        if self.places is not None:
            self._placing(functools.partial(LivePlaces.here, live_id=table.id))
        if spec.expires and self.reaper is None:
            self.reaper = asyncio.get_running_loop().create_task(self._reap())
        return table

    def _placing(self, write: Callable[[LivePlaces], None]) -> None:
        """A write of where the live tables run: one that fails leaves the table served here
        only (the other nodes answer 404 for it), never the table refused."""
        assert self.places is not None
        try:
            write(self.places)
        except StoreError as err:
            log.error("where the live tables run could not be written: %s", err)

    async def remove(self, table_id: str, why: str) -> bool:
        """Close one table (its UDP port freed, its pages told `why`); False: no such table."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return False
        if self.places is not None:
            self._placing(functools.partial(LivePlaces.gone, live_id=table_id))
        await table.close(why)
        log.info("live table %s closed: %s", table_id, why)
        return True

    async def _reap(self) -> None:
        """Close the tables that may expire once they have idled `idle_seconds`."""
        while True:
            await asyncio.sleep(min(30.0, max(0.05, self.idle_seconds / 4)))
            for table in list(self.tables.values()):
                if table.spec.expires and table.idle_for() >= self.idle_seconds:
                    await self.remove(table.id, f"idle for {self.idle_seconds:g} s")

    def recordings(self) -> list[str]:
        """The recordings a lobby may replay: the server's own directory, newest first."""
        if self.record_dir is None or not self.record_dir.is_dir():
            return []
        files = [p for p in self.record_dir.iterdir() if RECORDING_NAME.match(p.name) and p.is_file()]
        return [p.name for p in sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)][:100]

    def recording_path(self, name: str) -> str:
        """'sample' or the name of one of the server's recordings; never a path."""
        if name == "sample":  # the shipped one, whatever files the server's directory holds
            return str(sample_file("session"))
        if not RECORDING_NAME.match(name) or name not in self.recordings():
            raise BadParameter(f"there is no recording '{name[:60]}' (choose one the lobby lists)")
        assert self.record_dir is not None
        return str(self.record_dir / name)

    async def close(self) -> None:
        if self.reaper is not None:
            self.reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reaper
        for table in list(self.tables.values()):
            if self.places is not None:
                self._placing(functools.partial(LivePlaces.gone, live_id=table.id))
            await table.close()
        self.tables.clear()
