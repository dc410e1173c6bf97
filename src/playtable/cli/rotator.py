"""Rotator commands: `playtable solve rotator BOARD` and `playtable play rotator`."""

from __future__ import annotations

import time
from typing import Any

import click

from playtable.cli.common import OUT_FILE, SEED, echo_json
from playtable.core.errors import BadParameter
from playtable.core.files import check_input, exists, shown


def _state_for(board: str, turn_limit: int, placement: str) -> object:
    from playtable.core.position import read_position
    from playtable.games.rotator import (
        GAME,
        SAMPLE_NAMES,
        RotatorParams,
        RotatorState,
        board_problems,
        load_board,
    )

    if board.endswith(".json") and exists(board):
        return read_position(GAME, board)
    if board not in SAMPLE_NAMES or exists(board):
        if not exists(board):
            raise BadParameter(f"no board file {shown(board)!r} (or a sample: {', '.join(SAMPLE_NAMES)})")
        check_input(board, "board file")  # a FIFO, a device, a directory: one line, no wait
    the_board = load_board(board)
    problems = board_problems(the_board, placement)  # type: ignore[arg-type]
    if problems:
        raise BadParameter(f"{board} is not a legal board: {problems[0]}")
    params = RotatorParams(board=board, turn_limit=turn_limit, placement=placement)  # type: ignore[arg-type]
    return RotatorState(params, the_board)


@click.command("rotator")
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--turn-limit", type=int, default=200, show_default=True,
              help="Turns after which the game is lost (0 = no limit).")
@click.option("--placement", type=click.Choice(["node", "territory"]), default="node",
              show_default=True, help="Reading of the node placement rule (RULES.md I1).")
def solve_rotator(board: str, as_json: bool, turn_limit: int, placement: str) -> None:
    """Solve a Rotator BOARD: a board file (docs/boards-rotator.md), a sample name (easy,
    medium, hard) or a position file (.json) to solve from mid-game.

    Prints a winning line with the fewest turns (then the fewest boost spaces), in the
    canonical action form, or says that no win exists."""
    from playtable.games.rotator import solve_state

    state = _state_for(board, turn_limit, placement)
    t0 = time.perf_counter()
    solution = solve_state(state)
    elapsed = time.perf_counter() - t0
    if as_json:
        echo_json({**solution.to_json(), "seconds": round(elapsed, 4)})
        return
    if solution.winnable:
        from playtable.core.words import plural

        click.echo(f"win on turn {solution.turns}, spending {plural(solution.boosts, 'boost space')} "
                   f"({solution.states} positions searched, {elapsed * 1000:.0f} ms); one turn a line:")
        turns: dict[int, list[str]] = {}
        replay: Any = state.clone()  # type: ignore[attr-defined]
        for text in solution.actions:  # a start square belongs to the turn it starts
            turns.setdefault(int(replay.observation(0)["turn"]), []).append(text)
            replay.apply(replay.parse_action(text))
        for turn, actions in turns.items():
            click.echo(f"  turn {turn:>2}: " + ", ".join(actions))
        if solution.turns not in turns:  # the win comes in that turn's Fall, before any choice
            click.echo(f"  turn {solution.turns:>2}: the fall reaches "
                       f"{replay.observation(0)['player']}, on the far row: won")
    else:
        limit = f"within the turn limit of {turn_limit}" if turn_limit else "at all"
        click.echo(f"no win exists {limit} (all {solution.states} reachable positions "
                   f"searched, {elapsed * 1000:.0f} ms)")


@click.command("rotator")
@click.option("--board", default=None, metavar="FILE",
              help="A board file, or a sample name: easy, medium, hard.")
@click.option("--seed", type=SEED, default=None, help="Generate the board from this seed.")
@click.option("--level", type=click.Choice(["easy", "medium", "hard"]), default=None,
              help="Generate a winnable board of this difficulty.")
@click.option("--record", "record_path", type=OUT_FILE, default=None,
              help="Where Ctrl+S saves the game's record (default: rotator-SEED.record.json).")
def play_rotator(board: str | None, seed: int | None, level: str | None, record_path: str | None) -> None:
    """Rotator (one-player puzzle): drill from the top row to the far end."""
    import random

    from playtable.games.rotator import RotatorParams
    from playtable.tui.rotator import run_rotator

    if board and (seed is not None or level):
        raise BadParameter("give either --board or --seed/--level, not both")
    params = RotatorParams(board=board or "", level=level or "any")  # type: ignore[arg-type]
    if seed is None:
        seed = random.randrange(1_000_000)
    run_rotator(params, seed, record_path)
