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

Ratings. Bradley-Terry (P(A beats B) = s_A / (s_A + s_B)) fitted by Hunter's MM algorithm, shown on
the Elo scale (400 log10 s, mean 0), with one drawn game of prior between every pair so that a
perfect record stays finite. Intervals come from a bootstrap over seeds, all of a seed's games
together (which keeps the pairing): the Poisson bootstrap, each seed weighed in each replicate by a
Poisson(1) count drawn from the seed itself, so the replicates are running sums kept as the games
finish and a tournament's memory is bounded by its agents, never by its games (the classic
resampling of a list of seeds, which this replaced, held every game: 1 GB at 10**8). Why not
openskill: its ratings are an online update whose result depends on the order the games are fed in,
and its sigma is a model belief, not a sampling interval; with all games known at once, the
maximum-likelihood fit and a bootstrap answer the question directly, with no new dependency.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playtable.core.errors import BadParameter
from playtable.lab.runner import Arm, Interrupted, RunOptions, resolve_game, run_tasks
from playtable.lab.stats import Paired, paired_counts, wilson


@dataclass
class Rating:
    agent: str
    rating: float
    low: float
    high: float
    score: float
    """Mean points per match game against all the others (1 win, 1/2 draw)."""
    games: int


class Tally:
    """What a tournament keeps of its games: running sums over pairs of agents and bootstrap
    replicates, whose size is set by the agents, never by the number of games."""

    def __init__(self, agents: int, bootstrap: int, rng_seed: int) -> None:
        import numpy as np

        self.points = np.zeros((agents, agents))
        """points[i, j]: points of agent i against agent j over their games."""
        self.decided = np.zeros((agents, agents), dtype=np.int64)
        """decided[i, j]: games i won outright against j (the sign test's discordant games)."""
        self.replicates = np.zeros((bootstrap, agents, agents))
        self.rng_seed = rng_seed
        self.seeds = 0

    def add_seed(self, seed: int, results: Sequence[tuple[int, int, float]]) -> None:
        """Every game of one seed: (i, j, points of i against j)."""
        import numpy as np

        weights = np.random.default_rng([self.rng_seed % 2**63, seed % 2**63]).poisson(
            1.0, len(self.replicates))
        for i, j, points in results:
            self.points[i, j] += points
            self.points[j, i] += 1 - points
            if points in (0.0, 1.0):
                self.decided[(i, j) if points == 1.0 else (j, i)] += 1
            self.replicates[:, i, j] += weights * points
            self.replicates[:, j, i] += weights * (1 - points)
        self.seeds += 1

    @property
    def games(self) -> Any:
        return self.points + self.points.T


@dataclass
class SoloTally:
    """A solitaire tournament's per-deal comparisons, as counts of outcome pairs (what
    `stats.paired_counts` reads): bounded by the distinct outcomes, never by the deals."""

    wins: Counter[int] = field(default_factory=Counter)
    deals: Counter[int] = field(default_factory=Counter)
    score_sum: Counter[int] = field(default_factory=Counter)
    scored: Counter[int] = field(default_factory=Counter)
    win_pairs: dict[tuple[int, int], Counter[tuple[float, float]]] = field(default_factory=dict)
    score_pairs: dict[tuple[int, int], Counter[tuple[float, float]]] = field(default_factory=dict)

    def add_deal(self, outcomes: dict[int, tuple[float, float]]) -> None:
        for k, (won, score) in outcomes.items():
            self.wins[k] += int(won)
            self.deals[k] += 1
            if score == score:
                self.score_sum[k] += score  # type: ignore[assignment]
                self.scored[k] += 1
        for i, j in itertools.combinations(sorted(outcomes), 2):
            (wi, si), (wj, sj) = outcomes[i], outcomes[j]
            self.win_pairs.setdefault((i, j), Counter())[(wi, wj)] += 1
            if si == si and sj == sj:
                self.score_pairs.setdefault((i, j), Counter())[(si, sj)] += 1


@dataclass
class Tournament:
    game: str
    agents: list[str]
    seeds: Sequence[int]
    tally: Tally
    ratings: list[Rating] = field(default_factory=list)
    solitaire: bool = False
    solo: SoloTally = field(default_factory=SoloTally)
    """Solitaire only: each agent's wins and scores, and each pair's outcomes deal by deal."""
    lower_score_is_better: bool = False
    interrupted: bool = False
    """Stopped by Ctrl-C (or SIGTERM): the figures are those of the seeds that finished."""

    @property
    def seeds_played(self) -> int:
        return self.tally.seeds

    def win_rate(self, agent: int) -> tuple[float, float, float]:
        """Solitaire: the agent's win rate over the deals, with its Wilson 95% interval."""
        wins, deals = self.solo.wins[agent], self.solo.deals[agent]
        low, high = wilson(wins, deals)
        return (wins / deals if deals else float("nan")), low, high

    def mean_score(self, agent: int) -> float:
        scored = self.solo.scored[agent]
        return self.solo.score_sum[agent] / scored if scored else float("nan")

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
                better, worse = int(self.tally.decided[k, below]), int(self.tally.decided[below, k])
                entry["deals_better"], entry["deals_worse"] = better, worse
                entry["sign_test_p"] = binom_two_sided(better, better + worse)
            out.append(entry)
        return out

    def paired(self, better: int, worse: int, on: str = "win") -> Paired:
        """Solitaire: agent `better` minus agent `worse` on the deals both played, per deal, in
        wins (`on="win"`) or in score (`on="score"`, oriented so that a positive difference is
        better: for a lower-is-better score, `worse`'s score minus `better`'s)."""
        pairs = self.solo.win_pairs if on == "win" else self.solo.score_pairs
        sign = -1.0 if on == "score" and self.lower_score_is_better else 1.0
        key = (min(better, worse), max(better, worse))
        counts: Counter[tuple[float, float]] = Counter()
        for (x, y), count in pairs.get(key, Counter()).items():
            b, a = (x, y) if better < worse else (y, x)
            counts[(sign * a, sign * b)] += count
        return paired_counts(counts)

    def pairwise(self) -> list[list[float]]:
        """Mean points of row agent against column agent (NaN on the diagonal)."""
        n = len(self.agents)
        games = self.tally.games
        return [[float(self.tally.points[i, j] / games[i, j]) if i != j and games[i, j] else float("nan")
                 for j in range(n)] for i in range(n)]


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
    on_game: Callable[[int, int, int, float], None] | None = None,
) -> Tournament:
    """Play the matches (`games` seeds per pair) and fit the ratings. The games stream through
    running sums (memory bounded however many); on Ctrl-C the seeds that finished are rated and
    the result says it was `interrupted`. `on_game(seed, i, j, points of i against j)` sees
    every game as it is counted, seed by seed in order."""
    if len(agents) < 2 or len(set(agents)) != len(agents):
        raise BadParameter("a tournament needs at least two different agents")
    if games < 1:
        raise BadParameter("the number of games must be at least 1")
    if bootstrap < 0:
        raise BadParameter("--bootstrap must be 0 or more")
    game = resolve_game(game_ref)
    the_params = params if params is not None else game.params_type()
    seats = game.num_players(the_params)
    seeds = range(seed, seed + games)
    result = Tournament(game.id, list(agents), seeds, Tally(len(agents), bootstrap, seed),
                        solitaire=seats == 1,
                        lower_score_is_better=bool(getattr(game, "lower_score_is_better", False)))
    if seats == 1:
        arms = [Arm.build(game_ref, the_params, [a], label=str(k), max_steps=max_steps)
                for k, a in enumerate(agents)]
    else:
        # (i, j) and (j, i) are both played: the seat swap
        arms = [Arm.build(game_ref, the_params, [agents[i]] + [agents[j]] * (seats - 1),
                          label=f"{i}v{j}", max_steps=max_steps)
                for i, j in itertools.permutations(range(len(agents)), 2)]
    options = options if options is not None else RunOptions()
    options.on_rows = _seed_by_seed(result, len(arms), on_game)
    tasks = ((arm, s) for s in seeds for arm in arms)  # a generator: read a batch at a time
    try:
        run_tasks(tasks, options, total=len(seeds) * len(arms), keep_rows=False)
    except Interrupted:
        result.interrupted = True
    result.ratings = fit_ratings(result)
    return result


def _seed_by_seed(result: Tournament, per_seed: int,
                  on_game: Callable[[int, int, int, float], None] | None) -> Any:
    """The rows' taker: rows come in task order, every arm of a seed together, so each seed is
    added whole once its last game is in (an interrupted seed's games are left out whole)."""
    waiting: list[dict[str, Any]] = []

    def take(rows: list[dict[str, Any]]) -> None:
        for row in rows:
            waiting.append(row)
            if len(waiting) == per_seed:
                for i, j, points in _add_seed(result, waiting):
                    if on_game is not None:
                        on_game(int(waiting[0]["seed"]), i, j, points)
                waiting.clear()

    return take


def _add_seed(result: Tournament, rows: list[dict[str, Any]]) -> list[tuple[int, int, float]]:
    """Counts one seed's games; returns them as (i, j, points of i against j)."""
    seed = int(rows[0]["seed"])
    games = []
    if not result.solitaire:
        for row in rows:
            first, rest = (int(k) for k in str(row["variant"]).split("v"))
            games.append((first, rest, _side_points(row, {0})))  # `first` holds seat 0
    else:
        outcomes = {int(row["variant"]): _solo_outcome(row) for row in rows}
        result.solo.add_deal(outcomes)
        lower = result.lower_score_is_better
        games = [(i, j, _solo_points(outcomes[i], outcomes[j], lower))
                 for i, j in itertools.combinations(sorted(outcomes), 2)]
    result.tally.add_seed(seed, games)
    return games


def bradley_terry(n: int, results: Sequence[tuple[int, int, int, float]], prior: float = 0.5,
                  iterations: int = 500) -> list[float]:
    """Elo-scale ratings (mean 0) of games given one by one: (seed, i, j, points of i)."""
    import numpy as np

    wins = np.zeros((n, n))
    for _, i, j, p in results:
        wins[i, j] += p
        wins[j, i] += 1 - p
    return bradley_terry_points(wins, prior, iterations)


def bradley_terry_points(points: Any, prior: float = 0.5, iterations: int = 500) -> list[float]:
    """Elo-scale ratings (mean 0) from `points[i, j]`, agent i's points against j, by Hunter's MM
    algorithm; `prior` drawn games' worth of points per side between every pair keeps perfect
    records finite."""
    import numpy as np

    wins = points + prior
    np.fill_diagonal(wins, 0.0)
    games = wins + wins.T
    strength = np.ones(len(wins))
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


def fit_ratings(t: Tournament) -> list[Rating]:
    """The point ratings and their 95% intervals over the Poisson bootstrap's replicates."""
    import numpy as np

    point = bradley_terry_points(t.tally.points)
    draws = [bradley_terry_points(replicate) for replicate in t.tally.replicates]
    spread = np.array(draws) if draws else np.array([point])
    pairwise = t.pairwise()
    played = t.tally.games.sum(axis=1)
    out = []
    for k, agent in enumerate(t.agents):
        others = [p for j, p in enumerate(pairwise[k]) if j != k and p == p]
        out.append(Rating(agent, point[k], float(np.percentile(spread[:, k], 2.5)),
                          float(np.percentile(spread[:, k], 97.5)),
                          sum(others) / len(others) if others else float("nan"), int(played[k])))
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
    ax.set_title(f"{t.game}: {t.seeds_played} seeds per pair" + (" (same deals)" if t.solitaire else ""))
    fig.tight_layout()
    from playtable.core.files import open_atomic

    suffix = Path(path).suffix
    with open_atomic(path, suffix or ".png") as handle:  # never half-written, never through a symlink
        fig.savefig(handle, format=suffix.lstrip(".").lower() or "png")
