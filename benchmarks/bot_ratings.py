"""The bots' starting ratings at the web tables: every bot of each game of two sides
or more plays every other on the same seeds with seats swapped (`playtable tournament`'s
matches: in the wizard game, A as the wizard against B as every hero, and the reverse), and the
games go through the server's own rating update (`web.server.ratings.rate`) in seed order,
each bot starting as a newcomer. The result is written to the file the server ships
(`src/playtable/web/server/people/bot_ratings.json`) and printed as a table, beside the tournament's
Bradley-Terry fit (Elo scale, mean 0, 95% bootstrap interval) as a cross-check of the order.

    .venv/bin/python benchmarks/bot_ratings.py [--games 20] [--workers 2] [--game wizard]
        [--out src/playtable/web/server/people/bot_ratings.json]

`--games` seeds per pair of bots (each played in both seatings). `--game` (repeatable) measures
only those games and keeps the file's other games as they are. A bot missing from the file
starts at the newcomer's rating on a server (1500 ± 467) and the lobby says it is unmeasured.

The ladder's levels (`playtable.agents.levels`) are rated as the specs they play: each distinct
spec plays once in the tournament (a level named after a bot is that bot), and every level's
entry is its spec's. `--levels-only` plays nothing: it writes the levels' entries from the specs
the file already holds (for a ladder built of bots measured before), and names any level whose
spec is not there.

`--ladder` plays only each level against the one below (`--games` seeds a pair, or
`--pair-games 40,40,8` weakest pair first), prints each pair's points with a 95% interval,
rates the levels from those games (the pairs chain them onto one scale), and writes the pairs
under "ladders" beside the entries, keeping the other bots' entries; `--journal FILE` keeps the
games played and reads back a pair it holds on the same seeds instead of playing it again.

    .venv/bin/python benchmarks/bot_ratings.py --ladder --game stardice --games 30 --workers 1
        --seed 900000 [--journal ladder.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bot_ladder import paired_points, paired_result

from playtable.agents import available_agents, ladder
from playtable.core.registry import game_ids, get_game
from playtable.lab.runner import RunOptions
from playtable.lab.tournament import play_tournament
from playtable.web.server.people.rating_store import Skill
from playtable.web.server.people.ratings import START_MU, START_SIGMA, rate, shown

OUT = Path(__file__).resolve().parent.parent / "src/playtable/web/server/people/bot_ratings.json"
SKIP = {"stardice": {"ismcts", "greedy"}, "wizard": {"ismcts", "greedy"}}
"""Bots too slow to measure here: one game with every seat played by them takes over 20 s of CPU
(Star Dice's greedy and ISMCTS simulate the physics of every throw they try; the wizard game's
greedy 10 s, its ISMCTS minutes), where the others take 0.2-2 s (random-thrower 0.25, random
0.5, search 2.0; the wizard's random, reckless and spender 0.2-0.3, hoarder 0.5, heuristic and
styled 0.8, cautious 1.0). They start as newcomers and the lobby says they are not rated yet."""


def rated_games() -> list[str]:
    """The games whose default table has two sides or more."""
    out = []
    for game_id in game_ids():
        game = get_game(game_id)
        if len(game.sides(game.default_params())) >= 2:
            out.append(game_id)
    return out


def rated_agents(game_id: str) -> list[str]:
    """What one tournament rates: every bot of the game but the slow ones (`SKIP`) and the
    levels, then each level's spec not among them (a level plays as its spec)."""
    levels = {lv.agent for lv in ladder(game_id)}
    agents = [a for a in available_agents(get_game(game_id))
              if a not in SKIP.get(game_id, set()) and a not in levels]
    return agents + list(dict.fromkeys(lv.spec for lv in ladder(game_id) if lv.spec not in agents))


def level_entries(game_id: str, entries: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """`entries` (agent spec -> mu, sigma, games) with each level's entry added: its spec's."""
    out = dict(entries)
    for level in ladder(game_id):
        if level.spec in entries:
            out[level.agent] = dict(entries[level.spec])
        else:
            print(f"{game_id}: level '{level.agent}' plays '{level.spec}', which is not measured",
                  file=sys.stderr)
    return out


def measure(game_id: str, games: int, workers: int, seed: int) -> tuple[dict[str, Skill], object]:
    agents = rated_agents(game_id)
    played: list[tuple[int, int, int, float]] = []
    tournament = play_tournament(game_id, agents, games=games, seed=seed,
                                 options=RunOptions(workers=workers), bootstrap=200,
                                 on_game=lambda *game: played.append(game))
    skills = {a: Skill("bot", a, START_MU, START_SIGMA) for a in agents}
    for _, i, j, points in sorted(played):
        a, b = skills[agents[i]], skills[agents[j]]
        (new_a,), (new_b,) = rate([[a], [b]], [points, 1.0 - points])
        skills[a.who], skills[b.who] = new_a, new_b
    return skills, tournament


def ladder_pairs(game_id: str) -> list[tuple[str, str]]:
    """(lower spec, upper spec) of each two adjacent levels, weakest first."""
    specs = list(dict.fromkeys(level.spec for level in ladder(game_id)))
    return list(zip(specs, specs[1:], strict=False))


def journalled(journal: Path | None, game_id: str, upper: str, lower: str, seeds: int,
               seed: int) -> list[tuple[int, str, str, float]] | None:
    """The pair's games on seeds `seed`.. `seed + seeds - 1` from the `journal` (JSON lines:
    game, seed, first, other, points of the first), or None unless every seed has both."""
    if journal is None or not journal.exists():
        return None
    wanted = range(seed, seed + seeds)
    found = {}
    for line in journal.read_text().splitlines():
        row = json.loads(line)
        if (row["game"] == game_id and row["seed"] in wanted
                and {row["first"], row["other"]} == {upper, lower}):
            found[(row["seed"], row["first"])] = (row["seed"], row["first"], row["other"], row["points"])
    return sorted(found.values()) if len(found) == 2 * seeds else None


def measure_ladder(game_id: str, games: list[int], workers: int, seed: int,
                   out: Path, journal: Path | None = None) -> None:
    """Each level against the one below on `games` seeds (both seatings: the paired design,
    the same deals for both), printed as the upper level's points with their interval; then
    every game through the server's rating update in seed order, each spec a newcomer. The
    ratings are on one scale because the pairs chain the levels together. `games`: seeds for
    each pair, weakest first (the last count serves the pairs beyond the list). The file is
    written after each pair (a long run stopped keeps the pairs done, the levels above them
    left as they were). With a `journal`, every game played is appended to it, and a pair it
    already holds on the same seeds is read from it instead of played again (a ladder whose
    middle level changed replays only the two pairs that level is in)."""
    played: list[tuple[int, str, str, float]] = []
    pairs: list[dict[str, Any]] = []
    print(f"\n{get_game(game_id).name}: each level against the one below, both seatings\n"
          "| level | against | its points a seed (95%) | seeds |\n|---|---|---:|---:|")
    for k, (lower, upper) in enumerate(ladder_pairs(game_id)):
        seeds = games[min(k, len(games) - 1)]
        done = journalled(journal, game_id, upper, lower, seeds, seed)
        if done is None:
            done = []
            paired_points(game_id, upper, lower, {}, seeds, seed, workers, log=True, played=done)
            if journal is not None:
                with journal.open("a") as f:
                    for s, first, other, points in done:
                        f.write(json.dumps({"game": game_id, "seed": s, "first": first,
                                            "other": other, "points": points}) + "\n")
        played.extend(done)
        p = paired_result(done, upper)
        print(f"| {upper} | {lower} | {p.mean:.1%} [{p.low:.1%}, {p.high:.1%}] | {p.seeds} |",
              flush=True)
        pairs.append({"upper": upper, "lower": lower, "seeds": p.seeds, "points": round(p.mean, 4),
                      "low": round(p.low, 4), "high": round(p.high, 4)})
        write(out, game_id, rate_in_order(played), pairs)
    print_skills(game_id, rate_in_order(played), None)


def rate_in_order(played: list[tuple[int, str, str, float]]) -> dict[str, Skill]:
    """Every game (seed, seat 0's spec, the other's, seat 0's points) through the server's
    rating update in seed order, each spec starting as a newcomer."""
    skills: dict[str, Skill] = {}
    for _, first, other, points in sorted(played):
        a = skills.get(first, Skill("bot", first, START_MU, START_SIGMA))
        b = skills.get(other, Skill("bot", other, START_MU, START_SIGMA))
        (skills[first],), (skills[other],) = rate([[a], [b]], [points, 1.0 - points])
    return skills


def write(out: Path, game_id: str, skills: dict[str, Skill],
          pairs: list[dict[str, Any]] | None) -> None:
    """The game's entries in `out`: `skills` and each level's (its spec's). With the ladder's
    `pairs` (a ladder run rates only the levels' specs), the other bots' entries are kept as the
    file had them and the pairs are written under "ladders" (the server reads only "games")."""
    keep_others = pairs is not None
    # Read again just before writing: another run may have measured another game meanwhile.
    data = json.loads(out.read_text()) if out.exists() else {"games": {}, "commands": {}}
    before = data["games"].get(game_id, {}) if keep_others else {}
    command = "python benchmarks/bot_ratings.py " + " ".join(sys.argv[1:])
    if keep_others and "--ladder" not in data["commands"].get(game_id, "--ladder"):
        data["commands"][f"{game_id}, other bots"] = data["commands"][game_id]
    data["games"][game_id] = level_entries(game_id, {**before, **{
        s.who: {"mu": round(s.mu, 4), "sigma": round(s.sigma, 4), "games": s.games}
        for s in skills.values()}})
    data["commands"][game_id] = command
    if pairs is not None:
        data.setdefault("ladders", {})[game_id] = pairs
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"written: {out}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", action="append", choices=rated_games())
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--levels-only", action="store_true",
                        help="play nothing: write each level's entry from its spec's in the file")
    parser.add_argument("--ladder", action="store_true",
                        help="play only each level against the one below, and rate the levels")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument("--pair-games", default="",
                        help="with --ladder, seeds for each pair of levels, weakest first "
                             "(e.g. 40,40,8: the costly top pair on fewer); else --games")
    parser.add_argument("--journal", type=Path,
                        help="with --ladder, a file of the pairs' games: appended to, and a pair "
                             "it holds on the same seeds is not played again")
    args = parser.parse_args()
    if args.levels_only:
        data = json.loads(args.out.read_text())
        for game_id in args.game or rated_games():
            data["games"][game_id] = level_entries(game_id, data["games"].get(game_id, {}))
        args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"written: {args.out}")
        return
    for game_id in args.game or rated_games():
        start = time.monotonic()
        if args.ladder:
            per_pair = [int(n) for n in args.pair_games.split(",") if n] or [args.games]
            measure_ladder(game_id, per_pair, args.workers, args.seed, args.out, args.journal)
            continue
        skills, tournament = measure(game_id, args.games, args.workers, args.seed)
        print(f"\n{get_game(game_id).name}: {args.games} seeds per pair, both seatings "
              f"({time.monotonic() - start:.0f} s)", flush=True)
        print_skills(game_id, skills, {r.agent: r for r in tournament.ratings})  # type: ignore[attr-defined]
        write(args.out, game_id, skills, None)


def print_skills(game_id: str, skills: dict[str, Skill], elo: dict[str, Any] | None) -> None:
    """The ratings as a table, beside the Bradley-Terry fit when there is one."""
    print("| bot | rating | ± | games | wins | Bradley-Terry Elo (95%) |")
    print("|---|---:|---:|---:|---:|---|")
    for s in sorted(skills.values(), key=lambda s: -s.mu):
        view = shown(s.mu, s.sigma)
        fit = None if elo is None else elo[s.who]
        bt = "" if fit is None else f"{fit.rating:+.0f} ({fit.low:+.0f} to {fit.high:+.0f})"
        print(f"| {s.who} | {view['rating']} | {view['uncertainty']} | {s.games} | {s.wins} | {bt} |",
              flush=True)

if __name__ == "__main__":
    main()
