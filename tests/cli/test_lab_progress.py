"""The lab's progress bar: compare's rows of several variants get a win rate each,
never one figure pooled over different rules; a single run keeps its rate with an interval."""

from __future__ import annotations

from playtable.cli.lab_progress import Live


def rate(live: Live) -> str:
    return str(live.progress.tasks[0].fields["rate"])


def test_compare_shows_a_win_rate_per_variant() -> None:
    with Live(8, "troll 2 variants", quiet=True) as live:
        live.add([{"variant": "final", "win": False}, {"variant": "final", "win": False}])
        live.add([{"variant": "plus-one", "win": True}, {"variant": "plus-one", "win": False}])
        assert rate(live) == "win final 0.0% · plus-one 50.0%"


def test_a_single_run_keeps_its_interval() -> None:
    with Live(4, "troll", quiet=True) as live:
        live.add([{"win": True}, {"win": False}])
        assert rate(live).startswith("win 50.0% [")
