"""Counts in the words players read are said without '(s)': the shared
`plural`, and every event text of random games of every game."""

from __future__ import annotations

import random

import pytest

from playtable.core.registry import game_ids, get_game
from playtable.core.words import plural


def test_plural_says_a_count_in_words() -> None:
    assert plural(1, "blank") == "1 blank"
    assert plural(3, "dropped key") == "3 dropped keys"
    assert plural(0, "boost space") == "no boost spaces"


@pytest.mark.parametrize("game_id", game_ids())
def test_no_event_text_of_a_random_game_says_s_in_brackets(game_id: str) -> None:
    game = get_game(game_id)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_state(game.default_params(), seed)
        texts = [event.text for event in state.setup_events]
        for _ in range(300):
            if state.is_terminal:
                break
            texts += [event.text for event in state.apply(rng.choice(state.legal_actions()))]
        assert texts, "the game said nothing"
        offending = [text for text in texts if "(s)" in text]
        assert not offending, offending[:3]
