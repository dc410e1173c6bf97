"""Are the bots' random streams independent of the game's and of each other's? Two measures.

    .venv/bin/python benchmarks/agent_streams.py --seeds 20000 --draws 8
    .venv/bin/python benchmarks/agent_streams.py --games 250 --salts 12 [--first 0]

1. The raw streams (`--seeds`, `--draws`): over seeds 0..seeds-1, the first `--draws` numbers of
   the game's stream and of each seat's agent stream (5 seats), for the runner's derivation
   (`runner.agent_rng`) and for the salted fork it replaced (`Chance(seed).fork(salt + seat)`).
   Every pair of streams (also the game stream of the next seed, and each seat's of the next
   seed) is tested at every pair of positions: Pearson's r across seeds, and a chi-square of the
   16 x 16 table of high nibbles and of low nibbles (what `below(n)` uses). The table shows the
   largest |r|·sqrt(seeds) (about N(0, 1) each under independence) and the smallest p-value
   against its Bonferroni bound; a dependent control (`Chance(seed + 1 + seat)`, the game
   stream of a later seed) shows what a failure looks like.

2. The symptom (`--games`, `--salts`): the wizard's win rate at 5 players with the heuristic bots
   on seeds first..first+games-1, played by the runner's own `play_game` with each derivation
   swapped in for `agent_rng` (so nothing else differs): the replaced salt, `--salts` other
   salts, one stream shared by every seat, and the runner's derivation. If the streams are
   independent, the rates of the salts scatter as binomial draws about one mean.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

from playtable.core.chance import Chance
from playtable.lab import runner
from playtable.lab.runner import Arm, play_game
from playtable.lab.stats import wilson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.lab.stream_checks import SEATS, Derivation, independence  # noqa: E402

OLD_SALT = 0xA6E27
"""The salt of `Chance(seed).fork(OLD_SALT + seat)`, the runner's agent streams before."""

def salted(salt: int) -> Derivation:
    return lambda seed, seat: Chance(seed).fork(salt + seat)


def derivations(salts: int) -> dict[str, Derivation]:
    out: dict[str, Derivation] = {"runner (hashed)": runner.agent_rng,
                                  f"old salt {OLD_SALT:#x}": salted(OLD_SALT)}
    for i in range(salts):
        salt = (OLD_SALT + 7919 * (i + 1)) & 0xFFFFF
        out[f"salt {salt:#x}"] = salted(salt)
    shared: dict[int, Chance] = {}

    def one_stream(seed: int, seat: int) -> Chance:
        if seat == 0:
            shared[seed] = Chance(seed).fork(OLD_SALT)
        return shared[seed]

    out["one shared stream"] = one_stream
    return out


# -- 2. the symptom ----------------------------------------------------------------------------------
def wizard_rate(derive: Derivation, first: int, games: int) -> int:
    from playtable.core.params import resolve_params
    from playtable.games.wizard.game import GAME

    params = resolve_params(GAME.params_type, GAME.variants, None, ["players=5"])
    arm = Arm.build("wizard", params, ["heuristic"], max_steps=100_000)
    arm = Arm(arm.game, arm.params, arm.agents, arm.label, arm.max_steps, quality=False)
    original = runner.agent_rng
    runner.agent_rng = derive  # play_game looks it up at each game: the only thing swapped
    try:
        return sum(bool(play_game(arm, seed)["win"]) for seed in range(first, first + games))
    finally:
        runner.agent_rng = original


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=0, help="seeds for the raw-stream tests (0: skip)")
    ap.add_argument("--draws", type=int, default=8)
    ap.add_argument("--games", type=int, default=0, help="wizard games per derivation (0: skip)")
    ap.add_argument("--first", type=int, default=0, help="first seed of the wizard games")
    ap.add_argument("--salts", type=int, default=8, help="other salts played beside the old one")
    args = ap.parse_args()
    found = derivations(args.salts)
    if args.seeds:
        print(f"raw streams over seeds 0..{args.seeds - 1}, first {args.draws} draws; game, {SEATS} seats, "
              "and the next seed's")
        print(f"{'derivation':<24} {'tests':>6} {'max |r|*sqrt(n)':>16} {'min p':>10} {'Bonferroni 1%':>14}"
              "  worst pairs")
        controls: dict[str, Derivation] = {
            "runner (hashed)": runner.agent_rng, f"old salt {OLD_SALT:#x}": salted(OLD_SALT),
            "control: Chance(seed+1+s)": lambda seed, seat: Chance(seed + 1 + seat)}
        for name, derive in controls.items():
            r = independence(derive, args.seeds, args.draws)
            print(f"{name:<24} {r['tests']:>6} {r['z']:>16.2f} {r['p']:>10.2e} {0.01 / r['tests']:>14.1e}"
                  f"  {r['z_pair']}; {r['p_pair']}", flush=True)
    if args.games:
        print(f"\nwizard, 5 players, heuristic bots, seeds {args.first}..{args.first + args.games - 1}")
        print(f"{'agent streams':<22} {'wizard wins':>11} {'rate [95% CI]':>22} {'s':>6}")
        rates = []
        for name, derive in found.items():
            start = time.perf_counter()
            wins = wizard_rate(derive, args.first, args.games)
            low, high = wilson(wins, args.games)
            if name.startswith(("salt", "old salt")):
                rates.append(wins / args.games)
            rate = f"{100 * wins / args.games:>6.1f}% [{100 * low:4.1f}, {100 * high:4.1f}]"
            print(f"{name:<22} {wins:>11} {rate} "
                  f"{time.perf_counter() - start:>6.0f}", flush=True)
        mean, sd = statistics.fmean(rates), statistics.stdev(rates)
        binomial = math.sqrt(mean * (1 - mean) / args.games)
        print(f"salts: mean {100 * mean:.1f}%, sd {100 * sd:.1f} pp across {len(rates)} salts "
              f"(binomial sd {100 * binomial:.1f} pp)")


if __name__ == "__main__":
    main()
