"""Tournaments (lab/tournament.py): ratings recover known strengths and order agents of known
strength; seats are swapped and seeds paired."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from playtable.core.errors import BadParameter
from playtable.lab.runner import resolve_game
from playtable.lab.tournament import bradley_terry, play_tournament, plot_ratings

TOY = "tests.lab.lab_toygame:GAME"
ToyParams = resolve_game(TOY).params_type


def test_bradley_terry_recovers_planted_strengths() -> None:
    """Games drawn from known Bradley-Terry strengths 1 : 2 : 4 give back ratings 120 Elo apart
    (400 log10 2) in the right order."""
    rng = random.Random(3)
    strength = [1.0, 2.0, 4.0]
    results = []
    for s in range(4000):
        i, j = rng.sample(range(3), 2)
        results.append((s, i, j, 1.0 if rng.random() < strength[i] / (strength[i] + strength[j]) else 0.0))
    ratings = bradley_terry(3, results)
    assert ratings[0] < ratings[1] < ratings[2]
    assert ratings[1] - ratings[0] == pytest.approx(120.4, abs=25)
    assert ratings[2] - ratings[1] == pytest.approx(120.4, abs=25)


def test_a_two_player_tournament_orders_agents_of_known_strength() -> None:
    """Search beats random play at the toy game; every seed is played in both seatings."""
    t = play_tournament(TOY, ["random", "ismcts:iterations=60"], ToyParams(players=2), games=30, bootstrap=60)
    assert [r.agent for r in t.ratings] == ["ismcts:iterations=60", "random"]
    best, worst = t.ratings
    assert worst.high < best.low  # the intervals do not overlap
    assert t.seeds_played == 30 and t.tally.games[0, 1] == 2 * 30  # both seatings of every seed
    assert best.games == worst.games == 2 * 30 and not t.interrupted


def test_a_solitaire_tournament_compares_agents_on_the_same_deals(tmp_path: Path) -> None:
    t = play_tournament(TOY, ["random", "greedy:samples=4"], ToyParams(players=1), games=60, bootstrap=60)
    assert t.solitaire and t.ratings[0].agent == "greedy:samples=4"
    assert t.seeds_played == 60 and t.solo.deals[0] == t.solo.deals[1] == 60
    plot_ratings(t, str(tmp_path / "r.png"))
    assert (tmp_path / "r.png").stat().st_size > 1000


def test_a_tournament_needs_two_different_agents() -> None:
    with pytest.raises(BadParameter):
        play_tournament(TOY, ["random"], ToyParams(players=2), games=2)
    with pytest.raises(BadParameter):
        play_tournament(TOY, ["random", "random"], ToyParams(players=2), games=2)


def test_a_tournament_streams_and_an_interrupted_one_rates_what_finished() -> None:
    """Seeds stream through running sums (no list of a trillion seeds or games is ever made):
    stopped with Ctrl-C, the command rates the seeds that finished, prints them and says so in
    one line, with status 130."""
    import json
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "playtable", "tournament", TOY, "--param",
                             "players=2", "--agent", "random", "--agent", "greedy:samples=2",
                             "-n", str(10**12), "--bootstrap", "20", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err.decode()
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted") and "Traceback" not in err.decode()
    printed = json.loads(out)
    assert printed["interrupted"] and printed["seeds"] > 0
    assert sum(r["games"] for r in printed["ratings"]) == 2 * 2 * printed["seeds"]
