"""The clairvoyant solver: its winning lines win when replayed, and a hopeless deal is proved lost."""

from __future__ import annotations

from tests.games.troll.helpers import position

from playtable.games.troll.game import GAME
from playtable.games.troll.solver import solve


def test_a_winning_line_found_by_the_solver_wins_when_played() -> None:
    for seed in (1, 2):
        state = GAME.new_state(seed=seed)
        solution = solve(state.clone(), node_limit=5000)
        assert solution.status == "win"
        for turn in solution.line:
            for text in turn:
                state.apply(state.parse_action(text))
        assert state.outcome == "win"


def test_a_hopeless_deal_is_proved_lost() -> None:
    """One row of single bricks; the first awakening is at the far end, out of reach: the brick
    flees to the right bank and both slots at that end are then empty (§6.2)."""
    lower = ["2C", "3C", "4C", "5C", "6C", "7C"]
    state = position(lower, [""] * 6, troll="lower 1", awake=("7C",), deck=("2H", "3H"), d6=(6, 6, 6))
    solution = solve(state)
    assert solution.status == "loss" and solution.winnable is False
    assert solution.nodes == 1


def test_the_node_budget_gives_unknown() -> None:
    state = GAME.new_state(seed=5)
    assert solve(state, node_limit=3).status == "unknown"
