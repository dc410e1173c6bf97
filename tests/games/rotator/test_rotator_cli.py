"""Rotator through the `playtable` command: solve, position tools, sample boards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playtable.cli import main
from playtable.games.rotator.board import SAMPLES_DIR, board_problems, load_board
from playtable.games.rotator.game import GAME, level_of
from playtable.games.rotator.rules import RotatorParams
from playtable.games.rotator.samples import CHOICES, sample_text
from playtable.games.rotator.solver import solve_state


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_sample_boards_are_legal_rated_and_reproducible(name: str) -> None:
    """Sample Boards: three legal boards of rising difficulty, rated by the solver, and
    regenerated identically from the recorded level and seed."""
    board = load_board(name)
    assert board_problems(board) == []
    solution = solve_state(GAME.new_state(RotatorParams(board=name), 0))
    assert solution.winnable and level_of(solution.turns, solution.boosts) == name
    assert (SAMPLES_DIR / f"{name}.txt").read_text(encoding="utf-8") == sample_text(name)
    assert CHOICES[name][0] == name


def test_solve_prints_the_line_in_canonical_form(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["solve", "rotator", "easy"], capsys)
    assert code == 0
    assert out.startswith("win on turn 5, spending")
    # one turn a line, numbered by the turns the header counts
    turns = [ln.split(": ", 1) for ln in out.splitlines()[1:]]
    assert [int(t.split()[1]) for t, _ in turns] == list(range(1, 6))
    state = GAME.new_state(RotatorParams(board="easy"), 0)
    for _, actions in turns:
        if "won" in actions:  # the last turn's fall wins by itself
            continue
        for text in actions.split(", "):
            state.apply(state.parse_action(text))
    assert state.returns() == [1.0]


def test_solve_json_and_lost_boards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["solve", "rotator", "easy", "--json", "--turn-limit", "4"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["winnable"] is False and data["complete"] is True
    code, out, _ = run_cli(["solve", "rotator", "easy", "--turn-limit", "4"], capsys)
    assert code == 0 and out.startswith("no win exists within the turn limit of 4")


def test_solve_rejects_bad_boards_naming_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = load_board("easy").to_text().replace("@", "#", 1)
    bad = tmp_path / "bad.txt"
    bad.write_text(text, encoding="utf-8")
    code, _, err = run_cli(["solve", "rotator", str(bad)], capsys)
    assert code == 2 and "node count" in err and len(err.strip().splitlines()) == 1
    code, _, err = run_cli(["solve", "rotator", str(tmp_path / "missing.txt")], capsys)
    assert code == 2 and "no board file" in err


def test_position_tools_with_a_seed_and_with_a_board_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`playtable state new rotator --seed N` makes a legal board; `--param board=FILE` too."""
    pos = tmp_path / "p.json"
    code, _, _ = run_cli(["state", "new", "rotator", "--seed", "5", "--out", str(pos)], capsys)
    assert code == 0
    data = json.loads(pos.read_text())
    assert data["game"] == "rotator" and data["phase"] == "start" and len(data["board"]) == 20
    code, out, _ = run_cli(["state", "legal", "rotator", str(pos)], capsys)
    assert json.loads(out)["legal"][0] == "start A1"
    code, out, _ = run_cli(["state", "apply", "rotator", str(pos), "start C1", "drill 0"], capsys)
    assert code == 0 and json.loads(out)["position"]["turn"] == 2
    code, _, err = run_cli(["state", "apply", "rotator", str(pos), "start C1"], capsys)
    assert code == 2 and "start" in err
    board_file = tmp_path / "b.txt"
    board_file.write_text(load_board("hard").to_text(), encoding="utf-8")
    code, out, _ = run_cli(["state", "new", "rotator", "--param", f"board={board_file}"], capsys)
    assert code == 0 and json.loads(out)["board"] == load_board("hard").rows_text()
    code, out, _ = run_cli(["solve", "rotator", str(pos)], capsys)
    assert code == 0 and ("win on turn" in out or "no win" in out)
