"""The wizard game's information-set key (`observe.info_key`): equal exactly when the seat's
observations are, and so the searches' decisions are those the observation's JSON text gave."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.wizard.helpers import params, walk

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.protocol import State
from playtable.games.wizard.game import GAME
from playtable.games.wizard.state import WizardState


def _seen(state: WizardState, seat: int) -> str:
    """The observation as the protocol's default key writes it, without the content's names
    and faces (the game's parameters fix them; the key leaves them out)."""
    obs = state.observation(seat)
    del obs["names"], obs["faces"]
    return json.dumps(obs, sort_keys=True, separators=(",", ":"))


def _positions(players: int, variant: str | None, seed: int) -> list[WizardState]:
    """Every position of a random game, and each seventh one's determinization for every seat
    (which looks the same to that seat, so its key must be the same)."""
    rng = Chance(seed + 3)
    states = [s.clone() for s in walk(GAME.new_state(params(players, variant), seed), seed + 1)]
    return states + [s.determinize(seat, rng) for s in states[::7] for seat in range(players)]


@pytest.mark.parametrize(("players", "variant", "seed"),
                         [(3, None, 11), (4, "beta", 12), (5, None, 13), (5, "alpha", 14)])
def test_the_key_is_equal_exactly_when_the_observation_is(players: int, variant: str | None,
                                                          seed: int) -> None:
    states = _positions(players, variant, seed)
    for seat in range(players):
        by_key: dict[Any, str] = {}
        by_seen: dict[str, Any] = {}
        for state in states:
            key, seen = state.info_key(seat), _seen(state, seat)
            assert by_key.setdefault(key, seen) == seen
            assert by_seen.setdefault(seen, key) == key
        assert len(by_key) > len(states) // 4  # the positions differ: the check has teeth


def test_a_key_kept_for_the_other_seats_is_forgotten_at_the_next_move() -> None:
    """The position's views are kept between seats' keys; every move makes them again (a
    game played on one object keys each position as a fresh copy of it does)."""
    game = GAME.new_state(params(5), 41)
    for state in walk(game, 42):
        fresh = state.clone()
        assert [state.info_key(seat) for seat in range(5)] == [fresh.info_key(s) for s in range(5)]


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        return [leaf for k, v in data.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(data, list):
        return [leaf for i, v in enumerate(data) for leaf in _leaves(v, (*path, i))]
    return [(path, data)]


def _put(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        data = data[step]
    data[path[-1]] = value


def _one_fact_changed(state: WizardState, rng: Chance) -> list[WizardState]:
    """Copies of `state` that differ in one fact of its JSON form (a number one more, a flag
    turned, or two texts swapped: a card, a tile, a square), those the game reads back."""
    data = state.to_json()
    leaves = [(p, v) for p, v in _leaves(data) if p[0] not in ("params", "chance")]
    texts = [(p, v) for p, v in leaves if isinstance(v, str)]
    changes: list[list[tuple[tuple[Any, ...], Any]]] = [
        [(p, (not v) if isinstance(v, bool) else v + 1)] for p, v in leaves
        if isinstance(v, (bool, int))]
    for _ in range(40):
        (p1, v1), (p2, v2) = texts[rng.below(len(texts))], texts[rng.below(len(texts))]
        if v1 != v2:
            changes.append([(p1, v2), (p2, v1)])
    copies = []
    for change in changes:
        changed = json.loads(json.dumps(data))
        for path, value in change:
            _put(changed, path, value)
        try:
            copies.append(GAME.state_from_json(changed))
        except Exception:  # noqa: BLE001, S112  # a position the game refuses is no test case
            continue
    return copies


def test_a_copy_with_one_fact_changed_has_another_key_exactly_when_the_seat_sees_it() -> None:
    """Every number, flag and swapped text of the position changed in turn: the key changes
    for a seat exactly when that seat's observation does (so no fact it shows is left out)."""
    rng, checked, seen_changes = Chance(21), 0, 0
    for players, seed in ((5, 31), (4, 32)):
        states = [s.clone() for s in walk(GAME.new_state(params(players), seed), seed + 1)]
        for state in states[5::max(1, len(states) // 6)]:
            for copy in _one_fact_changed(state, rng):
                for seat in range(players):
                    same_seen = _seen(copy, seat) == _seen(state, seat)
                    assert (copy.info_key(seat) == state.info_key(seat)) == same_seen
                    checked += 1
                    seen_changes += not same_seen
    assert checked > 2000 and seen_changes > checked // 4


def test_ismcts_decides_as_it_did_on_the_observations_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same action and the same visit counts and values at every root edge as with the
    protocol's default key (the observation as JSON), at positions through a 5-player game."""
    state = GAME.new_state(params(5), 975_001)
    heuristic, rng = make_agent(GAME, "heuristic"), Chance(5)
    positions = []
    for step in range(90):
        if state.is_terminal:
            break
        if step % 15 == 5:
            positions.append(state.clone())
        state.apply(heuristic.choose(state, rng))
    assert len(positions) >= 5

    def decisions() -> list[tuple[str, dict[str, Any]]]:
        out = []
        for position in positions:
            agent = make_agent(GAME, "ismcts:iterations=60")
            action = agent.choose(position, Chance(7))
            out.append((str(action), agent.last_stats["edges"]))
        return out

    with_key = decisions()
    monkeypatch.setattr(WizardState, "info_key", State.info_key)
    assert decisions() == with_key
