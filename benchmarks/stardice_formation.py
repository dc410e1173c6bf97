"""Formation engine: time of one update for 15 dice (target: under 1 ms per frame).

    .venv/bin/python benchmarks/stardice_formation.py [--frames 2000]

Cases: a table at rest with tracker jitter on every die (the common frame), a frame where
every die jumps (everything is re-evaluated), and a fresh static layout (all pairs compete)."""

from __future__ import annotations

import argparse
import statistics
import time

from playtable.core.chance import Chance
from playtable.games.stardice.formation import FormationEngine, FormationParams, Sighting


def layout(rng: Chance, n: int) -> list[tuple[float, float]]:
    return [(rng.uniform(0.05, 0.95), rng.uniform(0.05, 0.7)) for _ in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=2000)
    ap.add_argument("--dice", type=int, default=15)
    args = ap.parse_args()
    rng = Chance(1)
    params = FormationParams()
    rows = []

    # 1. at rest with jitter
    eng = FormationEngine(params)
    base = layout(rng, args.dice)
    for t in range(3):
        eng.update([Sighting(f"d{i}", x, y, 0.0, 0.0) for i, (x, y) in enumerate(base)], t)
    times = []
    for f in range(args.frames):
        s = [Sighting(f"d{i}", x + rng.uniform(-0.003, 0.003), y + rng.uniform(-0.003, 0.003))
             for i, (x, y) in enumerate(base)]
        t0 = time.perf_counter()
        eng.update(s, 3 + f / 60)
        times.append(time.perf_counter() - t0)
    rows.append(("15 dice at rest, jitter", times))

    # 2. every die jumps each frame (settle_time 0: they reconnect every frame)
    eng = FormationEngine(FormationParams(settle_time=0.0))
    times = []
    for f in range(args.frames):
        s = [Sighting(f"d{i}", x, y, 0.0, 0.0) for i, (x, y) in enumerate(layout(rng, args.dice))]
        t0 = time.perf_counter()
        eng.update(s, f / 60)
        times.append(time.perf_counter() - t0)
    rows.append(("15 dice all moved, reconnect", times))

    # 3. a fresh engine, one static layout (worst case for candidates)
    times = []
    for _ in range(args.frames // 4):
        eng = FormationEngine(FormationParams(settle_time=0.0))
        s = [Sighting(f"d{i}", x, y, 0.0, 0.0) for i, (x, y) in enumerate(layout(rng, args.dice))]
        t0 = time.perf_counter()
        eng.update(s, 0.0)
        times.append(time.perf_counter() - t0)
    rows.append(("fresh static layout", times))

    print(f"{'case':32} {'frames':>7} {'mean ms':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, ts in rows:
        ts_ms = sorted(t * 1000 for t in ts)
        p99 = ts_ms[int(0.99 * (len(ts_ms) - 1))]
        print(f"{name:32} {len(ts):7d} {statistics.fmean(ts_ms):9.3f} "
              f"{statistics.median(ts_ms):8.3f} {p99:8.3f} {ts_ms[-1]:8.3f}")


if __name__ == "__main__":
    main()
