"""Real table input: TUIO 1.1 over OSC/UDP feeding the formation engine live.

The frame logic copies the TUIO reference client (mkalten/TUIO11_CPP `TuioClient.cpp`):

* per source and per profile, `alive` lists every session id present, `set` messages are
  buffered, and everything is committed atomically at `fseq`;
* a frame number 0 < f < current with a gap of at most 100 is a *late* frame and is dropped; a
  repeated number (f == current: a frame split over several bundles, each repeating `alive` and
  `fseq`) is applied; a jump back of more than 100 is a restarted tracker and is accepted;
  f <= 0 (-1: a redundant keep-alive bundle) is always applied;
* the source is the `source` message of the bundle (TUIO 1.1), else the sender's address, so
  several trackers can feed one table.

What real trackers send, and what we do about it (research notes, anchors-stardice.md):

* dice may come as `/tuio/2Dobj` (tagged: the class id is the fiducial), `/tuio/2Dblb` or
  `/tuio/2Dcur` (untagged); which profiles are dice is configurable (`dice_profiles`); other
  `/tuio/2Dcur` contacts are reported as touches;
* trackers may send nothing while a die lies still: an object is never timed out while it is
  in the alive list;
* an object missing from `alive` is kept for `grace` seconds at its last place before it is
  removed (a hand passing over it does not break its formation); a tagged die that comes back
  under a new session id is the same die (its fiducial), and an untagged one that comes back
  within `retain_distance` of where one vanished takes that one's place;
* velocities: the tracker's when it sends any (non-zero), else computed by us from successive
  positions, with a dead band of the engine's jitter;
* malformed packets and messages are counted and skipped, never a crash.

Coordinates: TUIO's x, y in 0..1 (origin top-left) map to table units as x * width, y * depth.
"""

from __future__ import annotations

import base64
import contextlib
import json
import math
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pythonosc.osc_bundle import OscBundle
from pythonosc.osc_message import OscMessage

from playtable.core.errors import BadParameter
from playtable.games.stardice.formation import (
    TABLE_DEPTH,
    TABLE_WIDTH,
    FormationEngine,
    FormationParams,
    Layout,
    Sighting,
)
from playtable.games.stardice.scoring import DieInfo, ScoringRules, TableScore, score_table

PROFILES = ("2Dobj", "2Dcur", "2Dblb")
TICK = 0.05
"""Seconds of quiet after which the listener lets time pass for the engine (`tick`)."""
_SET_LENGTHS = {"2Dobj": 10, "2Dcur": 6, "2Dblb": 12}  # arguments after "set"


# -- the dice map ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DieSpec:
    die: str
    """"F.d20a", "K.d6b" or "borg"."""
    value: int | None = None
    pips: int | None = None

    @property
    def owner(self) -> int | None:
        if self.die == "borg":
            return None
        return "FK".index(self.die[0])


def _check_die(name: str) -> str:
    if name == "borg":
        return name
    if len(name) < 4 or name[0] not in "FK" or name[1] != "." or not name[2:].startswith("d"):
        raise BadParameter(f"'{name}' is not a die name like F.d20a, K.d6b or borg")
    return name


def parse_dice_map(text: str) -> dict[int, DieSpec]:
    """A dice map from a JSON file's text or an inline list. JSON:
    {"0": "F.d20a", "1": {"die": "F.d20b", "value": 12}, "12": {"die": "borg", "value": 16}}
    (keys are fiducial / class ids); inline: "0=F.d20a:17,1=F.d20b,12=borg:16"."""
    text = text.strip()
    out: dict[int, DieSpec] = {}
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise BadParameter(f"the dice map is not valid JSON: {err.msg}") from None
        data = data.get("dice", data) if isinstance(data, dict) else data
        if not isinstance(data, dict):
            raise BadParameter("the dice map must be a JSON object of fiducial id -> die")
        for key, spec in data.items():
            try:
                fid = int(key)
            except ValueError:
                raise BadParameter(f"fiducial id '{key}' is not a whole number") from None
            if isinstance(spec, str):
                out[fid] = DieSpec(_check_die(spec))
            elif isinstance(spec, dict) and isinstance(spec.get("die"), str):
                value, pips = spec.get("value"), spec.get("pips")
                if value is not None and not isinstance(value, int):
                    raise BadParameter(f"value of fiducial {fid} must be a whole number")
                if pips is not None and not isinstance(pips, int):
                    raise BadParameter(f"pips of fiducial {fid} must be a whole number")
                out[fid] = DieSpec(_check_die(spec["die"]), value, pips)
            else:
                raise BadParameter(f"fiducial {fid}: expected a die name or {{\"die\": ...}}")
        return out
    for item in (i.strip() for i in text.split(",") if i.strip()):
        key, sep, rest = item.partition("=")
        if not sep:
            raise BadParameter(f"'{item}' is not of the form FIDUCIAL=DIE[:VALUE]")
        try:
            fid = int(key)
        except ValueError:
            raise BadParameter(f"fiducial id '{key}' is not a whole number") from None
        name, _, value_text = rest.partition(":")
        value = None
        if value_text:
            if not value_text.isdigit():
                raise BadParameter(f"value '{value_text}' of fiducial {fid} is not a number")
            value = int(value_text)
        out[fid] = DieSpec(_check_die(name.strip()), value)
    return out


def load_dice_map(arg: str) -> dict[int, DieSpec]:
    """`arg` is a path to a JSON file, or an inline map."""
    path = Path(arg)
    if "=" not in arg and path.exists():
        try:
            return parse_dice_map(path.read_text(encoding="utf-8"))
        except OSError as err:
            raise BadParameter(f"cannot read {arg}: {err.strerror}") from None
    if "=" not in arg and not arg.strip().startswith("{"):
        raise BadParameter(f"the dice map '{arg}' is neither a file nor FIDUCIAL=DIE,... pairs")
    return parse_dice_map(arg)


# -- the receiver --------------------------------------------------------------------------------


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
class _ProfileFrame:
    alive: set[int] = field(default_factory=set)
    pending_alive: set[int] | None = None
    pending_sets: dict[int, TuioObject] = field(default_factory=dict)
    current_frame: int = 0
    objects: dict[int, TuioObject] = field(default_factory=dict)


@dataclass
class _Track:
    """Our die: the engine id, its table position and our own velocity estimate."""

    key: str
    x: float
    y: float
    t: float
    vx: float = 0.0
    vy: float = 0.0
    lost_at: float | None = None
    anonymous: bool = False


@dataclass
class TuioStats:
    packets: int = 0
    messages: int = 0
    malformed: int = 0
    frames: int = 0
    late_frames: int = 0


class TuioTable:
    """The live table: TUIO packets in, the formation engine's layout and the score out.
    `on_frame(report)` is called with a JSON-ready report after every committed frame."""

    def __init__(
        self,
        dice: Mapping[int, DieSpec],
        params: FormationParams | None = None,
        rules: ScoringRules | None = None,
        dice_profiles: tuple[str, ...] = ("2Dobj", "2Dblb"),
        grace: float = 0.25,
        retain_distance: float = 0.03,
        borg_faces: tuple[int, ...] = (8, 16, 16, 24, 24, 32),
        borg_pips: tuple[int, ...] = (3, 4, 4, 5, 5, 6),
        on_frame: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        for p in dice_profiles:
            if p not in PROFILES:
                raise BadParameter(f"unknown TUIO profile '{p}' (known: {', '.join(PROFILES)})")
        self.dice = dict(dice)
        self.by_name = {spec.die: spec for spec in self.dice.values()}
        self.params = params or FormationParams()
        self.rules = rules or ScoringRules()
        self.dice_profiles = dice_profiles
        self.grace = grace
        self.retain_distance = retain_distance
        self.borg_faces = borg_faces
        self.borg_pips = borg_pips
        self.on_frame = on_frame
        self.stale_velocity = 0.1
        self.values: dict[str, int] = {s.die: s.value for s in self.dice.values()
                                       if s.value is not None}
        self.engine = FormationEngine(self.params)
        self.sources: dict[tuple[str, str], _ProfileFrame] = {}
        self.bindings: dict[tuple[str, str, int], str] = {}  # (source, profile, sid) -> key
        self.tracks: dict[str, _Track] = {}
        self.stats = TuioStats()
        self._anon = 0
        self.last_report: dict[str, Any] | None = None

    # -- values entered by the players -----------------------------------------------------
    def set_value(self, die: str, value: int) -> None:
        _check_die(die)
        self.values[die] = value

    # -- packets -------------------------------------------------------------------------------
    def feed(self, data: bytes, sender: str, now: float) -> None:
        """One UDP datagram from `sender` ("host:port") received at time `now` (seconds)."""
        self.stats.packets += 1
        try:
            messages = list(_walk(data))
        except Exception:  # noqa: BLE001 - any parse failure of a datagram is counted
            self.stats.malformed += 1
            return
        source = sender
        for _, args in messages:
            if len(args) == 2 and args[0] == "source" and isinstance(args[1], str):
                source = args[1]
        for address, args in messages:
            self.stats.messages += 1
            try:
                self._message(source, address, args, now)
            except (ValueError, TypeError, IndexError, KeyError):
                self.stats.malformed += 1

    def _message(self, source: str, address: str, args: list[Any], now: float) -> None:
        if not address.startswith("/tuio/"):
            raise ValueError("not a TUIO address")
        profile = address[len("/tuio/"):]
        if profile not in PROFILES:
            return  # other profiles (2.5D, 3D, custom) are ignored, not errors
        if not args or not isinstance(args[0], str):
            raise ValueError("a TUIO message starts with its command")
        cmd = args[0]
        frame = self.sources.setdefault((source, profile), _ProfileFrame())
        if cmd == "source":
            return
        if cmd == "alive":
            ids = args[1:]
            if not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
                raise TypeError("alive takes session ids")
            frame.pending_alive = set(ids)
        elif cmd == "set":
            n = _SET_LENGTHS[profile]
            vals = args[1:]
            if len(vals) != n:
                raise ValueError(f"{profile} set takes {n} arguments")
            sid = vals[0]
            if not isinstance(sid, int) or isinstance(sid, bool):
                raise TypeError("session id must be an int")
            nums = [float(v) for v in vals[1:]]  # ints are accepted as numbers too
            if not all(math.isfinite(v) for v in nums):
                raise ValueError("non-finite value")
            if profile == "2Dobj":
                class_id = int(vals[1])
                x, y, a, vx, vy = nums[1], nums[2], nums[3], nums[4], nums[5]
            elif profile == "2Dcur":
                class_id = None
                x, y, a, vx, vy = nums[0], nums[1], 0.0, nums[2], nums[3]
            else:
                class_id = None
                x, y, a, vx, vy = nums[0], nums[1], nums[2], nums[6], nums[7]
            frame.pending_sets[sid] = TuioObject(sid, profile, class_id, x, y, a, vx, vy)
        elif cmd == "fseq":
            if len(args) != 2 or not isinstance(args[1], int):
                raise TypeError("fseq takes one int")
            self._fseq(source, profile, frame, args[1], now)
        else:
            raise ValueError(f"unknown TUIO command {cmd!r}")

    def _fseq(self, source: str, profile: str, frame: _ProfileFrame, fseq: int,
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
        self._commit(source, profile, fseq, now)

    # -- from contacts to dice -----------------------------------------------------------------
    def _identify(self, source: str, obj: TuioObject, now: float) -> str:
        bind = (source, obj.profile, obj.session)
        if bind in self.bindings:
            return self.bindings[bind]
        key: str
        if obj.class_id is not None:
            spec = self.dice.get(obj.class_id)
            key = spec.die if spec is not None else f"obj{obj.class_id}"
        else:
            x, y = obj.x * TABLE_WIDTH, obj.y * TABLE_DEPTH
            lost = sorted(
                (math.hypot(tr.x - x, tr.y - y), k) for k, tr in self.tracks.items()
                if tr.anonymous and tr.lost_at is not None
            )
            if lost and lost[0][0] <= self.retain_distance:
                key = lost[0][1]
            else:
                self._anon += 1
                key = f"{obj.profile[2:]}{self._anon}"
        self.bindings[bind] = key
        return key

    def _commit(self, source: str, profile: str, fseq: int, now: float) -> None:
        present: set[str] = set()
        for (src, prof), frame in sorted(self.sources.items()):
            if prof not in self.dice_profiles:
                continue
            for obj in frame.objects.values():
                key = self._identify(src, obj, now)
                present.add(key)
                x, y = obj.x * TABLE_WIDTH, obj.y * TABLE_DEPTH
                tr = self.tracks.get(key)
                if tr is None:
                    tr = _Track(key, x, y, now, anonymous=obj.class_id is None)
                    self.tracks[key] = tr
                elif obj.fresh or tr.lost_at is not None:
                    dt = now - tr.t
                    if dt > 0:
                        d = math.hypot(x - tr.x, y - tr.y)
                        if d <= self.params.jitter:
                            tr.vx = tr.vy = 0.0
                        else:
                            tr.vx, tr.vy = (x - tr.x) / dt, (y - tr.y) / dt
                        tr.x, tr.y, tr.t = x, y, now
                    elif (x, y) != (tr.x, tr.y):
                        tr.x, tr.y = x, y
                    if obj.fresh and (obj.vx or obj.vy):  # the tracker's velocity, if any
                        tr.vx, tr.vy = obj.vx * TABLE_WIDTH, obj.vy * TABLE_DEPTH
                tr.lost_at = None
        # forget bindings of session ids no longer alive
        alive_binds = {(src, prof, sid) for (src, prof), f in self.sources.items()
                       for sid in f.objects}
        for b in [b for b in self.bindings if b not in alive_binds]:
            del self.bindings[b]
        for key, tr in list(self.tracks.items()):
            if key in present:
                continue
            if tr.lost_at is None:
                tr.lost_at = now
            if now - tr.lost_at > self.grace:
                del self.tracks[key]
        layout = self._update_engine(now)
        self.last_report = self.report(layout, source, profile, fseq, now, self._touches())
        if self.on_frame is not None:
            self.on_frame(self.last_report)

    def _touches(self) -> int:
        return sum(len(f.objects) for (_, prof), f in self.sources.items()
                   if prof == "2Dcur" and prof not in self.dice_profiles)

    def _update_engine(self, now: float) -> Layout:
        for tr in self.tracks.values():
            if now - tr.t >= self.stale_velocity:
                tr.vx = tr.vy = 0.0  # nothing heard for a while: the die lies still
        sightings = [Sighting(k, tr.x, tr.y, tr.vx if tr.lost_at is None else 0.0,
                              tr.vy if tr.lost_at is None else 0.0)
                     for k, tr in sorted(self.tracks.items())]
        return self.engine.update(sightings, max(now, self.engine.time))

    def tick(self, now: float) -> dict[str, Any] | None:
        """Time passes without a packet (trackers go quiet while dice lie still): let dice
        settle and the lost ones expire. Returns (and reports) a report if the layout changed."""
        for key, tr in list(self.tracks.items()):
            if tr.lost_at is not None and now - tr.lost_at > self.grace:
                del self.tracks[key]
        before = self.engine.layout()
        layout = self._update_engine(now)
        if layout == before:
            return None
        report = self.report(layout, "tick", "", 0, now, self._touches())
        report["tick"] = True
        self.last_report = report
        if self.on_frame is not None:
            self.on_frame(report)
        return report

    def die_info(self, key: str) -> DieInfo:
        spec = self.by_name.get(key)
        if spec is None:
            return DieInfo(-1, 0, 0)  # an unknown object: shapes count it, nobody's total does
        value = self.values.get(key, 0)
        pips = spec.pips if spec.pips is not None else 0
        if spec.die == "borg" and spec.pips is None and value in self.borg_faces:
            pips = self.borg_pips[self.borg_faces.index(value)]
        return DieInfo(spec.owner, value, pips)

    def score(self, layout: Layout) -> TableScore:
        dice = {k: self.die_info(k) for k in layout.positions}
        return score_table(layout, {}, dice, self.rules)

    def render(self, path: str | Path) -> Path:
        """Draw the live table (origin top left, as the tracker sees it)."""
        from playtable.games.stardice.physics import TableGeometry
        from playtable.games.stardice.render import ScenePiece, render_scene

        layout = self.engine.layout()
        score = self.score(layout)
        pieces = []
        for k, (x, y) in layout.positions.items():
            spec = self.by_name.get(k)
            kind = "d6"
            if spec is not None:
                kind = "borg" if spec.die == "borg" else spec.die.split(".", 1)[1].rstrip(
                    "abcdefghijklmnopqrstuvwxyz")
            value = self.values.get(k)
            label = "?" if value is None else str(value)
            if spec is not None and spec.die == "borg" and value is not None:
                label = f"{value}/{self.die_info(k).pips}"
            pieces.append(ScenePiece(k, kind, x, y, 0.0, spec.owner if spec else None, label,
                                     spec is not None))
        title = f"Star Dice live: Federation {score.points[0]}  -  Klingon {score.points[1]}"
        return render_scene(pieces, layout, score, self.params.connect_range, TableGeometry(),
                            path, title, y_down=True)

    def report(self, layout: Layout, source: str, profile: str, fseq: int, now: float,
               touches: int) -> dict[str, Any]:
        score = self.score(layout)
        dice = []
        for k, (x, y) in layout.positions.items():
            info = self.die_info(k)
            tr = self.tracks.get(k)
            dice.append({
                "id": k, "x": round(x, 5), "y": round(y, 5),
                "vx": round(tr.vx, 5) if tr else 0.0, "vy": round(tr.vy, 5) if tr else 0.0,
                "owner": info.owner if info.owner != -1 else None,
                "known": k in self.by_name,
                "value": self.values.get(k), "settled": k in layout.settled,
            })
        return {
            "frame": self.stats.frames, "source": source, "profile": profile, "fseq": fseq,
            "t": round(now, 6), "dice": dice,
            "connections": [list(e) for e in layout.edges],
            "formations": [list(f) for f in layout.formations],
            "strings": [list(s) for s in layout.strings],
            "points": list(score.points),
            "shapes": [{"kind": s.kind, "objects": list(s.objects), "points": s.points,
                        "bonus": s.bonus, "owner": s.owner, "totals": list(s.totals)}
                       for s in score.shapes if s.kind != "single"],
            "touches": touches, "malformed": self.stats.malformed,
            "late_frames": self.stats.late_frames,
        }


def _walk(data: bytes) -> Iterator[tuple[str, list[Any]]]:
    if OscBundle.dgram_is_bundle(data):
        yield from _walk_bundle(OscBundle(data))
    elif OscMessage.dgram_is_message(data):
        m = OscMessage(data)
        yield m.address, list(m.params)
    else:
        raise ValueError("not an OSC packet")


def _walk_bundle(bundle: OscBundle) -> Iterator[tuple[str, list[Any]]]:
    for i in range(bundle.num_contents):
        content = bundle.content(i)
        if isinstance(content, OscBundle):
            yield from _walk_bundle(content)
        else:
            yield content.address, list(content.params)


# -- sockets, recording and replay -----------------------------------------------------------------


class TuioListener:
    """A UDP socket on `host:port` (port 0: any free port) feeding a TuioTable; optional
    recording of every datagram (JSON lines: time, sender, base64 data)."""

    def __init__(self, table: TuioTable, host: str = "127.0.0.1", port: int = 3333,
                 record: str | Path | None = None) -> None:
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
        self.record_file = open(record, "w", encoding="utf-8") if record else None  # noqa: SIM115
        self.start = time.monotonic()
        self.stopped = False

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
                    self.table.tick(time.monotonic() - self.start)
                    continue
                except OSError:
                    if self.stopped:
                        break
                    raise
                now = time.monotonic() - self.start
                sender = f"{addr[0]}:{addr[1]}"
                if self.record_file is not None:
                    self.record_file.write(json.dumps(
                        {"t": round(now, 6), "from": sender,
                         "data": base64.b64encode(data).decode("ascii")}) + "\n")
                    self.record_file.flush()
                self.table.feed(data, sender, now)
        finally:
            self.close()

    def stop(self) -> None:
        self.stopped = True

    def close(self) -> None:
        self.sock.close()
        if self.record_file is not None:
            self.record_file.close()
            self.record_file = None


def replay_recording(table: TuioTable, path: str | Path, realtime: bool = False) -> int:
    """Feed a recorded session into `table`; returns the number of datagrams. Broken lines are
    counted as malformed packets."""
    count = 0
    started = time.monotonic()
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise BadParameter(f"cannot read the recording {path}: {err.strerror}") from None
    last_t: float | None = None
    for line in lines:
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            t = float(item["t"])
            data = base64.b64decode(item["data"], validate=True)
            sender = str(item.get("from", "replay"))
        except (ValueError, KeyError, TypeError):
            table.stats.packets += 1
            table.stats.malformed += 1
            continue
        if realtime:
            delay = t - (time.monotonic() - started)
            if delay > 0:
                time.sleep(delay)
        if last_t is not None:  # the quiet time between packets, as the live listener sees it
            tick = last_t + TICK
            while tick < t:
                table.tick(tick)
                tick += TICK
        table.feed(data, sender, t)
        last_t = t
        count += 1
    if last_t is not None:
        table.tick(last_t + 1.0)
    return count
