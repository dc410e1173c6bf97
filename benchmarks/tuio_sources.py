"""A TUIO table flooded with source names: the time of an ordinary frame
after N distinct `source` names were sent, with the listener's bound (`MAX_SOURCES`) and, for
comparison, with the bound lifted (the state grows with every name, as it did before).

    .venv/bin/python benchmarks/tuio_sources.py [--sources 20000] [--frames 500]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from rich.console import Console
from rich.table import Table

from playtable.tableinput import tuio
from playtable.tableinput.dicemap import parse_dice_map
from playtable.tableinput.tracking import TuioTable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "tableinput"))
from tuio_script import DICE_MAP, TRIANGLE, bundle, msg, obj_set  # noqa: E402


def flood(name: str) -> Any:
    builder = OscBundleBuilder(IMMEDIATELY)
    builder.add_content(msg("2Dobj", "source", name))
    builder.add_content(msg("2Dobj", "alive"))
    return builder.build()


def frame_ms(sources: int, frames: int) -> tuple[float, int]:
    table = TuioTable(parse_dice_map(DICE_MAP))
    for i in range(sources):  # source + alive, no fseq: each name leaves state, none commits
        table.feed(bytes(flood(f"spoof{i}").dgram), "a", 0.0)
    data = [
        bundle(
            "2Dobj",
            [100, 107, 114],
            [obj_set(100 + f, f, x + 0.0001 * (k % 2), y) for f, (x, y) in TRIANGLE.items()],
            k + 1,
            source="tracker",
        )
        for k in range(frames)
    ]
    started = time.perf_counter()
    for k, datagram in enumerate(data):
        table.feed(datagram, "a", 1.0 + 0.02 * k)
    return (time.perf_counter() - started) / frames * 1000, len(table.sources)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=20_000)
    parser.add_argument("--frames", type=int, default=500)
    args = parser.parse_args()
    table = Table(title=f"one 3-dice frame after {args.sources:,} source names")
    for col in ("listener", "sources kept", "ms per frame"):
        table.add_column(col, justify="right")
    bound = tuio.MAX_SOURCES
    for label, cap in ((f"bounded ({bound})", bound), ("unbounded (before)", 10**9)):
        tuio.MAX_SOURCES = cap
        try:
            ms, kept = frame_ms(args.sources, args.frames)
        finally:
            tuio.MAX_SOURCES = bound
        table.add_row(label, f"{kept:,}", f"{ms:.3f}")
    baseline, _ = frame_ms(0, args.frames)
    table.add_row("no flood", "1", f"{baseline:.3f}")
    Console().print(table)


if __name__ == "__main__":
    main()
