"""Comparing variants on common seeds: paired differences, `--until-ci`, and the SPRT.

Every variant (an `Arm`: parameters and agents) plays the same seeds, so each seed is a pair of
results that share the deal and the dice: the comparison's noise comes only from the seeds on
which the variants disagree. The first arm is the baseline; every other arm is compared with it.

* Fixed n: play n seeds and report each difference with its 95 % interval.
* `until_ci=w`: play rounds of seeds until every difference's interval is at most +/- w wide
  (or n seeds are used up). The interval width does not depend on which way the difference
  goes, so stopping on it does not bias the estimate the way stopping on significance would.
* SPRT: for "is B (the last arm) better than A (the first)", feed the discordant seeds in seed
  order to Wald's SPRT (H0: B wins half of them, H1: B wins `p1` of them) and stop as soon as
  it decides.

What a comparison keeps of each game is the number compared (`values`: seed -> number, per
arm) and each arm's running summary (`summaries`), not the row: `-n 1000000` of two variants
held two million row dicts (several GB) before. `keep_rows=True` also keeps the rows
(`Comparison.rows`), for callers that want them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playtable.core.errors import BadParameter
from playtable.lab.metrics import RunningSummary
from playtable.lab.runner import Arm, Interrupted, RunOptions, run_tasks
from playtable.lab.stats import Paired, Sprt, paired


def value_of(row: dict[str, Any], on: str) -> float:
    """The per-game number compared: `win` (1, a draw 0.5, else 0) or a numeric column, or a
    game metric `m_NAME`."""
    if on == "win":
        return 1.0 if row.get("win") else 0.5 if row.get("draw") else 0.0
    value = (row.get("metrics") or {}).get(on[2:]) if on.startswith("m_") else row.get(on)
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    return 0.0


@dataclass
class Comparison:
    arms: list[Arm]
    rows: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    """label -> seed -> row, when the rows are kept (`keep_rows`)."""
    on: str = "win"
    sprt: Sprt | None = None
    stopped: str = ""
    interrupted: bool = False
    keep_rows: bool = True
    values: dict[str, dict[int, float]] = field(default_factory=dict)
    """label -> seed -> the number compared (`value_of(row, on)`)."""
    summaries: dict[str, RunningSummary] = field(default_factory=dict)
    """label -> the running summary of its games (`metrics.summarize` of its rows)."""

    @property
    def baseline(self) -> Arm:
        return self.arms[0]

    def add(self, rows: list[dict[str, Any]]) -> None:
        """Take finished games (a seed an arm already has is not counted again)."""
        for row in rows:
            label, seed = row["variant"], int(row["seed"])
            values = self.values.setdefault(label, {})
            if seed not in values:
                self.summaries.setdefault(label, RunningSummary()).add([row])
            values[seed] = value_of(row, self.on)
            if self.keep_rows:
                self.rows.setdefault(label, {})[seed] = row

    def played(self, label: str) -> int:
        """The seeds the arm has played."""
        return len(self.values.get(label, {}))

    def summary(self, label: str) -> dict[str, Any]:
        """`metrics.summarize` of the arm's games."""
        return self.summaries.get(label, RunningSummary()).result()

    def mean(self, label: str) -> float:
        """The mean of the compared number over the arm's games."""
        values = self.values.get(label, {})
        return sum(values.values()) / len(values) if values else math.nan

    def common_seeds(self) -> list[int]:
        if not self.arms:
            return []
        return sorted(set.intersection(*(set(self.values.get(a.label, {})) for a in self.arms)))

    def paired(self, label: str) -> Paired:
        seeds = self.common_seeds()
        base = self.values[self.baseline.label]
        other = self.values[label]
        return paired([base[s] for s in seeds], [other[s] for s in seeds])


def run_compare(
    arms: Sequence[Arm],
    seed: int = 0,
    games: int = 1000,
    options: RunOptions | None = None,
    until_ci: float | None = None,
    round_size: int = 200,
    sprt: Sprt | None = None,
    on: str = "win",
    on_round: Callable[[Comparison], None] | None = None,
    previous: Sequence[dict[str, Any]] = (),
    keep_rows: bool = True,
) -> Comparison:
    """Play the arms on seeds seed, seed+1, ... (at most `games` each) and compare them.
    `previous` rows (games a killed run of the same comparison left) are taken as played.
    With `keep_rows=False` the comparison keeps each game's compared number and each arm's
    summary, not the rows (memory bounded by the seeds, not by what a row holds)."""
    if len(arms) < 2:
        raise BadParameter("a comparison needs at least two variants")
    labels = [a.label for a in arms]
    if len(set(labels)) != len(labels):
        raise BadParameter(f"variant names must differ: {', '.join(labels)}")
    if games < 1:
        raise BadParameter("the number of games must be at least 1")
    if until_ci is not None and until_ci <= 0:
        raise BadParameter("--until-ci must be positive")
    result = Comparison(list(arms), {a.label: {} for a in arms}, on, sprt, keep_rows=keep_rows,
                        values={a.label: {} for a in arms})
    result.add(list(previous))
    options = options or RunOptions()
    passed_on = options.on_rows

    def take(rows: list[dict[str, Any]]) -> None:  # each batch as it is handed over, in order
        result.add(rows)
        if passed_on is not None:
            passed_on(rows)

    options = dataclasses.replace(options, on_rows=take)
    sequential = until_ci is not None or sprt is not None
    step = max(1, round_size) if sequential else games
    played = 0
    while played < games:
        count = min(step, games - played)
        seeds = range(seed + played, seed + played + count)
        # A generator: a run of a million seeds never holds its task list.
        todo = sum(1 for s in seeds for arm in arms if s not in result.values[arm.label])
        tasks = ((arm, s) for s in seeds for arm in arms if s not in result.values[arm.label])
        try:
            run_tasks(tasks, options, total=todo, keep_rows=False)
        except Interrupted:  # every finished game was handed over (`take`) before
            result.interrupted = True
            result.stopped = "interrupted"
            return result
        played += count
        decided = _feed_sprt(result, seeds) if sprt is not None else False
        if on_round is not None:
            on_round(result)
        if decided:
            result.stopped = f"SPRT accepted {sprt.decision}" if sprt else ""
            return result
        if until_ci is not None and all(_width(result.paired(a.label), on) <= until_ci for a in arms[1:]):
            result.stopped = f"every interval within +/-{until_ci:g}"
            return result
    result.stopped = f"all {games} seeds played"
    return result


def _width(d: Paired, on: str) -> float:
    """The half-width the --until-ci rule trusts: guarded against runs of agreeing seeds when
    the compared results lie in [0, 1] (wins)."""
    return d.guarded_half_width if on == "win" else d.half_width


def _feed_sprt(result: Comparison, seeds: range) -> bool:
    """Feed this round's discordant seeds (last arm against the first) to the SPRT."""
    sprt = result.sprt
    assert sprt is not None
    a = result.values[result.baseline.label]
    b = result.values[result.arms[-1].label]
    for s in seeds:
        if s not in a or s not in b:
            continue
        va, vb = a[s], b[s]
        if va != vb and sprt.add(vb > va) is not None:
            return True
    return sprt.decision is not None
