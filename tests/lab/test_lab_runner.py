"""The simulation runner and result storage, on the toy game (tests/lab/lab_toygame.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from playtable.core.errors import BadParameter, UnknownGame
from playtable.lab.metrics import summarize, survival
from playtable.lab.runner import Arm, Interrupted, RunOptions, agent_rng, play_game, resolve_game, run_tasks
from playtable.lab.storage import ResultsError, ResultWriter, query, read_rows

TOY = "tests.lab.lab_toygame:GAME"


def _arm(agent: str = "random", label: str = "default", **params: Any) -> Arm:
    game = resolve_game(TOY)
    from playtable.core.params import params_from_dict

    return Arm.build(TOY, params_from_dict(game.params_type, params), [agent], label)


def test_games_resolve_by_id_or_module_path() -> None:
    assert resolve_game(TOY).id == "toy"
    with pytest.raises(UnknownGame):
        resolve_game("no_such_module:GAME")
    with pytest.raises(UnknownGame):
        resolve_game("json:dumps")


def test_arms_check_their_agents_and_seats() -> None:
    arm = _arm(players=2)
    assert arm.agents == ("random", "random")
    with pytest.raises(BadParameter, match="unknown agent"):
        _arm("nobody")
    game = resolve_game(TOY)
    with pytest.raises(BadParameter, match="2 seats"):
        Arm.build(TOY, game.params_type(players=2), ["random"] * 3)


def test_a_row_depends_only_on_the_seed() -> None:
    arm = _arm("greedy:samples=2")
    assert play_game(arm, 7) == play_game(arm, 7)
    row = play_game(arm, 7)
    assert row["completed"] and row["error"] is None
    assert row["win"] == (row["returns"][0] == 1.0)
    assert row["length"] == sum(row["decisions"])
    assert row["events"]["game_over"] == 1
    assert json.loads(row["params"])["target"] == 35


def test_agent_streams_are_independent_of_the_game_stream() -> None:
    from playtable.core.chance import Chance

    game_stream = [Chance(5).next_u64() for _ in range(3)]
    assert agent_rng(5, 0).next_u64() not in game_stream
    assert agent_rng(5, 0).next_u64() != agent_rng(5, 1).next_u64()


def test_rows_are_identical_for_any_number_of_workers() -> None:
    arm = _arm("greedy:samples=2")
    tasks = [(arm, s) for s in range(30)]
    one = run_tasks(tasks, RunOptions(workers=1, batch_size=4))
    two = run_tasks(tasks, RunOptions(workers=2, batch_size=3))
    assert one == two
    assert [r["seed"] for r in two] == list(range(30))


def test_interrupting_keeps_every_finished_game() -> None:
    arm = _arm()
    seen: list[int] = []

    def stop_after_two_batches(rows: list[dict[str, Any]]) -> None:
        seen.extend(r["seed"] for r in rows)
        if len(seen) >= 10:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stop:
        run_tasks([(arm, s) for s in range(50)], RunOptions(batch_size=5, on_rows=stop_after_two_batches))
    assert [r["seed"] for r in stop.value.rows] == list(range(10))


def test_a_crashing_game_is_recorded_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.lab import lab_toygame

    def broken(self: Any, action: Any) -> Any:
        raise RuntimeError("rule failure")

    monkeypatch.setattr(lab_toygame.ToyState, "apply", broken)
    row = play_game(_arm(), 1)
    assert row["error"] == "RuntimeError: rule failure"
    assert not row["completed"] and not row["win"]


def test_step_limit_marks_games_incomplete() -> None:
    arm = Arm(TOY, _arm().params, ("random",), max_steps=2)
    row = play_game(arm, 3)
    assert row["length"] == 2 and not row["completed"]


def test_parquet_rows_round_trip_and_answer_sql(tmp_path: Path) -> None:
    arm = _arm()
    rows = run_tasks([(arm, s) for s in range(20)])
    path = tmp_path / "r.parquet"
    with ResultWriter(path) as writer:
        writer.write(rows[:7])
        writer.write(rows[7:])
    assert not (tmp_path / "r.parquet.part").exists()
    assert pq.read_table(path).num_rows == 20
    back = read_rows([path])
    assert [r["seed"] for r in back] == list(range(20))
    assert back[3]["events"] == rows[3]["events"]
    assert back[3]["metrics"] == {k: float(v) for k, v in rows[3]["metrics"].items()}
    columns, result = query("SELECT count(*) n, sum(win::int) w, sum(events['bust']) b FROM games", [path])
    assert columns == ["n", "w", "b"]
    assert result[0] == (20, sum(r["win"] for r in rows), sum(r["events"].get("bust", 0) for r in rows))
    with pytest.raises(ResultsError, match="query failed"):
        query("SELECT nope FROM games", [path])
    with pytest.raises(ResultsError, match="no result file"):
        query("SELECT 1", [tmp_path / "missing.parquet"])


def test_new_metrics_after_the_first_chunk_are_kept(tmp_path: Path) -> None:
    rows = run_tasks([(_arm(), s) for s in range(4)])
    rows[3] = {**rows[3], "metrics": {**rows[3]["metrics"], "late": 2}}
    path = tmp_path / "r.parquet"
    with ResultWriter(path) as writer:
        writer.write(rows[:2])
        writer.write(rows[2:])
    assert read_rows([path])[3]["metrics"]["late"] == 2


def test_summary_and_survival() -> None:
    rows = run_tasks([(_arm(), s) for s in range(40)])
    s = summarize(rows)
    assert s["games"] == 40 and s["completion"] == 1.0
    assert s["win_low"] <= s["win_rate"] <= s["win_high"]
    assert s["turns"]["mean"] == 5
    turns, share = survival(rows)
    assert share[0] <= 1.0 and share[-1] == pytest.approx(s["win_rate"])
    duel = summarize(run_tasks([(_arm(players=2), s) for s in range(40)]))
    assert sum(duel["seat_win_rates"]) + duel["draw_rate"] == pytest.approx(1.0)
    assert 0.0 <= duel["balance"] <= 1.0


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_ctrl_c_on_a_running_sim_keeps_the_finished_games(tmp_path: Path, how: str) -> None:
    """A real `playtable sim` with two workers, interrupted: it exits with 130 and the Parquet
    file holds every game handed back, a gap-free prefix of the seeds followed by any early
    finishers, each exactly as an uninterrupted run would have written it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "big.parquet"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [
        sys.executable,
        "-c",
        "from playtable.cli import main; main()",
        "sim",
        TOY,
        "-n",
        "200000",
        "-w",
        "2",
        "--agent",
        "greedy:samples=2",
        "--out",
        str(out),
        "-q",
    ]
    def default_signals() -> None:
        # pytest-xdist workers ignore SIGINT, and an ignored signal stays ignored across exec:
        # give the child the default handling a shell would.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(
        cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_signals
    )
    part = out.with_name(out.name + ".part")
    deadline = time.monotonic() + 60
    while not part.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    time.sleep(0.5)
    proc.send_signal(getattr(signal, how))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert b"finished games kept" in err
    rows = pq.read_table(out).to_pylist()
    assert rows
    seeds = [r["seed"] for r in rows]
    assert len(set(seeds)) == len(seeds)
    arm = _arm("greedy:samples=2")
    for row in rows[:3] + rows[-3:]:
        expected = play_game(arm, row["seed"])
        assert row["win"] == expected["win"] and row["length"] == expected["length"]


def test_team_wins_are_not_draws() -> None:
    """The wizard's heroes win together: several top returns are winners, not a draw."""
    from playtable.lab.runner import _outcome

    assert _outcome(True, [0.0, 1.0, 1.0, 1.0], {}) == {
        "win": False,
        "draw": False,
        "winner": -1,
        "winners": [1, 2, 3],
    }
    assert _outcome(True, [1.0, 0.0, 0.0, 0.0], {})["winner"] == 0
    assert _outcome(True, [0.5, 0.5], {})["draw"]
    assert _outcome(False, [1.0, 0.0], {})["winners"] == []
    rows = [
        {"players": 4, "win": False, "draw": False, "winners": [1, 2, 3], "completed": True, "length": 1},
        {"players": 4, "win": True, "draw": False, "winners": [0], "completed": True, "length": 1},
    ]
    s = summarize(rows)
    assert s["seat_win_rates"] == [0.5, 0.5, 0.5, 0.5] and s["balance"] == 1.0


def test_games_of_a_killed_run_are_recovered_from_the_journal(tmp_path: Path) -> None:
    """A process killed outright never closes its Parquet file; the journal written beside it
    chunk by chunk still holds every finished game."""
    from playtable.lab.recovery import recover
    from playtable.lab.storage import journal_path

    rows = run_tasks([(_arm(), s) for s in range(9)])
    path = tmp_path / "killed.parquet"
    writer = ResultWriter(path)
    writer.write(rows[:4])
    writer.write(rows[4:])
    # no close(): the process "dies" here
    assert journal_path(path).exists() and not path.exists()
    with journal_path(path).open("a") as journal:
        journal.write('{"cut short')
    assert recover(path) == 9
    back = read_rows([path])
    assert [r["seed"] for r in back] == list(range(9))
    assert back[5]["events"] == rows[5]["events"]
    assert not journal_path(path).exists()


def test_sim_saves_a_stale_journal_before_starting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from playtable.cli import main

    rows = run_tasks([(_arm(), s) for s in range(3)])
    out = tmp_path / "r.parquet"
    ResultWriter(out).write(rows)  # killed
    main(["sim", TOY, "-n", "4", "--out", str(out)])  # not --quiet: its notes are read
    err = capsys.readouterr().err
    assert "3 finished games" in err and "resuming: 3 games" in err and "4 rows written" in err
    # The run resumed at seed 3; once the file is complete the recovered games are all in it.
    assert not (tmp_path / "r.recovered.parquet").exists()
    assert [r["seed"] for r in read_rows([out])] == [0, 1, 2, 3]
