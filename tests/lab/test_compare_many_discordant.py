"""`compare` with 1,024 or more disagreeing seeds (the exact sign test used to
overflow a float there and crash the command)."""

from __future__ import annotations

import math

import pytest

from playtable.cli.compare import _print_comparison
from playtable.lab.compare import Comparison
from playtable.lab.metrics import summarize
from playtable.lab.runner import Arm
from playtable.lab.stats import binom_two_sided

TOY = "tests.lab.lab_toygame:GAME"


@pytest.mark.parametrize("n", [1023, 1024, 1025, 5000, 200_000])
def test_sign_test_holds_far_beyond_1024_discordant_seeds(n: int) -> None:
    assert binom_two_sided(n // 2, n) == pytest.approx(1.0, abs=0.05)
    tail = binom_two_sided(0, n)
    assert 0.0 <= tail < 1e-300 or tail == 0.0
    p = binom_two_sided(n // 2 - 3 * math.isqrt(n), n)
    assert 0.0 < p < 0.05


def _row(label: str, seed: int, win: bool) -> dict[str, object]:
    return {
        "variant": label,
        "seed": seed,
        "win": win,
        "draw": False,
        "completed": True,
        "error": None,
        "length": 3,
        "players": 1,
        "returns": [1.0 if win else 0.0],
        "return_0": 1.0 if win else 0.0,
        "decisions": [3],
        "branching_mean": 2.0,
        "branching_max": 3,
        "events": {},
        "metrics": {},
        "seat_names": ["solo"],
        "winners": [0] if win else [],
        "winner": 0 if win else -1,
    }


def test_compare_reports_a_p_value_with_2000_discordant_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    arms = [Arm(TOY, {}, ("random",), "a"), Arm(TOY, {}, ("random",), "b")]
    result = Comparison(arms, {"a": {}, "b": {}})
    for seed in range(2500):
        # 2,000 discordant seeds, 1,100 of them won by b only.
        win_a, win_b = (False, True) if seed < 1100 else (True, False) if seed < 2000 else (True, True)
        result.add([_row("a", seed, win_a), _row("b", seed, win_b)])
    d = result.paired("b")
    assert d.b_only == 1100 and d.a_only == 900
    assert 0.0 < d.p_value < 1e-4
    per_arm = {a.label: summarize(list(result.rows[a.label].values())) for a in arms}
    _print_comparison(result, per_arm, {"b": d}, None, "win")
    assert "paired differences" in capsys.readouterr().out
