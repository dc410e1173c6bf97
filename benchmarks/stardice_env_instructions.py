"""Machine instructions an environment step of Star Dice random play costs (Speed),
before and after the speed-up: counted by valgrind's callgrind, so the figure does not depend
on how busy the machine is (its wall-clock and CPU times, stardice_env_speed.py's, do).

    .venv/bin/python benchmarks/stardice_env_instructions.py [--steps 100] [--before 74fdb9b]

The play is stardice_env_speed.py's (uniform over the action mask, the `random` agent on the
other seat, reset seed +1 at each episode's end). Each engine runs twice under callgrind, with
0 and with `--steps` steps; the difference over the steps is the cost of a step (start-up,
imports and the environment's construction cancel out). PYTHONHASHSEED is fixed so the runs
repeat exactly. Needs valgrind; slow (about a minute per 100 steps under callgrind).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from stardice_env_speed import ROOT, unpack


def play(steps: int) -> None:
    import numpy as np

    from playtable.rl.single import PlaytableEnv

    env = PlaytableEnv("stardice")
    rng = np.random.default_rng(0)
    episode = 0
    obs, _ = env.reset(seed=episode)
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, done, truncated, _ = env.step(action)
        if done or truncated:
            episode += 1
            obs, _ = env.reset(seed=episode)


def count(src: Path | None, steps: int) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")
    if src is not None:
        env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--worker", "--steps", str(steps)],
        env=env, capture_output=True, text=True, cwd=ROOT, check=True)
    match = re.search(r"refs:\s+([\d,]+)", out.stderr)
    if match is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(match.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--before", default=None, help="git ref of the engine to compare with")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        play(args.steps)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        engines: list[tuple[str, Path | None]] = []
        if args.before:
            engines.append((f"before ({args.before})", unpack(args.before, Path(tmp))))
        engines.append(("now (working tree)", None))
        for name, src in engines:
            base, total = count(src, 0), count(src, args.steps)
            rows.append((name, base, total, (total - base) / args.steps))
    print(f"Star Dice environment, random play: machine instructions a step (callgrind), "
          f"{args.steps} steps")
    print(f"  command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print()
    print(f"{'engine':<24} {'start-up':>14} {'with steps':>14} {'per step':>12}")
    for name, base, total, per in rows:
        print(f"{name:<24} {base:>14,} {total:>14,} {per:>12,.0f}")
    if len(rows) == 2:
        print(f"\nratio: x{rows[0][3] / rows[1][3]:.2f} fewer instructions a step")


if __name__ == "__main__":
    main()
