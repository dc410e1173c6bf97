"""The troll's game time against Klondike's 2-10 minutes, as a stated model (seed 000, "Elements
of the gameplay"; troll RULES.md): `benchmarks/troll_game_time.py` turns the decisions a game the
bots measured into minutes at each assumed rate and into the rate at which a game lasts 2 and
10 minutes, and RULES.md carries the table it prints."""

from __future__ import annotations

from tests.lab.test_one_code_path import ROOT, _benchmark


def test_minutes_are_decisions_times_seconds_and_the_rates_for_klondikes_span() -> None:
    bench = _benchmark("troll_game_time")
    cells = [c.strip() for c in bench.row_for("final", "heuristic", [36, 44], [18, 22]).split("|")[1:-1]]
    # 40 decisions a game: 40 x 2.65 s = 1.8 min, x 5 s = 3.3, x 10 s = 6.7; 2 min at 3.0 s, 10 at 15.0
    assert cells[:3] == ["final", "heuristic", "2"]
    assert cells[3].startswith("40.0 [") and cells[5] == "20.0"
    assert cells[6:] == ["1.8", "3.3", "6.7", "3.0 s", "15.0 s"]


def test_the_rules_carry_the_benchmarks_table_and_say_what_replaces_it() -> None:
    rules = (ROOT / "src" / "playtable" / "games" / "troll" / "RULES.md").read_text(encoding="utf-8")
    assert "| rules | agent | games | decisions a game [95% CI] |" in rules
    assert "benchmarks/troll_game_time.py" in rules and "decision_seconds" in rules
    for rate in _benchmark("troll_game_time").SECONDS_A_DECISION:
        assert f"minutes at {rate:g} s" in rules
