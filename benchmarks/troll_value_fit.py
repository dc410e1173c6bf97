"""Fit the troll's win-chance model (`games/troll/learned.py`) to the lab's own games.

    .venv/bin/python benchmarks/troll_value_fit.py [--games 4000] [--rounds 2] [--seed-base 1000000]
        [--variant NAME] [--l2 1.0] [--start tuned|learned] [--model learned|rows]

Round 0 plays `--games` deals (seeds from `--seed-base`, never the screens' seeds 0..N) with the
one-turn search on the tuned score (`expectimax:depth=1`); every position the troll leaves at the
end of a turn becomes a row (its `features`) labelled with whether that deal was won in the end.
A logistic regression (Newton's method, L2 penalty `--l2` on all but the bias) is fitted on 80%
of the deals and scored on the other 20% (log loss, against always predicting the base rate).
Each further round plays fresh deals with the one-turn search on the model just fitted and refits
on all rows so far. `--start learned` begins from the shipped `WIN_WEIGHTS` instead (more rounds
of the same policy iteration, on fresh seeds). The table shows each round; the last weights are
printed in the form of `learned.WIN_WEIGHTS`.

`--model rows` fits `learned.rows_chance` instead: the same inputs, then `row_features` (the
thinner row) and `next_awakening_risks`; with `--start learned` its first round plays on
`WIN_WEIGHTS` (the new inputs weighted 0), and the weights are printed as `ROWS_WEIGHTS`.
`--model draws` fits `learned.draws_chance`: `rows`' inputs, then `draw_features` (both rows
against the cards still to come); `--start rows` begins from the shipped `ROWS_WEIGHTS`.

`--depth 2` plays the rounds with the two-turn search (`expectimax`) on the model instead, so
the model learns the win chances of the stronger player that will use it (about 1.6 CPU s a deal
rather than 0.01); `--prior` shrinks the fit towards the round's starting weights rather than
towards zero, so that a few hundred such deals refine the start instead of replacing it;
`--start draws` begins from the shipped `DRAWS_WEIGHTS`.

No fit may play the held-back deals (`learned.HELD_BACK_SEEDS`): the script refuses seeds there.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.games.troll.evaluation import TUNED_WEIGHTS, score
from playtable.games.troll.learned import (
    DRAW_FEATURES,
    DRAWS_WEIGHTS,
    FEATURES,
    HELD_BACK_SEEDS,
    RISK_FEATURES,
    ROW_FEATURES,
    ROWS_WEIGHTS,
    WIN_WEIGHTS,
    draws_chance,
    draws_inputs,
    features,
    rows_chance,
    rows_inputs,
    win_chance,
)
from playtable.games.troll.rollout import greedy_turn
from playtable.games.troll.rules import TrollState
from playtable.games.troll.search import ExpectimaxTroll, best_of

# One BLAS thread: with several, the order of the fit's sums follows the threads, the weights
# change in their last digits, the next round's search breaks ties differently, and the policy
# iteration drifts (measured: a rerun with two threads ended 0.34 away from ROWS_WEIGHTS, with
# one within 0.003). Set before numpy loads its BLAS.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

Inputs = Callable[[TrollState], list[float]]
MODELS: dict[str, tuple[tuple[str, ...], Inputs, Callable[..., float], str]] = {
    "learned": (FEATURES, features, win_chance, "WIN_WEIGHTS"),
    "rows": ((*FEATURES, *ROW_FEATURES, *RISK_FEATURES), rows_inputs, rows_chance, "ROWS_WEIGHTS"),
    "draws": ((*FEATURES, *ROW_FEATURES, *RISK_FEATURES, *DRAW_FEATURES), draws_inputs, draws_chance,
              "DRAWS_WEIGHTS"),
}
"""A model's input names, inputs, chance (taking `weights=`) and the name of its shipped weights."""


def play(state: TrollState, value: Callable[[TrollState], float],
         inputs: Inputs = features) -> tuple[list[list[float]], bool]:
    """One deal by the one-turn search on `value`; the model's `inputs` at every turn's end."""
    rows: list[list[float]] = []
    while not state.is_terminal:
        line, after = greedy_turn(state, value)
        if not after.outcome:
            rows.append(inputs(after))
        for action in line:
            state.apply(action)
    return rows, state.outcome == "win"


class SearchOnModel(ExpectimaxTroll):
    """The two-turn search scoring its horizon with a model being fitted (not a named leaf)."""

    def __init__(self, value: Callable[[TrollState], float]):
        super().__init__(depth=2)
        self._value = value

    def evaluate(self, state: TrollState) -> float:
        return self._value(state)


def play_two_turns(state: TrollState, value: Callable[[TrollState], float],
                   inputs: Inputs) -> tuple[list[list[float]], bool]:
    """One deal by the two-turn search on `value`; the model's `inputs` at every turn's end."""
    search = SearchOnModel(value)
    rows: list[list[float]] = []
    while not state.is_terminal:
        weighed = search.root_values(state)
        line = best_of(weighed)
        after = next(a for candidate, a, _ in weighed if candidate is line)
        if not after.outcome:
            rows.append(inputs(after))
        for action in line:
            state.apply(action)
    return rows, state.outcome == "win"


def fit(x: np.ndarray, y: np.ndarray, l2: float, centre: np.ndarray | None = None) -> np.ndarray:
    """L2-penalised logistic regression by Newton's method (the bias is not penalised); the
    penalty pulls towards `centre` (zero when None)."""
    prior = np.zeros(x.shape[1]) if centre is None else centre
    w = prior.copy()
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + penalty * (w - prior)
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed-base", type=int, default=1_000_000)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--start", choices=("tuned", "learned", "rows", "draws"), default="tuned",
                        help="round 0's policy: the tuned score, or the shipped WIN_WEIGHTS or "
                             "ROWS_WEIGHTS (the new inputs weighted 0)")
    parser.add_argument("--model", choices=tuple(MODELS), default="learned",
                        help="learned: WIN_WEIGHTS' inputs; rows: ROWS_WEIGHTS' (the thinner row, "
                             "the risks); draws: DRAWS_WEIGHTS' (rows', then both rows against the "
                             "cards to come)")
    parser.add_argument("--depth", type=int, choices=(1, 2), default=1,
                        help="the search that plays the rounds: one turn, or two (expectimax)")
    parser.add_argument("--dump", type=Path, default=None,
                        help="save every round's rows (inputs, label, deal) to this .npz file")
    parser.add_argument("--prior", action="store_true",
                        help="shrink the fit towards the round's starting weights, not zero")
    args = parser.parse_args()
    names, inputs, chance, printed = MODELS[args.model]
    seeds = range(args.seed_base, args.seed_base + args.rounds * args.games)
    if seeds.start < HELD_BACK_SEEDS.stop and HELD_BACK_SEEDS.start < seeds.stop:
        raise SystemExit(f"seeds {seeds.start}..{seeds.stop - 1} overlap the held-back block "
                         f"{HELD_BACK_SEEDS.start}..{HELD_BACK_SEEDS.stop - 1}: no fit may see them")
    game = get_game("troll")
    params = resolve_params(game.params_type, game.variants, args.variant)
    xs: list[list[float]] = []
    ys: list[float] = []
    deal: list[int] = []
    weights: tuple[float, ...] | None = None
    if args.start == "learned":
        weights = WIN_WEIGHTS + (0.0,) * (len(names) - len(FEATURES))
    elif args.start == "rows":
        if names[:len(ROWS_WEIGHTS)] != (*FEATURES, *ROW_FEATURES, *RISK_FEATURES):
            raise SystemExit("--start rows needs a model whose inputs begin with ROWS_WEIGHTS' own")
        weights = ROWS_WEIGHTS + (0.0,) * (len(names) - len(ROWS_WEIGHTS))
    elif args.start == "draws":
        if args.model != "draws":
            raise SystemExit("--start draws needs --model draws")
        weights = DRAWS_WEIGHTS
    print(f"troll ({args.variant or 'default'} rules), {args.games} deals a round, "
          f"seeds from {args.seed_base}")
    print(f"{'round':>5} {'policy':>22} {'won':>10} {'rows':>7} {'held-out log loss':>18} "
          f"{'base rate':>10} {'s':>6}")
    for rnd in range(args.rounds):
        start = time.perf_counter()
        if weights is None:
            policy, name = (lambda s: score(s, TUNED_WEIGHTS)), "depth 1, tuned score"
        else:
            policy, name = partial(chance, weights=weights), f"depth {args.depth}, fitted model"
        centre = np.array(weights) if args.prior and weights is not None else None
        won = 0
        for i in range(args.games):
            seed = args.seed_base + rnd * args.games + i
            player = play_two_turns if args.depth == 2 else play
            rows, win = player(game.new_state(params, seed), policy, inputs)
            won += win
            xs.extend(rows)
            ys.extend([float(win)] * len(rows))
            deal.extend([seed] * len(rows))
        x, y, d = np.array(xs), np.array(ys), np.array(deal)
        held = d % 5 == 0
        w = fit(x[~held], y[~held], args.l2, centre)
        base = np.full(x.shape[1], 0.0)
        rate = float(np.clip(y[~held].mean(), 1e-6, 1 - 1e-6))
        base[0] = np.log(rate / (1 - rate))
        print(f"{rnd:5d} {name:>22} {won:5d}/{args.games:<5d} {len(xs):7d} "
              f"{log_loss(x[held], y[held], w):18.4f} {log_loss(x[held], y[held], base):10.4f} "
              f"{time.perf_counter() - start:6.1f}", flush=True)
        if centre is not None:
            print(f"{'':5} {'(the starting weights)':>22} {'':10} {'':7} "
                  f"{log_loss(x[held], y[held], centre):18.4f}", flush=True)
        weights = tuple(float(v) for v in fit(x, y, args.l2, centre))
    assert weights is not None
    if args.dump:
        np.savez(args.dump, x=np.array(xs), y=np.array(ys), deal=np.array(deal))
    print(f"\n{printed} = (")
    for name, value in zip(names, weights, strict=True):
        print(f"    {value:+.4f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
