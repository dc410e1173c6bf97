"""Tuning a design to a target: Optuna searches a parameter space, the lab's runner plays the games.

Why Optuna: it is well kept, its TPE sampler handles the mixed spaces games have (whole numbers,
numbers, choices), it prunes hopeless trials from intermediate values, and its SQLite storage
makes a study resumable for free (an interrupted `playtable tune` picks up where it stopped).
No NTBEA implementation on PyPI is maintained at that level.

How a candidate is measured (the design that keeps the CPU bill low):
* **Common random numbers**: every candidate plays the same seeds (seed, seed+1, ...) under each
  setting of `over` (e.g. players=3, 4, 5), so two candidates differ only by their parameters.
* **Rounds and pruning**: a trial plays its seeds in rounds and reports the loss after each; the
  median pruner stops a trial whose loss is worse than the median of earlier trials at that round.
* **No game twice**: a trial whose parameters equal an earlier complete trial's takes its loss
  (with common seeds the games would be identical), so a discrete space is never played twice.
* **Fresh seeds at the end**: the best few candidates are re-measured on seeds no trial used,
  with 95 % intervals, and the winner is chosen on those (the search's own numbers are biased
  in the winner's favour: it was picked because its seeds were kind).

Objectives (`Objective.parse`): `win=0.5` (seat 0, or the solitaire player), `win:wizard=0.5`
(a seat by name or number), `length=300` (mean actions per game), `metric:turns=40` (mean of a
game metric). The loss is the largest distance from the target over the settings of `over`.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from playtable.core.errors import BadParameter
from playtable.core.params import params_from_dict
from playtable.core.protocol import params_as_dict
from playtable.lab.runner import Arm, RunOptions, resolve_game, run_tasks
from playtable.lab.space import Dim
from playtable.lab.stats import Z95, mean_sd, wilson

FRESH_SEEDS = 1_000_000
"""Re-measurement seeds start this far after the search's first seed."""


@dataclass(frozen=True)
class Objective:
    kind: str  # "win", "length" or "metric"
    target: float
    seat: str = "0"
    metric: str = ""

    @classmethod
    def parse(cls, text: str) -> Objective:
        head, sep, value = text.partition("=")
        try:
            target = float(value)
        except ValueError:
            target = math.nan
        if not sep or math.isnan(target):
            raise BadParameter(f"objective '{text}' is not win[:SEAT]=RATE, length=N or metric:NAME=N")
        kind, _, arg = head.strip().partition(":")
        if kind == "win":
            if not 0 <= target <= 1:
                raise BadParameter(f"objective '{text}': a win rate lies in [0, 1]")
            return cls("win", target, seat=arg or "0")
        if kind == "length" and not arg:
            return cls("length", target)
        if kind == "metric" and arg:
            return cls("metric", target, metric=arg)
        raise BadParameter(f"objective '{text}' is not win[:SEAT]=RATE, length=N or metric:NAME=N")

    def __str__(self) -> str:
        if self.kind == "win":
            return f"win:{self.seat}={self.target:g}"
        return f"length={self.target:g}" if self.kind == "length" else f"metric:{self.metric}={self.target:g}"

    def per_game(self, row: dict[str, Any]) -> float:
        """The number one game contributes (1/0 for a win)."""
        if self.kind == "win":
            if int(row.get("players") or 1) == 1:
                return 1.0 if row.get("win") else 0.0
            names = list(row.get("seat_names") or [])
            by_number = int(self.seat) if self.seat.isdigit() else -1
            seat = names.index(self.seat) if self.seat in names else by_number
            if seat < 0:
                raise BadParameter(f"no seat '{self.seat}' (seats: {', '.join(names)})")
            return 1.0 if seat in (row.get("winners") or []) else 0.0
        if self.kind == "length":
            return float(row.get("length") or 0)
        value = (row.get("metrics") or {}).get(self.metric)
        if not isinstance(value, int | float):
            raise BadParameter(f"the game reports no numeric metric '{self.metric}'")
        return float(value)

    def measure(self, rows: Sequence[dict[str, Any]]) -> tuple[float, float, float]:
        """Mean with its 95 % interval (Wilson for win rates)."""
        values = [self.per_game(r) for r in rows]
        mean, sd = mean_sd(values)
        if self.kind == "win":
            low, high = wilson(sum(values), len(values))
            return mean, low, high
        half = Z95 * sd / math.sqrt(len(values)) if values else math.nan
        return mean, mean - half, mean + half

    def loss(self, values: Sequence[float]) -> float:
        return max(abs(v - self.target) for v in values)


@dataclass
class TuneSpec:
    """What to tune: a game, its starting parameters, where to search, what to aim at."""

    game: str
    objective: Objective
    space: list[Dim]
    agents: tuple[str, ...] = ("heuristic",)
    base: dict[str, Any] = field(default_factory=dict)
    over: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    games: int = 400
    """Games per setting of `over` for each trial (common seeds)."""
    rounds: int = 4
    seed: int = 0
    finalists: int = 3
    remeasure: int = 1000
    """Fresh games per setting for each finalist."""
    max_steps: int = 100_000

    def key(self) -> str:
        """What a stored study must match to be resumed."""
        return json.dumps(
            {"game": self.game, "objective": str(self.objective), "agents": list(self.agents),
             "base": self.base, "over": self.over, "games": self.games, "seed": self.seed,
             "space": [d.describe() for d in self.space]},
            sort_keys=True, default=str,
        )

    def params_for(self, values: dict[str, Any], setting: dict[str, Any]) -> Any:
        game = resolve_game(self.game)
        return params_from_dict(game.params_type, {**self.base, **values, **setting})

    def arms(self, values: dict[str, Any]) -> list[Arm]:
        """One arm per setting of `over`; raises BadParameter for an invalid combination."""
        out = []
        for i, setting in enumerate(self.over):
            params = self.params_for(values, setting)
            out.append(Arm.build(self.game, params, self.agents, label=f"s{i}", max_steps=self.max_steps))
        return out


@dataclass
class Finalist:
    values: dict[str, Any]
    """The tuned parameters (the search space's dimensions)."""
    search_loss: float
    measured: list[tuple[float, float, float]]
    """Per setting of `over`: mean, low, high on fresh seeds."""
    loss: float
    games: int


@dataclass
class TuneResult:
    spec: TuneSpec
    study_name: str
    trials: list[dict[str, Any]]
    finalists: list[Finalist]

    @property
    def best(self) -> Finalist | None:
        return min(self.finalists, key=lambda f: f.loss) if self.finalists else None

    def variant(self) -> dict[str, Any]:
        """The best candidate as a named-variant dict: only values that differ from the defaults."""
        best = self.best
        if best is None:
            return {}
        game = resolve_game(self.spec.game)
        defaults = params_as_dict(game.params_type())
        tuned = params_as_dict(self.spec.params_for(best.values, {}))
        return {k: v for k, v in tuned.items() if v != defaults[k] and k not in self.spec.over[0]}


def measure(spec: TuneSpec, values: dict[str, Any], first_seed: int, games: int,
            options: RunOptions | None) -> list[tuple[float, float, float]]:
    """Play `games` seeds from `first_seed` under every setting; mean and interval per setting."""
    arms = spec.arms(values)
    rows = run_tasks([(arm, s) for arm in arms for s in range(first_seed, first_seed + games)], options)
    return [spec.objective.measure([r for r in rows if r["variant"] == arm.label]) for arm in arms]


def _import_optuna() -> Any:
    try:
        import optuna
    except ImportError:
        raise BadParameter("tuning needs Optuna: pip install 'playtable[lab]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def grid(space: Sequence[Dim]) -> dict[str, list[Any]] | None:
    """Every value of an all-discrete space (None when a dimension is continuous)."""
    out: dict[str, list[Any]] = {}
    for d in space:
        if d.kind == "float":
            return None
        out[d.name] = d.labels() if d.kind == "choice" else list(range(int(d.low), int(d.high) + 1))
    return out


def _sampler(optuna: Any, spec: TuneSpec, budget: int) -> Any:
    """A discrete space no larger than the budget is searched exhaustively (in a shuffled order:
    Optuna's grid sampler), anything larger by TPE."""
    values = grid(spec.space)
    if values is not None and math.prod(len(v) for v in values.values()) <= budget:
        return optuna.samplers.GridSampler(values, seed=spec.seed)
    return optuna.samplers.TPESampler(seed=spec.seed, n_startup_trials=8)


OPTUNA_TABLES = {"studies", "trials", "version_info"}
"""Tables every Optuna storage holds: an SQLite file with tables but not these is another
program's database, which a study must not be written into."""


def check_storage(storage: str) -> None:
    """Raise BadParameter, before any game, unless `storage` (an SQLite file name; a database
    URL is left to the database) can hold a study: a new file, an empty one, or an SQLite
    database that is an Optuna storage or empty. A file that is not SQLite at all, a FIFO, a
    device, another program's database, a name too long: one line each."""
    if "://" in storage:
        return
    import sqlite3

    from playtable.core.files import check_sqlite_file, shown

    if not check_sqlite_file(storage, "--storage"):
        return
    try:
        with contextlib.closing(sqlite3.connect(f"file:{quote(storage)}?mode=ro", uri=True)) as con:
            tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as err:
        raise BadParameter(f"--storage {shown(storage)}: cannot be read as SQLite ({err})") from None
    if tables and not OPTUNA_TABLES.issubset(tables):
        listed = ", ".join(sorted(tables)[:4])
        raise BadParameter(f"--storage {shown(storage)} is another program's SQLite database (its "
                           f"tables: {listed}), not a study store; give a new file name")


def open_study(spec: TuneSpec, name: str, storage: str | None, budget: int = 0) -> Any:
    """Create or resume a study (SQLite file `storage`, or in memory). A stored study made for
    another game, objective or space is refused rather than mixed in, and a storage that cannot
    hold a study (`check_storage`) is refused in one line."""
    optuna = _import_optuna()
    if storage:
        check_storage(storage)
    url = f"sqlite:///{storage}" if storage and "://" not in storage else storage
    try:
        study = optuna.create_study(
            study_name=name,
            storage=url,
            direction="minimize",
            load_if_exists=True,
            sampler=_sampler(optuna, spec, budget),
            # a small budget starts pruning sooner: its few trials cannot all be played in full
            pruner=optuna.pruners.MedianPruner(n_startup_trials=max(2, min(6, budget // 4)),
                                               n_warmup_steps=0),
        )
    except (ImportError, ValueError, RuntimeError, OSError) as err:
        raise BadParameter(f"--storage {storage}: cannot hold the study ({_first_line(err)})") from None
    except Exception as err:
        if type(err).__module__.split(".")[0] not in ("sqlalchemy", "optuna"):
            raise
        raise BadParameter(f"--storage {storage}: cannot hold the study ({_first_line(err)})") from None
    stored = study.user_attrs.get("spec")
    if stored is None:
        study.set_user_attr("spec", spec.key())
    elif stored != spec.key():
        raise BadParameter(f"study '{name}' in {storage} was made for other settings; choose another --study")
    return study


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return (text[0] if text else type(err).__name__)[:200]


def _finished(study: Any) -> list[Any]:
    optuna = _import_optuna()
    return study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,
                                                    optuna.trial.TrialState.PRUNED))


def run_tune(
    spec: TuneSpec,
    budget: int = 40,
    study_name: str = "tune",
    storage: str | None = None,
    options: RunOptions | None = None,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
) -> TuneResult:
    """Run trials until the study holds `budget` finished ones, then re-measure the finalists.
    Ctrl-C raises `runner.Interrupted` out of the running trial; the stored study keeps every
    finished trial, so calling again with the same storage resumes."""
    optuna = _import_optuna()
    spec.arms({})  # the starting point must be valid: bad input fails before any game
    study = open_study(spec, study_name, storage, budget)
    per_round = max(1, math.ceil(spec.games / max(1, spec.rounds)))

    def objective(trial: Any) -> float:
        values = {d.name: d.suggest(trial) for d in spec.space}
        for old in _finished(study):
            if old.params != values or "same_as" in old.user_attrs:
                continue
            # the same parameters on the same seeds would play the same games again
            trial.set_user_attr("same_as", old.number)
            trial.set_user_attr("values", old.user_attrs.get("values"))
            if old.state == optuna.trial.TrialState.COMPLETE and old.value is not None:
                return float(old.value)
            raise optuna.TrialPruned(f"as trial {old.number}")
        try:
            arms = spec.arms(values)
        except BadParameter as err:
            trial.set_user_attr("invalid", str(err))
            raise optuna.TrialPruned(str(err)) from None
        rows: dict[str, list[dict[str, Any]]] = {a.label: [] for a in arms}
        loss = math.inf
        for step, start in enumerate(range(0, spec.games, per_round)):
            count = min(per_round, spec.games - start)
            first = spec.seed + start
            tasks = [(arm, s) for arm in arms for s in range(first, first + count)]
            for row in run_tasks(tasks, options):
                rows[row["variant"]].append(row)
            means = [spec.objective.measure(rows[a.label])[0] for a in arms]
            loss = spec.objective.loss(means)
            trial.set_user_attr("values", means)
            trial.set_user_attr("games", start + count)
            trial.report(loss, step)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return loss

    def callback(study_: Any, trial: Any) -> None:
        if on_trial is not None:
            on_trial(_trial_row(trial, len(_finished(study_)), budget))

    remaining = budget - len(_finished(study))
    if remaining > 0:
        study.optimize(objective, n_trials=remaining, callbacks=[callback], catch=())
    finalists = _remeasure(spec, study, options)
    trials = [_trial_row(t, t.number + 1, budget) for t in study.get_trials(deepcopy=False)]
    return TuneResult(spec, study_name, trials, finalists)


def _trial_row(trial: Any, done: int, budget: int) -> dict[str, Any]:
    return {
        "trial": trial.number, "state": trial.state.name, "loss": trial.value,
        "params": dict(trial.params), "values": trial.user_attrs.get("values"),
        "games": trial.user_attrs.get("games", 0), "same_as": trial.user_attrs.get("same_as"),
        "invalid": trial.user_attrs.get("invalid"),
        "done": done, "budget": budget,
    }


def _remeasure(spec: TuneSpec, study: Any, options: RunOptions | None) -> list[Finalist]:
    optuna = _import_optuna()
    complete = [t for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
                if t.value is not None and "same_as" not in t.user_attrs]
    complete.sort(key=lambda t: t.value)
    finalists: list[Finalist] = []
    for trial in complete[: spec.finalists]:
        measured = measure(spec, dict(trial.params), spec.seed + FRESH_SEEDS, spec.remeasure, options)
        loss = spec.objective.loss([m[0] for m in measured])
        finalists.append(Finalist(dict(trial.params), float(trial.value), measured, loss, spec.remeasure))
    return finalists
