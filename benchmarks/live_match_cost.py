"""What keeping the match costs a live table per report: a `TuioTable` with the
shipped map's 15 dice on the table (the Surface's limit), one die nudged per frame, without a
match, and with a war running (`LiveMatch.see` on the layout and the page's view built and
compared, as `web/server/live/live.py` does after every report). Prints a table of the median and
95th percentile microseconds a report, per setting, alternating the settings' runs.

    .venv/bin/python benchmarks/live_match_cost.py --frames 2000 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from pythonosc.osc_message_builder import OscMessageBuilder

from playtable.games.stardice.live_match import LiveMatch
from playtable.games.stardice.params import StarDiceParams
from playtable.tableinput.dicemap import load_dice_map
from playtable.tableinput.samples import FIDUCIALS
from playtable.tableinput.tracking import TuioTable


def _msg(*args: Any) -> Any:
    builder = OscMessageBuilder("/tuio/2Dobj")
    for arg in args:
        builder.add_arg(arg)
    return builder.build()


def frame(fseq: int, moved: int, places: dict[int, tuple[float, float]]) -> bytes:
    builder = OscBundleBuilder(IMMEDIATELY)
    builder.add_content(_msg("alive", *sorted(places)))
    x, y = places[moved]
    builder.add_content(_msg("set", moved, moved, float(x), float(y), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    builder.add_content(_msg("fseq", fseq))
    return bytes(builder.build().dgram)


def run(frames: int, with_match: bool) -> list[float]:
    params = StarDiceParams()
    sent: list[dict[str, Any] | None] = [None]
    match: LiveMatch | None = None

    def after(report: dict[str, Any]) -> None:
        if match is not None:
            match.see(table.engine.layout())
            view = match.view()
            if view != sent[0]:
                sent[0] = view

    table = TuioTable(load_dice_map("sample"), params.formation_params(), params.scoring_rules(),
                      borg_faces=params.borg_faces, borg_pips=params.borg_pips, on_frame=after)
    if with_match:
        match = LiveMatch(params, table.live)
        match.start()
    places = {fid: (0.1 + 0.055 * fid, 0.3 + 0.03 * (fid % 4)) for fid in FIDUCIALS.values()}
    out = []
    for i in range(frames):
        fid = i % len(places)
        x, y = places[fid]
        places[fid] = (x + (0.006 if i % 2 else -0.006), y)
        data = frame(i + 1, fid, places)
        start = time.perf_counter()
        table.feed(data, "bench", i / 60)
        out.append((time.perf_counter() - start) * 1e6)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.rounds):
        for setting in (False, True):
            times[setting] += run(args.frames, setting)
    print("| setting | reports | median us | p95 us |")
    print("|---|---:|---:|---:|")
    for setting, label in ((False, "shapes only"), (True, "a war running")):
        values = sorted(times[setting])
        p95 = values[int(0.95 * (len(values) - 1))]
        print(f"| {label} | {len(values)} | {statistics.median(values):.0f} | {p95:.0f} |")


if __name__ == "__main__":
    main()
