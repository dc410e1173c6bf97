"""Tuning a design to a target: Optuna searches a parameter space, the lab's runner plays the games.

Why Optuna: it is well kept, its TPE sampler handles the mixed spaces games have (whole numbers,
numbers, choices), it prunes hopeless trials from intermediate values, and its SQLite storage
makes a study resumable for free (an interrupted `playtable tune` picks up where it stopped),
and its ask-and-tell interface lets runs sharing a storage claim trials under one lock.
No NTBEA implementation on PyPI is maintained at that level.

How a candidate is measured (the design that keeps the CPU bill low):
* **Common random numbers**: every candidate plays the same seeds (seed, seed+1, ...) under each
  setting of `over` (e.g. players=3, 4, 5), so two candidates differ only by their parameters.
* **Rounds and pruning**: a trial plays its seeds in rounds and reports the loss after each; the
  median pruner stops a trial whose loss is worse than the median of earlier trials at that round.
* **No game twice, no budget wasted**: a setting already tried takes its earlier loss (with
  common seeds the games would be identical) and a setting the game refuses is skipped; neither
  spends the budget, which counts trials played (`Search`).
* **Start from what ships**: the base parameters and the shipped variants inside the space are
  screened on one round and the nearest are the first trials (`TuneSpec.starts`).
* **Fresh seeds at the end**: the best few candidates are re-measured on seeds no trial used,
  with 95 % intervals, and the winner is chosen on those (the search's own numbers are biased
  in the winner's favour: it was picked because its seeds were kind).

Objectives (`Objective.parse`): `win=0.5` (seat 0, or the solitaire player), `win:wizard=0.5`
(a seat by name or number), `length=300` (mean actions per game), `metric:turns=40` (mean of a
game metric). The loss is the largest distance from the target over the settings of `over`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import math
import os
import random
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from playtable.core.errors import BadParameter
from playtable.core.params import params_from_dict
from playtable.core.protocol import params_as_dict
from playtable.lab.metrics import Moments
from playtable.lab.runner import Arm, Interrupted, RunOptions, resolve_game, run_tasks
from playtable.lab.space import Dim
from playtable.lab.stats import Z95, wilson

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
        moments = Moments()
        for row in rows:
            moments.add(self.per_game(row))
        return self.interval(moments)

    def interval(self, moments: Moments) -> tuple[float, float, float]:
        """Mean with its 95 % interval from running sums of the per-game numbers (Wilson for
        win rates): what `measure` gives for the rows behind them, without the rows."""
        n = moments.n
        mean = moments.total / n if n else math.nan
        if self.kind == "win":
            low, high = wilson(moments.total, n)
            return mean, low, high
        sd = math.sqrt(max(0.0, moments.m2) / (n - 1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n) if n else math.nan
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

    def refusal(self, values: dict[str, Any]) -> str | None:
        """Why the game refuses these values under some setting of `over`, or None."""
        try:
            for setting in self.over:
                self.params_for(values, setting)
        except BadParameter as err:
            return str(err)
        return None

    def starts(self) -> list[tuple[str, dict[str, Any]]]:
        """The starting points: the base parameters, then every shipped variant that only moves
        dials of the space (within it), as (name, trial values); refused ones are left out."""
        game = resolve_game(self.game)
        base = {**params_as_dict(game.params_type()), **self.base}
        dims = {d.name: d for d in self.space}
        out: list[tuple[str, dict[str, Any]]] = []
        for name, changes in [("the starting parameters", {}), *game.variants.items()]:
            outside = [k for k, v in changes.items() if k not in dims and _plain(v) != _plain(base.get(k))]
            values = {n: dims[n].label({**base, **changes}[n]) for n in dims}
            if outside or any(v is None for v in values.values()) or self.refusal(values) is not None:
                continue
            if all(values != v for _, v in out):
                out.append((name, values))
        return out

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
    notes: list[str] = field(default_factory=list)
    """What the search says about itself (a budget lowered to the space, a sampler that stalled)."""
    importances: dict[str, float] = field(default_factory=dict)
    """Each dial's share of the loss's variation over complete trials (Optuna's fANOVA)."""
    importance_note: str = ""
    """Why there are no importances, when there are none."""
    played: int = 0
    """Trials that spent the budget (played in full, or until pruned)."""
    budget: int = 0

    def missed_by(self) -> float | None:
        """How far the best candidate's fresh measurement lies from the target, when the target
        lies outside its 95 % interval under some setting of `over` (None when it is met)."""
        best = self.best
        if best is None:
            return None
        target = self.spec.objective.target
        misses = [abs(mean - target) for mean, low, high in best.measured if not low <= target <= high]
        return max(misses) if misses else None

    @property
    def best(self) -> Finalist | None:
        return min(self.finalists, key=lambda f: f.loss) if self.finalists else None

    def shipped_as(self) -> str | None:
        """The name of the shipped variant the best candidate is, if it is one."""
        game = resolve_game(self.spec.game)
        best = self.variant() if self.best is not None else None
        return next((name for name, values in game.variants.items()
                     if best is not None and {k: _plain(v) for k, v in values.items()} == best), None)

    def variant(self) -> dict[str, Any]:
        """The best candidate as a named-variant dict: only values that differ from the defaults."""
        best = self.best
        if best is None:
            return {}
        game = resolve_game(self.spec.game)
        defaults = params_as_dict(game.params_type())
        tuned = params_as_dict(self.spec.params_for(best.values, {}))
        return {k: v for k, v in tuned.items() if v != defaults[k] and k not in self.spec.over[0]}


def play_moments(spec: TuneSpec, arms: Sequence[Arm], first: int, count: int,
                 options: RunOptions | None) -> list[Moments]:
    """Play `count` seeds from `first` under every arm, the objective's per-game numbers summed
    per arm as the rows come (`Moments`): the rows are never kept, so memory stays the same
    however many games a trial or a re-measurement plays."""
    sums = {arm.label: Moments() for arm in arms}

    def take(rows: list[dict[str, Any]]) -> None:
        for row in rows:
            sums[row["variant"]].add(spec.objective.per_game(row))

    streaming = dataclasses.replace(options or RunOptions(), on_rows=take)
    tasks = ((arm, s) for arm in arms for s in range(first, first + count))  # read a batch at a time
    run_tasks(tasks, streaming, total=count * len(arms), keep_rows=False)
    return [sums[arm.label] for arm in arms]


def measure(spec: TuneSpec, values: dict[str, Any], first_seed: int, games: int,
            options: RunOptions | None) -> list[tuple[float, float, float]]:
    """Play `games` seeds from `first_seed` under every setting; mean and interval per setting."""
    sums = play_moments(spec, spec.arms(values), first_seed, games, options)
    return [spec.objective.interval(m) for m in sums]


def _import_optuna() -> Any:
    try:
        import optuna
    except ImportError:
        raise BadParameter("tuning needs Optuna: pip install 'playtable[lab]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


SETTINGS_LISTED = 20_000
"""A discrete space up to this many settings is listed whole (each checked by the game's own
parameter check, microseconds a setting): searched exhaustively when the budget covers it, and
the list the search falls back on when the sampler only proposes settings already tried."""


def grid(space: Sequence[Dim]) -> dict[str, list[Any]] | None:
    """Every value of an all-discrete space (None when a dimension is continuous)."""
    out: dict[str, list[Any]] = {}
    for d in space:
        if d.kind == "float":
            return None
        out[d.name] = d.labels() if d.kind == "choice" else list(range(int(d.low), int(d.high) + 1))
    return out


def accepted_settings(spec: TuneSpec) -> list[dict[str, Any]] | None:
    """Every setting of a discrete space that the game accepts under every setting of `over`,
    in the space's order (None when a dimension is continuous or the space is too large to list)."""
    values = grid(spec.space)
    if values is None or math.prod(len(v) for v in values.values()) > SETTINGS_LISTED:
        return None
    names = list(values)
    settings = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values.values())]
    return [s for s in settings if spec.refusal(s) is None]


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
            sampler=optuna.samplers.TPESampler(seed=spec.seed, n_startup_trials=8),
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


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple | list) else value


class TuneInterrupted(Exception):  # noqa: N818 - it is a control-flow signal, not an error
    """Ctrl-C during a tuning: the running trial is marked failed (it never counts), every
    finished trial stays in the study."""

    def __init__(self, played: int, budget: int, trial: int | None) -> None:
        super().__init__(f"interrupted with {played} of {budget} trials played")
        self.played, self.budget, self.trial = played, budget, trial


PATIENCE = 30
"""Proposals in a row that are refused or already tried before the search stops asking the
sampler: a discrete space then takes an untried accepted setting at random, a continuous one
stops (its sampler keeps proposing what the game refuses)."""

LOCK_WAIT = 600.0
"""Seconds a run waits for another run on the same storage to choose its trial (or to screen
the starting points, which plays one round of games for each)."""

OTHERS_POLL = 0.5
"""Seconds between looks at the study while another run plays the budget's last trials: this
run re-measures the finalists only once they are in (or plays more if one was stopped)."""

COUNTED = "counted"
"""User attribute of a trial that plays in full and counts against the budget: the run
(`host:pid`) that claimed it."""


def _runner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _alive(runner: str) -> bool:
    """Whether the run that claimed a trial may still be running: another host's always may;
    on this host, whether its process exists."""
    host, _, pid = runner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def storage_lock(storage: str | None) -> Any:
    """The lock a run holds on an SQLite storage file while it opens the study or chooses a
    trial (none for a database URL, whose transactions serve, or a study in memory)."""
    if not storage or "://" in storage:
        return contextlib.nullcontext()
    from playtable.core.files import exclusive

    return exclusive(storage, "choosing a tuning trial", wait=LOCK_WAIT)


class Search:
    """One run's share of a study: ask the sampler, skip what the game refuses and what was
    tried, claim a trial against the budget under a lock (so runs sharing a storage never
    overrun it), play the trial in rounds, tell the result. The budget counts trials played
    (in full, or until the median rule pruned them): refused settings, repeats and interrupted
    trials do not spend it."""

    def __init__(self, spec: TuneSpec, study: Any, budget: int, storage: str | None,
                 options: RunOptions | None, on_trial: Callable[[dict[str, Any]], None] | None) -> None:
        self.optuna = _import_optuna()
        self.spec, self.study, self.budget = spec, study, budget
        self.options, self.on_trial = options, on_trial
        self.storage = storage if storage and "://" not in storage else None
        self.per_round = max(1, math.ceil(spec.games / max(1, spec.rounds)))
        self.settings = accepted_settings(spec)
        self.first_round: dict[str, list[Moments]] = {}
        """Screened starting points' first-round sums, by their values: their trials reuse them."""
        self.notes: list[str] = []
        self.current: Any = None
        self.queue: list[dict[str, Any]] = []
        """An exhaustive search's settings still to queue (`_feed_queue`)."""
        self.exhausted = False
        """Set when no untried setting is left to play (or the sampler stalled)."""

    def locked(self) -> Any:
        return storage_lock(self.storage)

    def trials(self, *states: Any) -> list[Any]:
        return list(self.study.get_trials(deepcopy=False, states=states or None))

    def _counts(self) -> tuple[int, int]:
        """(played, running) from one reading of the study: trials that spent the budget (in
        full, or until the median rule stopped them), and running ones a run has claimed. One
        reading, so a trial that finishes meanwhile is never counted twice or not at all."""
        state = self.optuna.trial.TrialState
        counted = [t.state for t in self.trials() if COUNTED in t.user_attrs]
        return (sum(1 for s in counted if s in (state.COMPLETE, state.PRUNED)),
                sum(1 for s in counted if s == state.RUNNING))

    def played(self) -> int:
        return self._counts()[0]

    def _claimed(self) -> int:
        return sum(self._counts())

    def _fail_stale(self) -> None:
        """A trial left running by a run that was killed (on this host) is marked failed."""
        for t in self.trials(self.optuna.trial.TrialState.RUNNING):
            if not _alive(str(t.user_attrs.get(COUNTED, ""))):
                self.study.tell(t.number, state=self.optuna.trial.TrialState.FAIL, skip_if_finished=True)

    def prepare(self) -> None:
        """Fail stale trials and, in a study with no trial yet, queue the starting points
        (best first on one screening round); when the budget covers a listed space, every
        accepted setting is queued in a shuffled order: that space is searched exhaustively."""
        with self.locked():
            self._fail_stale()
            if self.settings is not None and len(self.settings) < self.budget:
                self.notes.append(f"the space holds {len(self.settings)} settings the game accepts: each "
                                  f"is played once (budget {self.budget} lowered to {len(self.settings)})")
                self.budget = len(self.settings)
            if self.settings is not None and len(self.settings) <= self.budget:
                self.queue = list(self.settings)
                random.Random(self.spec.seed).shuffle(self.queue)
            if self.trials():
                return
            for values in self._screened_starts():
                self.study.enqueue_trial(values)  # a new study: nothing to skip

    def _tried(self) -> set[str]:
        """The settings played or being played (an interrupted trial's may be played again)."""
        state = self.optuna.trial.TrialState
        return {_key(t.params) for t in self.trials(state.COMPLETE, state.PRUNED, state.RUNNING)
                if COUNTED in t.user_attrs}

    def _feed_queue(self) -> None:
        """An exhaustive search keeps one untried setting waiting for the next ask (queued one
        at a time: Optuna reads the whole study for each trial it queues)."""
        if not self.queue or self.trials(self.optuna.trial.TrialState.WAITING):
            return
        tried = self._tried()
        while self.queue:
            values = self.queue.pop(0)
            if _key(values) not in tried:
                self.study.enqueue_trial(values)
                return

    def _screened_starts(self) -> list[dict[str, Any]]:
        """The starting points nearest the target on one round of games, at most half the
        budget of them (the sampler gets the rest), best first."""
        scored: list[tuple[float, int, dict[str, Any]]] = []
        for _name, values in self.spec.starts():
            sums = self._play_round(values, 0)
            self.first_round[_key(values)] = sums
            scored.append((self._loss(sums), len(scored), values))
        ranked = [values for _, _, values in sorted(scored, key=lambda x: (x[0], x[1]))]
        return ranked[: max(1, self.budget // 2)]

    def _play_round(self, values: dict[str, Any], step: int) -> list[Moments]:
        cached = self.first_round.pop(_key(values), None) if step == 0 else None
        if cached is not None:
            return cached
        start = step * self.per_round
        count = min(self.per_round, self.spec.games - start)
        return play_moments(self.spec, self.spec.arms(values), self.spec.seed + start, count, self.options)

    def _means(self, sums: list[Moments]) -> list[float]:
        return [self.spec.objective.interval(m)[0] for m in sums]

    def _loss(self, sums: list[Moments]) -> float:
        return self.spec.objective.loss(self._means(sums))

    def run(self) -> None:
        """Prepare, then trials until the study holds `budget` counted ones (this run's and
        others'). Ctrl-C marks this run's running trial failed and raises TuneInterrupted."""
        try:
            self.prepare()
            while True:
                with self.locked():
                    trial = self._next_trial()
                if trial is not None:
                    self._play(trial)
                    continue
                played, running = self._counts()
                if played >= self.budget or self.exhausted:
                    return
                if running:  # another run's trial may still be pruned or stopped: wait for it
                    time.sleep(OTHERS_POLL)
                    with self.locked():
                        self._fail_stale()
        except (Interrupted, KeyboardInterrupt):
            number = None
            if self.current is not None:
                number = self.current.number
                self.study.tell(self.current, state=self.optuna.trial.TrialState.FAIL, skip_if_finished=True)
            raise TuneInterrupted(self.played(), self.budget, number) from None

    def _next_trial(self) -> Any:
        """A new accepted setting claimed against the budget, or None when the budget is met
        (counting other runs' claimed trials) or nothing untried is left."""
        skipped = 0
        while self._claimed() < self.budget:
            self._feed_queue()
            self.current = trial = self.study.ask()
            values = {d.name: d.suggest(trial) for d in self.spec.space}
            if self._skip(trial, values):
                self.current = None
                skipped += 1
                if skipped >= PATIENCE and not self._enqueue_untried():
                    self.exhausted = True
                    return None
                continue
            trial.set_user_attr(COUNTED, _runner())
            return trial
        return None

    def _skip(self, trial: Any, values: dict[str, Any]) -> bool:
        """Tell and report a refused or already tried setting (pruned or its earlier loss:
        the same parameters on the same seeds would play the same games); True if skipped."""
        state = self.optuna.trial.TrialState
        why = self.spec.refusal(values)
        if why is not None:
            trial.set_user_attr("invalid", why)
            self.study.tell(trial, state=state.PRUNED)
            self._report(trial)
            return True
        for old in self.trials(state.COMPLETE, state.PRUNED):
            if old.params == values and COUNTED in old.user_attrs:
                trial.set_user_attr("same_as", old.number)
                if old.state == state.COMPLETE and old.value is not None:
                    self.study.tell(trial, float(old.value))
                else:
                    self.study.tell(trial, state=state.PRUNED)
                self._report(trial)
                return True
        return False

    def _enqueue_untried(self) -> bool:
        """Queue an untried accepted setting (False when none is left or none can be listed)."""
        if self.settings is None:
            self.notes.append(f"stopped: the sampler proposed {PATIENCE} settings in a row that the "
                              "game refuses or that were tried")
            return False
        tried = self._tried()
        untried = [s for s in self.settings if _key(s) not in tried]
        if not untried:
            self.notes.append(f"every one of the {len(self.settings)} settings the game accepts was tried")
            return False
        self.study.enqueue_trial(random.Random(len(tried)).choice(untried))
        return True

    def _play(self, trial: Any) -> None:
        values = dict(trial.params)
        sums = [Moments() for _ in self.spec.over]
        loss = math.inf
        steps = math.ceil(self.spec.games / self.per_round)
        for step in range(steps):
            for total, played in zip(sums, self._play_round(values, step), strict=True):
                total.merge(played)
            loss = self._loss(sums)
            trial.set_user_attr("values", self._means(sums))
            trial.set_user_attr("games", min(self.spec.games, (step + 1) * self.per_round))
            trial.report(loss, step)
            if step + 1 < steps and trial.should_prune():
                self.study.tell(trial, state=self.optuna.trial.TrialState.PRUNED)
                break
        else:
            self.study.tell(trial, loss)
        self.current = None
        self._report(trial)

    def _report(self, trial: Any) -> None:
        if self.on_trial is not None:
            frozen = next(t for t in self.trials() if t.number == trial.number)
            self.on_trial(_trial_row(frozen, self.played(), self.budget))


def _key(values: dict[str, Any]) -> str:
    return json.dumps(values, sort_keys=True, default=str)


def run_tune(
    spec: TuneSpec,
    budget: int = 40,
    study_name: str = "tune",
    storage: str | None = None,
    options: RunOptions | None = None,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
) -> TuneResult:
    """Run trials until the study holds `budget` played trials (in full or until pruned;
    refused settings, repeats and interrupted trials do not count), starting from the base parameters and
    the shipped variants in the space, then re-measure the finalists. Runs sharing a storage
    share its budget. Ctrl-C marks the running trial failed and raises TuneInterrupted; the
    stored study keeps every finished trial, so calling again with the same storage resumes."""
    spec.arms({})  # the starting point must be valid: bad input fails before any game
    if storage:
        check_storage(storage)
    with storage_lock(storage):
        study = open_study(spec, study_name, storage, budget)
    search = Search(spec, study, budget, storage, options, on_trial)
    search.run()
    finalists = _remeasure(spec, study, options)
    trials = [_trial_row(t, 0, search.budget) for t in study.get_trials(deepcopy=False)]
    importances, why_not = _importances(search)
    return TuneResult(spec, study_name, trials, finalists, search.notes, importances, why_not,
                      search.played(), search.budget)


IMPORTANCE_TRIALS = 10
"""Complete trials Optuna's parameter importance (fANOVA) needs before its figures mean much."""


def _importances(search: Search) -> tuple[dict[str, float], str]:
    """Which dials mattered (Optuna's fANOVA importance over complete trials), or why not."""
    optuna = search.optuna
    done = [t for t in search.trials(optuna.trial.TrialState.COMPLETE) if COUNTED in t.user_attrs]
    varied = [d.name for d in search.spec.space if len({str(t.params.get(d.name)) for t in done}) > 1]
    if len(done) < IMPORTANCE_TRIALS:
        return {}, (f"too few trials played in full ({len(done)}; it takes {IMPORTANCE_TRIALS}) to say "
                    "which dials mattered")
    if not varied:
        return {}, "no dial took more than one value in the complete trials"
    try:
        found = optuna.importance.get_param_importances(search.study, params=varied)
    except (ValueError, RuntimeError) as err:
        return {}, f"Optuna could not weigh the dials ({_first_line(err)})"
    return dict(found), ""


def _trial_row(trial: Any, done: int, budget: int) -> dict[str, Any]:
    return {
        "trial": trial.number, "state": trial.state.name, "loss": trial.value,
        "params": dict(trial.params), "values": trial.user_attrs.get("values"),
        "games": trial.user_attrs.get("games", 0), "same_as": trial.user_attrs.get("same_as"),
        "invalid": trial.user_attrs.get("invalid"), "counted": COUNTED in trial.user_attrs,
        "done": done, "budget": budget,
    }


def _remeasure(spec: TuneSpec, study: Any, options: RunOptions | None) -> list[Finalist]:
    optuna = _import_optuna()
    complete = [t for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
                if t.value is not None and COUNTED in t.user_attrs]
    complete.sort(key=lambda t: t.value)
    finalists: list[Finalist] = []
    for trial in complete[: spec.finalists]:
        measured = measure(spec, dict(trial.params), spec.seed + FRESH_SEEDS, spec.remeasure, options)
        loss = spec.objective.loss([m[0] for m in measured])
        finalists.append(Finalist(dict(trial.params), float(trial.value), measured, loss, spec.remeasure))
    return finalists
