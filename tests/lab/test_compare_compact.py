"""`compare` keeps what it compares, not the rows ("The lab at the sizes it promises"):
each arm's compared numbers by seed and its running summary give the same differences and
summaries as the rows did, and with `keep_rows=False` no row is held."""

from __future__ import annotations

import math
from typing import Any

from playtable.lab.compare import run_compare, value_of
from playtable.lab.metrics import summarize
from playtable.lab.runner import Arm
from playtable.lab.stats import paired

TOY = "tests.lab.lab_toygame:GAME"


def _arms() -> list[Arm]:
    from tests.lab.lab_toygame import ToyParams

    return [Arm.build(TOY, ToyParams(), ["random"], label="base"),
            Arm.build(TOY, ToyParams(target=25), ["greedy:samples=2"], label="easy")]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def test_compact_comparison_equals_the_rows() -> None:
    full = run_compare(_arms(), seed=3, games=30, on="length")
    compact = run_compare(_arms(), seed=3, games=30, on="length", keep_rows=False)
    assert not any(compact.rows.values())
    for arm in _arms():
        rows = full.rows[arm.label]
        assert compact.played(arm.label) == len(rows) == 30
        assert _same(compact.summary(arm.label), summarize(list(rows.values())))
        assert compact.mean(arm.label) == sum(value_of(r, "length") for r in rows.values()) / 30
    base, easy = full.rows["base"], full.rows["easy"]
    seeds = sorted(base)
    expected = paired([value_of(base[s], "length") for s in seeds],
                      [value_of(easy[s], "length") for s in seeds])
    assert compact.paired("easy") == full.paired("easy") == expected


def test_previous_games_are_not_played_again_nor_counted_twice() -> None:
    first = run_compare(_arms(), seed=0, games=10)
    previous = [row for arm in first.arms for row in first.rows[arm.label].values()][:12]
    again = run_compare(_arms(), seed=0, games=10, previous=previous + previous[:3], keep_rows=False)
    whole = run_compare(_arms(), seed=0, games=10, keep_rows=False)
    for arm in _arms():
        assert again.played(arm.label) == 10
        assert _same(again.summary(arm.label), whole.summary(arm.label))
    assert again.paired("easy") == whole.paired("easy")
