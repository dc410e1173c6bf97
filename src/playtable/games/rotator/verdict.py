"""What the board editor says about a board a person drew (seed 004, "Getting
Started": "choose the location of ten Control Nodes"): whether it is legal (the validator's
every broken rule), whether it can be won and how hard (the solver's best line and its level,
`game.level_of`), under the game's parameters.

The search is bounded (`max_states`): a board whose answer the bound cuts short is reported as
not decided (`complete` false) rather than searched for seconds on a stranger's behalf.
"""

from __future__ import annotations

from typing import Any

from playtable.core.errors import BadPosition
from playtable.core.words import plural
from playtable.games.rotator.board import BOARD_TEXT_MAX, board_problems, cell_name, parse_board
from playtable.games.rotator.engine import Engine
from playtable.games.rotator.game import LEVELS, level_of
from playtable.games.rotator.rules import RotatorParams
from playtable.games.rotator.solver import solve_core

TRIVIAL_WORDS = "won by its first move (the game never deals such a board)"


def board_verdict(text: str, params: RotatorParams, max_states: int) -> dict[str, Any]:
    """The verdict on the board written in `text` (docs/boards-rotator.md) under `params`
    (its `board` field is ignored: the board is `text`). Keys: `legal`, `problems` (each names
    the rule it breaks), `nodes` (cell names), `board` (the 20 rows with the land drawn in); for
    a legal board also `winnable`, `complete`, `turns`, `boosts`, `moves`, `level`,
    `level_words`, `states` and `summary` (one sentence for a person)."""
    if len(text) > BOARD_TEXT_MAX:
        return _illegal([f"size: a board's text is at most {BOARD_TEXT_MAX} characters, not {len(text)}"])
    try:
        board = parse_board(text)
    except BadPosition as err:
        return _illegal([str(err)])
    problems = board_problems(board, params.placement)
    verdict: dict[str, Any] = {"legal": not problems, "problems": problems,
                               "nodes": [cell_name(n) for n in board.nodes], "board": board.rows_text()}
    if problems:
        more = f" (and {plural(len(problems) - 1, 'more rule')} broken)" if len(problems) > 1 else ""
        verdict["summary"] = f"Not a legal board: {problems[0].split(': ', 1)[-1]}{more}."
        return verdict
    engine = Engine(board, params.boost_total, params.max_drill, params.turn_limit)
    solution = solve_core(engine, engine.initial(), max_states)
    level = level_of(solution.turns, solution.boosts) if solution.winnable else None
    verdict.update({
        "winnable": solution.winnable, "complete": solution.complete, "turns": solution.turns,
        "boosts": solution.boosts, "moves": list(solution.actions), "states": solution.states,
        "level": level, "level_words": TRIVIAL_WORDS if level == "trivial" else LEVELS.get(level or "", ""),
    })
    if solution.winnable:
        verdict["summary"] = (f"Legal and winnable: {level}. The best line wins on turn {solution.turns}, "
                              f"spending {plural(solution.boosts, 'boost space')}.")
    elif not solution.complete:
        verdict["summary"] = (f"Legal, but the solver stopped after {solution.states:,} positions "
                              "without deciding whether it can be won.")
    else:
        limit = f" within {params.turn_limit} turns" if params.turn_limit else ""
        verdict["summary"] = f"Legal, but it cannot be won{limit}: the solver tried every line."
    return verdict


def _illegal(problems: list[str]) -> dict[str, Any]:
    return {"legal": False, "problems": problems, "nodes": [], "board": [],
            "summary": "Not a board yet: " + problems[0]}
