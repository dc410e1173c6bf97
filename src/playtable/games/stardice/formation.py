"""The formation engine: from die positions to connections, formations, strings and singles.

This is the table software the seed describes, iteration by iteration (seed 002):

* iteration 1: dice "close enough" connect, "except for dice that already have two
  connections"; close enough is "about a quarter of the screen" (`connect_range`, 0.25 of the
  table width);
* iteration 2: never more than two connections; no flicker for pairs at the edge of the range
  (hysteresis: an edge is made within `connect_range` and kept until `connect_range +
  hysteresis`); open shapes white, closed shapes coloured (render);
* iteration 3/4: small movements are discarded (`jitter`); weird shapes avoided: connections
  never cross, angle check;
* iteration 5: "Connections between dice should not be formed until the die has stopped moving"
  (a die must stay within `jitter` of one point, at a speed under `stop_speed` when a speed is
  known, for `settle_time` seconds);
* iteration 6 removed the angle check; iteration 7: "Any dice that move are automatically
  disconnected from their shapes" and "Re-add angle check, but only for very small angles"
  (`min_angle_deg`, 15 degrees).

Units: table units are fractions of the table's width (the table is 1.0 wide and 0.75 deep, the
4:3 of both the 12" x 9" kiosk and the Surface); times are seconds.

Which pairs connect when several compete (documented and deterministic): existing connections
are kept while they last (a shorter newcomer never steals a place); then every candidate pair of
settled dice within `connect_range`, both with fewer than two connections, is considered in
order of increasing distance, ties broken by the pair of ids in text order; a candidate is
accepted unless one of its dice has meanwhile reached two connections, it would cross an
accepted connection, or it would make an angle under `min_angle_deg` with a connection at a
shared die. The result depends only on the positions, the ids and the history of connections,
never on the order the dice are listed in.

Closed components (every die with two connections) of three or more dice are formations; other
components of two or more dice are strings; dice with no connection are singles.

Two dice lying so close that the table sees them as one (`merge_distance`, centre to centre) are
one detected object: `detect` groups them, and the object's `members` carry every die, so the
scoring can apply the final rule (both dice count for ownership, the formation is not re-scored).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from playtable.core.errors import BadPosition

TABLE_WIDTH = 1.0
TABLE_DEPTH = 0.75


@dataclass(frozen=True)
class FormationParams:
    """Every threshold of the engine, in table units (fractions of the table width) and seconds."""

    connect_range: float = 0.25
    """Seed iteration 1: "close enough" is "about a quarter of the screen"."""
    hysteresis: float = 0.02
    """Iteration 2 flicker fix: an existing connection breaks only beyond range + hysteresis."""
    min_angle_deg: float = 15.0
    """Iteration 7: reject "very small angles" between two connections at one die (0 = off)."""
    jitter: float = 0.004
    """Iteration 3/4: movements under this distance from a die's resting point are ignored."""
    stop_speed: float = 0.02
    """Iteration 5: a die faster than this (table widths / s, when a speed is known) is moving."""
    settle_time: float = 0.3
    """Iteration 5: a die must be still this long before it may connect."""
    merge_distance: float = 0.036
    """Dice whose centres are closer than this are detected as a single die (final rules)."""
    check_crossing: bool = True
    """Iteration 4: connections never cross."""
    disconnect_on_move: bool = True
    """Iteration 7: a die that moves loses its connections (before: only distance breaks them)."""
    connect_while_moving: bool = False
    """Before iteration 5 a moving die could connect."""
    max_degree: int = 2
    """Iteration 1: at most two connections per die."""

    @property
    def break_range(self) -> float:
        return self.connect_range + self.hysteresis


@dataclass(frozen=True)
class Sighting:
    """One object the table sees in a frame. Velocity in table widths per second, if known."""

    id: str
    x: float
    y: float
    vx: float | None = None
    vy: float | None = None

    @property
    def speed(self) -> float | None:
        if self.vx is None or self.vy is None:
            return None
        return math.hypot(self.vx, self.vy)


@dataclass(frozen=True)
class Detected:
    """A detected object: one die, or several dice lying so close that the table sees one."""

    id: str
    x: float
    y: float
    members: tuple[str, ...]


def detect(dice: Iterable[tuple[str, float, float]], merge_distance: float) -> list[Detected]:
    """Group dice whose centres are within `merge_distance` (transitively) into one object at
    their mean position. The object's id joins the member ids with '+'. Sorted by id."""
    return [Detected(*g) for g in detect_groups(dice, merge_distance)]


Group = tuple[str, float, float, tuple[str, ...]]
"""A detected object as a plain tuple: (id, x, y, members)."""


def detect_groups(dice: Iterable[tuple[str, float, float]], merge_distance: float
                  ) -> list[Group]:
    """`detect` as tuples (a throw's frames build many of them)."""
    items = sorted(dice)
    n = len(items)
    # The pairs closer than merge_distance, found by a sweep along x: hypot(dx, dy) is never
    # below |dx| (math.hypot is never below the true value's floor), so once dx reaches the
    # distance no later die (in x order) can be close. Each close pair is tested as the plain
    # double loop tests it (hypot of the lower index minus the higher), and the groups depend
    # only on which pairs are close, not on the order they are found in.
    by_x = sorted([(item[1], i) for i, item in enumerate(items)])
    if not math.isfinite(sum([x for x, _ in by_x])):  # no order to sweep in: every pair
        by_x = [(-math.inf, i) for i in range(n)]
    close = []
    hypot = math.hypot
    for a in range(n):
        xa, i = by_x[a]
        for b in range(a + 1, n):
            xb, j = by_x[b]
            if xb - xa >= merge_distance:
                break
            lo, hi = (items[i], items[j]) if i < j else (items[j], items[i])
            if hypot(lo[1] - hi[1], lo[2] - hi[2]) < merge_distance:
                close.append((min(i, j), max(i, j)))
    if not close:  # every die alone: its own object, at its mean position (0.0 + x) / 1
        return [(k, 0.0 + x, 0.0 + y, (k,)) for k, x, y in items]
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in close:
        parent[find(j)] = find(i)
    groups: dict[int, list[tuple[str, float, float]]] = {}
    for i, item in enumerate(items):
        groups.setdefault(find(i), []).append(item)
    out = []
    for group in groups.values():
        members = tuple(sorted(g[0] for g in group))
        x = sum(g[1] for g in group) / len(group)
        y = sum(g[2] for g in group) / len(group)
        out.append(("+".join(members), x, y, members))
    out.sort(key=_first)
    return out


def _first(group: Group) -> str:
    return group[0]


# -- geometry ------------------------------------------------------------------------------------

_EPS = 1e-12


def _orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> float:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def _on_segment(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> bool:
    return (min(ax, bx) - _EPS <= px <= max(ax, bx) + _EPS
            and min(ay, by) - _EPS <= py <= max(ay, by) + _EPS)


Point = tuple[float, float]


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Do segments ab and cd cross? Segments sharing an endpoint only touch (not a crossing)
    unless they overlap along a stretch (collinear, same direction)."""
    shared = {a, b} & {c, d}
    if shared:
        if len(shared) == 2:
            return True  # the same segment
        p = shared.pop()
        u = b if a == p else a
        v = d if c == p else c
        ux, uy = u[0] - p[0], u[1] - p[1]
        vx, vy = v[0] - p[0], v[1] - p[1]
        return abs(ux * vy - uy * vx) <= _EPS * max(1.0, math.hypot(ux, uy) * math.hypot(vx, vy)) \
            and ux * vx + uy * vy > 0
    d1 = _orient(c[0], c[1], d[0], d[1], a[0], a[1])
    d2 = _orient(c[0], c[1], d[0], d[1], b[0], b[1])
    d3 = _orient(a[0], a[1], b[0], b[1], c[0], c[1])
    d4 = _orient(a[0], a[1], b[0], b[1], d[0], d[1])
    if ((d1 > _EPS and d2 < -_EPS) or (d1 < -_EPS and d2 > _EPS)) and \
            ((d3 > _EPS and d4 < -_EPS) or (d3 < -_EPS and d4 > _EPS)):
        return True
    # collinear or touching cases: an endpoint lying on the other segment
    return (
        (abs(d1) <= _EPS and _on_segment(c[0], c[1], d[0], d[1], a[0], a[1]))
        or (abs(d2) <= _EPS and _on_segment(c[0], c[1], d[0], d[1], b[0], b[1]))
        or (abs(d3) <= _EPS and _on_segment(a[0], a[1], b[0], b[1], c[0], c[1]))
        or (abs(d4) <= _EPS and _on_segment(a[0], a[1], b[0], b[1], d[0], d[1]))
    )


def angle_between(p: Point, a: Point, b: Point) -> float:
    """The angle at p between the rays p->a and p->b, in degrees (0..180)."""
    ux, uy = a[0] - p[0], a[1] - p[1]
    vx, vy = b[0] - p[0], b[1] - p[1]
    return math.degrees(math.atan2(abs(ux * vy - uy * vx), ux * vx + uy * vy))


Edge = tuple[str, str]


def edge_of(a: str, b: str) -> Edge:
    return (a, b) if a < b else (b, a)


# -- the layout: what the engine reports ------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The connections and shapes of one moment. Cycles and paths are listed in a canonical
    order: a formation starts at its smallest id and goes first to the smaller of its two
    neighbours; a string starts at its smaller end."""

    positions: Mapping[str, Point]
    settled: frozenset[str]
    edges: tuple[Edge, ...]
    formations: tuple[tuple[str, ...], ...]
    strings: tuple[tuple[str, ...], ...]
    singles: tuple[str, ...]

    def degree(self, obj: str) -> int:
        return sum(1 for e in self.edges if obj in e)

    def to_json(self) -> dict[str, Any]:
        return {
            "positions": {k: [v[0], v[1]] for k, v in sorted(self.positions.items())},
            "settled": sorted(self.settled),
            "edges": [list(e) for e in self.edges],
            "formations": [list(f) for f in self.formations],
            "strings": [list(s) for s in self.strings],
            "singles": list(self.singles),
        }


def components(ids: Iterable[str], edges: Iterable[Edge]) -> tuple[
        tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Split a graph of maximum degree two into cycles, paths and isolated vertices."""
    adj: dict[str, list[str]] = {i: [] for i in ids}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    for nbrs in adj.values():
        nbrs.sort()
    seen: set[str] = set()
    cycles: list[tuple[str, ...]] = []
    paths: list[tuple[str, ...]] = []
    singles: list[str] = []
    for start in sorted(adj):
        if start in seen:
            continue
        if not adj[start]:
            seen.add(start)
            singles.append(start)
            continue
        # collect the component
        comp = {start}
        stack = [start]
        while stack:
            v = stack.pop()
            for w in adj[v]:
                if w not in comp:
                    comp.add(w)
                    stack.append(w)
        seen |= comp
        ends = sorted(v for v in comp if len(adj[v]) == 1)
        if ends:
            walk = [ends[0]]
        else:
            first = min(comp)
            walk = [first, adj[first][0]]
        while True:
            v = walk[-1]
            prev = walk[-2] if len(walk) > 1 else None
            nxt = [w for w in adj[v] if w != prev]
            if not nxt or nxt[0] == walk[0]:
                break
            walk.append(nxt[0])
        if ends:
            paths.append(tuple(walk))
        else:
            cycles.append(tuple(walk))
    return tuple(cycles), tuple(paths), tuple(singles)


Formations = tuple[tuple[str, ...], ...]
"""Closed shapes, each listed as `Layout.formations` lists it."""

SeenTuple = tuple[str, float, float, float | None, float | None]
"""A sighting as a plain tuple: (id, x, y, vx, vy)."""


def _first_of(seen: SeenTuple) -> str:
    return seen[0]


_BOX_MARGIN = 1e-9
"""Far above segments_cross's tolerance (_EPS): boxes this far apart cannot touch."""


def _box(a: Point, b: Point) -> tuple[float, float, float, float]:
    """The segment ab's bounding box, grown by `_BOX_MARGIN`: (x0, y0, x1, y1)."""
    return (min(a[0], b[0]) - _BOX_MARGIN, min(a[1], b[1]) - _BOX_MARGIN,
            max(a[0], b[0]) + _BOX_MARGIN, max(a[1], b[1]) + _BOX_MARGIN)


def _signed_zero(x: float) -> tuple[float]:
    """A key for a zero coordinate that tells 0.0 from -0.0 (which compare equal)."""
    return (math.copysign(1.0, x),)


# -- the engine -----------------------------------------------------------------------------------


@dataclass
class _Track:
    x: float
    y: float
    anchor: Point | None  # the resting point while settled; None while moving
    still: Point  # where the die has been still since `still_since`
    still_since: float | None
    vx: float = 0.0
    vy: float = 0.0
    last_t: float = 0.0


@dataclass
class FormationEngine:
    """Stateful: feed it one frame at a time (every object the table sees, and the time), read
    the layout back. Deterministic; its state round-trips through JSON exactly."""

    params: FormationParams = field(default_factory=FormationParams)
    tracks: dict[str, _Track] = field(default_factory=dict)
    edges: set[Edge] = field(default_factory=set)
    time: float = 0.0
    # The last connection pass and shapes with what they were computed from (see `_connect`
    # and `_components`): a cache, never part of the state.
    _connect_memo: tuple[Any, frozenset[Edge]] | None = field(
        default=None, init=False, repr=False, compare=False)
    _layout_memo: tuple[Any, tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...],
                                   tuple[str, ...]]] | None = field(
        default=None, init=False, repr=False, compare=False)
    # For each settled die, the sighting (the very tuple) that last found it within the
    # jitter of its resting point, with its track and anchor: the same tuple again is
    # ignored the same way without measuring (a throw's frames repeat a resting die's tuple).
    _still: dict[str, tuple[SeenTuple, _Track, Point]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    # -- frames --------------------------------------------------------------------------------
    def update(self, sightings: Sequence[Sighting], t: float) -> Layout:
        """One frame: `sightings` is everything the table sees now (objects not listed are
        gone), `t` the time in seconds (never decreasing)."""
        self.advance(sightings, t)
        return self.layout()

    def advance(self, sightings: Sequence[Sighting], t: float) -> None:
        """`update` without reading the layout back (a throw's frames, whose layouts nobody
        reads)."""
        self.advance_seen([(s.id, s.x, s.y, s.vx, s.vy) for s in sightings], t)

    def advance_seen(self, seen: Sequence[SeenTuple], t: float) -> None:
        """`advance` with each sighting as a plain tuple (id, x, y, vx, vy)."""
        p = self.params
        tracks = self.tracks
        dt = t - self.time if tracks else 0.0
        self.time = max(self.time, t)
        present = {s[0] for s in seen}
        if len(present) != len(tracks) or not present.issuperset(tracks):
            for gone in [k for k in tracks if k not in present]:
                del tracks[gone]
        self.edges = {e for e in self.edges if e[0] in present and e[1] in present}
        jitter, stop_speed, settle = p.jitter, p.stop_speed, p.settle_time - 1e-9
        hypot = math.hypot
        still = self._still
        for s in sorted(seen, key=_first_of):
            sid, x, y, vx, vy = s
            tr = tracks.get(sid)
            memo = still.get(sid)
            if memo is not None and memo[0] is s and memo[1] is tr and tr.anchor is memo[2]:
                # the very sighting that last left this settled die where it was: again
                tr.last_t = t
                tr.vx = tr.vy = 0.0
                continue
            speed = None if vx is None or vy is None else hypot(vx, vy)
            fast = speed is not None and speed > stop_speed
            if tr is None:
                tr = _Track(x, y, None, (x, y), None if fast else t, last_t=t)
                tracks[sid] = tr
            else:
                if dt > 0 and speed is None:
                    tr.vx, tr.vy = (x - tr.x) / dt, (y - tr.y) / dt
                if tr.anchor is not None:
                    ax, ay = tr.anchor
                    if hypot(x - ax, y - ay) <= jitter and not fast:
                        tr.last_t = t
                        tr.vx = tr.vy = 0.0
                        still[sid] = (s, tr, tr.anchor)
                        continue  # jitter: ignored, the die stays at its resting point
                    tr.anchor = None
                    if p.disconnect_on_move:
                        self.edges = {e for e in self.edges if sid not in e}
                    tr.still, tr.still_since = (x, y), (None if fast else t)
                elif (hypot(x - tr.still[0], y - tr.still[1]) <= jitter
                      and not fast):
                    if tr.still_since is None:
                        tr.still_since = t
                else:
                    tr.still, tr.still_since = (x, y), (None if fast else t)
                tr.x, tr.y, tr.last_t = x, y, t
            if speed is not None:
                tr.vx, tr.vy = vx or 0.0, vy or 0.0
            if tr.still_since is not None and t - tr.still_since >= settle:
                tr.anchor = tr.still
                tr.x, tr.y = tr.still
                tr.vx = tr.vy = 0.0
        self._connect()

    def _pos(self, obj: str) -> Point:
        tr = self.tracks[obj]
        return (tr.x, tr.y)

    def _connect_inputs(self) -> Any:
        """Everything `_connect` reads: the connections, and the place and state of every die
        that is settled or connected (with `connect_while_moving`, of every die). A die moving
        on its own is not read (it is neither eligible nor an end of a connection)."""
        p = self.params
        ends = {k for e in self.edges for k in e}
        return (p, frozenset(self.edges), tuple(
            (k, tr.x or _signed_zero(tr.x), tr.y or _signed_zero(tr.y), tr.anchor is not None)
            for k, tr in self.tracks.items()
            if tr.anchor is not None or k in ends or p.connect_while_moving))

    def _connect(self) -> None:
        """Connections from positions (see the module docstring). The same inputs give the same
        connections, so a frame where nothing `_connect` reads has changed since the last
        pass (a throw's die rolling on its own, say) reuses that pass's result."""
        key = self._connect_inputs()
        memo = self._connect_memo
        if memo is not None and memo[0] == key:
            self.edges = set(memo[1])
            return
        self._connect_pass()
        self._connect_memo = (key, frozenset(self.edges))

    def _connect_pass(self) -> None:
        p = self.params
        pos = {k: (tr.x, tr.y) for k, tr in self.tracks.items()}
        # keep existing connections while within the break range (hysteresis)
        kept = set()
        break_range = p.break_range
        for a, b in sorted(self.edges):
            (ax, ay), (bx, by) = pos[a], pos[b]
            if math.hypot(ax - bx, ay - by) <= break_range:
                kept.add((a, b))
        self.edges = kept
        degree: dict[str, int] = dict.fromkeys(self.tracks, 0)
        nbrs: dict[str, list[str]] = {k: [] for k in self.tracks}
        for a, b in kept:
            degree[a] += 1
            degree[b] += 1
            nbrs[a].append(b)
            nbrs[b].append(a)
        max_degree = p.max_degree
        eligible = sorted(
            k for k, tr in self.tracks.items()
            if degree[k] < max_degree and (tr.anchor is not None or p.connect_while_moving)
        )
        r = p.connect_range
        candidates: list[tuple[float, str, str]] = []
        for i, a in enumerate(eligible):
            ax, ay = pos[a]
            for b in eligible[i + 1:]:
                bx, by = pos[b]
                dx, dy = ax - bx, ay - by
                if abs(dx) > r or abs(dy) > r:
                    continue
                d = math.hypot(dx, dy)
                if d <= r and (a, b) not in kept:
                    candidates.append((d, a, b))
        candidates.sort()
        placed = sorted(kept)
        # each placed connection's bounding box: segments whose boxes lie apart (by far more
        # than segments_cross's tolerance) neither cross nor touch, so the test is skipped
        boxes = [_box(pos[c], pos[d]) for c, d in placed]
        min_angle = p.min_angle_deg
        for _, a, b in candidates:
            if degree[a] >= max_degree or degree[b] >= max_degree:
                continue
            pa, pb = pos[a], pos[b]
            if min_angle > 0 and (
                any(angle_between(pa, pb, pos[c]) < min_angle for c in nbrs[a])
                or any(angle_between(pb, pa, pos[c]) < min_angle for c in nbrs[b])
            ):
                continue
            if p.check_crossing:
                x0, y0, x1, y1 = box = _box(pa, pb)
                if any(not (bx0 > x1 or x0 > bx1 or by0 > y1 or y0 > by1)
                       and segments_cross(pa, pb, pos[c], pos[d])
                       for (c, d), (bx0, by0, bx1, by1) in zip(placed, boxes, strict=True)):
                    continue
            else:
                box = (0.0, 0.0, 0.0, 0.0)
            placed.append((a, b))
            boxes.append(box)
            degree[a] += 1
            degree[b] += 1
            nbrs[a].append(b)
            nbrs[b].append(a)
        self.edges = set(placed)

    # -- reading -------------------------------------------------------------------------------
    def layout(self) -> Layout:
        cycles, paths, singles = self._components()
        return Layout(
            positions={k: (tr.x, tr.y) for k, tr in sorted(self.tracks.items())},
            settled=frozenset(k for k, tr in self.tracks.items() if tr.anchor is not None),
            edges=tuple(sorted(self.edges)),
            formations=cycles,
            strings=paths,
            singles=singles,
        )

    def formations(self) -> Formations:
        """`layout().formations` without the rest of the layout."""
        return self._components()[0]

    def _components(self) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...],
                                   tuple[str, ...]]:
        """`components` of the dice and connections. They depend on the ids and the
        connections only, which change far less often than the layout is read (an observation,
        the score and the metrics each read it): the last answer is kept with its inputs."""
        key = (frozenset(self.edges), frozenset(self.tracks))
        memo = self._layout_memo
        if memo is not None and memo[0] == key:
            return memo[1]
        shapes = components(self.tracks, self.edges)
        self._layout_memo = (key, shapes)
        return shapes

    def is_settled(self, obj: str) -> bool:
        return self.tracks[obj].anchor is not None

    def velocity(self, obj: str) -> Point:
        tr = self.tracks[obj]
        return (tr.vx, tr.vy)

    # -- persistence ---------------------------------------------------------------------------
    def copy(self) -> FormationEngine:
        """The same engine as `from_json(params, to_json())`, without the JSON."""
        tracks = {k: _Track(tr.x, tr.y, tr.anchor, tr.still, tr.still_since, tr.vx, tr.vy,
                            tr.last_t) for k, tr in self.tracks.items()}
        return FormationEngine(self.params, tracks, set(self.edges), self.time)

    def to_json(self) -> dict[str, Any]:
        return {
            "time": self.time,
            "tracks": {
                k: {
                    "x": tr.x, "y": tr.y,
                    "anchor": list(tr.anchor) if tr.anchor is not None else None,
                    "still": list(tr.still), "still_since": tr.still_since,
                    "vx": tr.vx, "vy": tr.vy, "last_t": tr.last_t,
                }
                for k, tr in sorted(self.tracks.items())
            },
            "edges": [list(e) for e in sorted(self.edges)],
        }

    @classmethod
    def from_json(cls, params: FormationParams, data: Any) -> FormationEngine:
        if not isinstance(data, dict):
            raise BadPosition("'engine' must be an object")
        try:
            tracks = {}
            for k, t in dict(data.get("tracks", {})).items():
                anchor = t.get("anchor")
                tracks[str(k)] = _Track(
                    float(t["x"]), float(t["y"]),
                    (float(anchor[0]), float(anchor[1])) if anchor is not None else None,
                    (float(t["still"][0]), float(t["still"][1])),
                    None if t.get("still_since") is None else float(t["still_since"]),
                    float(t.get("vx", 0.0)), float(t.get("vy", 0.0)), float(t.get("last_t", 0.0)),
                )
            edges = set()
            for e in data.get("edges", []):
                a, b = str(e[0]), str(e[1])
                if a not in tracks or b not in tracks or a == b:
                    raise BadPosition(f"engine edge {a}-{b} names an unknown die")
                edges.add(edge_of(a, b))
            return cls(params, tracks, edges, float(data.get("time", 0.0)))
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise BadPosition(f"malformed formation engine state: {err}") from None


def static_layout(points: Mapping[str, Point], params: FormationParams | None = None) -> Layout:
    """Connections of a layout seen at once with every die at rest (a fresh engine, one frame
    with zero velocities and enough time to settle)."""
    prm = params or FormationParams()
    engine = FormationEngine(prm)
    sightings = [Sighting(k, x, y, 0.0, 0.0) for k, (x, y) in points.items()]
    engine.update(sightings, 0.0)
    return engine.update(sightings, prm.settle_time)
