"""Steps a second of the Gymnasium Star Dice environment under random play (Speed:
target at least 500), before and after the speed-up, in one table.

    .venv/bin/python benchmarks/stardice_env_speed.py [--steps 1500] [--before 74fdb9b] [--repeats 3]

Random play: `PlaytableEnv("stardice")` (the registered `playtable/StarDice-v0` without the
TimeLimit wrapper), the learner's action drawn uniformly from the action mask, the other seat
played by the `random` agent, a new episode (reset seed +1) whenever one ends. One env step is
the learner's throw plus the opponent's answer: two pymunk throws run to rest, the formation
engine watching every 0.1 s of simulated time, the observation encoded and the next menu built.

`--before REF` also measures the engine as it was at git ref REF: `git archive REF src` is
unpacked into a temporary directory and the same measurement runs there in a subprocess
(PYTHONPATH first). Both engines play the same episodes (the test
tests/games/stardice/test_stardice_differential.py holds them to the same outcomes), so the
rows compare like with like. Times are wall-clock and CPU (process) seconds; the machine's load
average is printed, since other work on a shared machine slows the wall clock (and, less, the
CPU's). Of `--repeats` runs the one with the least CPU time is kept for each engine; the
engines' runs alternate.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def measure(steps: int) -> dict[str, Any]:
    import numpy as np

    import playtable
    from playtable.rl.single import PlaytableEnv

    env = PlaytableEnv("stardice")
    rng = np.random.default_rng(0)

    def throws_so_far() -> int:
        return int(getattr(env.state, "throws", 0))

    episode = 0
    obs, _ = env.reset(seed=episode)
    throws = 0
    start = throws_so_far()
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, done, truncated, _ = env.step(action)
        if done or truncated:
            throws += throws_so_far() - start
            episode += 1
            obs, _ = env.reset(seed=episode)
            start = throws_so_far()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    throws += throws_so_far() - start
    return {"steps": steps, "episodes": episode, "throws": throws, "wall": wall, "cpu": cpu,
            "source": str(Path(playtable.__file__).resolve().parent)}


def run_worker(src: Path | None, steps: int) -> dict[str, Any]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, __file__, "--worker", "--steps", str(steps)],
                         env=env, check=True, capture_output=True, text=True, cwd=ROOT)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def unpack(ref: str, into: Path) -> Path:
    archive = subprocess.run(["git", "archive", "--format=tar", ref, "src"], cwd=ROOT,
                             check=True, capture_output=True).stdout
    tar_path = into / "src.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--before", default=None, help="git ref of the engine to compare with")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(measure(args.steps)))
        return
    rows: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        engines: list[tuple[str, Path | None]] = []
        if args.before:
            engines.append((f"before ({args.before})", unpack(args.before, Path(tmp))))
        engines.append(("now (working tree)", None))
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in engines}
        for _ in range(args.repeats):  # interleaved, so that both see the same machine load
            for name, src in engines:
                runs[name].append(run_worker(src, args.steps))
        # the run with the least CPU time: on a shared machine other work stretches both
        # clocks (less the CPU's), never shrinks them
        rows = [(name, min(runs[name], key=lambda r: r["cpu"])) for name, _ in engines]
    print(f"Star Dice environment, random play: {args.steps} steps a run, best of "
          f"{args.repeats}; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} CPUs")
    print(f"  command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print()
    print(f"{'engine':<24} {'episodes':>8} {'throws':>7} {'wall s':>8} {'CPU s':>8} "
          f"{'steps/s':>9} {'steps/CPU s':>12} {'ms/step':>8}")
    for name, r in rows:
        print(f"{name:<24} {r['episodes']:>8.0f} {r['throws']:>7.0f} {r['wall']:>8.2f} "
              f"{r['cpu']:>8.2f} {r['steps'] / r['wall']:>9.1f} {r['steps'] / r['cpu']:>12.1f} "
              f"{1000 * r['wall'] / r['steps']:>8.2f}")
    if len(rows) == 2:
        print(f"\nspeed-up: x{rows[0][1]['wall'] / rows[1][1]['wall']:.1f} wall, "
              f"x{rows[0][1]['cpu'] / rows[1][1]['cpu']:.1f} CPU")


if __name__ == "__main__":
    main()
