"""Invariants over random play (hypothesis): cards are never created or lost, every legal action
applies, illegal ones change nothing, JSON and replays are exact, clones are independent, and the
player's view never shows an unseen card."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playtable.core.chance import Chance
from playtable.core.errors import IllegalAction
from playtable.core.params import resolve_params
from playtable.core.position import position_from_json, position_to_json
from playtable.core.records import record_of, replay
from playtable.games.troll.actions import ALL_ACTIONS
from playtable.games.troll.cards import card_text
from playtable.games.troll.game import GAME
from playtable.games.troll.params import VARIANTS, TrollParams
from playtable.games.troll.rules import TrollState
from playtable.games.troll.serialize import check_invariants

VARIANT = st.sampled_from([None, *VARIANTS])
CHOICES = st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=80)


def _new(variant: str | None, seed: int) -> TrollState:
    return GAME.new_state(resolve_params(TrollParams, VARIANTS, variant), seed)


def _walk(state: TrollState, choices: list[int]):  # type: ignore[no-untyped-def]
    for choice in choices:
        if state.is_terminal:
            return
        legal = state.legal_actions()
        yield legal[choice % len(legal)]


def _assert_valid(state: TrollState) -> None:
    check_invariants(state)  # 52 cards exactly once, troll on a brick, ...
    for stack in state.stacks:  # I5: only a top card is ever face up
        assert all(c not in state.face_up for c in stack[:-1])


@settings(max_examples=60, deadline=None)
@given(VARIANT, st.integers(0, 10_000), CHOICES)
def test_every_legal_action_applies_and_keeps_the_state_valid(variant, seed, choices) -> None:  # type: ignore[no-untyped-def]
    state = _new(variant, seed)
    _assert_valid(state)
    for action in _walk(state, choices):
        state.apply(action)
        _assert_valid(state)


@settings(max_examples=40, deadline=None)
@given(VARIANT, st.integers(0, 10_000), CHOICES)
def test_illegal_actions_raise_and_change_nothing(variant, seed, choices) -> None:  # type: ignore[no-untyped-def]
    state = _new(variant, seed)
    for action in _walk(state, choices):
        state.apply(action)
    legal = set(state.legal_actions())
    before = state.to_json()
    for action in ALL_ACTIONS:
        if action not in legal:
            with pytest.raises(IllegalAction):
                state.apply(action)
    assert state.to_json() == before


@settings(max_examples=40, deadline=None)
@given(VARIANT, st.integers(0, 10_000), CHOICES, CHOICES)
def test_json_round_trip_is_exact_and_resumes_identically(variant, seed, before, after) -> None:  # type: ignore[no-untyped-def]
    state = _new(variant, seed)
    for action in _walk(state, before):
        state.apply(action)
    text = json.dumps(position_to_json(state))
    loaded = position_from_json(GAME, json.loads(text))
    assert position_to_json(loaded) == position_to_json(state)
    for action in _walk(state, after):
        assert [e.to_json() for e in state.apply(action)] == [e.to_json() for e in loaded.apply(action)]
    assert loaded.to_json() == state.to_json()


@settings(max_examples=30, deadline=None)
@given(VARIANT, st.integers(0, 10_000), CHOICES)
def test_a_record_replays_to_identical_events(variant, seed, choices) -> None:  # type: ignore[no-untyped-def]
    state = _new(variant, seed)
    events = list(state.setup_events)
    actions = []
    for action in _walk(state, choices):
        events.extend(state.apply(action))
        actions.append(action)
    record = record_of("troll", state.params, seed, actions)
    replayed, replay_events = replay(record)
    assert [e.to_json() for e in replay_events] == [e.to_json() for e in events]
    assert replayed.to_json() == state.to_json()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), CHOICES)
def test_clones_are_independent_of_their_original(seed, choices) -> None:  # type: ignore[no-untyped-def]
    state = _new(None, seed)
    snapshot = state.to_json()
    copy = state.clone()
    for action in _walk(copy, choices):
        copy.apply(action)
    assert state.to_json() == snapshot


@settings(max_examples=40, deadline=None)
@given(VARIANT, st.integers(0, 10_000), CHOICES, st.integers(0, 2**32))
def test_observation_never_shows_an_unseen_card_and_determinize_keeps_it(  # type: ignore[no-untyped-def]
    variant, seed, choices, rng_seed
) -> None:
    state = _new(variant, seed)
    for action in _walk(state, choices):
        state.apply(action)
    view = state.observation(0)
    shown = json.dumps(view)
    seen_texts = {card_text(c) for c in state.seen}
    unseen = [card_text(c) for s in state.stacks for c in s if c not in state.seen]
    unseen += [card_text(c) for c in state.deck]
    for text in unseen:
        assert f'"{text}"' not in shown
    assert "deck" not in view and view["deck_count"] == len(state.deck)
    other = state.determinize(0, Chance(rng_seed))
    _assert_valid(other)
    assert other.observation(0) == view  # same information set
    assert all(card_text(c) in seen_texts for c in other.seen)


def test_determinize_resamples_the_hidden_cards_and_the_future() -> None:
    state = _new(None, 4)
    worlds = [state.determinize(0, Chance(i)) for i in range(20)]
    assert len({tuple(w.deck) for w in worlds}) > 1
    assert len({w.chance.seed for w in worlds}) > 1
    assert all(w.chance.rigged == {} for w in worlds)


def test_random_games_end() -> None:
    for seed in range(200):
        state = _new(None, seed)
        rng = Chance(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        assert state.outcome in ("win", "loss") and state.turn < state.params.turn_limit


def test_determinize_depends_only_on_what_the_player_knows() -> None:
    """Two deals that look the same to the player (the deck in another order) give the same
    samples from the same random stream."""
    state = _new(None, 4)
    other = state.clone()
    other.deck.reverse()
    assert state.observation(0) == other.observation(0)
    assert state.determinize(0, Chance(9)).to_json() == other.determinize(0, Chance(9)).to_json()
