"""Tests of the independence of random streams across many seeds, shared by
tests/lab/test_agent_streams.py (bounded sizes) and benchmarks/agent_streams.py (larger ones).

For seeds 0..n-1 take the first `draws` numbers of the game's stream (`Chance(seed)`) and of each
seat's agent stream, and also those of the next seed (a derivation that hands seed s the game
stream of seed s+1 is caught there). Every pair of streams is tested at every pair of positions
across seeds: Pearson's r of the top 53 bits (what `random()` uses), and a chi-square test of the
16 x 16 table of high nibbles and of low nibbles (`below(n)` is a draw modulo n).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

from playtable.core.chance import Chance

SEATS = 5

Derivation = Callable[[int, int], Chance]
"""(seed, seat) -> that seat's agent stream."""


def first_draws(derive: Derivation, seeds: int, draws: int) -> dict[str, list[list[int]]]:
    """Stream name -> for seeds 0..seeds (one more, for the next seed's), the first draws."""
    out: dict[str, list[list[int]]] = {"game": [], **{f"seat{s}": [] for s in range(SEATS)}}
    for seed in range(seeds + 1):
        game = Chance(seed)
        out["game"].append([game.next_u64() for _ in range(draws)])
        for s in range(SEATS):
            rng = derive(seed, s)
            out[f"seat{s}"].append([rng.next_u64() for _ in range(draws)])
    return out


def independence(derive: Derivation, seeds: int, draws: int) -> dict[str, Any]:
    """The largest |r|·sqrt(seeds) (about N(0, 1) per test under independence), the smallest
    chi-square p-value, the number of chi-square tests, and the pair of streams of each."""
    import numpy as np
    from scipy.stats import chi2_contingency

    drawn = {k: np.array(v, dtype=np.uint64) for k, v in first_draws(derive, seeds, draws).items()}
    columns = {**{k: v[:-1] for k, v in drawn.items()}, **{f"next {k}": v[1:] for k, v in drawn.items()}}
    this = list(drawn)
    pairs = list(itertools.combinations(this, 2)) + [(a, f"next {b}") for a in this for b in this if a != b]
    worst: dict[str, Any] = {"z": 0.0, "z_pair": "", "p": 1.0, "p_pair": "", "tests": 0}
    for a, b in pairs:
        for i, j in itertools.product(range(draws), repeat=2):
            x, y = columns[a][:, i], columns[b][:, j]
            top_x, top_y = (x >> np.uint64(11)).astype(float), (y >> np.uint64(11)).astype(float)
            r = float(np.corrcoef(top_x, top_y)[0, 1])
            if abs(r) * math.sqrt(seeds) > worst["z"]:
                worst.update(z=abs(r) * math.sqrt(seeds), z_pair=f"{a}[{i}] {b}[{j}]")
            for shift in (60, 0):
                table = np.zeros((16, 16))
                np.add.at(table, (((x >> np.uint64(shift)) & np.uint64(15)).astype(np.int64),
                                  ((y >> np.uint64(shift)) & np.uint64(15)).astype(np.int64)), 1)
                p = float(chi2_contingency(table, correction=False)[1])
                if p < worst["p"]:
                    worst.update(p=p, p_pair=f"{a}[{i}] {b}[{j}] bits {shift}+")
                worst["tests"] += 1
    return worst
