"""The table simulation: a 2-D top-down pymunk table where dice are thrown, slide, knock each
other and fall off.

Geometry (table units, fractions of the table width): the touch surface is [0, 1] x [0, 0.75];
around it lies a glass frame `frame` wide; anything whose centre leaves the outer edge of the
frame has fallen off the table (the seed's table has no borders: "there are no borders on the
table", iteration 7). A die resting on the frame is on the table but not seen by the touch
surface.

Friction on the glass is modelled, as usual for top-down physics, by a pivot joint and a gear
joint from each die to the static body with no bias and a maximum force of mu * m * g: a constant
(Coulomb) deceleration, so a die thrown at speed v stops after v**2 / (2 mu g). Each die type has
its own size, mass and friction: the seed's d4 "won't roll" (high mu), the d20 "rolls well" and
"is easy to knock" (low mu, iteration 3). Dice are discs in the plane; their collisions are
elastic-ish (restitution 0.5). Everything is deterministic: fixed step, fixed insertion order
(pieces sorted by id), nothing random in here (the throw noise and the faces come from the game
state's Chance stream).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pymunk

from playtable.games.stardice.formation import TABLE_DEPTH, TABLE_WIDTH

G = 9.81 / 0.62
"""Gravity in table widths per second squared (the Surface's screen is about 62 cm wide)."""


@dataclass(frozen=True)
class PieceType:
    name: str
    sides: int
    radius: float
    mass: float
    mu: float
    """Effective friction on the glass (rolling for dice that roll, sliding for stones)."""


PIECE_TYPES: dict[str, PieceType] = {
    "d4": PieceType("d4", 4, 0.014, 3.0, 0.55),
    "d6": PieceType("d6", 6, 0.013, 4.0, 0.22),
    "d8": PieceType("d8", 8, 0.014, 4.0, 0.16),
    "d10": PieceType("d10", 10, 0.015, 5.0, 0.13),
    "d12": PieceType("d12", 12, 0.016, 6.0, 0.10),
    "d20": PieceType("d20", 20, 0.017, 7.0, 0.07),
    "borg": PieceType("borg", 6, 0.018, 9.0, 0.22),
    "stone": PieceType("stone", 0, 0.012, 5.0, 0.12),
}


@dataclass(frozen=True)
class TableGeometry:
    width: float = TABLE_WIDTH
    depth: float = TABLE_DEPTH
    frame: float = 0.06

    def on_surface(self, x: float, y: float) -> bool:
        """Seen by the touch surface."""
        return 0.0 <= x <= self.width and 0.0 <= y <= self.depth

    def on_table(self, x: float, y: float) -> bool:
        """On the glass at all (touch surface or frame)."""
        f = self.frame
        return -f <= x <= self.width + f and -f <= y <= self.depth + f

    def on_frame(self, x: float, y: float) -> bool:
        return self.on_table(x, y) and not self.on_surface(x, y)


@dataclass(frozen=True)
class Piece:
    """A piece on the table (or being thrown): id, type name, position and heading."""

    id: str
    kind: str
    x: float
    y: float
    angle: float = 0.0


@dataclass(frozen=True)
class Launch:
    """The thrown piece's initial motion: velocity in table widths/s, spin in rad/s."""

    piece: Piece
    vx: float
    vy: float
    spin: float


@dataclass
class SimResult:
    pieces: dict[str, Piece]
    """Everything still on the table at rest."""
    off_table: list[str]
    """Pieces that fell off, in the order they fell."""
    moved: set[str]
    """Pieces (other than the thrown one) that were set in motion."""
    max_speed: dict[str, float]
    detected: bool
    """Did the thrown piece ever lie on the touch surface?"""
    time: float
    steps: int


FrameCallback = Callable[[float, dict[str, tuple[float, float, float, float]]], None]
"""Called with (time, {id: (x, y, vx, vy)}) for the pieces on the table, every frame_dt."""


@dataclass(frozen=True)
class PhysicsParams:
    dt: float = 1.0 / 120.0
    max_time: float = 12.0
    rest_speed: float = 0.003
    restitution: float = 0.5
    frame_dt: float = 0.1
    geometry: TableGeometry = TableGeometry()


_cp = pymunk.cp
"""Chipmunk's functions (pymunk's cffi library, `pymunk.cp`): the table is built and stepped
with them directly, the same calls in the same order as pymunk's Body, Circle, PivotJoint,
GearJoint and Space.add make, without pymunk's Python objects around each of them (building
those took longer than stepping a throw)."""
_ffi = pymunk.ffi

WAKE_EVERY = 4
"""A look for resting pieces a moving piece might reach wakes those it could reach within this
many steps (see `simulate`)."""

WAKE_SLACK = 1.5
"""Margin on the fastest speed the moving pieces' energy allows, in that look."""

_TOUCH_EPS = 1e-6
"""Resting pieces closer than the sum of their radii plus this are woken together."""


@dataclass(slots=True)
class _Body:
    """One piece in a throw's space: its chipmunk body and shape, and its friction joints (made
    and added when the piece is woken)."""

    id: str
    name: str
    """The piece's type name as given (`Piece.kind`)."""
    kind: PieceType
    index: int
    body: Any
    shape: Any
    joints: tuple[Any, Any] | None = None
    x: float = 0.0
    y: float = 0.0


class _Touched(Exception):
    """A moving piece touched a resting piece that had not been woken: the throw is run again
    with every piece awake."""


def _begin(arb: Any, space: Any, data: Any) -> None:
    """Chipmunk's begin callback (the first step of every contact): note the contact."""
    a = _ffi.new("cpBody **")
    b = _ffi.new("cpBody **")
    _cp.cpArbiterGetBodies(arb, a, b)
    contacts: list[tuple[int, int]] = _ffi.from_handle(data)
    contacts.append((int(_ffi.cast("uintptr_t", _cp.cpBodyGetUserData(a[0]))),
                     int(_ffi.cast("uintptr_t", _cp.cpBodyGetUserData(b[0])))))


_BEGIN = _ffi.callback("void(cpArbiter *, cpSpace *, void *)", _begin)


def _add_joints(space: Any, static: Any, item: _Body) -> None:
    """A piece's friction joints, as pymunk.PivotJoint(static, body, (0, 0), (0, 0)) and
    GearJoint(static, body, 0, 1) made them (no bias, Coulomb maximum forces), added to the
    space."""
    t = item.kind
    pivot = _cp.cpPivotJointNew2(static, item.body, (0.0, 0.0), (0.0, 0.0))
    _cp.cpConstraintSetMaxBias(pivot, 0.0)
    _cp.cpConstraintSetMaxForce(pivot, t.mu * t.mass * G)
    gear = _cp.cpGearJointNew(static, item.body, 0.0, 1.0)
    _cp.cpConstraintSetMaxBias(gear, 0.0)
    _cp.cpConstraintSetMaxForce(gear, t.mu * t.mass * G * t.radius)
    _cp.cpSpaceAddConstraint(space, pivot)
    _cp.cpSpaceAddConstraint(space, gear)
    item.joints = (pivot, gear)


def simulate(
    table: Sequence[Piece],
    launch: Launch,
    params: PhysicsParams = PhysicsParams(),
    on_frame: FrameCallback | None = None,
) -> SimResult:
    """Throw `launch.piece` onto a table holding `table` (all at rest) and run until everything
    rests again or `max_time` passes. Deterministic for the same inputs.

    The table is one pymunk (chipmunk) space per throw: each piece a disc, its friction a pivot
    and a gear joint to the static body, the pieces added in id order and the thrown one last,
    stepped `dt` at a time until no piece is faster than `rest_speed`.

    Resting pieces sleep until a moving piece might reach them: their friction joints are left
    out of the space, which makes a step several times cheaper. This changes no number: a piece
    at rest has exactly zero velocity, so its joints apply exactly zero impulses and touch no
    other piece, and chipmunk's collision detection (which finds the contacts, in an order that
    decides the result) sees the same shapes either way. Each resting piece that a moving piece
    could reach within the next `WAKE_EVERY` steps (at the fastest speed the moving pieces'
    kinetic energy allows, times `WAKE_SLACK`) is woken with the resting pieces it touches,
    and the next look comes when the nearest one still asleep could first be reached (`_wake`);
    waking adds its joints, whose accumulated impulse is exactly zero as it would have been.
    Chipmunk reports the first step of every contact; should a moving piece ever touch a piece
    still asleep, the throw is run again from the start with every piece awake, so the result
    is always that of a table where every piece has its joints from the first step.

    `on_frame` is called for every frame, in order, once the run is over (a run may be started
    again as above)."""
    pieces = sorted(table, key=lambda p: p.id)
    try:
        return _simulate(pieces, launch, params, on_frame, lazy=True)
    except _Touched:
        return _simulate(pieces, launch, params, on_frame, lazy=False)


def _simulate(pieces: list[Piece], launch: Launch, params: PhysicsParams,
              on_frame: FrameCallback | None, lazy: bool) -> SimResult:
    cp = _cp
    space = cp.cpSpaceNew()
    contacts: list[tuple[int, int]] = []
    handle = _ffi.new_handle(contacts)
    items: list[_Body] = []
    static = None
    try:
        cp.cpSpaceSetIterations(space, 10)
        if lazy:
            handler = cp.cpSpaceAddGlobalCollisionHandler(space)
            handler.beginFunc = _BEGIN
            handler.userData = handle
        thrown = launch.piece
        geo = params.geometry
        f = geo.frame
        x_lo, x_hi, y_lo, y_hi = -f, geo.width + f, -f, geo.depth + f
        for piece in [*pieces, thrown]:
            t = PIECE_TYPES[piece.kind]
            body = cp.cpBodyNew(t.mass, _moment(t))
            cp.cpBodySetUserData(body, _pointer(len(items) + 1))
            cp.cpBodySetPosition(body, (piece.x, piece.y))
            cp.cpBodySetAngle(body, piece.angle)
            shape = cp.cpCircleShapeNew(body, t.radius, (0.0, 0.0))
            cp.cpShapeSetElasticity(shape, params.restitution)
            cp.cpShapeSetFriction(shape, 0.3)
            cp.cpSpaceAddBody(space, body)
            cp.cpSpaceAddShape(space, shape)
            item = _Body(piece.id, piece.kind, t, len(items), body, shape)
            items.append(item)
            if static is None:  # pymunk's Space.static_body, made when the first joint needs it
                static = cp.cpBodyNewStatic()
                cp.cpSpaceAddBody(space, static)
            p = cp.cpBodyGetPosition(body)
            item.x = x = p.x
            item.y = y = p.y
            # (geo.on_table(x, y), written out)
            if not lazy or piece is thrown or not (x_lo <= x <= x_hi and y_lo <= y <= y_hi):
                _add_joints(space, static, item)
        last = items[-1]
        cp.cpBodySetVelocity(last.body, (launch.vx, launch.vy))
        cp.cpBodySetAngularVelocity(last.body, launch.spin)
        return _run(space, static, items, launch, params, on_frame, contacts)
    finally:
        cp.cpSpaceFree(space)
        for item in items:
            if item.joints is not None:
                cp.cpConstraintFree(item.joints[0])
                cp.cpConstraintFree(item.joints[1])
            cp.cpShapeFree(item.shape)
            cp.cpBodyFree(item.body)
        if static is not None:
            cp.cpBodyFree(static)


_MOMENTS: dict[str, float] = {}
_POINTERS: list[Any] = []


def _moment(t: PieceType) -> float:
    """pymunk.moment_for_circle(t.mass, 0, t.radius), once per piece type."""
    moment = _MOMENTS.get(t.name)
    if moment is None:
        moment = _MOMENTS[t.name] = _cp.cpMomentForCircle(t.mass, 0, t.radius, (0.0, 0.0))
    return moment


def _pointer(n: int) -> Any:
    """The number n as a chipmunk user-data pointer (a body's index + 1)."""
    while len(_POINTERS) <= n:
        _POINTERS.append(_ffi.cast("void *", len(_POINTERS)))
    return _POINTERS[n]


class _Groups:
    """`_clusters` of a throw's pieces, found when first asked for (most throws wake nobody
    who touches another piece, and many wake nobody)."""

    def __init__(self, items: list[_Body]) -> None:
        self.items = items
        self.of: dict[int, list[_Body]] | None = None

    def __getitem__(self, index: int) -> list[_Body]:
        if self.of is None:
            self.of = _clusters(self.items)
        return self.of[index]


def _clusters(items: list[_Body]) -> dict[int, list[_Body]]:
    """The resting pieces that touch (a piece woken wakes the pieces it touches, transitively):
    for each sleeping piece's index, its group."""
    sleeping = [it for it in items if it.joints is None]
    parent = {it.index: it.index for it in sleeping}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for n, a in enumerate(sleeping):
        for b in sleeping[n + 1:]:
            reach = a.kind.radius + b.kind.radius + _TOUCH_EPS
            dx, dy = a.x - b.x, a.y - b.y
            if dx * dx + dy * dy < reach * reach:
                parent[find(b.index)] = find(a.index)
    groups: dict[int, list[_Body]] = {}
    for it in sleeping:
        groups.setdefault(find(it.index), []).append(it)
    return {it.index: groups[find(it.index)] for it in sleeping}


def _run(space: Any, static: Any, items: list[_Body], launch: Launch, params: PhysicsParams,
         on_frame: FrameCallback | None, contacts: list[tuple[int, int]]) -> SimResult:
    cp = _cp
    step_space = cp.cpSpaceStep
    get_v = cp.cpBodyGetVelocity
    get_p = cp.cpBodyGetPosition
    geo = params.geometry
    f = geo.frame
    x_lo, x_hi, y_lo, y_hi = -f, geo.width + f, -f, geo.depth + f
    width, depth = geo.width, geo.depth
    dt = params.dt
    thrown = items[-1]
    start = {it.id: (it.x, it.y) for it in items}
    max_speed = dict.fromkeys(start, 0.0)
    max_speed[thrown.id] = math.hypot(launch.vx, launch.vy)
    off: list[str] = []
    detected = geo.on_surface(launch.piece.x, launch.piece.y)
    awake = [it for it in items if it.joints is not None]
    groups = _Groups(items)
    asleep = {it.index: it for it in items if it.joints is None}
    m_min = min((it.kind.mass for it in items), default=1.0)
    last_snap: dict[str, tuple[float, float, float, float]] = {}
    present = sorted(items, key=_id_of)
    steps = 0
    frame_every = max(1, round(params.frame_dt / dt))
    max_steps = int(params.max_time / dt)
    rest2 = params.rest_speed * params.rest_speed
    snaps: list[tuple[float, dict[str, tuple[float, float, float, float]]]] = []
    next_wake = 0
    while steps < max_steps:
        if asleep and steps >= next_wake:
            next_wake = steps + _wake(space, static, awake, asleep, groups, m_min, dt)
        step_space(space, dt)
        steps += 1
        if contacts:
            for a, b in contacts:
                if (a - 1 in asleep) != (b - 1 in asleep) or (
                        a - 1 in asleep and groups[a - 1] is not groups[b - 1]):
                    raise _Touched
            contacts.clear()
        resting = True
        fell = None
        for it in awake:
            body = it.body
            v = get_v(body)
            vx, vy = v.x, v.y
            s2 = vx * vx + vy * vy
            if s2 > rest2:
                resting = False
                m = max_speed[it.id]
                if s2 > m * m:
                    max_speed[it.id] = math.sqrt(s2)
            p = get_p(body)
            it.x = x = p.x
            it.y = y = p.y
            if not (x_lo <= x <= x_hi and y_lo <= y <= y_hi):
                if fell is None:
                    fell = []
                fell.append(it)
            elif it is thrown and not detected and 0.0 <= x <= width and 0.0 <= y <= depth:
                detected = True
        if fell is not None:  # removed in the order they are listed, as they were found
            for it in fell:
                off.append(it.id)
                cp.cpSpaceRemoveBody(space, it.body)
                cp.cpSpaceRemoveShape(space, it.shape)
                assert it.joints is not None
                cp.cpSpaceRemoveConstraint(space, it.joints[0])
                cp.cpSpaceRemoveConstraint(space, it.joints[1])
                awake.remove(it)
            present = [it for it in present if it.id not in off]
        if on_frame is not None and steps % frame_every == 0:
            snaps.append((steps * dt, _snapshot(present, asleep, last_snap)))
        if resting:
            break
    t = steps * dt
    if on_frame is not None:
        for t_frame, snap in snaps:
            on_frame(t_frame, snap)
        if steps % frame_every != 0:  # the table at rest: every velocity set to zero
            on_frame(t, {it.id: (it.x, it.y, 0.0, 0.0)
                         for it in sorted(_read(present, asleep), key=lambda it: it.id)})
    result = {}
    for it in sorted(_read(present, asleep), key=lambda it: it.id):
        result[it.id] = Piece(it.id, it.name, float(it.x), float(it.y),
                              float(cp.cpBodyGetAngle(it.body) % (2 * math.pi)))
    moved = {k for k in start if k != thrown.id and (
        k in off or (k in result and (result[k].x, result[k].y) != start[k]))}
    return SimResult(result, off, moved, max_speed, detected, t, steps)


def _read(present: list[_Body], asleep: dict[int, _Body]) -> list[_Body]:
    """The pieces on the table, the sleeping ones' positions read back from chipmunk."""
    for it in present:
        if it.index in asleep:
            p = _cp.cpBodyGetPosition(it.body)
            it.x, it.y = p.x, p.y
    return present


def _snapshot(present: list[_Body], asleep: dict[int, _Body],
              last: dict[str, tuple[float, float, float, float]]
              ) -> dict[str, tuple[float, float, float, float]]:
    """The frame: {id: (x, y, vx, vy)} in id order (`present` is in id order). A piece whose
    numbers are those of the last
    frame (bit for bit) is given the very same tuple, which tells the reader of the frames
    that it has not moved (`table.FrameReader`)."""
    out = {}
    for it in present:
        snap = last.get(it.id)
        if it.index in asleep:
            if snap is None:
                p = _cp.cpBodyGetPosition(it.body)
                v = _cp.cpBodyGetVelocity(it.body)
                snap = last[it.id] = (p.x, p.y, v.x, v.y)
        else:
            v = _cp.cpBodyGetVelocity(it.body)
            new = (it.x, it.y, v.x, v.y)
            if snap is None or not _same(snap, new):
                snap = last[it.id] = new
        out[it.id] = snap
    return out


def _id_of(it: _Body) -> str:
    return it.id


def _same(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """The same numbers, bit for bit (0.0 and -0.0 differ)."""
    return a == b and (all(a) or all(x or math.copysign(1.0, x) == math.copysign(1.0, y)
                                     for x, y in zip(a, b, strict=True)))  # no zero: equal


def _wake(space: Any, static: Any, awake: list[_Body], asleep: dict[int, _Body],
          groups: _Groups, m_min: float, dt: float) -> int:
    """Wake every sleeping piece a moving piece could touch within `WAKE_EVERY` steps (with
    the pieces it touches), and the pieces those could touch, and so on; return how many
    steps may pass before the next look (no sleeping piece can be reached sooner).

    No piece moves faster than the kinetic energy of the moving pieces allows (all of it in
    the lightest piece; friction and collisions only lose energy), times `WAKE_SLACK`."""
    cp = _cp
    energy = 0.0
    for it in awake:
        v = cp.cpBodyGetVelocity(it.body)
        w = cp.cpBodyGetAngularVelocity(it.body)
        energy += it.kind.mass * (v.x * v.x + v.y * v.y) + _moment(it.kind) * w * w
    per_step = WAKE_SLACK * math.sqrt(energy / m_min) * dt
    reach = per_step * WAKE_EVERY + _TOUCH_EPS
    todo = list(awake)
    woken = False
    nearest = math.inf
    hypot = math.hypot
    while todo:
        a = todo.pop()
        ax, ay, ar = a.x, a.y, a.kind.radius
        for r in list(asleep.values()):
            if r.index not in asleep:
                continue
            gap = hypot(ax - r.x, ay - r.y) - ar - r.kind.radius
            if gap < reach:
                for g in groups[r.index]:
                    del asleep[g.index]
                    _add_joints(space, static, g)
                    todo.append(g)
                    awake.append(g)
                    woken = True
            elif gap < nearest:
                nearest = gap
    if woken:
        awake.sort(key=lambda it: it.index)
    if per_step <= 0.0:
        return WAKE_EVERY
    # every piece still asleep is farther than `nearest` from every moving piece (each such
    # pair was measured above, after the last piece was woken or before it)
    return max(WAKE_EVERY, int(min(1e6, (nearest - _TOUCH_EPS) / per_step)))


def stopping_distance(kind: str, speed: float) -> float:
    """How far a lone piece thrown at `speed` travels before it stops."""
    return speed * speed / (2.0 * PIECE_TYPES[kind].mu * G)


def speed_for_distance(kind: str, distance: float) -> float:
    """The speed that makes a lone piece stop after `distance`."""
    return math.sqrt(max(0.0, 2.0 * PIECE_TYPES[kind].mu * G * distance))
