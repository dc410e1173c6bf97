"""The seeds' own playtest questions, answered from simulated games (`playtable playtest GAME`).

Every design document behind playtable asked its playtesters questions: Star Dice's iterations
list "Questions to answer by playtesting", the wizard team's weekly updates worry about strong
heroes and traps, the troll designer estimated his odds by hand (§4.2). Each game's module
(`playtest_<game>.py`) answers the questions a simulation can answer, every one beside the
seed's own answer, measured on games played by the lab's runner with its 95 % interval.

A measured answer is only as good as the players behind it, so each question is answered for
two agents of different strength (by default a weak and the best fast one); `disagree` marks
the questions where their intervals do not overlap. Where an answer needs more than the result
rows hold (a formation's size, the wheel at each round), the game is watched by a probe (see
`runner.Arm.probe`) that reads only the protocol: events, observations, metrics.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params
from playtable.lab.metrics import Moments
from playtable.lab.runner import Arm, RunOptions, resolve_game, run_tasks
from playtable.lab.stats import Z95, mean_sd, paired_games_to_separate, rate_reach, reach_text, wilson

MODULES = {
    "troll": "playtable.lab.playtest_troll",
    "stardice": "playtable.lab.playtest_stardice",
    "wizard": "playtable.lab.playtest_wizard",
    "rotator": "playtable.lab.playtest_rotator",
}
DEFAULT_AGENTS = {
    "troll": ("random", "heuristic"),
    "stardice": ("random-thrower", "search"),
    "wizard": ("random", "heuristic"),
    "rotator": ("random", "solver"),
}
DEFAULT_GAMES = {"troll": 1000, "stardice": 60, "wizard": 200, "rotator": 30}
NEEDS_LAB = {"wizard": "its paired rule comparisons' exact sign test"}
"""Games whose questions need the `lab` extra (SciPy) to be answered at all."""


def check_extras(game: str, page: bool = False) -> None:
    """Raise MissingExtra now, before any game is played, when answering GAME's questions (or
    writing them as a page, `page`) needs the `lab` extra that is not installed."""
    from playtable.core.extras import require

    if game in NEEDS_LAB:
        require("lab", f"playtest {game} ({NEEDS_LAB[game]})")
    if page:
        require("lab", "playtest --out (a page with plots)")


@dataclass
class Answer:
    question: str
    source: str
    """Where the seed asks it."""
    seed_says: str
    agent: str
    measured: str
    value: float = math.nan
    low: float = math.nan
    high: float = math.nan
    n: int = 0
    detail: list[dict[str, Any]] = field(default_factory=list)
    """A breakdown table (by size, by round, by die type...) when one number is not enough."""
    disagree: bool = False
    """Set when the other agent's interval for the same question does not overlap this one."""
    unit: str = ""
    """How `value`, `low` and `high` read: "%" a share (0-1, shown in percent), "points" a
    difference of two shares (shown in percentage points), "" the value's own unit."""

    def is_share(self) -> bool:
        """A share of games (shown in percent): said so, or a "%" answer whose interval lies in 0-1."""
        if self.unit:
            return self.unit == "%"
        return "%" in self.measured and 0 <= self.low <= self.high <= 1

    def reach_text(self, tolerance: float = 0.05) -> str:
        """How far the answer can still move: a share's ±half-width and the games that would
        narrow it to ±tolerance; a difference whose interval holds 0, that it is too small to
        separate and the games that would (a power calculation: 5 % level, 80 % power, for the
        difference seen or `tolerance` if that is smaller; its spread taken from the interval)."""
        if math.isnan(self.low) or not self.n:
            return "-"
        if self.unit == "points":
            if self.low > 0 or self.high < 0:
                return "separated"
            half = (self.high - self.low) / 2
            spread = (half * math.sqrt(self.n) / Z95) ** 2  # ≈ share of discordant games − d²
            target = max(abs(self.value), tolerance) if math.isfinite(self.value) else tolerance
            need = paired_games_to_separate(spread + self.value ** 2, target)
            return f"too small to separate: {100 * target:.0f} pp needs about {need:,} games"
        if self.is_share():
            return reach_text(rate_reach(self.value * self.n, self.n, tolerance))
        return "-"

    def interval_text(self) -> str:
        """The 95 % interval as the front ends print it, in the answer's unit."""
        if math.isnan(self.low):
            return "-"
        if self.unit == "points":
            return f"[{100 * self.low:+.1f}, {100 * self.high:+.1f}] points"
        if self.is_share():
            return f"[{100 * self.low:.1f}%, {100 * self.high:.1f}%]"
        return f"[{self.low:.3g}, {self.high:.3g}]"


def rate(question: str, source: str, seed_says: str, agent: str, hits: float, n: int,
         what: str = "") -> Answer:
    """A proportion with its Wilson interval."""
    low, high = wilson(hits, n)
    p = hits / n if n else math.nan
    text = (f"{100 * p:.1f}%" if n else "no cases") + (f" {what}" if what else "")
    return Answer(question, source, seed_says, agent, text, p, low, high, n, unit="%")


def mean_of(question: str, source: str, seed_says: str, agent: str, values: Sequence[float] | Moments,
            unit: str = "") -> Answer:
    """A mean with its normal 95 % interval, of values or of their running sums."""
    if isinstance(values, Moments):
        n = values.n
        mean = values.total / n if n else math.nan
        sd = math.sqrt(max(0.0, values.m2) / (n - 1)) if n > 1 else (0.0 if n else math.nan)
    else:
        n = len(values)
        mean, sd = mean_sd(values)
    half = Z95 * sd / math.sqrt(n) if n else math.nan
    text = f"{mean:.2f}" + (f" {unit}" if unit else "")
    return Answer(question, source, seed_says, agent, text, mean, mean - half, mean + half, n)


def play(game: str, agent: str | Sequence[str], games: int, seed: int, options: RunOptions | None,
         variant: str | None = None, params: Sequence[str] = (), probe: str = "") -> list[dict[str, Any]]:
    """Rows of `games` seeded games (one agent spec for every seat, or one per seat), watched by
    `probe` when given: the lab's runner, with its worker processes, does the playing. Holds
    every row: a question answered from running counts streams them (`play_each`) instead."""
    rows: list[dict[str, Any]] = []
    play_each(rows.append, game, agent, games, seed, options, variant, params, probe)
    return rows


def play_each(take: Callable[[dict[str, Any]], None], game: str, agent: str | Sequence[str],
              games: int, seed: int, options: RunOptions | None, variant: str | None = None,
              params: Sequence[str] = (), probe: str = "") -> None:
    """`play`'s games, each row handed to `take` as its batch comes and then dropped, so memory
    stays the same however many games are played (`play_settings`, one setting)."""
    play_settings(lambda rows: take(rows[0]), game, agent, games, seed, options,
                  [Setting(variant, tuple(params))], probe)


@dataclass(frozen=True)
class Setting:
    """A rule set a question plays: a named variant and parameters over it."""

    variant: str | None = None
    params: tuple[str, ...] = ()


def play_settings(take: Callable[[list[dict[str, Any]]], None], game: str, agent: str | Sequence[str],
                  games: int, seed: int, options: RunOptions | None, settings: Sequence[Setting],
                  probe: str = "") -> None:
    """Every setting played on each seed in turn, `take` handed the seed's rows (one a setting, in
    their order) as their batch comes: a paired question compares them seed by seed without a
    list of seeds. The seeds are read a batch at a time and no row is kept
    (`run_tasks(keep_rows=False)`, as `tune` plays); the options' own `on_rows` (a progress
    line) still hears of every batch."""
    the_game = resolve_game(game)
    agents = [agent] if isinstance(agent, str) else list(agent)
    arms = []
    for setting in settings:
        the_params = resolve_params(the_game.params_type, the_game.variants, setting.variant, setting.params)
        arm = Arm.build(game, the_params, agents, label=setting.variant or "default")
        arms.append(dataclasses.replace(arm, probe=probe) if probe else arm)
    options = options or RunOptions()
    heard = options.on_rows
    pending: list[dict[str, Any]] = []

    def on_rows(rows: list[dict[str, Any]]) -> None:
        for row in rows:  # rows come in task order: a seed's settings one after the other
            pending.append(row)
            if len(pending) == len(arms):
                take(list(pending))
                pending.clear()
        if heard is not None:
            heard(rows)

    tasks = ((arm, s) for s in range(seed, seed + games) for arm in arms)
    run_tasks(tasks, dataclasses.replace(options, on_rows=on_rows), total=games * len(arms),
              keep_rows=False)


def claim_games_heard(options: RunOptions | None) -> Callable[[str, bool], None] | None:
    """`measure_claims`' `on_game` for a playtest that folds a game's claims in: each claim game
    is told to the options' `on_rows` (the progress line) as a row of its result, as the
    runner's games are, so the count and Ctrl-C's message include them."""
    heard = options.on_rows if options is not None else None
    if heard is None:
        return None
    return lambda run, won: heard([{"variant": run, "win": won}])


def _mark_disagreements(answers: list[Answer]) -> None:
    by_question: dict[str, list[Answer]] = {}
    for a in answers:
        by_question.setdefault(a.question, []).append(a)
    for group in by_question.values():
        numeric = [a for a in group if not math.isnan(a.low)]
        for a in numeric:
            a.disagree = any(b.agent != a.agent and (b.high < a.low or b.low > a.high) for b in numeric)


def playtest(game: str, agents: Sequence[str] | None = None, games: int | None = None, seed: int = 0,
             options: RunOptions | None = None) -> list[Answer]:
    """Every question of GAME's seed that a simulation answers, for each agent."""
    if game not in MODULES:
        raise BadParameter(f"no playtest questions for '{game}' (known: {', '.join(MODULES)})")
    check_extras(game)
    chosen = list(agents) if agents else list(DEFAULT_AGENTS[game])
    n = games if games is not None else DEFAULT_GAMES[game]
    if n < 1:
        raise BadParameter("the number of games must be at least 1")
    module = importlib.import_module(MODULES[game])
    answers: list[Answer] = []
    for agent in chosen:
        answers.extend(module.answers(agent, n, seed, options))
    order = {q: i for i, q in enumerate(dict.fromkeys(a.question for a in answers))}
    answers.sort(key=lambda a: order[a.question])
    _mark_disagreements(answers)
    return answers


def answer_rows(answers: Sequence[Answer]) -> list[dict[str, Any]]:
    """Flat rows (one per question and agent), the interval as two numbers."""
    return [{k: v for k, v in vars(a).items() if k != "detail"} for a in answers]
