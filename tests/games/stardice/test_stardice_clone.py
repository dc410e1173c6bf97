"""A Star Dice copy (`clone`, and so `determinize`) is made field by field instead of through
the JSON form (the JSON round trip read the parameters back through their
type hints, milliseconds a copy, and a search bot copies the position for every throw it
tries). It must be the position the JSON gives, and independent of its original."""

from __future__ import annotations

from typing import Any

from playtable.agents.random_agent import RandomAgent
from playtable.core.chance import Chance
from playtable.core.params import params_from_dict
from playtable.games.stardice.game import GAME
from playtable.games.stardice.params import VARIANTS


def _events(events: Any) -> list[Any]:
    return [[e.kind, e.text, e.data] for e in events]


def test_a_copy_is_the_position_its_json_gives_in_every_variant() -> None:
    for n, variant in enumerate(VARIANTS):
        params = params_from_dict(GAME.params_type, VARIANTS[variant])
        state = GAME.new_state(params, 40 + n)
        rng = Chance(n)
        agent = RandomAgent()
        for step in range(40):
            if state.is_terminal:
                break
            copy = state.clone()
            by_json = GAME.state_from_json(state.to_json())
            assert type(copy) is type(by_json)
            assert copy.to_json() == by_json.to_json() == state.to_json()
            assert copy.motion() == [] and by_json.motion() == []
            action = agent.choose(state, rng)
            if step % 3 == 0:  # the copy plays on exactly as the JSON's copy does
                assert _events(copy.apply(action)) == _events(by_json.apply(action))
                assert copy.to_json() == by_json.to_json()
                assert copy.legal_actions() == by_json.legal_actions()
                assert copy.observation(0) == by_json.observation(0)
            before = state.to_json()
            if step % 3:
                copy.apply(action)
            assert state.to_json() == before  # the original is untouched by its copy
            state.apply(action)


def test_a_determinized_copy_has_its_own_stream() -> None:
    state = GAME.new_state(None, 3)
    state.apply(state.legal_actions()[0])
    twin = state.determinize(0, Chance(9))
    assert twin.chance.to_json() != state.chance.to_json()
    assert {k: v for k, v in twin.to_json().items() if k != "chance"} == \
        {k: v for k, v in state.to_json().items() if k != "chance"}
