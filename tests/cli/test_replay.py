"""Records are first class: `playtable replay FILE` steps through any record (a
record's JSON, or a game kept by `sim --keep-records`), in a Textual app with keys to step back
and forth, or printed; bad records end with one line and exit 2."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from tests.cli.cli_runner import run_captured as _run

from playtable.agents import make_agent
from playtable.core.records import record_of, replay_steps
from playtable.core.registry import get_game
from playtable.lab.runner import agent_rng


def _record_file(tmp_path: Path, game_id: str = "troll", seed: int = 4) -> tuple[Path, int]:
    game = get_game(game_id)
    params = game.params_type()
    state = game.new_state(params, seed)
    agent, rng = make_agent(game, "random"), agent_rng(seed, 0)
    actions = []
    while not state.is_terminal:
        action = agent.choose(state, rng)
        actions.append(action)
        state.apply(action)
    path = tmp_path / f"{game_id}.record.json"
    path.write_text(json.dumps(record_of(game_id, params, seed, actions).to_json()))
    return path, len(actions)


@pytest.mark.parametrize("game_id", ["troll", "rotator"])
def test_replay_prints_every_step_of_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game_id: str
) -> None:
    path, n = _record_file(tmp_path, game_id)
    code, out, err = _run(capsys, "replay", str(path), "--print")
    assert code == 0, err
    assert f"step 0 of {n}" in out and f"step {n} of {n}" in out and "game over" in out
    seat = get_game(game_id).seat_names(get_game(game_id).default_params())[0]
    assert f"\nthe {seat}: " in out  # each move by its seat's title ("the troll"), not the id


def test_sim_keep_records_replays_each_game_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.parquet"
    code, _, err = _run(
        capsys, "sim", "troll", "-n", "3", "--agent", "heuristic", "--keep-records", "--out", str(out), "-q"
    )
    assert code == 0, err
    import pyarrow.parquet as pq

    rows = pq.read_table(out).to_pylist()
    assert all(len(r["actions"]) == r["length"] for r in rows)
    code, text, err = _run(capsys, "replay", str(out), "--seed", "1", "--print")
    assert code == 0, err
    length = rows[1]["length"]
    assert f"step {length} of {length}" in text
    code, _, err = _run(capsys, "replay", str(out))
    assert code == 2 and "--seed" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "playtable-record", "seed": 1}', "'game'"),
        ('{"format": "playtable-record", "game": "troll", "seed": -1}', "'seed'"),
        ('{"format": "playtable-record", "game": "troll", "seed": 1, "actions": ["fly away"]}', "action 1"),
        ('{"format": "playtable-record", "game": "chess", "seed": 1}', "unknown game"),
        ("[1, 2", "not valid JSON"),
        ('{"format": "other"}', "format"),
    ],
)
def test_bad_records_end_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, _, err = _run(capsys, "replay", str(path), "--print")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_result_file_without_actions_says_how_to_keep_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.parquet"
    assert _run(capsys, "sim", "troll", "-n", "2", "--out", str(out), "-q")[0] == 0
    code, _, err = _run(capsys, "replay", str(out), "--seed", "0")
    assert code == 2 and "--keep-records" in err


def test_replay_app_steps_back_and_forth(tmp_path: Path) -> None:
    from playtable.core.records import Record
    from playtable.tui.replay import ReplayApp

    path, n = _record_file(tmp_path)
    record = Record.from_json(json.loads(path.read_text()))
    app = ReplayApp(record, replay_steps(record), ["troll"])

    async def drive() -> list[int]:
        seen = []
        async with app.run_test(size=(120, 40)) as pilot:
            for key in ("right", "right", "left", "end", "left", "home", "left"):
                await pilot.press(key)
                seen.append(app.index)
        return seen

    assert asyncio.run(drive()) == [1, 2, 1, n, n - 1, 0, 0]
