"""Property tests for Rotator: invariants, JSON, replays, clones, the validator and generator."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition, IllegalAction
from playtable.core.position import position_from_json, position_to_json
from playtable.core.records import record_of, replay
from playtable.core.registry import get_game
from playtable.games.rotator.board import (
    board_problems,
    generate_board,
    is_trivial,
    open_columns,
    parse_board,
)
from playtable.games.rotator.engine import LOST
from playtable.games.rotator.game import GAME
from playtable.games.rotator.rules import RotatorParams, RotatorState

seeds = st.integers(min_value=0, max_value=10_000)


def check_invariants(state: RotatorState) -> None:
    s = state.core
    assert board_problems(state.board) == []
    assert not (s.cur & s.m1 or s.cur & s.m2 or s.m1 & s.m2)
    assert not (s.solid & (s.cur | s.m1 | s.m2)), "touched spaces are open"
    assert 0 <= s.boosts <= state.params.boost_total
    assert s.turn >= 1
    if s.pos >= 0 and s.phase != LOST:
        assert not s.solid >> s.pos & 1, "the player is never inside rock while alive"
    if not state.is_terminal:
        assert state.legal_actions()


def random_play(state: RotatorState, picks: list[int]) -> list[str]:
    played = []
    for pick in picks:
        if state.is_terminal:
            break
        legal = state.legal_actions()
        action = legal[pick % len(legal)]
        state.apply(action)
        played.append(str(action))
        check_invariants(state)
    return played


@settings(max_examples=40, deadline=None)
@given(seeds, st.lists(st.integers(min_value=0, max_value=50), max_size=40))
def test_any_legal_sequence_keeps_the_position_valid(seed: int, picks: list[int]) -> None:
    """Any sequence of legal moves keeps the board legal and the marks consistent."""
    state = GAME.new_state(RotatorParams(), seed)
    check_invariants(state)
    random_play(state, picks)


@settings(max_examples=30, deadline=None)
@given(seeds, st.lists(st.integers(min_value=0, max_value=50), max_size=30))
def test_json_round_trip_is_exact(seed: int, picks: list[int]) -> None:
    """Positions: to_json -> position file -> state_from_json gives the same position."""
    state = GAME.new_state(RotatorParams(), seed)
    random_play(state, picks)
    data = json.loads(json.dumps(position_to_json(state)))
    back = position_from_json(get_game("rotator"), data)
    assert back.to_json() == state.to_json()
    assert back.core == state.core


@settings(max_examples=25, deadline=None)
@given(seeds, st.lists(st.integers(min_value=0, max_value=50), max_size=30))
def test_replay_is_exact_and_clones_are_independent(seed: int, picks: list[int]) -> None:
    """Records: replaying the action texts reproduces the position and every event."""
    params = RotatorParams()
    state = GAME.new_state(params, seed)
    clone = state.clone()
    events = []
    played = []
    for pick in picks:
        if state.is_terminal:
            break
        legal = state.legal_actions()
        action = legal[pick % len(legal)]
        events.extend(e.to_json() for e in state.apply(action))
        played.append(action)
    final, replayed = replay(record_of("rotator", params, seed, played))
    assert final.to_json() == state.to_json()
    assert [e.to_json() for e in replayed] == events
    assert clone.to_json() == GAME.new_state(params, seed).to_json()


@settings(max_examples=25, deadline=None)
@given(seeds, st.lists(st.integers(min_value=0, max_value=50), max_size=30))
def test_illegal_actions_change_nothing(seed: int, picks: list[int]) -> None:
    """An action that is not legal raises IllegalAction and leaves the state unchanged."""
    state = GAME.new_state(RotatorParams(), seed)
    random_play(state, picks)
    before = state.to_json()
    legal = {str(a) for a in state.legal_actions()}
    for text in ["start A1", "start J20", "drill 0", "drill 3", "drill 4"]:
        if text not in legal:
            try:
                state.apply_text(text)
            except IllegalAction:
                pass
            else:  # pragma: no cover
                raise AssertionError(f"{text} was accepted")
            assert state.to_json() == before


@settings(max_examples=30, deadline=None)
@given(seeds, st.lists(st.integers(min_value=0, max_value=50), max_size=30))
def test_fast_drill_children_match_the_rules(seed: int, picks: list[int]) -> None:
    """The solver's one-pass successor list equals applying each drill through the rules."""
    state = GAME.new_state(RotatorParams(), seed)
    for pick in picks:
        if state.is_terminal:
            break
        if state.phase == "drill":
            engine, core = state.engine, state.core
            one_by_one = [engine.drill(core, k) for k in range(engine.drill_run(core) + 1)]
            assert engine.drill_children(core) == one_by_one
        legal = state.legal_actions()
        state.apply(legal[pick % len(legal)])


@settings(max_examples=40, deadline=None)
@given(seeds, st.sampled_from(["node", "territory"]))
def test_generated_boards_are_legal(seed: int, placement: str) -> None:
    """The generator only makes boards the validator accepts (and, by default, not trivial)."""
    board = generate_board(Chance(seed), placement, allow_trivial=placement == "territory")  # type: ignore[arg-type]
    assert board_problems(board, placement) == []  # type: ignore[arg-type]
    if placement == "node":
        assert not is_trivial(board)
    else:
        assert open_columns(board)[:1] == [0], "the territory reading always leaves column A open"
    assert parse_board(board.to_text()) == board


def test_new_state_from_seed_is_deterministic_and_differs_by_seed() -> None:
    """`new_state(params, seed)` generates a legal board from the seed, the same each time."""
    a, b, c = (GAME.new_state(RotatorParams(), s) for s in (1, 1, 2))
    assert a.board == b.board and a.board != c.board


def test_bad_positions_are_named() -> None:
    """A malformed position raises BadPosition naming the problem."""
    state = GAME.new_state(RotatorParams(), 3)
    data = position_to_json(state)
    for key, value, words in [
        ("phase", "flying", "phase"),
        ("turn", 0, "turn"),
        ("boosts_left", 11, "boosts_left"),
        ("board", ["..."], "row"),
        ("player", "Z9", "cell"),
    ]:
        broken = {**data, key: value}
        try:
            position_from_json(GAME, broken)
        except BadPosition as err:
            assert words in str(err), (key, str(err))
        else:  # pragma: no cover
            raise AssertionError(f"{key}={value!r} was accepted")
