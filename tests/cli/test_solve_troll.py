"""The clairvoyant troll solver (`playtable solve troll --seed N`)."""

from __future__ import annotations

import json

import pytest

from playtable.cli import main
from playtable.core.registry import game_ids, get_game

pytestmark = pytest.mark.skipif("troll" not in game_ids(), reason="troll not registered")


def test_a_winning_line_replays_to_a_win_from_the_seed() -> None:
    from playtable.games.troll.solver import solve_deal

    verdict = solve_deal(1, budget=2000)
    assert verdict.result == "win" and verdict.actions
    state = get_game("troll").new_state(None, 1)
    for text in verdict.actions:
        state.apply_text(text)
    assert state.is_terminal and state.returns() == [1.0]
    assert solve_deal(1, budget=2000).actions == verdict.actions


def test_a_small_budget_is_reported_as_undecided(capsys: pytest.CaptureFixture[str]) -> None:
    main(["solve", "troll", "--seed", "5", "--budget", "3", "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["result"] == "unknown" and verdict["nodes"] == 3


def test_solve_troll_cli_prints_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    main(["solve", "troll", "--seed", "1"])
    out = capsys.readouterr().out
    assert "can be won" in out and "winning line, one turn a line:" in out
    # one turn a line (two actions, or one wait), and replaying the lines wins
    from playtable.core.registry import get_game

    turns = [line.split(": ", 1) for line in out.splitlines() if line.startswith("  turn ")]
    assert [int(t.split()[1]) for t, _ in turns] == list(range(1, len(turns) + 1))
    state = get_game("troll").new_state(None, 1)
    for _, actions in turns:
        for text in actions.split(", "):
            state.apply(state.parse_action(text))
    assert state.returns() == [1.0]
