"""Players ranked: every agent against every other on paired seeds, Bradley-Terry ratings with
bootstrap intervals.

Matches. For a game of several seats, each pair of agents (A, B) plays every seed twice: once
with A in seat 0 and B in every other seat, once the other way round (in a two-player game that
is the usual seat swap; in the wizard game it is A as the wizard against B as all the heroes,
and the reverse). A game scores 1 for the agent whose seats won, 1/2 each for a draw or when
both sides are among the winners. For a solitaire game the "tournament" is the agents on the
same deals, compared seed by seed (paired): on each seed the agent that won beats the one that
lost, and when both won or both lost, the one with the better `score` metric (the game's own
figure of merit, lower or higher as `Game.lower_score_is_better` says: the troll's cards left in
the deck) beats the other; only equal outcomes and equal scores are a draw. (Counting two losses
as a draw, as this did before, rated the troll's heuristic bot 6 Elo above random play over 300
deals, though it outlasts random play on nearly every deal.) A game without a `score` metric
falls back on its return. Beside the ratings, `Tournament.paired` gives each pair's mean
difference per deal in wins or in score with its 95% interval and the sign test
(`stats.paired`), the paired-difference ranking.

Ratings. Bradley-Terry (P(A beats B) = s_A / (s_A + s_B)) fitted by Hunter's MM algorithm,
shown on the Elo scale (400 log10 s, mean 0), with one drawn game of prior between every pair so
that a perfect record stays finite. Intervals come from a bootstrap over seeds: seeds are
resampled with replacement, all of a seed's games together (which keeps the pairing), and the
fit is repeated. Why not openskill: its ratings are an online update whose result depends on
the order the games are fed in, and its sigma is a model belief, not a sampling interval; with
all games known at once, the maximum-likelihood fit and a bootstrap answer the question
directly, with no new dependency.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playtable.core.errors import BadParameter
from playtable.lab.runner import Arm, RunOptions, resolve_game, run_tasks
from playtable.lab.stats import Paired, paired, wilson


@dataclass
class Rating:
    agent: str
    rating: float
    low: float
    high: float
    score: float
    """Mean points per match game against all the others (1 win, 1/2 draw)."""
    games: int


@dataclass
class Tournament:
    game: str
    agents: list[str]
    seeds: list[int]
    results: list[tuple[int, int, int, float]] = field(default_factory=list)
    """(seed, i, j, points of agent i against agent j) for every match game."""
    ratings: list[Rating] = field(default_factory=list)
    solitaire: bool = False
    outcomes: dict[int, dict[int, tuple[float, float]]] = field(default_factory=dict)
    """Solitaire only: agent -> seed -> (1 won / 0 lost, its score: the `score` metric, else the
    return; NaN when the game gave none)."""
    lower_score_is_better: bool = False

    def win_rate(self, agent: int) -> tuple[float, float, float]:
        """Solitaire: the agent's win rate over the deals, with its Wilson 95% interval."""
        values = list(self.outcomes.get(agent, {}).values())
        wins = sum(w for w, _ in values)
        low, high = wilson(wins, len(values))
        return (wins / len(values) if values else float("nan")), low, high

    def mean_score(self, agent: int) -> float:
        scores = [s for _, s in self.outcomes.get(agent, {}).values() if s == s]
        return sum(scores) / len(scores) if scores else float("nan")

    def same_deals(self) -> list[dict[str, Any]]:
        """Solitaire: the paired-difference ranking. In rating order, each agent's win rate (with
        its Wilson interval) and mean score, and against the agent ranked just below it (`above`)
        the paired differences per deal in wins and in score (`stats.Paired` fields and
        `half_width`), and the deals it did better and worse on as the ratings count them (the win
        first, then the score) with the exact sign test on those."""
        from playtable.lab.stats import binom_two_sided

        order = [self.agents.index(r.agent) for r in self.ratings]
        out = []
        for n, k in enumerate(order):
            rate, low, high = self.win_rate(k)
            entry: dict[str, Any] = {"agent": self.agents[k], "win_rate": rate, "win_low": low,
                                     "win_high": high, "mean_score": self.mean_score(k)}
            if n + 1 < len(order):
                below = order[n + 1]
                entry["above"] = self.agents[below]
                for on in ("win", "score"):
                    d = self.paired(k, below, on)
                    entry[f"{on}_difference"] = {**vars(d), "half_width": d.half_width}
                better = worse = 0
                for _, i, j, points in self.results:
                    if {i, j} == {k, below} and points != 0.5:
                        k_won = (points == 1.0) == (i == k)
                        better += k_won
                        worse += not k_won
                entry["deals_better"], entry["deals_worse"] = better, worse
                entry["sign_test_p"] = binom_two_sided(better, better + worse)
            out.append(entry)
        return out

    def paired(self, better: int, worse: int, on: str = "win") -> Paired:
        """Solitaire: agent `better` minus agent `worse` on the deals both played, per deal, in
        wins (`on="win"`) or in score (`on="score"`, oriented so that a positive difference is
        better: for a lower-is-better score, `worse`'s score minus `better`'s)."""
        a, b = self.outcomes.get(worse, {}), self.outcomes.get(better, {})
        seeds = sorted(set(a) & set(b))
        index = 0 if on == "win" else 1
        sign = -1.0 if on == "score" and self.lower_score_is_better else 1.0
        seeds = [s for s in seeds if a[s][index] == a[s][index] and b[s][index] == b[s][index]]
        return paired([sign * a[s][index] for s in seeds], [sign * b[s][index] for s in seeds])

    def pairwise(self) -> list[list[float]]:
        """Mean points of row agent against column agent (NaN on the diagonal)."""
        n = len(self.agents)
        total = [[0.0] * n for _ in range(n)]
        count = [[0] * n for _ in range(n)]
        for _, i, j, p in self.results:
            total[i][j] += p
            total[j][i] += 1 - p
            count[i][j] += 1
            count[j][i] += 1
        return [[total[i][j] / count[i][j] if count[i][j] else float("nan") for j in range(n)]
                for i in range(n)]


def _side_points(row: dict[str, Any], a_seats: set[int]) -> float:
    """Points of the side holding `a_seats` in one game of several seats."""
    winners = set(row.get("winners") or [])
    if not row.get("completed") or row.get("error"):
        return 0.5
    a_won, b_won = bool(winners & a_seats), bool(winners - a_seats)
    if a_won == b_won:
        return 0.5
    return 1.0 if a_won else 0.0


def _solo_outcome(row: dict[str, Any]) -> tuple[float, float]:
    """(1 won / 0 lost, the score): the game's `score` metric, else its return, else NaN."""
    score = (row.get("metrics") or {}).get("score")
    if not isinstance(score, int | float) or isinstance(score, bool):
        score = row.get("return_0")
    value = float(score) if isinstance(score, int | float) and not isinstance(score, bool) else float("nan")
    return (1.0 if row.get("win") else 0.0), value


def _solo_points(a: tuple[float, float], b: tuple[float, float], lower_is_better: bool) -> float:
    """Points of the agent with outcome `a` against the one with `b` on the same deal: the win
    first, then the better score; equal (or unknown) scores are a draw."""
    if a[0] != b[0]:
        return 1.0 if a[0] > b[0] else 0.0
    if a[1] != a[1] or b[1] != b[1] or a[1] == b[1]:
        return 0.5
    return 1.0 if (a[1] < b[1]) == lower_is_better else 0.0


def play_tournament(
    game_ref: str,
    agents: Sequence[str],
    params: Any = None,
    games: int = 100,
    seed: int = 0,
    options: RunOptions | None = None,
    bootstrap: int = 200,
    max_steps: int = 100_000,
) -> Tournament:
    """Play the matches (`games` seeds per pair) and fit the ratings."""
    if len(agents) < 2 or len(set(agents)) != len(agents):
        raise BadParameter("a tournament needs at least two different agents")
    if games < 1:
        raise BadParameter("the number of games must be at least 1")
    game = resolve_game(game_ref)
    the_params = params if params is not None else game.params_type()
    seats = game.num_players(the_params)
    seeds = list(range(seed, seed + games))
    result = Tournament(game.id, list(agents), seeds, solitaire=seats == 1,
                        lower_score_is_better=bool(getattr(game, "lower_score_is_better", False)))
    if seats == 1:
        solo = [Arm.build(game_ref, the_params, [a], label=str(k), max_steps=max_steps)
                for k, a in enumerate(agents)]
        outcomes = result.outcomes
        for row in run_tasks([(arm, s) for s in seeds for arm in solo], options):
            outcomes.setdefault(int(row["variant"]), {})[int(row["seed"])] = _solo_outcome(row)
        lower = result.lower_score_is_better
        for s in seeds:
            for i, j in itertools.combinations(range(len(agents)), 2):
                points = _solo_points(outcomes[i][s], outcomes[j][s], lower)
                result.results.append((s, i, j, points))
    else:
        arms: list[Arm] = []
        meta: dict[str, tuple[int, int]] = {}
        # (i, j) and (j, i) are both played: the seat swap
        for i, j in itertools.permutations(range(len(agents)), 2):
            specs = [agents[i]] + [agents[j]] * (seats - 1)
            label = f"{i}v{j}"
            arms.append(Arm.build(game_ref, the_params, specs, label=label, max_steps=max_steps))
            meta[label] = (i, j)
        rows = run_tasks([(arm, s) for s in seeds for arm in arms], options)
        for row in rows:
            first, rest = meta[row["variant"]]
            points = _side_points(row, {0})  # `first` holds seat 0
            result.results.append((int(row["seed"]), first, rest, points))
    result.ratings = fit_ratings(result, bootstrap=bootstrap, rng_seed=seed)
    return result


def bradley_terry(n: int, results: Sequence[tuple[int, int, int, float]], prior: float = 0.5,
                  iterations: int = 500) -> list[float]:
    """Elo-scale ratings (mean 0) by Hunter's MM algorithm; `prior` drawn games' worth of points
    per side between every pair keeps perfect records finite."""
    import numpy as np

    wins = np.full((n, n), prior)
    np.fill_diagonal(wins, 0.0)
    for _, i, j, p in results:
        wins[i, j] += p
        wins[j, i] += 1 - p
    games = wins + wins.T
    strength = np.ones(n)
    total = wins.sum(axis=1)
    for _ in range(iterations):
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = total / denom
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(new - strength)) < 1e-10:
            strength = new
            break
        strength = new
    elo = 400 * np.log10(strength)
    return [float(x) for x in elo - elo.mean()]


def fit_ratings(t: Tournament, bootstrap: int = 200, rng_seed: int = 0) -> list[Rating]:
    import numpy as np

    n = len(t.agents)
    point = bradley_terry(n, t.results)
    by_seed: dict[int, list[tuple[int, int, int, float]]] = {}
    for r in t.results:
        by_seed.setdefault(r[0], []).append(r)
    seeds = sorted(by_seed)
    rng = np.random.default_rng(rng_seed)
    draws = []
    for _ in range(bootstrap):
        picked = rng.integers(0, len(seeds), len(seeds))
        sample = [r for k in picked for r in by_seed[seeds[int(k)]]]
        draws.append(bradley_terry(n, sample))
    spread = np.array(draws) if draws else np.array([point])
    pairwise = t.pairwise()
    out = []
    for k, agent in enumerate(t.agents):
        played = sum(1 for r in t.results if k in (r[1], r[2]))
        others = [p for j, p in enumerate(pairwise[k]) if j != k]
        out.append(Rating(agent, point[k], float(np.percentile(spread[:, k], 2.5)),
                          float(np.percentile(spread[:, k], 97.5)), sum(others) / len(others), played))
    out.sort(key=lambda r: -r.rating)
    return out


def plot_ratings(t: Tournament, path: str) -> None:
    """Ratings with their intervals, best at the top, as a PNG (or any matplotlib format)."""
    from matplotlib.figure import Figure  # no pyplot: the process's backend is left alone

    ratings = list(reversed(t.ratings))
    fig = Figure(figsize=(6, 0.5 * len(ratings) + 1.2))
    ax = fig.subplots()
    ys = range(len(ratings))
    ax.errorbar([r.rating for r in ratings], list(ys),
                xerr=[[r.rating - r.low for r in ratings], [r.high - r.rating for r in ratings]],
                fmt="o", capsize=4)
    ax.set_yticks(list(ys), [r.agent for r in ratings])
    ax.axvline(0, color="grey", lw=0.5)
    ax.set_xlabel("Bradley-Terry rating (Elo scale), 95% bootstrap interval")
    ax.set_title(f"{t.game}: {len(t.seeds)} seeds per pair" + (" (same deals)" if t.solitaire else ""))
    fig.tight_layout()
    from playtable.core.files import open_atomic

    suffix = Path(path).suffix
    with open_atomic(path, suffix or ".png") as handle:  # never half-written, never through a symlink
        fig.savefig(handle, format=suffix.lstrip(".").lower() or "png")
