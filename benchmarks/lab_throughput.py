"""Lab throughput: games per second with 1 and 2 worker processes, and ISMCTS iterations per
second on each registered game.

    .venv/bin/python benchmarks/lab_throughput.py [--games 20000] [--iterations 300]

Numbers depend on the machine and on what else it is running; the table prints the load average
before and after, since a speed-up from a second worker needs a second idle core. Starting the
worker processes costs a fixed ~0.4 s (spawned interpreters importing the game), shown apart;
runs of a few seconds or more make it small.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import time

from playtable.agents.ismcts import IsmctsAgent
from playtable.core.chance import Chance
from playtable.core.registry import game_ids, get_game
from playtable.lab.runner import Arm, RunOptions, run_tasks


def games_per_second(game: str, agent: str, games: int, workers: int) -> tuple[float, float]:
    g = get_game(game)
    arm = Arm.build(game, g.default_params(), [agent])
    tasks = [(arm, s) for s in range(games)]
    start = time.perf_counter()
    rows = run_tasks(tasks, RunOptions(workers=workers))
    elapsed = time.perf_counter() - start
    assert len(rows) == games
    return games / elapsed, elapsed


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def machine_scaling(n: int = 10_000_000) -> float:
    """The speed-up of two processes over one on a plain Python loop: what the cores themselves
    allow right now (below 2 when something else is running), to read the lab's figure against."""
    start = time.perf_counter()
    _spin(n)
    one = time.perf_counter() - start
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_spin, [n])  # start-up apart
        start = time.perf_counter()
        pool.map(_spin, [n, n])
        two = time.perf_counter() - start
    return 2 * one / two


def ismcts_rate(game: str, iterations: int, positions: int = 4) -> tuple[float, int]:
    """Mean iterations/s over a few positions reached by random play (one decision each)."""
    g = get_game(game)
    total_its, total_time, seen = 0, 0.0, 0
    rng = Chance(1)
    for seed in range(positions * 3):
        state = g.new_state(g.default_params(), seed)
        for _ in range(seed % 5):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal or len(state.legal_actions()) < 2:
            continue
        agent = IsmctsAgent(iterations=iterations)
        agent.bind(g)
        agent.choose(state, Chance(seed))
        total_its += agent.last_stats["iterations"]
        total_time += agent.last_stats["seconds"]
        seen += 1
        if seen == positions:
            break
    return (total_its / total_time if total_time else float("nan")), seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="random troll games per measurement")
    parser.add_argument("--iterations", type=int, default=300, help="ISMCTS iterations per decision")
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average before the run: {load} (other processes share the CPUs; scaling needs idle cores)")
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}"
    )
    print("\nGames per second (local backend; one row per game written in memory)")
    _, start_cost = games_per_second("troll", "random", 2, 2)
    print(f"starting 2 worker processes: {start_cost:.2f} s (included below)")
    print(f"{'game':10} {'agent':10} {'games':>6} {'1 worker':>10} {'2 workers':>10} {'speed-up':>9}")
    for game, agent, n in (("troll", "random", args.games), ("troll", "heuristic", args.games // 10)):
        if game not in game_ids():
            continue
        one, _ = games_per_second(game, agent, n, 1)
        two, _ = games_per_second(game, agent, n, 2)
        print(f"{game:10} {agent:10} {n:6d} {one:10.1f} {two:10.1f} {two / one:8.2f}x")
    after = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average after the throughput runs: {after}")
    print(f"the cores themselves: 2 processes of a plain Python loop, {machine_scaling():.2f}x one")
    print(f"\nISMCTS iterations per second ({args.iterations} iterations per decision, leaf = Game.evaluate)")
    print(f"{'game':10} {'positions':>9} {'iterations/s':>13}")
    for game in game_ids():
        try:
            rate, seen = ismcts_rate(game, args.iterations)
        except Exception as err:  # a game still being written must not stop the table
            print(f"{game:10} {'-':>9} {'error: ' + type(err).__name__:>13}")
            continue
        print(f"{game:10} {seen:9d} {rate:13.0f}")


if __name__ == "__main__":
    main()
