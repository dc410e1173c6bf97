"""Star Dice as a protocol `Game` (seed 002): Federation and Klingon, plus the neutral Borg die."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition
from playtable.core.protocol import Agent, Game
from playtable.games.stardice.actions import BLANK, SEAT_NAMES
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.params import VARIANTS, StarDiceParams
from playtable.games.stardice.state_json import state_from_json


class StarDiceGame(Game[StarDiceParams, StarDiceState]):
    id = "stardice"
    name = "Star Dice"
    params_type = StarDiceParams
    variants = VARIANTS

    def num_players(self, params: StarDiceParams) -> int:
        return 1 if params.mode == "objective1" else 2

    def seat_names(self, params: StarDiceParams) -> list[str]:
        return list(SEAT_NAMES[:self.num_players(params)])

    def new_state(self, params: StarDiceParams | None = None, seed: int = 0,
                  rigged: Mapping[str, list[Any]] | None = None) -> StarDiceState:
        params = params or StarDiceParams()
        params.validate()
        chance = Chance(seed, rigged=dict(rigged or {}))
        if params.mode == "objective1":
            from playtable.games.stardice.solitaire import SolitaireState

            solo = SolitaireState(params, chance)
            solo.setup_events = solo.start_round()
            return solo
        state = StarDiceState(params, chance)
        state.start_battle()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> StarDiceState:
        from playtable.games.stardice.solitaire import solitaire_from_json

        params = data.get("params") if isinstance(data, Mapping) else None
        if isinstance(params, Mapping) and params.get("mode") == "objective1":
            return solitaire_from_json(dict(data))
        state = state_from_json(dict(data))
        if BLANK in state.table:
            raise BadPosition("the blank d6 belongs to mode=objective1 only")
        return state

    def bots(self) -> Mapping[str, Callable[[], Agent]]:
        from playtable.games.stardice.bots import BOTS

        return BOTS

    def evaluate(self, state: StarDiceState, seat: int) -> float:
        from playtable.games.stardice.bots import evaluate

        return evaluate(state, seat)


GAME = StarDiceGame()
