"""Where the Gymnasium Star Dice environment's time goes under random play (Speed):
cProfile of `--steps` environment steps, the hottest functions by own time and by cumulative
time, and the share of the main parts of a step.

    .venv/bin/python benchmarks/stardice_env_profile.py [--steps 300] [--top 25] [--before 74fdb9b]

`--before REF` profiles the engine as it was at git ref REF first (unpacked by `git archive`
into a temporary directory, run there in a subprocess), then the working tree.

The play is that of benchmarks/stardice_env_speed.py (uniform over the action mask, the
`random` agent on the other seat, reset seed +1 at each episode's end). cProfile slows Python
code far more than the C inside pymunk, so the shares lean towards Python; the speed table is
stardice_env_speed.py's.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats

PARTS = [
    ("pymunk space step (C)", "cpSpaceStep"),
    ("physics.simulate (all of a throw's physics)", "simulate"),
    ("formation engine during throws (on_frame)", "on_frame"),
    ("end of a throw (_finish_frames)", "_finish_frames"),
    ("legal_actions (the menu and mask)", "legal_actions"),
    ("observation (the state's JSON view)", "observation"),
    ("encode (observation -> vector)", "encode"),
    ("opponent's choice (random agent)", "choose"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--before", default=None, help="git ref of the engine to profile first")
    args = ap.parse_args()
    if args.before:
        import os
        import subprocess
        import sys
        import tempfile
        from pathlib import Path

        from stardice_env_speed import ROOT, unpack

        with tempfile.TemporaryDirectory() as tmp:
            src = unpack(args.before, Path(tmp))
            child_env = dict(os.environ, PYTHONPATH=str(src) + os.pathsep + os.environ.get(
                "PYTHONPATH", ""))
            print(f"=== before ({args.before}) ===")
            sys.stdout.flush()
            subprocess.run([sys.executable, __file__, "--steps", str(args.steps), "--top",
                            str(args.top)], env=child_env, check=True, cwd=ROOT)
        print("\n=== now (working tree) ===")

    import numpy as np

    from playtable.rl.single import PlaytableEnv

    env = PlaytableEnv("stardice")
    rng = np.random.default_rng(0)

    def play() -> None:
        episode = 0
        obs, _ = env.reset(seed=episode)
        for _ in range(args.steps):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, done, truncated, _ = env.step(action)
            if done or truncated:
                episode += 1
                obs, _ = env.reset(seed=episode)

    prof = cProfile.Profile()
    prof.runcall(play)
    stats = pstats.Stats(prof)
    total = max(v[3] for v in stats.stats.values())  # type: ignore[attr-defined]
    print(f"Star Dice environment, random play, {args.steps} steps under cProfile: "
          f"{total:.2f} s ({1000 * total / args.steps:.1f} ms a step)\n")
    print(f"{'part':<46} {'cum s':>7} {'share':>6} {'calls':>8}")
    for label, name in PARTS:
        keys = [k for k in stats.stats  # type: ignore[attr-defined]
                if k[2] in (name, f"<built-in method pymunk._chipmunk.{name}>")
                and (name != "encode" or k[0].endswith("encoding.py"))]
        cum = sum(stats.stats[k][3] for k in keys)  # type: ignore[attr-defined]
        calls = sum(stats.stats[k][1] for k in keys)  # type: ignore[attr-defined]
        print(f"{label:<46} {cum:>7.2f} {100 * cum / total:>5.1f}% {calls:>8}")
    for key, title in (("tottime", "own time"), ("cumulative", "cumulative time")):
        out = io.StringIO()
        pstats.Stats(prof, stream=out).strip_dirs().sort_stats(key).print_stats(args.top)
        lines = out.getvalue().splitlines()
        start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
        print(f"\nhottest {args.top} functions by {title}:")
        print("\n".join(line for line in lines[start:] if line.strip()))


if __name__ == "__main__":
    main()
