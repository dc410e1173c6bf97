"""`playtable tune | tournament | playtest` on the command line: results, files, and one clear
line with exit status 2 for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.lab.test_lab_cli import TOY, _run  # the lab commands' shared way to run the CLI


def test_tune_stores_a_study_and_prints_the_best_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.db"
    args = ["tune", TOY, "--objective", "length=20", "--param-space", "turns=1:6", "--agent", "random",
            "--budget", "3", "--games", "10", "--rounds", "1", "--remeasure", "10", "--storage", str(db)]
    code, out, err = _run(capsys, *args, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["objective"] == "length=20" and "turns" in result["finalists"][0]["values"]
    assert isinstance(result["variant"], dict)  # only what differs from the defaults
    assert "[3/3] trial " in err and db.exists()
    code, out, err = _run(capsys, *args[:-6], "--budget", "4", "--games", "10", "--rounds", "1",
                          "--remeasure", "10", "--storage", str(db))
    assert code == 0, err
    assert "[4/4] trial " in err and "[1/" not in err  # resumed, not restarted
    assert "best as a named variant" in out


def test_tournament_prints_ratings_and_writes_a_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plot = tmp_path / "ratings.png"
    code, out, err = _run(capsys, "tournament", "troll", "--variant", "plus-one", "--agent", "random",
                          "--agent", "heuristic", "-n", "20", "--bootstrap", "20", "--plot", str(plot))
    assert code == 0, err
    assert "heuristic" in out and "95% interval" in out and plot.stat().st_size > 1000


def test_playtest_prints_answers_and_writes_a_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # a plain terminal's width
    page = tmp_path / "troll.html"
    code, out, err = _run(capsys, "playtest", "troll", "--agent", "heuristic", "-n", "20",
                          "--out", str(page))
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    # the question column keeps room for its words: each question reads whole, no word cut
    top = next(line for line in lines if line.startswith("┏"))
    assert len(top[1:].split("┳")[0]) >= 16, top
    questions = _first_column(lines)
    assert "ace of clubs dealt into the bridge" in questions
    assert "the row with more bricks is the one awakened (cards drawn from the deck)" in questions
    assert "How often does laying a card into the bridge save a game?" in questions
    # under a share its interval and how far it can still move
    assert "needs about" in out and "how far it can still move" in out
    text = page.read_text(encoding="utf-8")
    assert "playtest questions, answered" in text and "data:image/png;base64" in text


def _first_column(lines: list[str]) -> list[str]:
    """The first column's cells of a rich table with lines between rows, each cell's lines joined."""
    cells, cell = [], []
    for line in lines:
        if line.startswith("│"):
            cell.append(line.split("│")[1].strip())
        elif line.startswith(("├", "└")) and cell:
            cells.append(" ".join(part for part in cell if part))
            cell = []
    return cells


def test_report_gains_a_playtest_page_per_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = tmp_path / "runs.parquet"
    code, _, err = _run(capsys, "sim", TOY, "-n", "5", "-q", "--out", str(runs))
    assert code == 0, err
    out = tmp_path / "report.html"
    code, text, err = _run(capsys, "report", str(runs), "--out", str(out), "--playtest", "rotator",
                           "--playtest-n", "1")
    assert code == 0, err
    page = tmp_path / "report-playtest-rotator.html"
    assert out.exists() and page.exists() and "sample board" in page.read_text(encoding="utf-8")
    other = tmp_path / "r2.html"
    code, _, err = _run(capsys, "report", str(runs), "--out", str(other), "--playtest", "chess")
    assert code == 2 and "no playtest questions" in err and not other.exists()


@pytest.mark.parametrize(
    "args",
    [
        ("tune", "troll", "--objective", "speed=3"),
        ("tune", "troll", "--objective", "win=0.3", "--param-space", "nonsense=1:2"),
        ("tune", "troll", "--objective", "win=0.3", "--budget", "0"),
        ("tournament", "troll", "--agent", "random"),
        ("tournament", "troll", "--agent", "random", "--agent", "nobody"),
        ("playtest", "chess"),
        ("playtest", "troll", "--agent", "nobody", "-n", "2"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    args: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, *args)
    assert code == 2
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
