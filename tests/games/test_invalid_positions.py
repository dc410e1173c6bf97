"""Every game's position loader refuses positions that break its invariants (item 2;
docs/positions.md), and whatever it accepts plays on without a crash.

Positions come from random play; `position_mutations` breaks one invariant at a time (each
game's RULES.md names the rule the invariant comes from; the mutation's docstring says which).
The whole batch of about 1,700 runs in `benchmarks/invalid_positions.py`; here hypothesis draws
a modest sample each run.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.position_mutations import SCRAMBLES, fresh, mutations, valid_positions
from tests.games.position_mutations_games import GAME_MUTATIONS

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition, IllegalAction
from playtable.core.position import position_from_json, position_to_json
from playtable.core.registry import get_game

GAMES = sorted(GAME_MUTATIONS)
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game_id", GAMES)
def test_positions_from_random_play_load(game_id: str) -> None:
    game = get_game(game_id)
    for text in valid_positions(game_id):
        state = position_from_json(game, fresh(text))
        assert json.dumps(position_to_json(state)) == text


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_broken_invariants_are_refused(game_id: str, data: st.DataObject) -> None:
    """Seed 002 FR "Materials", seed 003 components, seed 000 §3, seed 004 "Making A Move":
    every piece exactly once, values in range, finite numbers, a phase consistent with the rest."""
    positions = valid_positions(game_id)
    text = positions[data.draw(st.integers(0, len(positions) - 1), label="position")]
    mutation = data.draw(st.sampled_from(mutations(game_id)), label="mutation")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    import random

    broken = mutation(fresh(text), random.Random(seed))
    if broken is None:
        return
    with pytest.raises(BadPosition):
        position_from_json(get_game(game_id), broken)


def plays_on(state: object) -> None:
    """What a front end does with a loaded position: none of it may crash."""
    from playtable.core.protocol import State

    assert isinstance(state, State)
    for seat in range(state.num_players):
        json.dumps(state.observation(seat))
    position_to_json(state.clone())
    if state.is_terminal:
        return
    legal = state.legal_actions()
    if not legal:
        return
    rng = Chance(5)
    for action in (legal[0], legal[-1], rng.choice(legal)):
        copy = state.clone()
        # a rigged queue that cannot be drawn is named when it is drawn
        with contextlib.suppress(IllegalAction, BadPosition):
            copy.apply(action)
        json.dumps(position_to_json(copy))


@pytest.mark.parametrize("game_id", GAMES)
@SETTINGS
@given(data=st.data())
def test_whatever_is_accepted_plays_on(game_id: str, data: st.DataObject) -> None:
    positions = valid_positions(game_id)
    text = positions[data.draw(st.integers(0, len(positions) - 1), label="position")]
    scramble = data.draw(st.sampled_from(SCRAMBLES), label="scramble")
    import random

    changed = scramble(fresh(text), random.Random(data.draw(st.integers(0, 2**32))))
    if changed is None:
        return
    try:
        state = position_from_json(get_game(game_id), changed)
    except BadPosition:
        return
    plays_on(state)
