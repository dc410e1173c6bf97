"""`playtable compare` holds no rows (the lab at size): the command asks `run_compare`
for `keep_rows=False` and prints each arm from `Comparison.summary`, `mean` and `played`, and
what it prints is what the rows gave (`metrics.summarize` of the rows, the compared number
averaged over them), in the table and in `--json`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.cli.cli_runner import run_captured as _run

from playtable.cli.lab_progress import format_number, pct
from playtable.lab import compare as compare_module
from playtable.lab.compare import Comparison, run_compare, value_of
from playtable.lab.metrics import summarize
from playtable.lab.runner import Arm

TOY = "tests.lab.lab_toygame:GAME"
ARGS = ("compare", TOY, "--variant", "base:", "--variant", "easy:target=25,agent=greedy:samples=2",
        "-n", "24", "--seed", "7", "--on", "length", "-q")


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], Comparison]]:
    calls: list[tuple[dict[str, Any], Comparison]] = []
    real = compare_module.run_compare

    def spying(*args: Any, **kwargs: Any) -> Comparison:
        result = real(*args, **kwargs)
        calls.append((kwargs, result))
        return result

    monkeypatch.setattr(compare_module, "run_compare", spying)
    return calls


def _reference() -> tuple[dict[str, dict[str, Any]], dict[str, float], Comparison]:
    """What the command printed when it kept every row: the rows' summaries and means."""
    from tests.lab.lab_toygame import ToyParams

    arms = [Arm.build(TOY, ToyParams(), ["random"], label="base"),
            Arm.build(TOY, ToyParams(target=25), ["greedy:samples=2"], label="easy")]
    full = run_compare(arms, seed=7, games=24, on="length", keep_rows=True)
    summaries = {label: summarize(list(rows.values())) for label, rows in full.rows.items()}
    means = {label: sum(value_of(r, "length") for r in rows.values()) / len(rows)
             for label, rows in full.rows.items()}
    return summaries, means, full


def test_compare_keeps_no_rows_and_prints_what_the_rows_gave(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = _spy(monkeypatch)
    code, text, err = _run(capsys, *ARGS, "--json")
    assert code == 0, err
    (kwargs, result), = calls
    assert kwargs.get("keep_rows") is False
    assert not any(result.rows.values())  # no row held, whatever the number of seeds
    summaries, means, full = _reference()
    printed = json.loads(text)
    for label, summary in summaries.items():
        variant = printed["variants"][label]
        assert variant["games"] == summary["games"] == result.played(label) == 24
        assert variant["win_rate"] == summary["win_rate"]
        assert variant["length"] == summary["length"]
        assert variant["metrics"] == pytest.approx(summary["metrics"], rel=1e-12)
        assert result.mean(label) == means[label]
    diff = printed["differences"]["easy"]
    expected = full.paired("easy")
    assert (diff["n"], diff["diff"], diff["low"], diff["high"]) == (
        expected.n, expected.diff, expected.low, expected.high)


def test_compare_table_shows_the_rows_means(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, text, err = _run(capsys, *ARGS)
    assert code == 0, err
    summaries, means, _ = _reference()
    for label, summary in summaries.items():
        line = next(row for row in text.splitlines() if row.strip("│ ").startswith(label))
        cells = [c.strip() for c in line.strip().strip("│").split("│")]
        assert cells[2] == str(summary["games"])
        assert cells[3] == pct(summary["win_rate"])
        assert cells[4] == f"[{pct(summary['win_low'])}, {pct(summary['win_high'])}]"
        assert cells[5] == format_number(means[label])
        assert cells[6] == format_number(summary["length"]["mean"], 1)
