"""`playtable playtest` streams its games: the troll's claims and tool counts, the Rotator's
tallies, the wizard's paired seeds and Star Dice's battle and war tallies are running sums, so
memory does not grow with the number of games, and the answers are those the list-building code
gave (its output on small runs is kept in `playtest_*_seed*.json`)."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from playtable.lab.claims import clustered, clustered_diff, mean_interval
from playtable.lab.playtest import playtest

HERE = Path(__file__).parent


@pytest.mark.parametrize("before_file", ["playtest_troll_seed7.json", "playtest_rotator_seed3.json",
                                         "playtest_wizard_seed5.json", "playtest_stardice_seed2.json"])
def test_the_answers_are_the_ones_the_list_building_code_gave(before_file: str) -> None:
    before = json.loads((HERE / before_file).read_text())
    answers = playtest(before["game"], None, before["games"], before["seed"])
    now = [{"question": a.question, "agent": a.agent, "measured": a.measured, "n": a.n,
            "detail": a.detail} for a in answers]
    assert now == before["answers"]


def _peak_bytes(games: int) -> int:
    from playtable.lab.runner import RunOptions

    tracemalloc.start()
    try:
        # batches of a fixed size: the runner's own grow with the games to about 0.25 s of play
        # (bounded, but larger at 400 games than at 50), which is not what this test is about
        playtest("troll", ["random"], games, 0, RunOptions(batch_size=20))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.timeout(240)
def test_memory_does_not_grow_with_the_number_of_games() -> None:
    # Imports and the engine's caches (`@cache` of positions it has evaluated), paid once, at the
    # larger size: warmed on 5 games, the 400-game run filled more cache and its peak varied.
    _peak_bytes(400)
    few, many = _peak_bytes(50), _peak_bytes(400)
    # Eight times the games: rows or per-game tallies kept would make the peak grow with them
    # (the lists did: 0.27 MB to 1.28 MB); running sums leave it about where it was.
    assert many < 2 * few, (few, many)


def _stardice_peak_bytes(games: int) -> int:
    from playtable.lab import playtest_stardice
    from playtable.lab.runner import RunOptions

    tracemalloc.start()
    try:
        # the battles are played in two worker processes, so what is traced is the parent's
        # share: the rows as they arrive and the tallies answering from them
        playtest_stardice.answers("random-thrower", games, 0, RunOptions(workers=2, batch_size=4))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.timeout(240)
def test_star_dice_memory_does_not_grow_with_the_number_of_games() -> None:
    _stardice_peak_bytes(64)  # imports and caches, paid once at the larger size
    few, many = _stardice_peak_bytes(8), _stardice_peak_bytes(64)
    # eight times the battles and wars: the kept rows grew the peak 0.17 MB to 1.21 MB (7x);
    # running sums hold it (0.13 MB to 0.17-0.23 MB over two runs: where in a batch's decoding
    # the peak falls varies, hence the margin)
    assert many < 3 * few, (few, many)


def test_running_sums_give_the_intervals_the_listed_games_give() -> None:
    from playtable.core.claims import ClusterSums

    pairs = [(3, 7), (0, 2), (5, 5), (1, 9), (2, 2)]
    quads = [(a, n, n - a, n + 1) for a, n in pairs]
    assert clustered(ClusterSums.of(pairs, 2)) == clustered(pairs)
    assert clustered_diff(ClusterSums.of(quads, 4)) == clustered_diff(quads)
    # the interval itself, by the delta method written out (so the sums are not only self-consistent)
    p = 11 / 25
    var = 5 / 4 * sum((a - p * n) ** 2 for a, n in pairs) / 25**2
    ratio, low, high = clustered(pairs, share=False)
    assert ratio == pytest.approx(p) and high - ratio == pytest.approx(1.959964 * var**0.5, rel=1e-5)
    mean, low, high = mean_interval(ClusterSums.of([(x,) for x in (4, 8, 6)], 1))
    assert (mean, high - mean) == pytest.approx((6.0, 1.959964 * 2 / 3**0.5), rel=1e-5)


def test_the_progress_line_hears_the_claim_games_too() -> None:
    from playtable.lab.runner import RunOptions

    heard: list[dict[str, object]] = []
    options = RunOptions(on_rows=heard.extend)
    playtest("troll", ["random"], 5, 0, options)
    # three difficulties of claim games and the plus-one deals of the tool questions
    assert len(heard) == 5 * 3 + 5
    assert sorted({str(r["variant"]) for r in heard}) == ["final", "plus-one", "tutorial"]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("game", "agent"), [("troll", "random"), ("stardice", "random-thrower")])
def test_ctrl_c_says_how_many_games_ran_in_one_line(game: str, agent: str) -> None:
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "playtable", "playtest", game, "--agent", agent,
                             "-n", str(10**12)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            # pytest-xdist workers ignore SIGINT, and that would carry over
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted after "), lines
    assert not out
