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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playtable.core.errors import BadParameter
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
    """label -> seed -> row."""
    on: str = "win"
    sprt: Sprt | None = None
    stopped: str = ""
    interrupted: bool = False

    @property
    def baseline(self) -> Arm:
        return self.arms[0]

    def common_seeds(self) -> list[int]:
        seeds = set.intersection(*(set(r) for r in self.rows.values())) if self.rows else set()
        return sorted(seeds)

    def paired(self, label: str) -> Paired:
        seeds = self.common_seeds()
        base = self.rows[self.baseline.label]
        other = self.rows[label]
        return paired(
            [value_of(base[s], self.on) for s in seeds], [value_of(other[s], self.on) for s in seeds]
        )

    def all_rows(self) -> list[dict[str, Any]]:
        return [row for arm in self.arms for _, row in sorted(self.rows[arm.label].items())]


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
) -> Comparison:
    """Play the arms on seeds seed, seed+1, ... (at most `games` each) and compare them.
    `previous` rows (games a killed run of the same comparison left) are taken as played."""
    if len(arms) < 2:
        raise BadParameter("a comparison needs at least two variants")
    labels = [a.label for a in arms]
    if len(set(labels)) != len(labels):
        raise BadParameter(f"variant names must differ: {', '.join(labels)}")
    if games < 1:
        raise BadParameter("the number of games must be at least 1")
    if until_ci is not None and until_ci <= 0:
        raise BadParameter("--until-ci must be positive")
    result = Comparison(list(arms), {a.label: {} for a in arms}, on, sprt)
    _store(result, list(previous))
    sequential = until_ci is not None or sprt is not None
    step = max(1, round_size) if sequential else games
    played = 0
    while played < games:
        count = min(step, games - played)
        seeds = range(seed + played, seed + played + count)
        tasks = [(arm, s) for s in seeds for arm in arms if s not in result.rows[arm.label]]
        try:
            rows = run_tasks(tasks, options)
        except Interrupted as stop:
            _store(result, stop.rows)
            result.interrupted = True
            result.stopped = "interrupted"
            return result
        _store(result, rows)
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


def _store(result: Comparison, rows: list[dict[str, Any]]) -> None:
    for row in rows:
        result.rows[row["variant"]][int(row["seed"])] = row


def _feed_sprt(result: Comparison, seeds: range) -> bool:
    """Feed this round's discordant seeds (last arm against the first) to the SPRT."""
    sprt = result.sprt
    assert sprt is not None
    a = result.rows[result.baseline.label]
    b = result.rows[result.arms[-1].label]
    for s in seeds:
        if s not in a or s not in b:
            continue
        va, vb = value_of(a[s], result.on), value_of(b[s], result.on)
        if va != vb and sprt.add(vb > va) is not None:
            return True
    return sprt.decision is not None
