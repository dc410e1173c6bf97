"""Troll for front ends (RULES.md "Front ends", F1-F3): what a spectator sees, which actions
may be taken back, and why the game ended."""

from __future__ import annotations

from playtable.core.chance import Chance
from playtable.core.registry import get_game
from playtable.games.troll.rules import TrollState


def _new(seed: int) -> TrollState:
    state: TrollState = get_game("troll").new_state(seed=seed)
    return state


def test_f1_spectator_sees_what_the_player_sees() -> None:
    state = _new(3)
    assert state.public_observation() == state.observation(0)


def test_f2_take_back_only_within_a_turn_and_never_past_a_draw() -> None:
    rng = Chance(5)
    for seed in range(20):
        state = _new(seed)
        while not state.is_terminal:
            before = state.clone()
            state.apply(rng.choice(state.legal_actions()))
            drew = (state.chance.counter != before.chance.counter or len(state.deck) != len(before.deck)
                    or state.seen != before.seen)
            if state.can_take_back(before):
                assert state.turn == before.turn and not drew and not state.is_terminal
            elif state.turn == before.turn and not drew and not state.is_terminal:
                raise AssertionError("an action that changed nothing hidden was refused a take-back")


def test_f3_end_text_says_why_and_the_score() -> None:
    rng = Chance(9)
    state = _new(1)
    assert state.end_text() is None
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    text = state.end_text()
    assert text is not None and f"Score: {state.score}" in text
