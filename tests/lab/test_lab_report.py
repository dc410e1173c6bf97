"""`playtable report`: one self-contained HTML page with embedded plots and the summary tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from playtable.cli import main

TOY = "tests.lab.lab_toygame:GAME"


def _main(*args: str) -> int:
    try:
        main(list(args))
    except SystemExit as done:
        return int(done.code or 0)
    return 0


def test_report_is_one_self_contained_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cmp = tmp_path / "cmp.parquet"
    single = tmp_path / "duel.parquet"
    assert (
        _main(
            "compare",
            TOY,
            "--variant",
            "base:",
            "--variant",
            "easy:target=25",
            "-n",
            "25",
            "-q",
            "--out",
            str(cmp),
        )
        == 0
    )
    assert _main("sim", TOY, "--variant", "duel", "-n", "20", "-q", "--out", str(single)) == 0
    out = tmp_path / "report.html"
    assert _main("report", str(cmp), str(single), "--out", str(out), "--title", "Toy <lab>") == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>Toy &lt;lab&gt;</title>" in page
    images = re.findall(r'<img [^>]*src="([^"]+)"', page)
    assert len(images) == 3 and all(src.startswith("data:image/png;base64,") for src in images)
    assert not re.search(r"(src|href)=\"(https?:|//|file:)", page)
    for heading in ("Summary", "Paired comparison", "Game analysis", "Game metrics", "Events per game"):
        assert f"<h2>{heading}" in page
    assert "95% CI" in page and "balance" in page and "first-player adv." in page
    assert "cmp · easy · random" in page


def test_report_of_missing_or_empty_files_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _main("report", str(tmp_path / "none.parquet"), "--out", str(tmp_path / "r.html")) == 2
    assert "no result file" in capsys.readouterr().err


def test_troll_report_says_which_way_is_better(tmp_path: Path) -> None:
    """A line per plot saying what it shows and which way is better (the troll's score
    is cards left: lower is better), readable metric names, and no two-seat analysis text."""
    runs = tmp_path / "troll.parquet"
    page = tmp_path / "troll.html"
    assert _main("sim", "troll", "-n", "12", "-q", "--variant", "tutorial", "--out", str(runs)) == 0
    assert _main("report", str(runs), "--out", str(page)) == 0
    text = page.read_text(encoding="utf-8")
    assert "Score: cards left in the deck of awakening" in text and "Lower is better." in text
    assert "higher is better for seat 0" in text and "Higher and longer is better." in text
    assert "double awakenings" in text and "double_awakenings" not in text
    assert "first-player advantage is" not in text
