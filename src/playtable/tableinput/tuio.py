"""The TUIO 1.1 receiver: OSC/UDP datagrams in, committed frames of contacts out.

The frame logic copies the TUIO reference client (mkalten/TUIO11_CPP `TuioClient.cpp`):

* per source and per profile, `alive` lists every session id present, `set` messages are
  buffered, and everything is committed atomically at `fseq`;
* a frame number 0 < f < current with a gap of at most 100 is a *late* frame and is dropped; a
  repeated number (f == current: a frame split over several bundles, each repeating `alive` and
  `fseq`) is applied; a jump back of more than 100 is a restarted tracker and is accepted;
  f <= 0 (-1: a redundant keep-alive bundle) is always applied;
* the source is the `source` message of the bundle (TUIO 1.1), else the sender's address, so
  several trackers can feed one table;
* a source that falls silent leaves no ghosts: its contacts are dropped once it has sent nothing
  for `silent_after` seconds (`SILENT_SECONDS`; trackers send a frame, at least a keep-alive
  `alive`/`fseq`, every fraction of a second while anything lies on the table: the simulator
  every 0.5 s, the shipped recording's tracker at most 0.55 s apart). A tracker restarted on a
  new port without a `source` message, bit-flipped source names, or a lost last frame before a
  tracker went quiet used to leave dice on the table for good (`tracking` lets only the source
  committing a frame move dice, so an old session never pulls a die back);
* malformed packets and messages are counted and skipped, never a crash, and logged at most
  once every `MALFORMED_LOG_SECONDS` with the count. Bundles are walked here, not by python-osc's
  `OscBundle`, which logs a whole datagram (on the root logger, at WARNING) for each element that
  is no OSC message, as `OscMessage` logs a line for each type tag it does not know: a local
  sender of such junk filled 300 MB of log in 5 s. An element that is no message is counted;
  a message whose type tags python-osc does not know is counted without reaching it;
* a `set` whose position (x, y; and a 2Dobj's class id) is not a finite number within range is
  dropped; one whose other fields (angle, velocities, accelerations, sizes) are not is kept with
  those fields 0 and counted as malformed: the reference C++ TUIO server sends infinite velocities
  under load with a good position;
* the state is bounded whatever arrives: at most `MAX_SOURCES` (source, profile) pairs (a new
  one evicts the longest-silent pair that holds no contact, else it is refused), at most
  `MAX_CONTACTS` session ids in an `alive` list and uncommitted `set`s per frame, and every
  number range-checked (coordinates within `COORD_RANGE` of the 0..1 square, everything else
  within `MAX_MAGNITUDE`): 1e308 is finite, but it is no place on a table.

What becomes of the contacts (which are dice, how they are tracked) is `tracking`'s business.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pythonosc.osc_message import OscMessage
from pythonosc.osc_message import ParseError as MessageError
from pythonosc.parsing import osc_types

log = logging.getLogger("playtable.tableinput")

PROFILES = ("2Dobj", "2Dcur", "2Dblb")
MAX_SOURCES = 64
"""(source, profile) pairs kept: a table has a tracker or a few; 20,000 names used to make every
frame 100 times slower."""
MAX_CONTACTS = 256
"""Session ids in one `alive` list, and uncommitted `set`s per frame: a table holds a few dozen."""
COORD_RANGE = (-0.5, 1.5)
"""TUIO coordinates are 0..1 over the tracked area; trackers report a little beyond its edges."""
SILENT_SECONDS = 5.0
"""Seconds after which a silent source's contacts leave the table (module doc)."""
MAX_MAGNITUDE = 1e6
"""Angles, velocities, accelerations, sizes: no real contact comes near this."""
_SET_LENGTHS = {"2Dobj": 10, "2Dcur": 6, "2Dblb": 12}  # arguments after "set"
_PLACE = {"2Dobj": (0, 1, 2), "2Dcur": (0, 1), "2Dblb": (0, 1)}
"""The numbers of a set (after its session id) without which it says nothing: the class id and
the position; any other field that is not a sane number is replaced by 0."""
MALFORMED_LOG_SECONDS = 5.0
"""Malformed packets are logged at most once in this many seconds, with their count."""
_BUNDLE = b"#bundle\x00"
_TYPE_TAGS = frozenset("ihfdsbrmtTFN[]")
"""The OSC type tags python-osc parses; it logs a line for any other."""
MAX_BUNDLE_DEPTH = 8
"""Bundles within bundles: a tracker nests none; 3,000 levels fit in a datagram."""


@dataclass
class TuioObject:
    """One contact as the tracker reports it (raw TUIO values)."""

    session: int
    profile: str
    class_id: int | None
    x: float
    y: float
    angle: float = 0.0
    vx: float = 0.0
    vy: float = 0.0
    fresh: bool = True
    """Set in the frame being committed (False: only kept alive)."""


@dataclass
class ProfileFrame:
    """One source's view of one profile: the committed contacts and the frame being built."""

    alive: set[int] = field(default_factory=set)
    pending_alive: set[int] | None = None
    pending_sets: dict[int, TuioObject] = field(default_factory=dict)
    current_frame: int = 0
    objects: dict[int, TuioObject] = field(default_factory=dict)
    heard: float = 0.0
    """When this source last sent a message for this profile."""


@dataclass
class TuioStats:
    packets: int = 0
    messages: int = 0
    malformed: int = 0
    frames: int = 0
    late_frames: int = 0
    evicted_sources: int = 0
    silent_sources: int = 0
    """(source, profile) pairs whose contacts were dropped for silence."""


CommitHandler = Callable[[str, str, int, float], None]
"""Called after each committed frame with (source, profile, fseq, now)."""


class TuioReceiver:
    """Datagrams in (`feed`); `sources[(source, profile)].objects` holds the committed contacts,
    and `on_commit` hears of every committed frame."""

    def __init__(self, on_commit: CommitHandler | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 silent_after: float | None = SILENT_SECONDS) -> None:
        self.sources: dict[tuple[str, str], ProfileFrame] = {}
        self.silent_after = silent_after
        """Seconds of silence after which a source's contacts are dropped (None: never)."""
        self.stats = TuioStats()
        self.on_commit = on_commit
        self.clock = clock
        """Wall time for the malformed-packet notices (a replay's `now` is the recording's)."""
        self.sender = ""
        self.unlogged = 0
        self.logged_at = -math.inf

    def feed(self, data: bytes, sender: str, now: float) -> None:
        """One UDP datagram from `sender` ("host:port") received at time `now` (seconds)."""
        self.stats.packets += 1
        self.sender = sender
        try:
            messages = list(_walk(data))
        except Exception as err:  # noqa: BLE001 - any parse failure of a datagram is counted
            self.malformed(f"not an OSC packet ({type(err).__name__})")
            return
        source = sender
        for item in messages:
            if item is not None and len(item[1]) == 2 and item[1][0] == "source" \
                    and isinstance(item[1][1], str):
                source = item[1][1]
        for item in messages:
            if item is None:
                self.malformed("a bundle element that is no OSC message")
                continue
            self.stats.messages += 1
            try:
                self._message(source, item[0], item[1], now)
            except (ValueError, TypeError, IndexError, KeyError, OverflowError) as err:
                self.malformed(str(err))

    def malformed(self, why: str) -> None:
        """Count a malformed packet or message; log the count at most every few seconds."""
        self.stats.malformed += 1
        self.unlogged += 1
        wall = self.clock()
        if wall - self.logged_at >= MALFORMED_LOG_SECONDS:
            log.warning("TUIO: %d malformed packet(s) or message(s) since the last notice; the "
                        "latest from %r: %s", self.unlogged, self.sender[:60], why[:100])
            self.unlogged, self.logged_at = 0, wall

    def _message(self, source: str, address: str, args: list[Any], now: float) -> None:
        if not address.startswith("/tuio/"):
            raise ValueError("not a TUIO address")
        profile = address[len("/tuio/"):]
        if profile not in PROFILES:
            return  # other profiles (2.5D, 3D, custom) are ignored, not errors
        if not args or not isinstance(args[0], str):
            raise ValueError("a TUIO message starts with its command")
        cmd = args[0]
        if cmd == "source":
            return
        frame = self._frame(source, profile)
        frame.heard = now
        if cmd == "alive":
            ids = args[1:]
            if not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
                raise TypeError("alive takes session ids")
            if len(ids) > MAX_CONTACTS:
                raise ValueError(f"alive lists more than {MAX_CONTACTS} session ids")
            frame.pending_alive = set(ids)
        elif cmd == "set":
            n = _SET_LENGTHS[profile]
            vals = args[1:]
            if len(vals) != n:
                raise ValueError(f"{profile} set takes {n} arguments")
            sid = vals[0]
            if not isinstance(sid, int) or isinstance(sid, bool):
                raise TypeError("session id must be an int")
            if sid not in frame.pending_sets and len(frame.pending_sets) >= MAX_CONTACTS:
                raise ValueError(f"more than {MAX_CONTACTS} uncommitted set messages")
            nums = [float(v) for v in vals[1:]]  # ints are accepted as numbers too
            if not all(_sane(nums[i]) for i in _PLACE[profile]):
                raise ValueError("a position that is not finite or out of range")
            if not all(_sane(v) for v in nums):  # the place is good: kept, the rest is 0
                nums = [v if _sane(v) else 0.0 for v in nums]
                self.malformed(f"{profile} set {sid}: a value that is not finite or out of range")
            if profile == "2Dobj":
                class_id = int(vals[1])
                x, y, a, vx, vy = nums[1], nums[2], nums[3], nums[4], nums[5]
            elif profile == "2Dcur":
                class_id = None
                x, y, a, vx, vy = nums[0], nums[1], 0.0, nums[2], nums[3]
            else:
                class_id = None
                x, y, a, vx, vy = nums[0], nums[1], nums[2], nums[6], nums[7]
            low, high = COORD_RANGE
            if not (low <= x <= high and low <= y <= high):
                raise ValueError(f"coordinates ({x:g}, {y:g}) off the table")
            frame.pending_sets[sid] = TuioObject(sid, profile, class_id, x, y, a, vx, vy)
        elif cmd == "fseq":
            if len(args) != 2 or not isinstance(args[1], int):
                raise TypeError("fseq takes one int")
            self._fseq(source, profile, frame, args[1], now)
        else:
            raise ValueError(f"unknown TUIO command {cmd!r}")

    def expire(self, now: float) -> bool:
        """Drop the contacts of every source silent for more than `silent_after` seconds at
        `now`; whether any were dropped."""
        if self.silent_after is None:
            return False
        dropped = False
        for frame in self.sources.values():
            if (frame.objects or frame.alive) and now - frame.heard > self.silent_after:
                _forget(frame)
                self.stats.silent_sources += 1
                dropped = True
        return dropped

    def _frame(self, source: str, profile: str) -> ProfileFrame:
        """The frame state of (source, profile), made room for within MAX_SOURCES."""
        key = (source, profile)
        frame = self.sources.get(key)
        if frame is not None:
            return frame
        if len(self.sources) >= MAX_SOURCES:
            idle = [(f.heard, k) for k, f in self.sources.items() if not f.objects]
            if not idle:
                raise ValueError(f"more than {MAX_SOURCES} sources, each with contacts on the table")
            del self.sources[min(idle)[1]]
            self.stats.evicted_sources += 1
        frame = self.sources[key] = ProfileFrame()
        return frame

    def _fseq(self, source: str, profile: str, frame: ProfileFrame, fseq: int,
              now: float) -> None:
        late = False
        if fseq > 0:
            if fseq >= frame.current_frame or frame.current_frame - fseq > 100:
                frame.current_frame = fseq
            else:
                late = True
        if late:
            self.stats.late_frames += 1
            frame.pending_sets.clear()
            frame.pending_alive = None
            return
        if frame.pending_alive is not None:
            frame.alive = frame.pending_alive
        for obj in frame.objects.values():
            obj.fresh = False
        for sid, obj in frame.pending_sets.items():
            if sid in frame.alive:
                frame.objects[sid] = obj
        for sid in [s for s in frame.objects if s not in frame.alive]:
            del frame.objects[sid]
        frame.pending_sets.clear()
        frame.pending_alive = None
        self.stats.frames += 1
        if self.on_commit is not None:
            self.on_commit(source, profile, fseq, now)


def _forget(frame: ProfileFrame) -> None:
    """A source's contacts, committed and pending, gone (its frame numbers are kept)."""
    frame.objects.clear()
    frame.alive = set()
    frame.pending_sets.clear()
    frame.pending_alive = None


def _sane(value: float) -> bool:
    return math.isfinite(value) and abs(value) <= MAX_MAGNITUDE


def _walk(data: bytes, depth: int = 0) -> Iterator[tuple[str, list[Any]] | None]:
    """The messages of an OSC packet in order; None for a bundle element that is no message
    (counted by the caller). A packet that is neither, or a bundle whose sizes do not add up:
    ValueError."""
    if data.startswith(_BUNDLE):
        if depth >= MAX_BUNDLE_DEPTH:
            raise ValueError(f"bundles nested deeper than {MAX_BUNDLE_DEPTH}")
        if len(data) < len(_BUNDLE) + 8:
            raise ValueError("a bundle without its time tag")
        index = len(_BUNDLE) + 8
        while index < len(data):
            size = int.from_bytes(data[index:index + 4], "big", signed=True)
            index += 4
            if size < 0 or size % 4 or index + size > len(data):
                raise ValueError("a bundle element whose size does not fit the bundle")
            element, index = data[index:index + size], index + size
            if element.startswith(_BUNDLE):
                yield from _walk(element, depth + 1)
            else:
                yield _message(element)
    elif data.startswith(b"/"):
        message = _message(data)
        if message is None:
            raise ValueError("not an OSC message")
        yield message
    else:
        raise ValueError("not an OSC packet")


def _message(data: bytes) -> tuple[str, list[Any]] | None:
    """One OSC message's address and arguments; None if it is none or has type tags python-osc
    does not parse (checked first: it would log each of them)."""
    if not data.startswith(b"/"):
        return None
    try:
        _, index = osc_types.get_string(data, 0)
        if data[index:]:
            tags, _ = osc_types.get_string(data, index)
            if not tags.startswith(",") or not _TYPE_TAGS.issuperset(tags[1:]):
                return None
        message = OscMessage(data)
    except (osc_types.ParseError, MessageError, IndexError, ValueError, OverflowError):
        return None
    return message.address, list(message.params)
