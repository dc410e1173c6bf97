"""Angry Troll versus Magic Bridge as a protocol `Game` (seed 000)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from playtable.core.chance import Chance
from playtable.core.protocol import Agent, Game
from playtable.games.troll.params import VARIANTS, TrollParams
from playtable.games.troll.rules import TrollState
from playtable.games.troll.serialize import state_from_json


class TrollGame(Game[TrollParams, TrollState]):
    id = "troll"
    name = "Angry Troll versus Magic Bridge"
    params_type = TrollParams
    variants = VARIANTS

    def num_players(self, params: TrollParams) -> int:
        return 1

    def seat_names(self, params: TrollParams) -> list[str]:
        return ["troll"]

    def new_state(self, params: TrollParams | None = None, seed: int = 0,
                  rigged: Mapping[str, list[Any]] | None = None) -> TrollState:
        params = params or TrollParams()
        params.validate()
        state = TrollState(params, Chance(seed, rigged=dict(rigged or {})))
        state.setup()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> TrollState:
        return state_from_json(data)

    def bots(self) -> Mapping[str, Callable[[], Agent]]:
        from playtable.games.troll.bots import HeuristicTroll
        from playtable.games.troll.search import ExpectimaxTroll

        return {"heuristic": HeuristicTroll, "expectimax": ExpectimaxTroll}

    def evaluate(self, state: TrollState, seat: int) -> float:
        from playtable.games.troll.bots import evaluate

        return evaluate(state)


GAME = TrollGame()
