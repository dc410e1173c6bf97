"""The bounded solver gives the plain breadth-first solver's answers.

`solver_reference.json` holds, for generated boards (seeds 0-999, the default parameters), the
answer of the solver before the bound: whether the board is won, on which turn at the soonest,
and with how few boost spaces on that turn. It was written by `benchmarks/rotator_solver.py
--write-reference` run on the source of commit 1d8882f; the benchmark checks all 1,000 with
`--reference`, this test the first 300 (a few seconds). Lines of equal turns and boosts may
differ, so the line itself is played through the rules instead of compared.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from playtable.core.chance import Chance
from playtable.games.rotator.game import GAME
from playtable.games.rotator.rules import RotatorParams
from playtable.games.rotator.solver import Bound, _search, first_south_turn, solve_core, solve_state

REFERENCE = Path(__file__).with_name("solver_reference.json")
BOARDS = 300


def test_answers_equal_the_breadth_first_solver() -> None:
    """Solver: on 300 generated boards, the same (winnable, fewest turns, boost spaces) as the
    unbounded breadth-first search, and the line found wins on that turn with those boosts. The
    bound calls every position of that line hopeful (each can still win by the line's turn)."""
    answers = json.loads(REFERENCE.read_text())["answers"]
    for seed in range(BOARDS):
        state = GAME.new_state(RotatorParams(), seed)
        solution = solve_state(state)
        assert solution.complete
        assert [solution.winnable, solution.turns, solution.boosts] == answers[str(seed)], seed
        bound = Bound(state.engine)
        target = first_south_turn(solution.turns)
        for text in solution.actions:
            assert bound.hopeful(state.core, target), (seed, text)
            state.apply(state.parse_action(text))
        assert state.is_terminal and state.returns() == [1.0]
        assert state.core.turn == solution.turns
        assert state.params.boost_total - state.core.boosts == solution.boosts


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=5000), st.integers(min_value=0, max_value=6),
       st.integers(min_value=0, max_value=2**32))
def test_bounded_search_equals_the_unbounded_one_from_any_position(seed: int, moves: int,
                                                                    pick: int) -> None:
    """Solver: from positions reached by random moves (turn limit 9, so the search stays
    small), the deepening search answers as the plain breadth-first search does."""
    state = GAME.new_state(RotatorParams(turn_limit=9), seed)
    rng = Chance(pick)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    if state.is_terminal:
        return
    engine, root = state.engine, state.core
    bounded = solve_core(engine, root)
    plain, _ = _search(engine, root, Bound(engine), None, 0, 0)
    assert (bounded.winnable, bounded.turns, bounded.boosts) == (plain.winnable, plain.turns, plain.boosts)
    assert bounded.complete and plain.complete


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=5000), st.integers(min_value=3, max_value=4),
       st.sampled_from([4, 5]))
def test_drills_longer_than_three_spaces(seed: int, limit: int, max_drill: int) -> None:
    """Solver, with the tuner's longer drills (max_drill up to 5, lab/space.py): its answer
    equals the exhaustive search, and its line (a 'drill 4' is not taken for a start) wins."""
    from .test_rotator_solver import brute_force, play_line

    state = GAME.new_state(RotatorParams(turn_limit=limit, max_drill=max_drill, boost_total=20), seed)
    solution = solve_state(state)
    expected = brute_force(state.engine, state.core)
    assert ((solution.turns, solution.boosts) if solution.winnable else None) == expected
    if solution.winnable:
        play_line(state, solution.actions)
        assert state.returns() == [1.0]
