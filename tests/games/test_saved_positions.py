"""Every position the rules reach survives save and load, for every game and
every named variant (and the wizard game at 3, 4 and 5 players).

Random legal playouts, one per example: at every step the position is written to JSON text and
read back through `Game.state_from_json` (which runs the game's own position checks, the
`position_checks.py` of Star Dice and the wizard game, the inline checks of the troll and
Rotator), and the copy must agree with the original in everything the protocol exposes: its
JSON, whose turn it is and who is awaited, the legal actions, every seat's and a spectator's
observation, the outcome. The playout goes on from the copy, as a table's bot worker does, and
the original plays the same action alongside: both must say the same events and reach the same
position. The wizard's `waiting_for` names every hero still to commit, but the seat to act is
always the first of them (so a front end asks `current_player`, never another awaited seat).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playtable.core.chance import Chance
from playtable.core.params import resolve_params
from playtable.core.protocol import Game, State
from playtable.core.registry import game_ids, get_game

STEPS = {"troll": 400, "rotator": 300, "stardice": 20, "wizard": 300}
"""Steps per playout: a troll or Rotator game ends well within; a Star Dice step is a physics
throw (about 10 ms, twice here: 20 steps are a battle and the next one's start); a wizard game
runs to several hundred steps at about 6 ms a step here (a wizard table stalled at step 109)."""
EXAMPLES = {"troll": 4, "rotator": 3, "stardice": 1, "wizard": 4}
"""Playouts per variant, so that the whole file runs in about half a minute."""


def _cases() -> list[Any]:
    cases = []
    for game_id in game_ids():  # a new game joins by its registry line
        game = get_game(game_id)
        for variant in [None, *game.variants]:
            cases.append(pytest.param(game_id, variant, id=f"{game_id}-{variant}"))
    return cases


def _pick(state: State, rng: Chance, taken: Counter[str]) -> Any:
    """A random legal action; half the time one of those played least so far in this game, so
    that rare branches (a spell with its own decisions, a variant's special move) come up far
    more often than uniform play finds them (the wizard's half-sent Whirlwind: one game in
    nine at random, one in four this way)."""
    actions = state.sample_actions(rng, 8)
    if rng.below(2):
        least = min(taken[str(a)] for a in actions)
        actions = [a for a in actions if taken[str(a)] == least]
    action = rng.choice(actions)
    taken[str(action)] += 1
    return action


def _texts(state: State) -> list[str]:
    return [] if state.is_terminal else [str(a) for a in state.legal_actions()]


def _same_in_every_way(state: State, back: State) -> None:
    assert back.to_json() == state.to_json()
    assert back.current_player == state.current_player
    assert back.is_terminal == state.is_terminal
    assert back.waiting_for() == state.waiting_for()
    assert back.returns() == state.returns()
    assert back.end_text() == state.end_text()
    assert back.metrics() == state.metrics()
    assert _texts(back) == _texts(state)
    for seat in range(state.num_players):
        assert back.observation(seat) == state.observation(seat), f"seat {seat}'s observation"
    assert back.public_observation() == state.public_observation()


def _turn_is_the_awaited_seats(state: State) -> None:
    if state.is_terminal:
        assert state.waiting_for() == []
    else:
        assert state.waiting_for()[0] == state.current_player, (state.waiting_for(), state.current_player)


@pytest.mark.parametrize(("game_id", "variant"), _cases())
def test_every_reached_position_is_saved_and_read_back_exactly(game_id: str, variant: str | None) -> None:
    game: Game[Any, Any] = get_game(game_id)
    counts = (3, 4, 5) if game_id == "wizard" else (None,)

    @settings(max_examples=EXAMPLES.get(game_id, 2), deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(0, 2**32), st.sampled_from(counts))
    def playout(seed: int, players: int | None) -> None:
        params = resolve_params(game.params_type, game.variants, variant,
                                [f"players={players}"] if players else [])
        state = game.new_state(params, seed)
        original = state.clone()
        rng = Chance(seed ^ 0x5EED)
        taken: Counter[str] = Counter()
        for step in range(STEPS.get(game_id, 200)):
            back = game.state_from_json(json.loads(json.dumps(state.to_json())))
            try:
                _same_in_every_way(state, back)
                _turn_is_the_awaited_seats(back)
            except AssertionError as err:
                raise AssertionError(f"{game_id} {variant or 'default'} ({players or 1} players) "
                                     f"seed {seed} step {step}: {err}") from None
            if back.is_terminal:
                return
            action = _pick(back, rng, taken)
            said = [e.to_json() for e in back.apply(back.parse_action(str(action)))]
            assert said == [e.to_json() for e in original.apply(original.parse_action(str(action)))]
            assert back.to_json() == original.to_json()
            state = back

    playout()
