"""The solver: its lines are legal and win, they are shortest (then cheapest in boosts), and a
board it calls lost has no win under an exhaustive brute force on small cases."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from playtable.core.chance import Chance
from playtable.games.rotator.board import generate_board
from playtable.games.rotator.engine import LOST, START, WON, Engine, Raw, first_move_wins, sorted_cells
from playtable.games.rotator.game import GAME, LEVELS, level_of
from playtable.games.rotator.rules import RotatorParams, RotatorState
from playtable.games.rotator.solver import hint, solve_core, solve_state

from .helpers import state_on, terrain


def play_line(state: RotatorState, line: list[str]) -> RotatorState:
    for text in line:
        state.apply(state.parse_action(text))  # raises if the rules reject it
    return state


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=5000))
def test_solutions_are_accepted_by_the_rules_and_win(seed: int) -> None:
    """Solver: every action of its line is legal, and the line wins on the announced turn with
    the announced boost spaces."""
    state = GAME.new_state(RotatorParams(), seed)
    solution = solve_state(state)
    assert solution.complete
    if not solution.winnable:
        return
    play_line(state, solution.actions)
    assert state.is_terminal and state.returns() == [1.0]
    assert state.core.turn == solution.turns
    assert state.params.boost_total - state.core.boosts == solution.boosts


def brute_force(engine: Engine, s: Raw) -> tuple[int, int] | None:
    """Every action sequence, no pruning at all: the best (turn, boosts used) of a win."""
    if s[7] == WON:
        return (s[5], engine.boost_total - s[6])
    if s[7] == LOST:
        return None
    if s[7] == START:
        children = [engine.start(s, c) for c in sorted_cells(s[8])]
    else:
        children = [engine.drill(s, k) for k in range(engine.drill_run(s) + 1)]
    results = [r for r in (brute_force(engine, c) for c in children) if r is not None]
    return min(results) if results else None


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=5000), st.integers(min_value=3, max_value=5))
def test_solver_agrees_with_brute_force_on_small_cases(seed: int, limit: int) -> None:
    """Solver: with a small turn limit, the solver's answer (win or proof of none, fewest turns
    then fewest boosts) equals an exhaustive search of every action sequence."""
    params = RotatorParams(turn_limit=limit)
    state = GAME.new_state(params, seed)
    solution = solve_state(state)
    expected = brute_force(state.engine, state.core)
    if expected is None:
        assert not solution.winnable and solution.complete
    else:
        assert solution.winnable
        assert (solution.turns, solution.boosts) == expected


def test_a_lost_board_is_proved_lost() -> None:
    """Solver: a board with no win is reported as such after exhausting the positions."""
    # Solid rock everywhere but the top row: the player can only dig, and digging one space a
    # turn with 10 boost spaces cannot get 19 rows down before the turn limit of 8.
    state = state_on(terrain("#" * 10), turn_limit=8)
    solution = solve_state(state)
    assert not solution.winnable and solution.complete
    assert brute_force(state.engine, state.core) is None


def test_trivial_column_is_won_on_turn_one() -> None:
    """Solver: an all-air column is won by the first fall (RULES.md I1)."""
    pic = "\n".join(["####.#####"] * 20)
    solution = solve_state(state_on(terrain(pic)))
    assert solution.winnable and solution.turns == 1 and solution.actions == ["start E1"]


def test_fewest_turns_before_fewest_boosts() -> None:
    """Solver: among the shortest wins it picks the one using fewest boost spaces."""
    # Column A: rock on rows 2-3 only (2 spaces of drilling on turn 1: one boost space);
    # column J: rock on rows 2-4 (3 spaces: two boost spaces). Both win on turn 1.
    rows = [".########."] + ["##########"] * 2 + [".#########"] + [".########."] * 16
    solution = solve_state(state_on(terrain("\n".join(rows))))
    assert solution.winnable and solution.turns == 1
    assert solution.boosts == 1 and solution.actions[0] == "start A1"


def test_hint_is_the_first_move_of_a_best_line() -> None:
    """Hints: the solver's first action from the current position; None when lost."""
    state = GAME.new_state(RotatorParams(), 7)
    text = hint(state)
    assert text is not None and text in {str(a) for a in state.legal_actions()}
    assert hint(state_on(terrain("#" * 10), turn_limit=3)) is None


def test_solve_from_mid_game_positions() -> None:
    """Solver: works from any position, e.g. after the first move of its own line."""
    state = GAME.new_state(RotatorParams(), 11)
    first = solve_state(state)
    assert first.winnable
    state.apply_text(first.actions[0])
    again = solve_state(state)
    assert again.winnable and again.turns == first.turns


def test_levels_cover_the_turn_counts() -> None:
    """Difficulty levels from the solver's rating (fewest turns, then boost spaces)."""
    assert set(LEVELS) == {"easy", "medium", "hard"}
    assert level_of(1, 0) == "trivial"
    assert level_of(5, 9) == "easy"
    assert level_of(9, 5) == "medium" and level_of(9, 6) == "hard"
    assert level_of(13, 0) == "hard"


@settings(max_examples=3, deadline=None)
@given(st.sampled_from(["easy", "medium", "hard"]), st.integers(min_value=0, max_value=100))
def test_generator_levels_give_boards_of_that_level(level: str, seed: int) -> None:
    """The generator's difficulty levels: a board the solver rates at the asked level."""
    state = GAME.new_state(RotatorParams(level=level), seed)  # type: ignore[arg-type]
    solution = solve_state(state)
    assert solution.winnable and level_of(solution.turns, solution.boosts) == level


def test_solver_respects_max_states() -> None:
    state = GAME.new_state(RotatorParams(), 0)
    partial = solve_core(state.engine, state.core, max_states=5)
    assert not partial.complete and not partial.winnable


def test_solver_bot_wins_through_the_protocol() -> None:
    """The game's 'solver' bot plays a winnable board to a win via the generic play-out."""
    from playtable.agents import make_agent
    from playtable.core.chance import Chance
    from playtable.core.playout import play_out

    state = GAME.new_state(RotatorParams(board="easy"), 0)
    play_out(state, [make_agent(GAME, "solver")], Chance(1))
    assert state.returns() == [1.0] and state.metrics()["won"] is True


def test_generated_boards_need_more_than_the_first_move() -> None:
    """Boards and levels (RULES.md): a board won by its first move (a top-row square, its fall,
    one drill and the fall after it reach the far row) needs no thought; the generator redraws
    it unless allow_trivial. The test agrees with the solver, which rates such a board won on
    turn 1."""
    for seed in (3, 175, 193):  # seeds whose first raw board is won by the first move
        raw = generate_board(Chance(seed), "node", allow_trivial=True)
        assert first_move_wins(raw)
        assert solve_core(Engine(raw), Engine(raw).initial()).turns == 1
        state = GAME.new_state(RotatorParams(), seed)
        assert state.board != raw and not first_move_wins(state.board)
        assert solve_state(state).turns > 1
        assert GAME.new_state(RotatorParams(allow_trivial=True), seed).board == raw
