"""The wizard position's copy (`WizardState.clone`, field by field) is the JSON round trip's
position (`serialize.state_from_json(state.to_json())`) without its writing and checking: equal
in every field, independent of the original, and the same game from there on."""

from __future__ import annotations

from itertools import islice

import pytest
from tests.games.wizard.helpers import params, walk

from playtable.core.chance import Chance
from playtable.games.wizard import serialize
from playtable.games.wizard.game import GAME
from playtable.games.wizard.state import WizardState

# Not part of the game: `observe.info_key`'s views kept for the other seats, and the events of a
# move under way (empty between moves).
_CACHES = {"_shared_keys", "_events"}


def _fields(state: WizardState) -> dict[str, object]:
    return {k: v for k, v in vars(state).items() if k not in _CACHES}


@pytest.mark.parametrize(("players", "variant", "seed"),
                         [(3, None, 21), (4, "beta", 22), (5, None, 23), (5, "alpha", 24)])
def test_a_copy_is_the_round_trips_position_and_plays_on_alike(players: int, variant: str | None,
                                                               seed: int) -> None:
    rng = Chance(seed)
    state = GAME.new_state(params(players, variant), seed)
    moves = 0
    while True:
        copy = state.clone()
        round_trip = serialize.state_from_json(state.to_json(), WizardState)
        assert _fields(copy) == _fields(round_trip)
        assert copy.clone().to_json() == copy.to_json()
        if state.is_terminal:
            break
        before = state.to_json()
        action = rng.choice(state.legal_actions())
        assert copy.apply(action) == round_trip.apply(action)  # the same events, word for word
        assert state.to_json() == before  # the original is untouched
        assert _fields(copy) == _fields(round_trip)
        state.apply(action)
        moves += 1
    assert moves > 20


def test_a_copy_shares_no_mutable_part_with_the_original() -> None:
    state = GAME.new_state(params(4), 31)
    for _ in islice(walk(state, 32), 40):
        pass
    assert not state.is_terminal
    copy = state.clone()
    before = state.to_json()
    for cell in copy.cells.values():
        cell.tokens.clear()
        cell.items.append("x")
    for hero in copy.heroes:
        hero.items.append("x")
    for name in (*serialize.CARD_LISTS, "lost", "steps"):
        getattr(copy, name).append("x")
    copy.decision["seat"] = 99
    copy.commits[99] = "x"
    copy.stats["combats"] += 1
    copy.chance.random()
    assert state.to_json() == before
