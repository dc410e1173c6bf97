"""The bot ladders measured (`playtable.agents.levels`): per game and level, its rating on the
people's scale (from `bot_ratings.json`, written by `benchmarks/bot_ratings.py`) with its
interval and whether it is told apart from the level below; its seconds a move, p50 and p95,
answered by the web server's own worker process (`bots.Pool` running `bots.bot_move` on the
position's JSON, exactly as a table's bot turn); and its paired result against the level below
(each seed played in both seatings: the mean points per seed with a 95% interval).
`--reference SPEC` also plays the strongest level against SPEC (e.g. `ismcts:iterations=2000`)
on `--reference-games` seeds.

    .venv/bin/python benchmarks/bot_ladder.py [--game stardice] [--games 10] [--moves 40]
        [--param players=5] [--reference greedy --reference-games 4] [--workers 2]

Seconds are wall-clock on this machine as it is loaded (the table says the load average); the
moves timed are those of `--timing-games` games with the level in every seat, at most `--moves`
a level.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from playtable.agents import Level, ladder, make_agent
from playtable.core.chance import Chance
from playtable.core.params import params_from_dict, split_assignments
from playtable.core.registry import get_game
from playtable.lab.runner import RunOptions
from playtable.lab.stats import mean_sd, quantile
from playtable.lab.tournament import play_tournament
from playtable.web.server.bots.bots import Pool, bot_move, bot_seed
from playtable.web.server.people.ratings import bot_starts, shown

Z95 = 1.96


@dataclass
class PairedResult:
    seeds: int
    mean: float
    low: float
    high: float


def paired_points(game_id: str, upper: str, lower: str, params: dict[str, str], games: int,
                  seed: int, workers: int) -> PairedResult:
    """`upper`'s mean points per seed against `lower`, both seatings of each seed (1 = it won
    both, 0.5 = even), with the normal 95% interval over seeds."""
    by_seed: dict[int, list[float]] = defaultdict(list)
    game = get_game(game_id)
    the_params = params_from_dict(game.params_type, params) if params else None

    def count(s: int, i: int, j: int, points: float) -> None:
        by_seed[s].append(points if i == 0 else 1.0 - points)

    play_tournament(game_id, [upper, lower], params=the_params, games=games, seed=seed,
                    options=RunOptions(workers=workers), bootstrap=0, on_game=count)
    per_seed = [sum(v) / len(v) for v in by_seed.values()]
    mean, sd = mean_sd(per_seed)
    half = Z95 * sd / math.sqrt(len(per_seed)) if len(per_seed) > 1 else math.inf
    return PairedResult(len(per_seed), mean, mean - half, mean + half)


async def move_seconds(pool: Pool, game_id: str, spec: str, params: dict[str, str], games: int,
                       moves: int, seed: int) -> tuple[list[float], list[float]]:
    """Wall seconds of each move of `spec` (in every seat) answered by the server's worker
    `pool`, and the CPU seconds of the same move played here (what the load cannot inflate)."""
    game = get_game(game_id)
    the_params = params_from_dict(game.params_type, params) if params else game.default_params()
    agent = make_agent(game, spec)
    walls: list[float] = []
    cpus: list[float] = []
    for g in range(games):
        state = game.new_state(the_params, seed + g)
        step = 0
        while not state.is_terminal and len(walls) < moves:
            position = state.to_json()
            rng_seed = bot_seed(seed + g, step)
            start = time.perf_counter()
            text = await pool.run(bot_move, game_id, spec, position, rng_seed)
            walls.append(time.perf_counter() - start)
            start = time.thread_time()
            agent.choose(game.state_from_json(position), Chance(rng_seed))
            cpus.append(time.thread_time() - start)
            state.apply(state.parse_action(text))
            step += 1
        if len(walls) >= moves:
            break
    return walls, cpus


async def warm_pool() -> Pool:
    """One server worker, started and past its imports (a job's first answer would otherwise
    include the worker's start)."""
    pool = Pool(1, seconds=120.0)
    await pool.run(bot_seed, 0, 0)
    return pool


def rating_of(game_id: str, agent: str) -> dict[str, Any] | None:
    entry = bot_starts().get(game_id, {}).get(agent)
    return None if entry is None else {**shown(entry["mu"], entry["sigma"]), "games": entry["games"]}


async def level_row(pool: Pool, game_id: str, levels: tuple[Level, ...], k: int,
              args: argparse.Namespace, params: dict[str, str]) -> str:
    level = levels[k]
    r = rating_of(game_id, level.agent)
    rating = "not measured" if r is None else f"{r['rating']} ± {r['uncertainty']} ({r['games']} games)"
    apart = ""
    if k and r is not None and (below := rating_of(game_id, levels[k - 1].agent)) is not None:
        gap = r["rating"] - r["uncertainty"] - below["rating"] - below["uncertainty"]
        apart = "yes" if gap > 0 else "no"
    walls, cpus = await move_seconds(pool, game_id, level.spec, params, args.timing_games,
                                     args.moves, args.seed)
    timing = (f"{quantile(walls, 0.5):.3f} | {quantile(walls, 0.95):.3f} | "
              f"{quantile(cpus, 0.5):.3f} | {quantile(cpus, 0.95):.3f} | {len(walls)}")
    paired = ""
    if k and args.games:
        p = paired_points(game_id, level.spec, levels[k - 1].spec, params, args.games, args.seed,
                          args.workers)
        paired = f"{p.mean:.2f} [{p.low:.2f}, {p.high:.2f}] over {p.seeds} seeds"
    return f"| {level.title} (`{level.agent}`: {level.spec}) | {rating} | {apart} | {timing} | {paired} |"


async def print_levels(game_id: str, levels: tuple[Level, ...], args: argparse.Namespace,
                       params: dict[str, str]) -> None:
    pool = await warm_pool()
    try:
        for k in range(len(levels)):
            print(await level_row(pool, game_id, levels, k, args, params), flush=True)
    finally:
        pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=["stardice", "wizard"])
    parser.add_argument("--param", action="append", default=[], help="KEY=VALUE, a game parameter")
    parser.add_argument("--games", type=int, default=10, help="seeds per pair of adjacent levels")
    parser.add_argument("--timing-games", type=int, default=2)
    parser.add_argument("--moves", type=int, default=40, help="moves timed per level, at most")
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reference", action="append", default=[],
                        help="an agent spec the strongest level plays in paired games")
    parser.add_argument("--reference-games", type=int, default=4)
    args = parser.parse_args()
    params = split_assignments(args.param)
    for game_id in args.game or ["stardice", "wizard"]:
        levels = ladder(game_id)
        game = get_game(game_id)
        params_from_dict(game.params_type, params)  # a bad --param is refused before any game
        settings = " ".join(f"{k}={v}" for k, v in params.items())
        print(f"\n{game.name}{' (' + settings + ')' if settings else ''}: {args.games} seeds per "
              f"adjacent pair, both seatings; moves timed in a server worker "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
        print("| level | rating ± (95%) | apart from the one below | worker s/move p50 | p95 | "
              "CPU s/move p50 | p95 | moves | points a seed against the level below |")
        print("|---|---:|---|---:|---:|---:|---:|---:|---|")
        asyncio.run(print_levels(game_id, levels, args, params))
        for reference in args.reference:
            p = paired_points(game_id, levels[-1].spec, reference, params, args.reference_games,
                              args.seed, args.workers)
            print(f"\n{levels[-1].title} against {reference}: {p.mean:.2f} [{p.low:.2f}, "
                  f"{p.high:.2f}] points a seed over {p.seeds} seeds (both seatings)", flush=True)


if __name__ == "__main__":
    main()
