"""Rotator for front ends (RULES.md "Front ends"): spectators, undo, hints and the end text."""

from __future__ import annotations

from playtable.core.records import Record, replay
from playtable.core.registry import get_game


def test_spectator_undo_hint_and_end_text() -> None:
    game = get_game("rotator")
    state = game.new_state(game.default_params(), 4)
    assert state.public_observation() == state.observation(0)
    actions = []
    while not state.is_terminal:
        found = state.hint()
        assert found is not None
        action, words = found
        assert str(action) in map(str, state.legal_actions()) and "wins on turn" in words
        # The hint says why: what the move does, in the events it will make.
        assert words.startswith(f"{action}: ") and "Why: it is the first move of the best line" in words
        effects = [e.text for e in state.clone().apply(action) if e.kind not in ("start", "collapse")]
        assert all(text in words for text in effects)
        before = state.clone()
        state.apply(action)
        actions.append(str(action))
        assert state.can_take_back(before) == (not state.is_terminal)
    assert state.returns() == [1.0] and "you win" in (state.end_text() or "")
    assert state.hint() is None
    # Undo is a replay of the record minus its last action: the same position as before it.
    shorter, _ = replay(Record("rotator", {}, 4, actions[:-1]))
    longer, _ = replay(Record("rotator", {}, 4, actions))
    assert shorter.observation(0) != longer.observation(0)
