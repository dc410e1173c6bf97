"""The bot ladders measured (`playtable.agents.levels`): per game and level, its rating on the
people's scale (from `bot_ratings.json`, written by `benchmarks/bot_ratings.py`) with its interval;
its seconds a move, p50 and p95, answered by the web server's own bot worker (`bots.Workers`
running `bots.bot_move` on the position's JSON, exactly as a table's bot turn), wall and the
worker's CPU; and its paired result against the level below (each seed played in both seatings:
the mean points per seed with a 95% Wilson interval over seeds; by default as `bot_ratings.py
--ladder` measured it, with `--games N` played now), apart when the interval is above 1/2.
`--reference SPEC` also plays the strongest level against SPEC (e.g. `ismcts:iterations=2000`)
on `--reference-games` seeds (0: none), and with `--reference-timing` first times SPEC's moves in
a server worker as the levels' are.

    .venv/bin/python benchmarks/bot_ladder.py [--game stardice] [--games 0] [--moves 40]
        [--param players=5] [--reference greedy --reference-games 4] [--workers 2]

Seconds are wall-clock on this machine as it is loaded (the table says the load average); the
moves timed are those of `--timing-games` games with the level in every seat, at most `--moves`
a level.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from importlib import resources
from typing import Any

from playtable.agents import Level, ladder
from playtable.core.params import params_from_dict, split_assignments
from playtable.core.registry import get_game
from playtable.lab.runner import RunOptions
from playtable.lab.stats import quantile, wilson
from playtable.lab.tournament import play_tournament
from playtable.web.server.bots.bots import Workers, bot_seed
from playtable.web.server.people.ratings import BOT_RATINGS_FILE, bot_starts, shown


@dataclass
class PairedResult:
    seeds: int
    mean: float
    low: float
    high: float


def paired_points(game_id: str, upper: str, lower: str, params: dict[str, str], games: int,
                  seed: int, workers: int, log: bool = False,
                  played: list[tuple[int, str, str, float]] | None = None) -> PairedResult:
    """`upper`'s mean points per seed against `lower`, both seatings of each seed (1 = it won
    both, 0.5 = even), with a 95% interval over seeds (`paired_result`). `log` prints each
    seed's points to stderr as it finishes (a long run stopped by Ctrl-C keeps and rates the
    seeds done); `played` gets every game as (seed, the spec in seat 0, the other, points of
    seat 0's)."""
    games_here: list[tuple[int, str, str, float]] = []
    game = get_game(game_id)
    the_params = params_from_dict(game.params_type, params) if params else None
    specs = (upper, lower)

    def count(s: int, i: int, j: int, points: float) -> None:
        games_here.append((s, specs[i], specs[j], points))
        if log and i == 1:  # a seed's second game: the seed is done
            mine = [x[3] if x[1] == upper else 1.0 - x[3] for x in games_here if x[0] == s]
            print(f"{game_id} {upper} v {lower} seed {s}: {mine} "
                  f"(load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)

    play_tournament(game_id, [upper, lower], params=the_params, games=games, seed=seed,
                    # a batch is a seed's two games: each seed is counted (and kept by a
                    # Ctrl-C, which waits for the batch in play) as it ends, not a first batch
                    # of eight slow games later
                    options=RunOptions(workers=workers, batch_size=2), bootstrap=0, on_game=count)
    if played is not None:
        played.extend(games_here)
    return paired_result(games_here, upper)


def paired_result(games: list[tuple[int, str, str, float]], upper: str) -> PairedResult:
    """`upper`'s mean points per seed in `games` (seed, seat 0's spec, the other's, seat 0's
    points), with the 95% Wilson interval over seeds, each seed's mean counted as one trial: a
    seed's mean (0, 1/2 or 1 in a two-sided game) varies less than a coin, so the interval is on
    the safe side, and it stays an interval when every seed went one way (a normal interval
    would shrink to a point)."""
    by_seed: dict[int, list[float]] = defaultdict(list)
    for s, first, _, points in games:
        by_seed[s].append(points if first == upper else 1.0 - points)
    per_seed = [sum(v) / len(v) for v in by_seed.values()]
    low, high = wilson(sum(per_seed), len(per_seed))
    return PairedResult(len(per_seed), sum(per_seed) / max(1, len(per_seed)), low, high)


async def move_seconds(workers: Workers, game_id: str, spec: str, params: dict[str, str],
                       games: int, moves: int, seed: int) -> tuple[list[float], list[float]]:
    """Wall seconds of each move of `spec` (in every seat) answered by the server's own bot
    workers (`Workers.bot_move`, as a table's bot turn with a person waiting), and the CPU
    seconds the worker spent on it (its `process_time` read before and after, in the same
    worker: what the machine's load cannot inflate)."""
    game = get_game(game_id)
    the_params = params_from_dict(game.params_type, params) if params else game.default_params()
    walls: list[float] = []
    cpus: list[float] = []
    for g in range(games):
        state = game.new_state(the_params, seed + g)
        step = 0
        while not state.is_terminal and len(walls) < moves:
            position = state.to_json()
            cpu = await workers.play.run(time.process_time)
            start = time.perf_counter()
            text = await workers.bot_move(game_id, spec, position, bot_seed(seed + g, step))
            walls.append(time.perf_counter() - start)
            cpus.append(await workers.play.run(time.process_time) - cpu)
            state.apply(state.parse_action(text))
            step += 1
        if len(walls) >= moves:
            break
    return walls, cpus


async def warm_workers() -> Workers:
    """The server's workers, one in the play lane, started and past its imports (a job's first
    answer would otherwise include the worker's start)."""
    workers = Workers(1, bot_seconds=120.0)
    await workers.play.run(bot_seed, 0, 0)
    return workers


def rating_of(game_id: str, agent: str) -> dict[str, Any] | None:
    entry = bot_starts().get(game_id, {}).get(agent)
    return None if entry is None else {**shown(entry["mu"], entry["sigma"]), "games": entry["games"]}


def measured_pair(game_id: str, upper: str, lower: str) -> PairedResult | None:
    """`upper` against `lower` as `bot_ratings.py --ladder` measured it (the shipped file's
    "ladders"), or None."""
    source = resources.files("playtable.web.server.people") / BOT_RATINGS_FILE
    for pair in json.loads(source.read_text(encoding="utf-8")).get("ladders", {}).get(game_id, []):
        if (pair["upper"], pair["lower"]) == (upper, lower):
            return PairedResult(pair["seeds"], pair["points"], pair["low"], pair["high"])
    return None


async def level_row(workers: Workers, game_id: str, levels: tuple[Level, ...], k: int,
                    args: argparse.Namespace, params: dict[str, str]) -> str:
    """A level's row. It is apart from the level below when its paired points against it (played
    now with `--games`, else as the ratings' ladder run measured them) are above 1/2 by their
    whole 95% interval."""
    level = levels[k]
    r = rating_of(game_id, level.agent)
    rating = "not measured" if r is None else f"{r['rating']} ± {r['uncertainty']} ({r['games']} games)"
    walls, cpus = await move_seconds(workers, game_id, level.spec, params, args.timing_games,
                                     args.moves, args.seed)
    timing = (f"{quantile(walls, 0.5):.3f} | {quantile(walls, 0.95):.3f} | "
              f"{quantile(cpus, 0.5):.3f} | {quantile(cpus, 0.95):.3f} | {len(walls)}")
    paired, apart = "", ""
    if k:
        lower = levels[k - 1].spec
        p = (paired_points(game_id, level.spec, lower, params, args.games, args.seed, args.workers)
             if args.games else measured_pair(game_id, level.spec, lower))
        if p is not None:
            paired = f"{p.mean:.2f} [{p.low:.2f}, {p.high:.2f}] over {p.seeds} seeds"
            apart = "yes" if p.low > 0.5 else "no"
    return f"| {level.title} (`{level.agent}`: {level.spec}) | {rating} | {apart} | {timing} | {paired} |"


async def print_levels(game_id: str, levels: tuple[Level, ...], args: argparse.Namespace,
                       params: dict[str, str]) -> None:
    workers = await warm_workers()
    try:
        for k in range(len(levels)):
            print(await level_row(workers, game_id, levels, k, args, params), flush=True)
    finally:
        workers.close()


async def print_reference_seconds(game_id: str, args: argparse.Namespace, params: dict[str, str]) -> None:
    """Each `--reference` spec's seconds a move in a server worker, as the levels' are timed."""
    workers = await warm_workers()
    try:
        for reference in args.reference:
            walls, cpus = await move_seconds(workers, game_id, reference, params, args.timing_games,
                                             args.moves, args.seed)
            print(f"{reference}: worker s/move p50 {quantile(walls, 0.5):.3f}, p95 "
                  f"{quantile(walls, 0.95):.3f}; CPU s/move p50 {quantile(cpus, 0.5):.3f}, p95 "
                  f"{quantile(cpus, 0.95):.3f}; {len(walls)} moves", flush=True)
    finally:
        workers.close()


def print_references(game_id: str, levels: tuple[Level, ...], args: argparse.Namespace,
                     params: dict[str, str]) -> None:
    """The strongest level against each `--reference` spec, paired (and timed first, with
    `--reference-timing`)."""
    if args.reference_timing:
        asyncio.run(print_reference_seconds(game_id, args, params))
    for reference in args.reference if args.reference_games else ():
        p = paired_points(game_id, levels[-1].spec, reference, params, args.reference_games,
                          args.seed, args.workers, log=True)
        print(f"\n{levels[-1].title} against {reference}: {p.mean:.2f} [{p.low:.2f}, "
              f"{p.high:.2f}] points a seed over {p.seeds} seeds (both seatings)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=["stardice", "wizard"])
    parser.add_argument("--param", action="append", default=[], help="KEY=VALUE, a game parameter")
    parser.add_argument("--games", type=int, default=0,
                        help="seeds per pair of adjacent levels played now (0: as measured)")
    parser.add_argument("--timing-games", type=int, default=2)
    parser.add_argument("--moves", type=int, default=40, help="moves timed per level, at most")
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reference", action="append", default=[],
                        help="an agent spec the strongest level plays in paired games")
    parser.add_argument("--reference-games", type=int, default=4)
    parser.add_argument("--reference-only", action="store_true",
                        help="play only the --reference games: no levels' rows")
    parser.add_argument("--reference-timing", action="store_true",
                        help="time each --reference's moves as the levels' are (--timing-games, --moves)")
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
        if args.reference_only:
            print_references(game_id, levels, args, params)
            continue
        print("| level | rating ± (95%) | apart from the one below | worker s/move p50 | p95 | "
              "CPU s/move p50 | p95 | moves | points a seed against the level below |")
        print("|---|---:|---|---:|---:|---:|---:|---:|---|")
        asyncio.run(print_levels(game_id, levels, args, params))
        print_references(game_id, levels, args, params)


if __name__ == "__main__":
    main()
