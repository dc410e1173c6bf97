"""The fast formation engine (`formation.py`: detection by a sweep, a connection pass skipped
while nothing it reads has changed, shapes kept while the connections stand) reports exactly
what the engine as first written reports (`ReferenceEngine`, `reference_detect` below, copied
from commit 209f1d4), frame after frame, on random tables under every variant's thresholds:
dice that appear, move, jitter, stop, settle, touch, leave and come back."""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pytest

from playtable.core.params import params_from_dict
from playtable.games.stardice.formation import (
    Detected,
    Edge,
    FormationEngine,
    FormationParams,
    Layout,
    Point,
    Sighting,
    angle_between,
    components,
    detect,
    segments_cross,
)
from playtable.games.stardice.params import VARIANTS, StarDiceParams


# -- the reference (commit 209f1d4) ----------------------------------------------------------------
def reference_detect(dice: Iterable[tuple[str, float, float]], merge_distance: float) -> list[Detected]:
    """Group dice whose centres are within `merge_distance` (transitively) into one object at
    their mean position. The object's id joins the member ids with '+'. Sorted by id."""
    items = sorted(dice)
    parent = list(range(len(items)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if math.hypot(items[i][1] - items[j][1], items[i][2] - items[j][2]) < merge_distance:
                parent[find(j)] = find(i)
    groups: dict[int, list[tuple[str, float, float]]] = {}
    for i, item in enumerate(items):
        groups.setdefault(find(i), []).append(item)
    out = []
    for group in groups.values():
        members = tuple(sorted(g[0] for g in group))
        x = sum(g[1] for g in group) / len(group)
        y = sum(g[2] for g in group) / len(group)
        out.append(Detected("+".join(members), x, y, members))
    return sorted(out, key=lambda d: d.id)


# -- geometry ------------------------------------------------------------------------------------

_EPS = 1e-12


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
class ReferenceEngine:
    """Stateful: feed it one frame at a time (every object the table sees, and the time), read
    the layout back. Deterministic; its state round-trips through JSON exactly."""

    params: FormationParams = field(default_factory=FormationParams)
    tracks: dict[str, _Track] = field(default_factory=dict)
    edges: set[Edge] = field(default_factory=set)
    time: float = 0.0

    # -- frames --------------------------------------------------------------------------------
    def update(self, sightings: Sequence[Sighting], t: float) -> Layout:
        """One frame: `sightings` is everything the table sees now (objects not listed are
        gone), `t` the time in seconds (never decreasing)."""
        p = self.params
        dt = t - self.time if self.tracks else 0.0
        self.time = max(self.time, t)
        present = {s.id for s in sightings}
        for gone in [k for k in self.tracks if k not in present]:
            del self.tracks[gone]
        self.edges = {e for e in self.edges if e[0] in present and e[1] in present}
        for s in sorted(sightings, key=lambda s: s.id):
            speed = s.speed
            fast = speed is not None and speed > p.stop_speed
            tr = self.tracks.get(s.id)
            if tr is None:
                tr = _Track(s.x, s.y, None, (s.x, s.y), None if fast else t, last_t=t)
                self.tracks[s.id] = tr
            else:
                if dt > 0 and speed is None:
                    tr.vx, tr.vy = (s.x - tr.x) / dt, (s.y - tr.y) / dt
                if tr.anchor is not None:
                    ax, ay = tr.anchor
                    if math.hypot(s.x - ax, s.y - ay) <= p.jitter and not fast:
                        tr.last_t = t
                        tr.vx = tr.vy = 0.0
                        continue  # jitter: ignored, the die stays at its resting point
                    tr.anchor = None
                    if p.disconnect_on_move:
                        self.edges = {e for e in self.edges if s.id not in e}
                    tr.still, tr.still_since = (s.x, s.y), (None if fast else t)
                elif (math.hypot(s.x - tr.still[0], s.y - tr.still[1]) <= p.jitter
                      and not fast):
                    if tr.still_since is None:
                        tr.still_since = t
                else:
                    tr.still, tr.still_since = (s.x, s.y), (None if fast else t)
                tr.x, tr.y, tr.last_t = s.x, s.y, t
            if speed is not None:
                tr.vx, tr.vy = s.vx or 0.0, s.vy or 0.0
            if tr.still_since is not None and t - tr.still_since >= p.settle_time - 1e-9:
                tr.anchor = tr.still
                tr.x, tr.y = tr.still
                tr.vx = tr.vy = 0.0
        self._connect()
        return self.layout()

    def _pos(self, obj: str) -> Point:
        tr = self.tracks[obj]
        return (tr.x, tr.y)

    def _connect(self) -> None:
        p = self.params
        # keep existing connections while within the break range (hysteresis)
        kept = set()
        for a, b in sorted(self.edges):
            (ax, ay), (bx, by) = self._pos(a), self._pos(b)
            if math.hypot(ax - bx, ay - by) <= p.break_range:
                kept.add((a, b))
        self.edges = kept
        degree: dict[str, int] = dict.fromkeys(self.tracks, 0)
        nbrs: dict[str, list[str]] = {k: [] for k in self.tracks}
        for a, b in kept:
            degree[a] += 1
            degree[b] += 1
            nbrs[a].append(b)
            nbrs[b].append(a)
        eligible = sorted(
            k for k, tr in self.tracks.items()
            if degree[k] < p.max_degree and (tr.anchor is not None or p.connect_while_moving)
        )
        r = p.connect_range
        candidates: list[tuple[float, str, str]] = []
        for i, a in enumerate(eligible):
            ax, ay = self._pos(a)
            for b in eligible[i + 1:]:
                bx, by = self._pos(b)
                dx, dy = ax - bx, ay - by
                if abs(dx) > r or abs(dy) > r:
                    continue
                d = math.hypot(dx, dy)
                if d <= r and (a, b) not in kept:
                    candidates.append((d, a, b))
        candidates.sort()
        placed = sorted(kept)
        for _, a, b in candidates:
            if degree[a] >= p.max_degree or degree[b] >= p.max_degree:
                continue
            pa, pb = self._pos(a), self._pos(b)
            if p.min_angle_deg > 0 and (
                any(angle_between(pa, pb, self._pos(c)) < p.min_angle_deg for c in nbrs[a])
                or any(angle_between(pb, pa, self._pos(c)) < p.min_angle_deg for c in nbrs[b])
            ):
                continue
            if p.check_crossing and any(
                segments_cross(pa, pb, self._pos(c), self._pos(d)) for c, d in placed
            ):
                continue
            placed.append((a, b))
            degree[a] += 1
            degree[b] += 1
            nbrs[a].append(b)
            nbrs[b].append(a)
        self.edges = set(placed)

    # -- reading -------------------------------------------------------------------------------
    def layout(self) -> Layout:
        cycles, paths, singles = components(self.tracks, self.edges)
        return Layout(
            positions={k: (tr.x, tr.y) for k, tr in sorted(self.tracks.items())},
            settled=frozenset(k for k, tr in self.tracks.items() if tr.anchor is not None),
            edges=tuple(sorted(self.edges)),
            formations=cycles,
            strings=paths,
            singles=singles,
        )


# -- random tables, frame by frame ------------------------------------------------------------------

FORMATION_PARAMS = sorted(
    {params_from_dict(StarDiceParams, dict(v)).formation_params() for v in VARIANTS.values()}
    | {FormationParams(connect_range=0.4, min_angle_deg=30.0), FormationParams(hysteresis=0.0)},
    key=repr)


@dataclass
class Die:
    id: str
    x: float
    y: float
    vx: float = 0.0
    vy: float = 0.0
    gone: bool = False
    history: list[tuple[float, float]] = field(default_factory=list)


def frames(rng: random.Random, n_frames: int = 60) -> Iterable[list[tuple[str, float, float,
                                                                          float, float]]]:
    """Positions and velocities frame by frame: dice thrown in that roll and stop, dice knocked,
    dice jittering within and just beyond the jitter, dice laid touching (one object), dice
    leaving the surface and coming back, a die exactly on the edge (0.0 and -0.0)."""
    dice: list[Die] = []
    for i in range(rng.randrange(2, 12)):
        if dice and rng.random() < 0.25:
            other = rng.choice(dice)
            a = rng.uniform(0, 2 * math.pi)
            gap = rng.choice([0.02, 0.035, 0.0361, 0.25, 0.26, 0.27])
            dice.append(Die(f"d{i}", other.x + gap * math.cos(a), other.y + gap * math.sin(a)))
        else:
            dice.append(Die(f"d{i}", rng.uniform(0, 1), rng.uniform(0, 0.75)))
    if rng.random() < 0.2:
        dice.append(Die("edge", rng.choice([0.0, -0.0]), rng.uniform(0, 0.75)))
    for _ in range(n_frames):
        for d in dice:
            r = rng.random()
            if r < 0.05:  # a throw or a knock
                speed, a = rng.uniform(0.05, 2.0), rng.uniform(0, 2 * math.pi)
                d.vx, d.vy = speed * math.cos(a), speed * math.sin(a)
            elif r < 0.08:
                d.gone = not d.gone
            elif r < 0.12:  # a small movement (within or just past the jitter)
                d.x += rng.choice([0.003, 0.0045, -0.002])
            d.x += d.vx * 0.1
            d.y += d.vy * 0.1
            d.vx *= 0.6
            d.vy *= 0.6
            if abs(d.vx) + abs(d.vy) < 0.01:
                d.vx = d.vy = 0.0
        yield [(d.id, d.x, d.y, d.vx, d.vy) for d in dice if not d.gone]


def seen(positions: list[tuple[str, float, float, float, float]], merge: float,
         velocities: bool) -> list[Sighting]:
    """What the table reports: the objects `detect` finds, with their dice's mean velocity
    (or none, as a live table's tracker that gives no speed)."""
    pos = {p[0]: p for p in positions if 0.0 <= p[1] <= 1.0 and 0.0 <= p[2] <= 0.75}
    objs = reference_detect([(k, p[1], p[2]) for k, p in pos.items()], merge)
    assert detect([(k, p[1], p[2]) for k, p in pos.items()], merge) == objs
    out = []
    for o in objs:
        if not velocities:
            out.append(Sighting(o.id, o.x, o.y))
            continue
        vx = sum(pos[m][3] for m in o.members) / len(o.members)
        vy = sum(pos[m][4] for m in o.members) / len(o.members)
        out.append(Sighting(o.id, o.x, o.y, vx, vy))
    return out


def state(engine: ReferenceEngine | FormationEngine) -> tuple[object, ...]:
    return (engine.time, sorted(engine.edges),
            {k: tuple(vars(tr).values()) for k, tr in engine.tracks.items()})


@pytest.mark.parametrize("params", FORMATION_PARAMS,
                         ids=[f"params{i}" for i in range(len(FORMATION_PARAMS))])
def test_random_frames_give_the_reference_layouts(params: FormationParams) -> None:
    rng = random.Random(zlib.crc32(repr(params).encode()))
    for game in range(12):
        velocities = game % 3 != 2
        ref, fast, by_tuples = ReferenceEngine(params), FormationEngine(params), \
            FormationEngine(params)
        t = 0.0
        for positions in frames(rng):
            t += rng.choice([0.1, 0.1, 0.3, 0.05])
            sightings = seen(positions, params.merge_distance, velocities)
            want = ref.update(sightings, t)
            got = fast.update(sightings, t)
            by_tuples.advance_seen([(s.id, s.x, s.y, s.vx, s.vy) for s in sightings], t)
            assert got == want and by_tuples.layout() == want
            assert repr(got) == repr(want)  # the same zeros (0.0 and -0.0) too
            assert state(fast) == state(ref) == state(by_tuples)


def test_detection_by_sweep_finds_every_close_pair() -> None:
    """Clusters, chains just under and at the merge distance, equal x, and coordinates that
    are not numbers (no order to sweep in)."""
    rng = random.Random(5)
    for _ in range(400):
        dice: list[tuple[str, float, float]] = []
        for i in range(rng.randrange(0, 25)):
            if dice and rng.random() < 0.5:
                _, x, y = rng.choice(dice)
                gap = rng.choice([0.0, 0.01, 0.0359999, 0.036, 0.036 + 1e-12, 0.05])
                a = rng.choice([0.0, math.pi / 2, rng.uniform(0, 2 * math.pi)])
                dice.append((f"d{i}", x + gap * math.cos(a), y + gap * math.sin(a)))
            else:
                dice.append((f"d{i}", rng.uniform(0, 1), rng.uniform(0, 0.75)))
        assert detect(dice, 0.036) == reference_detect(dice, 0.036)
    odd = [("a", math.nan, 0.1), ("b", 0.1, 0.1), ("c", 0.11, 0.1), ("d", math.inf, 0.2)]
    assert repr(detect(odd, 0.036)) == repr(reference_detect(odd, 0.036))



def test_a_throws_frames_read_incrementally_as_read_afresh() -> None:
    """`FrameReader` (a throw's frames, reusing the last frame's work for pieces whose position
    tuple is the same object) gives `frame_seen`'s sightings and the freshly rounded motion:
    pieces that stay, move, touch (merged objects), leave and come back, stones, pieces on the
    frame, positions that are not numbers."""
    from playtable.games.stardice.game import GAME

    state = GAME.new_state(None, 0)
    rng = random.Random(11)
    ids = [f"F.d20{c}" for c in "abcdef"] + [f"K.d6{c}" for c in "abc"] + ["borg", "K.t1"]
    for _ in range(60):
        reader = state.frame_reader()
        pos: dict[str, tuple[float, float, float, float]] = {}
        for k in ids:
            if rng.random() < 0.8:
                pos[k] = (rng.uniform(-0.05, 1.05), rng.uniform(-0.05, 0.8), 0.0, 0.0)
        for _ in range(30):
            nxt = dict(pos)
            for k in ids:
                r = rng.random()
                if r < 0.15 and nxt:  # lay it against another piece
                    other = nxt[rng.choice(sorted(nxt))]
                    gap = rng.choice([0.0, 0.01, 0.0359999, 0.036, 0.04])
                    a = rng.uniform(0, 2 * math.pi)
                    nxt[k] = (other[0] + gap * math.cos(a), other[1] + gap * math.sin(a),
                              rng.uniform(-1, 1), rng.uniform(-1, 1))
                elif r < 0.3:
                    nxt[k] = (rng.uniform(-0.05, 1.05), rng.uniform(-0.05, 0.8),
                              rng.choice([0.0, -0.0, rng.uniform(-1, 1)]), 0.0)
                elif r < 0.35:
                    nxt.pop(k, None)
                elif r < 0.37:
                    nxt[k] = (math.nan, 0.3, 0.0, 0.0)
            pos = dict(sorted(nxt.items()))
            want = state.frame_seen(pos)
            got = reader.seen(pos)
            assert repr(got) == repr(want)
            assert repr(reader.motion(pos)) == repr([[k, round(v[0], 4), round(v[1], 4)]
                                                     for k, v in sorted(pos.items())])
