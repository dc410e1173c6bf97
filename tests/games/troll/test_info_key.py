"""The troll's cheap information-set key (`TrollState.info_key`, used by ISMCTS) tells two
positions apart exactly when the player's observation does, and determinizing keeps what the
player sees."""

from __future__ import annotations

import json

from playtable.core.chance import Chance
from playtable.games.troll.game import GAME
from playtable.games.troll.rules import TrollState


def _positions(games: int) -> list[TrollState]:
    out = []
    for seed in range(games):
        state = GAME.new_state(GAME.default_params(), seed)
        rng = Chance(seed + 1000)
        while not state.is_terminal:
            out.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        out.append(state)
    return out


def test_info_key_matches_the_observation_exactly() -> None:
    """Equal keys for equal observations and different keys for different ones, over every
    position of random games and their determinizations (which look the same to the player)."""
    states = _positions(12)
    states += [s.determinize(0, Chance(i)) for i, s in enumerate(states[::7])]
    by_key: dict[object, str] = {}
    by_obs: dict[str, object] = {}
    for state in states:
        key, obs = state.info_key(0), json.dumps(state.observation(0), sort_keys=True)
        assert by_key.setdefault(key, obs) == obs
        assert by_obs.setdefault(obs, key) == key


def test_determinize_keeps_the_observation_and_the_cards() -> None:
    """Determinizing resamples only what the player has not seen: same observation, same 52
    cards, and a cached plan of the unseen cards is never stale after a move."""
    for state in _positions(3)[::5]:
        if state.is_terminal:
            continue
        for i in range(3):
            other = state.determinize(0, Chance(i))
            assert other.info_key(0) == state.info_key(0)
            cards = [c for s in other.stacks for c in s] + other.deck + other.set_aside + other.carried
            cards += other.played[0] + other.played[1]
            assert sorted(cards) == list(range(52))
        state.apply(state.legal_actions()[0])  # after its plan was cached above
        if not state.is_terminal:
            assert state.determinize(0, Chance(9)).info_key(0) == state.info_key(0)


def test_determinize_keeps_what_is_seen_wherever_it_lies_and_the_legal_actions() -> None:
    """Unseen bricks are normally a stack's bottom ones; a position where a remembered card
    lies below an unseen one (built by hand) is resampled around it. A determinization's legal
    actions, kept from the real position, are the ones its own rules give."""
    state = GAME.new_state(GAME.default_params(), 4)
    slot = next(k for k, s in enumerate(state.stacks) if len(s) >= 3 and s[1] not in state.seen)
    remembered = state.stacks[slot][0]
    state.seen.add(remembered)
    state._unseen_plan = None
    for i in range(5):
        other = state.determinize(0, Chance(i))
        assert other.stacks[slot][0] == remembered
        assert other.info_key(0) == state.info_key(0)
        assert other.observation(0) == state.observation(0)
        assert other.legal_actions() == type(other)._compute_legal(other)
