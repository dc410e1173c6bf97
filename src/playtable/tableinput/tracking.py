"""From TUIO contacts to tracked dice on a live Star Dice table.

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
* a die at rest that one frame puts more than `jump` away (a quarter of the table) is not
  moved until a second frame confirms the new place: a single garbage frame (a misread
  fiducial, a reflection) would otherwise break and re-form its formations, changing the score
  for good, since a tracker sends nothing more for a die that lies still. A real move starts
  small or is confirmed by the very next frame.
* **connections are decided on settled positions**: a die the formation engine has at rest moves
  on the table only once the tracker has kept it away from its resting place (farther than the
  engine's jitter) for `confirm_move` seconds (0.1 s: 3 frames of a 30 fps tracker, 6 at 60
  fps); a frame that puts it back within the jitter cancels the move. One glitched frame (a
  die read 0.05 away and back the next frame) would otherwise disconnect the die (It. 7
  auto-disconnect), let its neighbours take its places, and change the formations for good.
  A real knock is seen 0.1 s late; a tracker that falls silent after the move confirms it
  when the time is up (it believes the die lies there).

The Surface tracks at most 15 contacts (It. 9: two more dice a player "broke the surface
table's 15 touch limit"); every report counts the contacts alive (`contacts`: dice, fingers and
blobs of every source) beside the table's `touch_limit`, so a page can warn that a 16th die or
finger would go unseen (`fouls.FoulWatch`).

Coordinates: TUIO's x, y in 0..1 (origin top-left) map to table units as x * width, y * depth.
The dice positions go to the game's `LiveDice` (formations and score).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playtable.core.errors import BadParameter
from playtable.games.stardice import (
    TABLE_DEPTH,
    TABLE_WIDTH,
    DieInfo,
    DieSpec,
    FormationEngine,
    FormationParams,
    Layout,
    LiveDice,
    ScoringRules,
    Sighting,
    TableScore,
)
from playtable.tableinput.tuio import PROFILES, SILENT_SECONDS, TuioObject, TuioReceiver

SURFACE_TOUCH_LIMIT = 15
"""Contacts the Microsoft Surface tracks at once (seed It. 9); 7 dice a side and the Borg die
fill it exactly."""


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
    jump: tuple[float, float] | None = None
    """An unconfirmed far place one frame gave this die while it lay at rest."""
    away: tuple[float, float, float, float, float] | None = None
    """(since, x, y, tracker vx, tracker vy): the newest place away from the die's resting
    place, waiting for `confirm_move` seconds of frames that agree it has left."""


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
        jump: float = 0.25,
        confirm_move: float = 0.1,
        touch_limit: int = SURFACE_TOUCH_LIMIT,
        borg_faces: tuple[int, ...] = (8, 16, 16, 24, 24, 32),
        borg_pips: tuple[int, ...] = (3, 4, 4, 5, 5, 6),
        on_frame: Callable[[dict[str, Any]], None] | None = None,
        silent_after: float | None = SILENT_SECONDS,
    ) -> None:
        for p in dice_profiles:
            if p not in PROFILES:
                raise BadParameter(f"unknown TUIO profile '{p}' (known: {', '.join(PROFILES)})")
        self.live = LiveDice(dice, params, rules, borg_faces, borg_pips)
        self.params = self.live.params
        self.dice_profiles = dice_profiles
        self.grace = grace
        self.retain_distance = retain_distance
        self.jump = jump
        self.confirm_move = confirm_move
        self.touch_limit = touch_limit
        self.on_frame = on_frame
        self.stale_velocity = 0.1
        self.receiver = TuioReceiver(self._commit, silent_after=silent_after)
        self.stats = self.receiver.stats
        self.sources = self.receiver.sources
        self.bindings: dict[tuple[str, str, int], str] = {}  # (source, profile, sid) -> key
        self.tracks: dict[str, _Track] = {}
        self._anon = 0
        self.last_report: dict[str, Any] | None = None

    @property
    def engine(self) -> FormationEngine:
        return self.live.engine

    @property
    def values(self) -> dict[str, int]:
        return self.live.values

    def set_value(self, die: str, value: int) -> None:
        """A value rolled and entered by the players."""
        self.live.set_value(die, value)

    def feed(self, data: bytes, sender: str, now: float) -> None:
        """One UDP datagram from `sender` ("host:port") received at time `now` (seconds)."""
        self.receiver.feed(data, sender, now)

    # -- from contacts to dice -----------------------------------------------------------------
    def _identify(self, source: str, obj: TuioObject) -> str:
        bind = (source, obj.profile, obj.session)
        if bind in self.bindings:
            return self.bindings[bind]
        key: str
        if obj.class_id is not None:
            key = self.live.name_of(obj.class_id)
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
        self.receiver.expire(now)  # a silent source's dice leave (tuio module doc)
        present: set[str] = set()
        for (src, prof), frame in sorted(self.sources.items()):
            if prof not in self.dice_profiles:
                continue
            committing = (src, prof) == (source, profile)
            for obj in frame.objects.values():
                key = self._identify(src, obj)
                present.add(key)
                # only the source committing now moves dice: another's last frame, however old,
                # keeps its dice on the table (until that source falls silent) but never pulls
                # a die back to where an old session saw it
                fresh = obj.fresh and committing
                x, y = obj.x * TABLE_WIDTH, obj.y * TABLE_DEPTH
                tr = self.tracks.get(key)
                if tr is None:
                    tr = _Track(key, x, y, now, anonymous=obj.class_id is None)
                    self.tracks[key] = tr
                elif fresh and self._held_back(tr, x, y):
                    pass  # one frame's far place for a resting die: wait for a second frame
                elif fresh and self._unconfirmed(key, tr, x, y, obj.vx, obj.vy, now):
                    pass  # a resting die's first frames away: wait for confirm_move seconds
                elif fresh or tr.lost_at is not None:
                    tr.away = None
                    self._place(tr, x, y, obj.vx if fresh else 0.0, obj.vy if fresh else 0.0, now)
                tr.lost_at = None
        self._forget_absent(present, now)
        layout = self._update_engine(now)
        self.last_report = self.report(layout, source, profile, fseq, now, self._touches())
        if self.on_frame is not None:
            self.on_frame(self.last_report)

    def _forget_absent(self, present: set[str], now: float) -> None:
        """Bindings of session ids no longer alive go; dice not `present` are lost from `now`
        and leave once lost for longer than `grace`."""
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

    def _held_back(self, tr: _Track, x: float, y: float) -> bool:
        """Whether a fresh place (x, y) for `tr` is held back as a possible glitch."""
        resting = tr.lost_at is None and tr.vx == 0.0 and tr.vy == 0.0
        if not resting or math.hypot(x - tr.x, y - tr.y) <= self.jump:
            tr.jump = None
            return False
        if tr.jump is not None and math.hypot(x - tr.jump[0], y - tr.jump[1]) <= self.jump:
            tr.jump = None  # a second frame agrees: the die really moved
            return False
        tr.jump = (x, y)
        return True

    def _place(self, tr: _Track, x: float, y: float, tvx: float, tvy: float, now: float) -> None:
        """Move `tr` to (x, y) at `now`: our velocity estimate, or the tracker's (`tvx`, `tvy`
        in TUIO units a second) when it sends one."""
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
        if tvx or tvy:  # the tracker's velocity, if any
            tr.vx, tr.vy = tvx * TABLE_WIDTH, tvy * TABLE_DEPTH

    def _unconfirmed(self, key: str, tr: _Track, x: float, y: float, tvx: float, tvy: float,
                     now: float) -> bool:
        """Whether a fresh place (x, y) of a die the engine has at rest is held back until the
        die has been away from its resting place for `confirm_move` seconds (module doc)."""
        engine_track = self.engine.tracks.get(key)
        rest = engine_track.anchor if engine_track is not None else None
        if (rest is None or self.confirm_move <= 0
                or math.hypot(x - rest[0], y - rest[1]) <= self.params.jitter):
            tr.away = None
            return False
        since = tr.away[0] if tr.away is not None else now
        if now - since >= self.confirm_move - 1e-9:  # frame times are sums of floats
            tr.away = None
            return False
        tr.away = (since, x, y, tvx, tvy)
        return True

    def _confirm_due(self, now: float) -> None:
        """Moves whose confirm_move time is up while the tracker said nothing more: the die
        lies where the tracker last put it."""
        for tr in self.tracks.values():
            if (tr.away is not None and tr.lost_at is None
                    and now - tr.away[0] >= self.confirm_move - 1e-9):
                _, x, y, tvx, tvy = tr.away
                tr.away = None
                self._place(tr, x, y, tvx, tvy, now)

    def contacts(self) -> int:
        """Contacts alive now, of every profile and source (what the touch limit counts)."""
        return sum(len(f.objects) for f in self.sources.values())

    def _touches(self) -> int:
        return sum(len(f.objects) for (_, prof), f in self.sources.items()
                   if prof == "2Dcur" and prof not in self.dice_profiles)

    def _update_engine(self, now: float) -> Layout:
        self._confirm_due(now)
        for tr in self.tracks.values():
            if now - tr.t >= self.stale_velocity:
                tr.vx = tr.vy = 0.0  # nothing heard for a while: the die lies still
        sightings = [Sighting(k, tr.x, tr.y, tr.vx if tr.lost_at is None else 0.0,
                              tr.vy if tr.lost_at is None else 0.0)
                     for k, tr in sorted(self.tracks.items())]
        return self.live.update(sightings, now)

    def tick(self, now: float) -> dict[str, Any] | None:
        """Time passes without a packet (trackers go quiet while dice lie still): let dice
        settle and the lost ones expire. Returns (and reports) a report if the layout changed."""
        if self.receiver.expire(now):  # a silent source's dice are lost from now
            self._forget_absent({self.bindings[(src, prof, sid)]
                                 for (src, prof), f in self.sources.items()
                                 if prof in self.dice_profiles for sid in f.objects
                                 if (src, prof, sid) in self.bindings}, now)
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

    def enter_value(self, die: str, value: int, now: float) -> dict[str, Any]:
        """A value the players entered on the table (checked by `LiveDice.enter_value`: a die of
        this table, one of its faces); returns (and reports) the table scored anew."""
        self.live.enter_value(die, value)
        report = self.report(self.engine.layout(), "value", "", 0, now, self._touches())
        report["value_entered"] = {"die": die, "value": value}
        self.last_report = report
        if self.on_frame is not None:
            self.on_frame(report)
        return report

    def die_info(self, key: str) -> DieInfo:
        return self.live.die_info(key)

    def score(self, layout: Layout) -> TableScore:
        return self.live.score(layout)

    def render(self, path: str | Path) -> Path:
        """Draw the live table (origin top left, as the tracker sees it)."""
        return self.live.render(path)

    def report(self, layout: Layout, source: str, profile: str, fseq: int, now: float,
               touches: int) -> dict[str, Any]:
        velocities = {k: (tr.vx, tr.vy) for k, tr in self.tracks.items()}
        return {
            "frame": self.stats.frames, "source": source, "profile": profile, "fseq": fseq,
            "t": round(now, 6), **self.live.describe(layout, velocities),
            "touches": touches, "contacts": self.contacts(), "touch_limit": self.touch_limit,
            "malformed": self.stats.malformed,
            "late_frames": self.stats.late_frames,
        }
