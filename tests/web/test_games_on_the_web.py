"""What the web server asks of every game through the protocol: a spectator's view, who must
act, and why the game ended; and the live-stream slot of a connection (docs/web.md)."""

from __future__ import annotations

import asyncio
import json

import pytest

from playtable.core.chance import Chance
from playtable.core.params import resolve_params
from playtable.core.registry import game_ids, get_game
from playtable.web.server.tables.tables import Connection

CASES = [("troll", None), ("rotator", None), ("stardice", None), ("stardice", "battle"),
         ("stardice", "objective1"), ("wizard", None)]


@pytest.mark.parametrize(("game_id", "variant"), CASES)
def test_every_game_has_a_spectator_view_waiting_seats_and_an_end_text(game_id: str,
                                                                        variant: str | None) -> None:
    game = get_game(game_id)
    state = game.new_state(resolve_params(game.params_type, game.variants, variant), 3)
    rng = Chance(11)
    steps = 0
    while not state.is_terminal and steps < 3000:
        public = state.public_observation()
        json.dumps(public)  # JSON-ready
        assert "chance" not in public
        waiting = state.waiting_for()
        assert state.current_player in waiting
        assert state.end_text() is None
        state.apply(rng.choice(state.sample_actions(rng, 8)))
        steps += 1
    assert state.is_terminal and state.waiting_for() == []
    assert state.end_text(), game_id


def test_wizard_watchers_never_see_a_committed_move() -> None:
    game = get_game("wizard")
    state = game.new_state(game.default_params(), 5)
    rng = Chance(2)
    seen_commit = False
    while not state.is_terminal and not seen_commit:
        if state.to_json()["commits"]:
            seen_commit = True
            public = state.public_observation()
            assert "my_move" not in public and public["seat"] is None
            assert len(state.waiting_for()) >= 1
        state.apply(rng.choice(state.legal_actions()))
    assert seen_commit


def test_live_frames_are_coalesced_and_never_pass_discrete_messages() -> None:
    conn = Connection(None)
    conn.push({"type": "state", "step": 1})
    for k in range(100):
        conn.push_frame({"type": "frame", "k": k})
    conn.push({"type": "state", "step": 2})
    out = asyncio.run(conn.next_messages())
    assert out == [{"type": "state", "step": 1}, {"type": "state", "step": 2}, {"type": "frame", "k": 99}]


def test_every_registered_game_answers_public_observation() -> None:
    for game_id in game_ids():
        game = get_game(game_id)
        assert isinstance(game.new_state(game.default_params(), 1).public_observation(), dict)
