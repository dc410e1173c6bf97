"""Rotator (seed 004): a one-player puzzle of rotating gravity and collapsing tunnels."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from playtable.core import checks
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter, BadPosition
from playtable.core.params import params_from_dict
from playtable.core.protocol import Agent, Game, VariantGroup
from playtable.games.rotator.board import Board, board_problems, generate_board, load_board
from playtable.games.rotator.engine import Engine, first_move_wins
from playtable.games.rotator.rules import RotatorParams, RotatorState, state_from_json

LEVELS: dict[str, str] = {
    "easy": "won by turn 5 (but not on turn 1)",
    "medium": "won on turns 6-9 with at most 5 boost spaces",
    "hard": "needs 10 or more turns, or 9 turns and 6 or more of the 10 boost spaces",
}
"""Difficulty from the solver's rating (fewest turns, then boost spaces of the best line).
Over 1,000 generated boards (benchmarks/rotator_solver.py) the best line wins on turn 5 for
about a third of the boards and on turn 9 for most of the rest; the longer the plan and the
less of the boost cache it can spare, the harder the board."""


LEVEL_ATTEMPTS = 100
"""Boards generated before a level is given up. With the seed's rules the rarest level, hard,
is about one board in five (62 of 300, `benchmarks/rotator_solver.py --boards 300`), so 100
boards miss it with odds below 1e-9; a parameter set under which a level cannot occur
(placement=territory makes every board trivial, a short turn limit rules out hard) ends with
one clear line instead of a hang."""


def level_of(turns: int, boosts: int) -> str:
    """The difficulty level of a board whose best line wins on `turns` using `boosts`."""
    if turns <= 1:
        return "trivial"
    if turns <= 5:
        return "easy"
    if turns >= 10 or boosts >= 6:
        return "hard"
    return "medium"


def board_for(params: RotatorParams, seed: int) -> Board:
    """The board a new game uses: the named one, or one generated from `seed` (of the asked
    difficulty when `params.level` is not 'any')."""
    if params.board:
        board = load_board(params.board)
        problems = board_problems(board, params.placement)
        if problems:
            raise BadParameter(f"board {params.board} is not legal: {problems[0]}")
        return board
    chance = Chance(seed)

    def trivial(board: Board) -> bool:
        return first_move_wins(board, params.boost_total, params.max_drill)

    if params.level == "any":
        return generate_board(chance, params.placement, params.allow_trivial, trivial)
    from playtable.games.rotator.solver import solve_core

    for _attempt in range(LEVEL_ATTEMPTS):
        board = generate_board(chance, params.placement, params.allow_trivial, trivial)
        engine = Engine(board, params.boost_total, params.max_drill, params.turn_limit)
        solution = solve_core(engine, engine.initial())
        if solution.winnable and level_of(solution.turns, solution.boosts) == params.level:
            return board
    raise BadParameter(f"no winnable '{params.level}' board in {LEVEL_ATTEMPTS} boards generated "
                       f"from seed {seed} under these parameters (placement={params.placement}, "
                       f"turn_limit={params.turn_limit}, boost_total={params.boost_total}, "
                       f"max_drill={params.max_drill}): try level=any")


class RotatorGame(Game[RotatorParams, RotatorState]):
    id = "rotator"
    name = "Rotator"
    params_type = RotatorParams
    variants: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "territory-buffer": {"placement": "territory", "allow_trivial": True},
        "easy": {"level": "easy"},
        "medium": {"level": "medium"},
        "hard": {"level": "hard"},
        "no-limit": {"turn_limit": 0},
    }
    variant_descriptions: ClassVar[Mapping[str, str]] = {
        "territory-buffer": ("Another reading of the placement rule: each node's whole diamond keeps a "
                             "row of air from its grid's edge and diamonds may overlap; some boards "
                             "fall open at once."),
        "easy": "A board the solver wins by turn 5.",
        "medium": "A board the solver wins on turns 6-9 using at most 5 boost spaces.",
        "hard": "A board that needs 10 or more turns, or most of the boost spaces.",
        "no-limit": "No turn limit: take as long as you like.",
    }
    # The standard rules deal a board of any difficulty; a newcomer starts on one the solver
    # wins by turn 5, and the harder levels are the same rules on a rated board.
    variant_groups: ClassVar[Sequence[VariantGroup]] = (
        VariantGroup("Easier: for a first game", "A board the solver has rated easy.", ("easy",), first=True),
        VariantGroup("Boards by difficulty", "The standard rules on a board the solver has rated.",
                     ("medium", "hard")),
    )
    standard_description = "The seed's rules on a board of any difficulty the generator deals."
    seat_titles: ClassVar[Mapping[str, str]] = {"driller": "the driller"}
    variant_titles: ClassVar[Mapping[str, str]] = {  # RULES.md I1 and the generator's levels
        "territory-buffer": "Nodes kept off the edge",
        "easy": "Easy board",
        "medium": "Medium board",
        "hard": "Hard board",
        "no-limit": "No turn limit",
    }
    pitch = (
        "A one-player puzzle from a business card by Doug Lynn. You drill through a rock that "
        "rotates a quarter turn after every move, so gravity keeps changing, and every space you "
        "touch collapses a few turns later. Plan a route from one end of the board to the other "
        "in circles, and don't be inside a space when it caves in. The solver can give hints."
    )

    def num_players(self, params: RotatorParams) -> int:
        return 1

    def seat_names(self, params: RotatorParams) -> list[str]:
        return ["driller"]

    def new_state(
        self,
        params: RotatorParams | None = None,
        seed: int = 0,
        rigged: Mapping[str, list[Any]] | None = None,
    ) -> RotatorState:
        the_params = params if params is not None else RotatorParams()
        board = board_for(the_params, seed)
        return RotatorState(the_params, board, chance=Chance(seed, 0, dict(rigged or {})))

    def state_from_json(self, data: Mapping[str, Any]) -> RotatorState:
        raw = data.get("params", {})
        if not isinstance(raw, dict):
            raise BadPosition("'params' must be an object")
        try:
            params = params_from_dict(RotatorParams, raw)
        except BadParameter as err:
            raise BadPosition(f"params: {err}") from None
        chance = Chance.from_json(data.get("chance"))
        checks.rigged(chance.rigged, {})  # Rotator draws no chance at all
        return state_from_json(params, dict(data), chance)

    def bots(self) -> Mapping[str, Callable[[], Agent]]:
        from playtable.games.rotator.bots import SolverAgent

        return {"solver": SolverAgent}

    def evaluate(self, state: RotatorState, seat: int) -> float:
        if state.is_terminal:
            return float(state.returns()[seat])
        pos = state.core.pos
        row = pos // state.board.cols if pos >= 0 else 0
        return 0.1 + 0.8 * row / (state.board.rows - 1)


GAME = RotatorGame()
