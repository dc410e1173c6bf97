"""A scripted TUIO 1.1 'dice table' sender for the tests (python-osc on loopback)."""

from __future__ import annotations

from typing import Any

from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from pythonosc.osc_message_builder import OscMessageBuilder

DEPTH = 0.75
DICE_MAP = "0=F.d20a:17,1=F.d20b:3,7=K.d20a:12,14=borg:8"


def msg(profile: str, *args: Any) -> Any:
    b = OscMessageBuilder(f"/tuio/{profile}")
    for a in args:
        b.add_arg(a)
    return b.build()


def obj_set(sid: int, fid: int, x: float, y_table: float, vx: float = 0.0,
            vy: float = 0.0) -> Any:
    """A 2Dobj set at table position (x, y_table), floats coerced (python-osc types by value)."""
    return msg("2Dobj", "set", sid, fid, float(x), float(y_table / DEPTH), 0.0, float(vx),
               float(vy), 0.0, 0.0, 0.0)


def cur_set(sid: int, x: float, y_table: float) -> Any:
    return msg("2Dcur", "set", sid, float(x), float(y_table / DEPTH), 0.0, 0.0, 0.0)


def bundle(profile: str, alive: list[int], sets: list[Any], fseq: int,
           source: str | None = None) -> bytes:
    bb = OscBundleBuilder(IMMEDIATELY)
    if source is not None:
        bb.add_content(msg(profile, "source", source))
    bb.add_content(msg(profile, "alive", *alive))
    for s in sets:
        bb.add_content(s)
    bb.add_content(msg(profile, "fseq", fseq))
    return bytes(bb.build().dgram)


TRIANGLE = {0: (0.3, 0.4), 7: (0.5, 0.4), 14: (0.4, 0.55)}


def session() -> list[tuple[float, bytes]]:
    """(time offset, datagram): the Borg and two dice slide in and stop in a triangle; the
    lone F.d20b lies far away; a late frame, a split frame and garbage are mixed in."""
    out: list[tuple[float, bytes]] = []
    f = 1
    # the Borg die lies still
    out.append((0.0, bundle("2Dobj", [100], [obj_set(100, 14, 0.4, 0.55)], f)))
    f += 1
    # F.d20a slides in from the left over several frames (no velocities sent)
    for i, x in enumerate((0.05, 0.12, 0.2, 0.26, 0.3)):
        out.append((0.05 * (i + 1), bundle("2Dobj", [100, 101], [obj_set(101, 0, x, 0.4)], f)))
        f += 1
    # a late frame (an old position) must be ignored
    out.append((0.3, bundle("2Dobj", [100, 101], [obj_set(101, 0, 0.05, 0.4)], f - 3)))
    # garbage
    out.append((0.31, b"\x00garbage"))
    # a frame split over two bundles: K.d20a arrives, F.d20b far away
    out.append((0.4, bundle("2Dobj", [100, 101, 102, 103], [obj_set(102, 7, 0.5, 0.4)], f)))
    out.append((0.4, bundle("2Dobj", [100, 101, 102, 103], [obj_set(103, 1, 0.95, 0.05)], f)))
    f += 1
    # then silence (the tracker sends nothing while the dice lie still), one keep-alive later
    out.append((1.5, bundle("2Dobj", [100, 101, 102, 103], [], -1)))
    return out
