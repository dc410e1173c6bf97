"""The fast table simulation (`physics.simulate`: chipmunk called directly, resting pieces
asleep until a moving piece may reach them) gives exactly the numbers of the table as it was
first written (`reference_simulate` below: pymunk's objects, every piece with its friction
joints from the first step), on random tables: crowded, with touching dice, pieces on the
frame, fast and spinning throws. Every field of the result and every 0.1 s
frame is compared with ==, floats included."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import pymunk
import pytest

from playtable.games.stardice import physics
from playtable.games.stardice.physics import (
    PIECE_TYPES,
    FrameCallback,
    G,
    Launch,
    PhysicsParams,
    Piece,
    SimResult,
    simulate,
)

# -- the reference: physics.simulate as it was before the speed-up (commit 209f1d4) ----------------


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


def reference_simulate(
    table: Sequence[Piece],
    launch: Launch,
    params: PhysicsParams | None = None,
    on_frame: FrameCallback | None = None,
) -> SimResult:
    params = params or PhysicsParams()
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


# -- random tables --------------------------------------------------------------------------------

KINDS = ["d4", "d6", "d8", "d10", "d12", "d20", "borg", "stone"]


def random_table(rng: random.Random) -> tuple[list[Piece], Launch]:
    """Up to 20 resting pieces (a third of them laid against another: touching, slightly
    overlapping or a hair apart; some on the frame) and a throw from the frame, often aimed at
    a piece, at any speed up to 6 widths/s and spin up to 60 rad/s."""
    pieces: list[Piece] = []
    for i in range(rng.randrange(0, 21)):
        kind = rng.choice(KINDS)
        r = PIECE_TYPES[kind].radius
        if pieces and rng.random() < 0.35:
            other = rng.choice(pieces)
            a = rng.uniform(0, 2 * math.pi)
            d = PIECE_TYPES[other.kind].radius + r + rng.choice([-0.004, -1e-9, 0.0, 1e-9, 0.002])
            x, y = other.x + d * math.cos(a), other.y + d * math.sin(a)
        elif rng.random() < 0.15:
            x, y = rng.choice([(rng.uniform(-0.05, 1.05), -0.03), (1.03, rng.uniform(0, 0.75))])
        else:
            x, y = rng.uniform(0.02, 0.98), rng.uniform(0.02, 0.73)
        pieces.append(Piece(f"p{i:02d}", kind, x, y, rng.uniform(0, 2 * math.pi)))
    kind = rng.choice(KINDS)
    sx, sy = rng.choice([(rng.uniform(0, 1), -0.03), (1.03, rng.uniform(0, 0.75)),
                         (rng.uniform(0, 1), 0.78), (-0.03, rng.uniform(0, 0.75))])
    if pieces and rng.random() < 0.7:
        target = rng.choice(pieces)
        tx, ty = target.x, target.y
    else:
        tx, ty = rng.uniform(0, 1), rng.uniform(0, 0.75)
    heading = math.atan2(ty - sy, tx - sx) + rng.gauss(0, 0.05)
    speed = rng.choice([rng.uniform(0.05, 1.5), rng.uniform(1.5, 6.0)])
    spin = rng.choice([0.0, rng.uniform(-8, 8), rng.uniform(-60, 60)])
    thrown = Piece("thrown", kind, sx, sy, 0.0)
    return pieces, Launch(thrown, speed * math.cos(heading), speed * math.sin(heading), spin)


def run(fn: Any, pieces: list[Piece], launch: Launch) -> tuple[SimResult, list[Any]]:
    frames: list[Any] = []
    result = fn(pieces, launch, PhysicsParams(), lambda t, pos: frames.append((t, pos)))
    return result, frames


def assert_same(pieces: list[Piece], launch: Launch) -> SimResult:
    want, want_frames = run(reference_simulate, pieces, launch)
    got, got_frames = run(simulate, pieces, launch)
    assert got.pieces == want.pieces
    assert (got.off_table, got.moved, got.max_speed, got.detected, got.time, got.steps) == (
        want.off_table, want.moved, want.max_speed, want.detected, want.time, want.steps)
    assert got_frames == want_frames
    assert repr(got_frames) == repr(want_frames)  # zeros of the same sign too
    return want


def test_random_tables_come_to_rest_exactly_as_in_the_reference() -> None:
    rng = random.Random(30)
    knocks = 0
    for _ in range(150):
        pieces, launch = random_table(rng)
        knocks += bool(assert_same(pieces, launch).moved)
    assert knocks >= 40  # the throws do knock dice, not only roll across an empty table


def test_a_piece_touched_before_it_woke_makes_the_throw_run_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no margin at all the look-ahead wakes nothing in time; chipmunk's report of each
    first contact catches every touch of a sleeping piece and the throw is run again with every
    piece awake, still giving the reference's numbers."""
    monkeypatch.setattr(physics, "WAKE_SLACK", 0.0)
    lazy = physics._simulate
    reruns = []

    def counting(*args: Any, **kwargs: Any) -> SimResult:
        if not kwargs.get("lazy", True):
            reruns.append(1)
        return lazy(*args, **kwargs)

    monkeypatch.setattr(physics, "_simulate", counting)
    rng = random.Random(7)
    for _ in range(40):
        pieces, launch = random_table(rng)
        assert_same(pieces, launch)
    assert len(reruns) >= 10
