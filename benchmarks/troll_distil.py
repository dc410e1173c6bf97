"""Distil the troll's depth-2 search into its leaf: fit `learned.DISTILLED_WEIGHTS`.

    .venv/bin/python benchmarks/troll_distil.py [--games 700] [--seed-base 5100000] [--workers 2]
        [--l2 1.0] [--leaf learned]

Plays `--games` deals (seeds from `--seed-base`, never the strength screens' seeds 0..N) with the
depth-2 search `expectimax:leaf=LEAF`. At every troll turn, each turn ending the search weighed
becomes a row: its `features` and `next_awakening_risks`, and the search's value of it divided by
`survival` (the double-awakening factor both models multiply by, so the fit need not learn it).
A logistic regression with those values as soft targets (`troll_value_fit.fit`) is fitted on the
deals whose seed is not a multiple of 5 and scored on the others:

- the held-out loss, against the `learned` model's weights refitted to the same targets;
- how often the ending a model rates best is the one the search rated best, and the search's
  value lost when it is not ("regret"), for the shipped `learned` leaf, the refit and the new
  model. A leaf that picks what the depth-2 search would pick lets a depth-2 search see about a
  turn further.

The final weights are fitted on all rows and printed in the form of `DISTILLED_WEIGHTS`. The
deals run in `--workers` processes; the rows do not depend on how many.

`--networks` (needs torch, a dev dependency) also fits small networks to the same targets, on
those inputs and on 69 raw ones more (each slot's height, emptiness, awake top and awake lone
brick; the troll's slot; what it carries; the deck and the set-aside cards), and scores them the
same way: how much of the search a leaf with more capacity could hold (docs/lab.md).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from playtable.core.registry import get_game
from playtable.games.troll.cards import ACE_OF_CLUBS, is_red
from playtable.games.troll.learned import (
    FEATURES,
    RISK_FEATURES,
    WIN_WEIGHTS,
    distilled_inputs,
    survival,
)
from playtable.games.troll.rules import TrollState
from playtable.games.troll.search import ExpectimaxTroll, best_of
from troll_value_fit import fit, log_loss

Row = tuple[int, int, list[float], float, float, list[float]]
"""seed, turn, inputs, searched value, survival, raw inputs"""


def raw_inputs(state: TrollState) -> list[float]:
    """The position as plainly as it can be written, for `--networks`."""
    out: list[float] = []
    for stack in state.stacks:
        awake = bool(stack) and stack[-1] in state.face_up
        out += [len(stack) / 5, float(not stack), float(awake), float(awake and len(stack) == 1)]
    troll = [0.0] * len(state.stacks)
    troll[state.troll] = 1.0
    held = [0.0] * 6  # THE CLUB, a club, a diamond, a heart, a spade (awake), a dormant brick
    for card in state.carried:
        held[0 if card == ACE_OF_CLUBS else 5 if card not in state.face_up else 1 + card // 13] = 1.0
    lower = sum(1 for c in state.set_aside if is_red(c) == state.lower_red)
    return [*out, *troll, *held, len(state.deck) / 28, len(state.set_aside), lower]


def play(job: tuple[int, str]) -> tuple[list[Row], bool]:
    """One deal by the depth-2 search; a row for every turn ending it weighed."""
    seed, leaf = job
    state = get_game("troll").new_state(seed=seed)
    agent = ExpectimaxTroll(leaf=leaf)
    rows: list[Row] = []
    while not state.is_terminal:
        weighed = agent.root_values(state)
        for _, after, value in weighed:
            if not after.outcome:
                rows.append((seed, state.turn, distilled_inputs(after), value, survival(after),
                             raw_inputs(after)))
        for action in best_of(weighed):
            state.apply(action)
    return rows, state.outcome == "win"


def choice_regret(groups: list[np.ndarray], value: np.ndarray, rated: np.ndarray) -> tuple[float, float]:
    """The share of turns where the best-rated ending is the search's best, and the mean value lost."""
    agree = lost = 0.0
    for g in groups:
        pick = g[np.argmax(rated[g])]
        best = value[g].max()
        agree += value[pick] == best
        lost += best - value[pick]
    return agree / len(groups), lost / len(groups)


def fit_network(x: np.ndarray, y: np.ndarray, train: np.ndarray, hidden: int) -> list[np.ndarray]:
    """A network (two hidden layers of `hidden` ReLU units; 0 = linear) fitted to soft targets `y`
    on the rows `train` (Adam, 40 epochs, seed 0, one thread), as [weights, bias, ...] per layer
    with the inputs' scaling folded into the first layer, so that it reads the raw inputs."""
    import torch

    torch.manual_seed(0)
    torch.set_num_threads(1)
    mean, scale = x[train].mean(0), x[train].std(0)
    scale[scale < 1e-9] = 1.0  # a constant input (the bias) stays as it is
    xs = torch.tensor((x - mean) / scale, dtype=torch.float32)
    ys = torch.tensor(y, dtype=torch.float32)
    layers: list[torch.nn.Module] = [torch.nn.Linear(x.shape[1], 1)]
    if hidden:
        layers = [torch.nn.Linear(x.shape[1], hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden),
                  torch.nn.ReLU(), torch.nn.Linear(hidden, 1)]
    net = torch.nn.Sequential(*layers)
    opt = torch.optim.Adam(net.parameters(), 2e-3, weight_decay=1e-5)
    loss = torch.nn.BCEWithLogitsLoss()
    rows = torch.tensor(np.flatnonzero(train))
    for _ in range(40):
        for batch in rows[torch.randperm(len(rows))].split(256):
            opt.zero_grad()
            loss(net(xs[batch]).squeeze(1), ys[batch]).backward()
            opt.step()
    params = [p.detach().numpy().astype(float) for p in net.parameters()]
    params[1] = params[1] - params[0] @ (mean / scale)
    params[0] = params[0] / scale
    return params


def network_logits(params: list[np.ndarray], x: np.ndarray) -> np.ndarray:
    """The logits of a `fit_network` network for every row of `x`."""
    values = x
    for i in range(0, len(params) - 2, 2):
        values = np.maximum(0.0, values @ params[i].T + params[i + 1])
    return values @ params[-2].T[:, 0] + params[-1][0]


def _without_cache(argv: list[str]) -> list[str]:
    """The command line less `--rows FILE`, a cache that changes no number."""
    out, skip = [], False
    for arg in argv:
        if skip or arg == "--rows" or arg.startswith("--rows="):
            skip = arg == "--rows"
            continue
        out.append(arg)
    return out


def export(params: list[np.ndarray], path: Path, command: str) -> None:
    """Write a network in the form `value_network.network` reads."""
    layers = [{"weights": [[round(float(v), 6) for v in row] for row in params[i]],
               "bias": [round(float(v), 6) for v in params[i + 1]]} for i in range(0, len(params), 2)]
    path.write_text(json.dumps({"fitted_by": command, "inputs": [*FEATURES, *RISK_FEATURES],
                                "layers": layers}, separators=(",", ":")) + "\n")


def played_rows(args: argparse.Namespace) -> tuple[list[Row], int]:
    """The rows of `--games` deals from `--seed-base`, played in `--workers` processes (or read
    back from `--rows`, written by an earlier run with the same deals and leaf)."""
    what = (args.games, args.seed_base, args.leaf)
    if args.rows and args.rows.exists():
        with args.rows.open("rb") as f:
            kept = pickle.load(f)
        if kept["what"] != what:
            raise SystemExit(f"{args.rows} holds the rows of {kept['what']}, not {what}")
        return kept["rows"], kept["won"]
    start = time.perf_counter()
    jobs = [(args.seed_base + i, args.leaf) for i in range(args.games)]
    rows: list[Row] = []
    won = 0
    with Pool(args.workers) as pool:
        for i, (deal_rows, win) in enumerate(pool.imap(play, jobs, chunksize=4), 1):
            rows.extend(deal_rows)
            won += win
            if i % 50 == 0 or i == len(jobs):
                print(f"  {i}/{len(jobs)} deals, {won} won, {len(rows)} rows, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
    if args.rows:
        with args.rows.open("wb") as f:
            pickle.dump({"what": what, "rows": rows, "won": won}, f)
    return rows, won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=700)
    parser.add_argument("--seed-base", type=int, default=5_100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--leaf", default="learned", help="the depth-2 search's own leaf")
    parser.add_argument("--networks", action="store_true", help="also score small networks (torch)")
    parser.add_argument("--rows", type=Path, help="keep the played rows in this .pkl file, and "
                        "read them from it when it exists (for the same arguments)")
    parser.add_argument("--export", type=Path, help="fit a network on every row and write it here "
                        "(src/playtable/games/troll/value_network.json is the shipped one)")
    parser.add_argument("--hidden", type=int, default=32, help="the exported network's layer width")
    args = parser.parse_args()
    rows, won = played_rows(args)
    seed = np.array([r[0] for r in rows])
    x = np.array([r[2] for r in rows])
    searched = np.array([r[3] for r in rows])
    surv = np.array([r[4] for r in rows])
    target = np.clip(searched / np.maximum(surv, 1e-9), 1e-4, 1 - 1e-4)
    held = seed % 5 == 0
    by_turn: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i in np.flatnonzero(held):
        by_turn[(rows[i][0], rows[i][1])].append(i)
    groups = [np.array(g) for g in by_turn.values() if len(g) > 1]
    base = len(FEATURES)

    def rated(w: np.ndarray, cols: int) -> np.ndarray:
        return surv / (1.0 + np.exp(-np.clip(x[:, :cols] @ w, -30, 30)))

    refit = fit(x[~held, :base], target[~held], args.l2)
    model = fit(x[~held], target[~held], args.l2)
    print(f"\ndepth-2 search (leaf={args.leaf}): {won}/{args.games} deals won, {len(rows)} turn endings, "
          f"{len(groups)} held-out turns with a choice")
    print(f"{'leaf':<42} {'held-out loss':>13} {'picks the search best':>22} {'value lost a turn':>18}")
    for name, w, cols in (("learned (shipped WIN_WEIGHTS)", np.array(WIN_WEIGHTS), base),
                          ("learned's inputs, refitted to the search", refit, base),
                          ("distilled (+ next awakening's risks)", model, x.shape[1])):
        agree, lost = choice_regret(groups, searched, rated(w, cols))
        loss = log_loss(x[held, :cols], target[held], w)
        print(f"{name:<42} {loss:13.4f} {agree:21.1%} {lost:18.5f}")
    if args.networks:
        raw = np.hstack([x, np.array([r[5] for r in rows])])
        for name, inputs, hidden in (("network 32x32, distilled's inputs", x, 32),
                                     ("network 64x64, distilled's inputs", x, 64),
                                     ("linear, + raw inputs", raw, 0),
                                     ("network 64x64, + raw inputs", raw, 64),
                                     ("network 128x128, + raw inputs", raw, 128)):
            z = network_logits(fit_network(inputs, target, ~held, hidden), inputs)
            agree, lost = choice_regret(groups, searched, surv / (1.0 + np.exp(-z)))
            p = np.clip(1.0 / (1.0 + np.exp(-z[held])), 1e-9, 1 - 1e-9)
            loss = float(-np.mean(target[held] * np.log(p) + (1 - target[held]) * np.log(1 - p)))
            print(f"{name:<42} {loss:13.4f} {agree:21.1%} {lost:18.5f}", flush=True)
    if args.export:
        params = fit_network(x, target, np.ones(len(x), dtype=bool), args.hidden)
        export(params, args.export, "benchmarks/troll_distil.py " + " ".join(_without_cache(sys.argv[1:])))
        print(f"\nwrote the {args.hidden}x{args.hidden} network fitted on all rows to {args.export}")
    weights = fit(x, target, args.l2)
    print("\nDISTILLED_WEIGHTS: tuple[float, ...] = (")
    for name, value in zip((*FEATURES, *RISK_FEATURES), weights, strict=True):
        print(f"    {value:+.4f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
