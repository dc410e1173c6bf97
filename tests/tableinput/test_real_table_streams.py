"""What real tables' streams do to the reader: a source that falls silent leaves no ghost dice
(a tracker restarted on a new port, bit-flipped source names, a lost last frame), and a `set`
with an infinite or NaN velocity and a good position (the reference C++ TUIO server sends such
sets under load) keeps its place, and a full disk ends a recording, not the listener. The
streams are the test script's, the shipped recording and
the simulator's (`playtable stardice tuio-sim`: `TuioSim`), replayed through `TuioTable` as the
live table feeds them."""

from __future__ import annotations

import logging
import math
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from pythonosc.osc_message_builder import OscMessageBuilder

from playtable.games.stardice.formation import TABLE_DEPTH, TABLE_WIDTH
from playtable.tableinput.dicemap import load_dice_map, parse_dice_map
from playtable.tableinput.listener import TuioListener, read_recording
from playtable.tableinput.sim import TuioSim
from playtable.tableinput.tracking import TuioTable
from playtable.tableinput.tuio import SILENT_SECONDS, TuioReceiver, _walk

sys.path.insert(0, str(Path(__file__).parent))
from tuio_script import DICE_MAP, bundle, msg, obj_set, session  # noqa: E402


def message(address: str, args: list[Any]) -> Any:
    """An OSC message; floats as 64-bit doubles, so inf and NaN travel as such."""
    builder = OscMessageBuilder(address)
    for arg in args:
        builder.add_arg(arg, "d" if isinstance(arg, float) else None)
    return builder.build()


def rebuilt(data: bytes, velocity: float | None = None, source: bool = True) -> bytes:
    """The datagram again: every 2Dobj `set` given `velocity` as its X and Y (index 6 and 7)
    unless None; without its `source` message unless `source`."""
    builder = OscBundleBuilder(IMMEDIATELY)
    for item in _walk(data):
        assert item is not None
        address, args = item
        if args[0] == "source" and not source:
            continue
        if address == "/tuio/2Dobj" and args[0] == "set" and velocity is not None:
            args = [*args[:6], velocity, velocity, *args[8:]]
        builder.add_content(message(address, args))
    return bytes(builder.build().dgram)


def sim_stream(seed: int, steps: int, pause: float = 1.0, tail: float = 0.0,
               start: float = 0.0) -> list[tuple[float, bytes]]:
    """The simulator's first `steps` steps as one stream from `start`, `pause` seconds of
    keep-alive frames (every 0.5 s, as `tuio-sim` sends them) after each, `tail` more at the end."""
    sim = TuioSim(seed=seed, battles=1)
    out: list[tuple[float, bytes]] = []
    for k, step in enumerate(sim.steps()):
        if k == steps:
            break
        out.extend((start + t, data) for t, data in step.frames)
        end = (out[-1][0] if out else start) + pause + (tail if k == steps - 1 else 0.0)
        t = (out[-1][0] if out else start) + 0.5
        while t <= end:
            out.append((t, sim.keep_alive()))
            t += 0.5
        start = end
    return out


def sample_table() -> TuioTable:
    return TuioTable(load_dice_map("sample"))


def replay(table: TuioTable, stream: list[tuple[float, bytes]], sender: str = "127.0.0.1:3333",
           quiet: float = 1.0) -> None:
    """Feed `stream` as the live table does: ticks in the quiet between datagrams (every 0.05 s),
    then `quiet` seconds more."""
    last = None
    for t, data in stream:
        if last is not None:
            tick = last + 0.05
            while tick < t:
                table.tick(tick)
                tick += 0.05
        table.feed(data, sender, t)
        last = t
    if last is not None:
        table.tick(last + quiet)


def places(table: TuioTable) -> dict[str, tuple[float, float]]:
    return {k: (round(tr.x, 6), round(tr.y, 6)) for k, tr in table.tracks.items()}


def test_a_set_with_an_infinite_velocity_keeps_its_place() -> None:
    t = TuioTable(parse_dice_map(DICE_MAP))
    for i in range(30):  # F.d20a slides along with finite x, y and X = inf
        x = 0.1 + 0.02 * i
        t.feed(bytes(bundle("2Dobj", [5], [message("/tuio/2Dobj", [
            "set", 5, 0, x, 0.4, 0.0, math.inf, 0.0, 0.0, 0.0, 0.0])], i + 1)), "a", 0.05 * i)
    track = t.tracks["F.d20a"]
    assert math.isclose(track.x, 0.68 * TABLE_WIDTH) and math.isclose(track.y, 0.4 * TABLE_DEPTH)
    assert t.stats.malformed == 30 and math.isfinite(track.vx)
    # NaN in the angle and the acceleration: the place is kept too; a NaN x drops the set
    t.feed(bytes(bundle("2Dobj", [5], [message("/tuio/2Dobj", [
        "set", 5, 0, 0.7, 0.4, math.nan, 0.0, 0.0, 0.0, math.nan, 0.0])], 31)), "a", 1.6)
    t.feed(bytes(bundle("2Dobj", [5], [message("/tuio/2Dobj", [
        "set", 5, 0, math.nan, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])], 32)), "a", 1.65)
    assert math.isclose(t.tracks["F.d20a"].x, 0.7 * TABLE_WIDTH) and t.stats.malformed == 32
    assert math.isclose(t.tracks["F.d20a"].y, 0.4 * TABLE_DEPTH)
    t.feed(bytes(msg("2Dobj", "set", 5, 0, 0.7, 0.4).dgram), "a", 1.7)  # a short set: dropped, counted
    assert t.stats.malformed == 33


def test_the_simulators_stream_with_infinite_velocities_leaves_the_dice_where_it_should() -> None:
    stream = sim_stream(seed=3, steps=4)
    clean, loaded = sample_table(), sample_table()
    replay(clean, stream)
    replay(loaded, [(t, rebuilt(data, math.inf)) for t, data in stream])
    assert clean.tracks and places(loaded) == places(clean)
    assert loaded.last_report is not None and clean.last_report is not None
    assert loaded.last_report["formations"] == clean.last_report["formations"]
    assert loaded.stats.malformed > 0 and clean.stats.malformed == 0


def test_a_tracker_restarted_on_a_new_port_leaves_no_ghosts() -> None:
    """The tracker (no `source` message: its address is its source) restarts on a new port with
    another table's dice and sends for a minute: the table is the new stream's alone."""
    first = [(t, rebuilt(data, source=False)) for t, data in sim_stream(seed=3, steps=4)]
    second = [(t, rebuilt(data, source=False))
              for t, data in sim_stream(seed=8, steps=2, tail=60.0, start=first[-1][0] + 1.0)]
    old_only, new_only, both = sample_table(), sample_table(), sample_table()
    replay(old_only, first)
    assert set(old_only.tracks) - {"borg"}  # the old tracker's dice were on the table
    replay(new_only, second, sender="127.0.0.1:4002")
    replay(both, first, sender="127.0.0.1:4001", quiet=0.0)
    replay(both, second, sender="127.0.0.1:4002")
    assert places(both) == places(new_only) and both.contacts() == new_only.contacts()
    assert both.last_report is not None and new_only.last_report is not None
    assert both.last_report["formations"] == new_only.last_report["formations"]
    assert both.stats.silent_sources >= 1


def test_bit_flipped_source_names_in_the_recording_leave_no_phantom_dice() -> None:
    """The shipped recording with, early on, copies of its frames under bit-flipped source
    names (each a source of its own that never speaks again): once those have been silent for
    SILENT_SECONDS the table is the clean recording's."""
    items = [(t, data) for t, _, data in read_recording("sample") if data is not None]
    name = b"sample-table"
    assert all(name in data for _, data in items[:20])
    flipped: list[tuple[float, bytes]] = []
    for k, (t, data) in enumerate(items):
        flipped.append((t, data))
        if k < 20:
            ghost = bytes([name[k % len(name)] ^ (1 << (k % 5))])
            flipped.append((t, data.replace(name, name[:k % len(name)] + ghost
                                            + name[k % len(name) + 1:])))
    end = items[-1][0]
    assert end - items[19][0] > SILENT_SECONDS  # the phantoms fell silent early enough
    clean, dirty = sample_table(), sample_table()
    replay(clean, items, quiet=0.5)  # half a second after the end: the real tracker still counts
    replay(dirty, flipped, quiet=0.5)
    assert len({s for s, _ in dirty.sources}) > 1 + 10
    assert clean.tracks and places(dirty) == places(clean)
    assert dirty.contacts() == clean.contacts()


def test_a_lost_last_frame_leaves_no_die_for_good() -> None:
    """A die slides in; the frame that took it off is lost in a flood and the tracker, its table
    empty, sends nothing more: the die leaves once the source has been silent SILENT_SECONDS."""
    t = TuioTable(parse_dice_map(DICE_MAP))
    stream = [(0.05 * i, bundle("2Dobj", [7], [obj_set(7, 0, 0.1 + 0.05 * i, 0.4)], i + 1,
                                source="tracker")) for i in range(8)]
    replay(t, stream, quiet=0.0)  # the last frame, alive [], never came
    assert "F.d20a" in t.tracks
    last = stream[-1][0]
    t.tick(last + SILENT_SECONDS / 2)
    assert "F.d20a" in t.tracks  # a tracker quiet for a moment keeps its dice
    t.tick(last + SILENT_SECONDS + 0.1)
    t.tick(last + SILENT_SECONDS + 1.0)
    assert not t.tracks and t.contacts() == 0
    assert t.last_report is not None and t.last_report["dice"] == []


def test_a_full_disk_ends_the_recording_not_the_listener(caplog: pytest.LogCaptureFixture) -> None:
    """The listener records to a file whose writes fail as on a full disk (/dev/full: ENOSPC):
    the recording stops with a notice and every frame of the script is still tracked."""
    script = session()
    scratch = TuioReceiver()
    for t, data in script:
        scratch.feed(data, "127.0.0.1:1", t)
    table = TuioTable(parse_dice_map(DICE_MAP))
    listener = TuioListener(table, port=0)
    listener.record_file = open("/dev/full", "w", encoding="utf-8")  # noqa: SIM115 - closed by the listener
    failures: list[BaseException] = []

    def serve() -> None:
        try:
            listener.serve(duration=20.0, max_frames=scratch.stats.frames)
        except BaseException as err:  # noqa: BLE001 - the test reports what ended the listener
            failures.append(err)

    with caplog.at_level(logging.WARNING, logger="playtable.tableinput"):
        thread = threading.Thread(target=serve)
        thread.start()
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            for _, data in script:
                sender.sendto(data, listener.address)
                time.sleep(0.01)
        thread.join(timeout=30)
    assert not thread.is_alive() and not failures, failures
    assert table.stats.frames == scratch.stats.frames and listener.record_file is None
    assert any("recording stopped" in r.getMessage() for r in caplog.records)
