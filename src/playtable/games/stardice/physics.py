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


def _add_piece(space: pymunk.Space, piece: Piece, restitution: float) -> pymunk.Body:
    t = PIECE_TYPES[piece.kind]
    moment = pymunk.moment_for_circle(t.mass, 0, t.radius)
    body = pymunk.Body(t.mass, moment)
    body.position = (piece.x, piece.y)
    body.angle = piece.angle
    shape = pymunk.Circle(body, t.radius)
    shape.elasticity = restitution
    shape.friction = 0.3
    space.add(body, shape)
    pivot = pymunk.PivotJoint(space.static_body, body, (0.0, 0.0), (0.0, 0.0))
    pivot.max_bias = 0.0
    pivot.max_force = t.mu * t.mass * G
    gear = pymunk.GearJoint(space.static_body, body, 0.0, 1.0)
    gear.max_bias = 0.0
    gear.max_force = t.mu * t.mass * G * t.radius
    space.add(pivot, gear)
    return body


def simulate(
    table: Sequence[Piece],
    launch: Launch,
    params: PhysicsParams = PhysicsParams(),
    on_frame: FrameCallback | None = None,
) -> SimResult:
    """Throw `launch.piece` onto a table holding `table` (all at rest) and run until everything
    rests again or `max_time` passes. Deterministic for the same inputs."""
    space = pymunk.Space()
    space.iterations = 10
    geo = params.geometry
    bodies: dict[str, pymunk.Body] = {}
    kinds: dict[str, str] = {}
    for piece in sorted(table, key=lambda p: p.id):
        bodies[piece.id] = _add_piece(space, piece, params.restitution)
        kinds[piece.id] = piece.kind
    thrown = launch.piece
    body = _add_piece(space, thrown, params.restitution)
    body.velocity = (launch.vx, launch.vy)
    body.angular_velocity = launch.spin
    bodies[thrown.id] = body
    kinds[thrown.id] = thrown.kind
    start = {k: (b.position.x, b.position.y) for k, b in bodies.items()}
    max_speed = dict.fromkeys(bodies, 0.0)
    max_speed[thrown.id] = math.hypot(launch.vx, launch.vy)
    off: list[str] = []
    detected = geo.on_surface(thrown.x, thrown.y)
    steps = 0
    t = 0.0
    frame_every = max(1, round(params.frame_dt / params.dt))
    max_steps = int(params.max_time / params.dt)
    rest2 = params.rest_speed * params.rest_speed
    while steps < max_steps:
        space.step(params.dt)
        steps += 1
        t = steps * params.dt
        resting = True
        for k in list(bodies):
            b = bodies[k]
            vx, vy = b.velocity
            s2 = vx * vx + vy * vy
            if s2 > rest2:
                resting = False
                if s2 > max_speed[k] * max_speed[k]:
                    max_speed[k] = math.sqrt(s2)
            x, y = b.position
            if not geo.on_table(x, y):
                off.append(k)
                space.remove(b, *b.shapes, *b.constraints)
                del bodies[k]
            elif k == thrown.id and not detected and geo.on_surface(x, y):
                detected = True
        if on_frame is not None and steps % frame_every == 0:
            on_frame(t, _snapshot(bodies))
        if resting:
            break
    for b in bodies.values():
        b.velocity = (0.0, 0.0)
    if on_frame is not None and steps % frame_every != 0:
        on_frame(t, _snapshot(bodies))
    pieces = {
        k: Piece(k, kinds[k], float(b.position.x), float(b.position.y),
                 float(b.angle % (2 * math.pi)))
        for k, b in sorted(bodies.items())
    }
    moved = {k for k in start if k != thrown.id and (
        k in off or (k in pieces and (pieces[k].x, pieces[k].y) != start[k]))}
    return SimResult(pieces, off, moved, max_speed, detected, t, steps)


def _snapshot(bodies: dict[str, pymunk.Body]) -> dict[str, tuple[float, float, float, float]]:
    return {k: (float(b.position.x), float(b.position.y), float(b.velocity.x),
                float(b.velocity.y)) for k, b in sorted(bodies.items())}


def stopping_distance(kind: str, speed: float) -> float:
    """How far a lone piece thrown at `speed` travels before it stops."""
    return speed * speed / (2.0 * PIECE_TYPES[kind].mu * G)


def speed_for_distance(kind: str, distance: float) -> float:
    """The speed that makes a lone piece stop after `distance`."""
    return math.sqrt(max(0.0, 2.0 * PIECE_TYPES[kind].mu * G * distance))
