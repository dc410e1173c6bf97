"""TUIO frames handled per second: 15 dice moving, one bundle per frame (alive + 15 set +
fseq), parsed, committed, fed to the formation engine and scored.

    .venv/bin/python benchmarks/stardice_tuio.py [--frames 3000]

1. in process: `TuioTable.feed` on pre-built datagrams;
2. loopback: a python-osc sender to `TuioListener` on 127.0.0.1 (a free port), sending as fast
   as it can; frames committed / wall time (UDP may drop some under load; counted).
"""

from __future__ import annotations

import argparse
import math
import threading
import time

from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from pythonosc.osc_message_builder import OscMessageBuilder
from pythonosc.udp_client import SimpleUDPClient

from playtable.tableinput.dicemap import parse_dice_map
from playtable.tableinput.listener import TuioListener
from playtable.tableinput.tracking import TuioTable

DICE = ",".join([f"{i}=F.d6{chr(97 + i)}:{1 + i % 6}" for i in range(7)]
                + [f"{7 + i}=K.d6{chr(97 + i)}:{1 + (i * 5) % 6}" for i in range(7)]
                + ["14=borg:16"])


def _msg(*args: object) -> object:
    b = OscMessageBuilder("/tuio/2Dobj")
    for a in args:
        b.add_arg(a)
    return b.build()


def frames(n: int) -> list[bytes]:
    out = []
    for f in range(1, n + 1):
        bb = OscBundleBuilder(IMMEDIATELY)
        bb.add_content(_msg("alive", *range(15)))
        for i in range(15):
            # dice drift slowly on circles; every 50 frames they rest a while
            phase = (f // 50) % 2
            a = i * 0.41 + (f * 0.01 if phase else 0.0)
            x = 0.5 + 0.3 * math.cos(a) * (0.3 + i / 20)
            y = 0.5 + 0.3 * math.sin(a) * (0.3 + i / 20)
            bb.add_content(_msg("set", i, i, float(x), float(y), 0.0, 0.0, 0.0, 0.0, 0.0,
                                0.0))
        bb.add_content(_msg("fseq", f))
        out.append(bytes(bb.build().dgram))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=3000)
    args = ap.parse_args()
    data = frames(args.frames)
    table = TuioTable(parse_dice_map(DICE))
    t0 = time.perf_counter()
    for i, d in enumerate(data):
        table.feed(d, "bench", i / 60)
    dt = time.perf_counter() - t0
    print(f"{'path':28} {'frames':>7} {'seconds':>8} {'frames/s':>9} {'bytes/frame':>12}")
    print(f"{'in process (feed)':28} {table.stats.frames:7d} {dt:8.3f} "
          f"{table.stats.frames / dt:9.0f} {len(data[0]):12d}")

    live = TuioTable(parse_dice_map(DICE))
    listener = TuioListener(live, "127.0.0.1", 0)
    thread = threading.Thread(target=listener.serve, kwargs={"duration": 120.0})
    thread.start()
    client = SimpleUDPClient("127.0.0.1", listener.address[1])
    t0 = time.perf_counter()
    for i, d in enumerate(data):
        client._sock.sendto(d, listener.address)
        if i % 100 == 99:  # keep at most ~100 frames in flight
            wait = time.monotonic() + 2
            while live.stats.packets < i - 100 and time.monotonic() < wait:
                time.sleep(0.0005)
    last, still = -1, time.monotonic()
    while live.stats.packets < len(data) and time.monotonic() - still < 1.0:
        if live.stats.packets != last:
            last, still = live.stats.packets, time.monotonic()
        time.sleep(0.001)
    dt = time.perf_counter() - t0
    listener.stop()
    thread.join(5)
    print(f"{'loopback UDP (listener)':28} {live.stats.frames:7d} {dt:8.3f} "
          f"{live.stats.frames / dt:9.0f} {'':>12}  ({len(data) - live.stats.packets} dropped)")


if __name__ == "__main__":
    main()
