"""Rotator warns before a move that loses on the spot (RULES.md "Warnings before a losing move";
seed "Making A Move", Step 2: "If you are within a space that collapses, the game ends")."""

from __future__ import annotations

from dataclasses import replace

from playtable.core.registry import get_game
from playtable.games.rotator.rules import RotatorState


def _state(*moves: str, **params: object) -> RotatorState:
    game = get_game("rotator")
    state = game.new_state(replace(game.default_params(), **params), 0)
    for text in moves:
        state.apply(state.parse_action(text))
    assert isinstance(state, RotatorState)
    return state


def test_step2_collapse_warning_names_the_square_and_matches_the_outcome() -> None:
    state = _state("start G1", "drill 3", "drill 0")
    for action in state.legal_actions():
        warning = state.action_warning(action)
        after = state.clone()
        after.apply(action)
        lost = after.is_terminal and after.returns() == [0.0]
        assert (warning is not None) == lost, action
    warning = state.action_warning(state.parse_action("drill 0"))
    assert warning is not None and "G6" in warning and "collapses" in warning


def test_the_warning_changes_nothing_and_safe_moves_get_none() -> None:
    state = _state("start G1")
    before = state.to_json()
    assert [state.action_warning(a) for a in state.legal_actions()] == [None] * len(state.legal_actions())
    assert state.to_json() == before


def test_interpretation_i5_the_last_turn_of_the_limit_warns() -> None:
    state = _state("start G1", turn_limit=1)
    warning = state.action_warning(state.parse_action("drill 0"))
    assert warning is not None and "turn limit (1)" in warning
