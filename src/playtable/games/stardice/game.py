"""Star Dice as a protocol `Game` (seed 002): Federation and Klingon, plus the neutral Borg die."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition
from playtable.core.protocol import Agent, Game, VariantGroup
from playtable.games.stardice import aiming
from playtable.games.stardice.actions import BLANK, SEAT_NAMES
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.params import VARIANTS, StarDiceParams
from playtable.games.stardice.state_json import state_from_json

StarDiceState.hint_planner = aiming.hint  # the state's hints are its aiming bot's throws


class StarDiceGame(Game[StarDiceParams, StarDiceState]):
    id = "stardice"
    name = "Star Dice"
    params_type = StarDiceParams
    variants = VARIANTS
    variant_descriptions = {
        "final": "The Final Rules: a war of battles to 50 points, torpedoes cut, d6s may be slid.",
        "battle": "A single battle instead of a war.",
        "torpedoes_iter9": "Three torpedoes each, fired right after rolling a d6 (ninth iteration).",
        "torpedoes_iter8": "Three torpedoes each, used instead of rolling a ship (eighth iteration).",
        "iteration8": "The eighth iteration: its torpedoes and its set of dice.",
        "iteration7_borg1": "The doubling Borg die (2 to 64) without the pips bonus.",
        "iteration7_borg2": "The doubling Borg die (2 to 64) with the pips bonus.",
        "iteration5": "A neutral d20 that must be exceeded, no bonus, wider angle check.",
        "iteration4": "Scoring 1 (maximum times multiplier) with a neutral d12.",
        "iteration3_scoring1": "Scoring 1, with a neutral d20 that must not be the maximum.",
        "iteration3_scoring2": "Scoring 2, with a neutral d20 that must not be the maximum.",
        "iteration2_multipliers": "Multipliers: singles count 1, closed shapes multiply; no neutral die.",
        "iteration1_multipliers": "The first multipliers, singles at face value, no motion filters.",
        "objective1": "Solitaire rounds: beat 10 points, then 20, then 30...",
        "objective2": "Solitaire: a red set is rolled onto the table at once; outscore it.",
        "solo_iteration1": "Solitaire: throw one die of each kind for the highest score.",
        "blank_dice": "Seven blank d6 a side: a shape goes to whoever has more dice in it.",
        "rounds_iter4": "Five battles; only each battle's winner adds their points.",
        "best_of_iter7": "Best of five battles: the first to win three wins the war.",
        "any_dice_iter9": "Throw as many dice as you like in a turn, then end it.",
        "borg_enemy": "The Borg takes every shape it holds unbeaten and wipes out whoever it outscores.",
        "dice_6d10_iter3": "Six d10 a side instead of the mixed fleet (tried in the third iteration).",
        "dice_stephen_iter7": "Stephen's fleet from the seventh iteration: 1d20, 2d12 and 3d6 a side.",
    }
    variant_titles = {  # seed 002: the Final Rules, and the iterations of its playtests
        "final": "Standard rules: a war to 50",
        "battle": "A single battle",
        "torpedoes_iter9": "Version 9: torpedoes after a d6",
        "torpedoes_iter8": "Version 8: torpedoes instead of a ship",
        "iteration8": "Version 8: its torpedoes and dice",
        "iteration7_borg1": "Version 7: doubling Borg die",
        "iteration7_borg2": "Version 7: Borg die with pips bonus",
        "iteration5": "Version 5: a d20 to beat",
        "iteration4": "Version 4: highest die times shapes",
        "iteration3_scoring1": "Version 3: first scoring",
        "iteration3_scoring2": "Version 3: second scoring",
        "iteration2_multipliers": "Version 2: multipliers",
        "iteration1_multipliers": "Version 1: first multipliers",
        "objective1": "Solitaire: beat 10, 20, 30",
        "objective2": "Solitaire: beat the red dice",
        "solo_iteration1": "Solitaire: highest score",
        "blank_dice": "Blank dice: count the ships",
        "rounds_iter4": "Five rounds, winner scores",
        "best_of_iter7": "Best of five battles",
        "any_dice_iter9": "Many dice a turn",
        "borg_enemy": "The Borg as the enemy",
        "dice_6d10_iter3": "Version 3 dice: six d10",
        "dice_stephen_iter7": "Version 7 dice: 1d20, 2d12, 3d6",
    }
    # The Final Rules ("final", a preset that changes nothing) are the standard rules, listed
    # first; the seed's iterations before them are the designer's playtests, kept apart.
    standard_title = "Standard rules: a war to 50"
    variant_groups = (
        VariantGroup("Other ways to play", "The standard rules with one thing changed.",
                     ("battle", "best_of_iter7", "rounds_iter4", "any_dice_iter9", "borg_enemy",
                      "blank_dice", "dice_6d10_iter3", "dice_stephen_iter7")),
        VariantGroup("Solitaire", "One player alone, for a score or against a target.",
                     ("objective1", "objective2", "solo_iteration1")),
        VariantGroup("The designer's earlier versions",
                     "Rules from the designer's playtests before the Final Rules (seed 002's iterations, "
                     "newest first): for comparing, not for a first game.",
                     ("torpedoes_iter9", "torpedoes_iter8", "iteration8", "iteration7_borg1",
                      "iteration7_borg2", "iteration5", "iteration4", "iteration3_scoring1",
                      "iteration3_scoring2", "iteration2_multipliers", "iteration1_multipliers")),
    )
    pitch = (
        "Two fleets of polyhedral dice on a multitouch table: Federation against Klingon, with "
        "the neutral Borg die between them. Roll your ships onto the table one by one; dice that "
        "lie close enough link into strings and closed formations that score. Knock your "
        "opponent's ships apart, slide your d6s into place, and win the war to 50 points."
    )

    def num_players(self, params: StarDiceParams) -> int:
        return 1 if params.mode != "versus" else 2

    def seat_names(self, params: StarDiceParams) -> list[str]:
        return list(SEAT_NAMES[:self.num_players(params)])

    def new_state(self, params: StarDiceParams | None = None, seed: int = 0,
                  rigged: Mapping[str, list[Any]] | None = None) -> StarDiceState:
        params = params or StarDiceParams()
        params.validate()
        chance = Chance(seed, rigged=dict(rigged or {}))
        if params.mode != "versus":
            from playtable.games.stardice.solitaire import MODES

            solo = MODES[params.mode](params, chance)
            solo.setup_events = solo.start_round()
            return solo
        state = StarDiceState(params, chance)
        state.start_battle()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> StarDiceState:
        """A position from outside, checked for every invariant (`position_checks`); clones
        of a valid state skip that check."""
        from playtable.games.stardice.position_checks import check_position
        from playtable.games.stardice.solitaire import solitaire_from_json

        params = data.get("params") if isinstance(data, Mapping) else None
        if isinstance(params, Mapping) and params.get("mode", "versus") != "versus":
            solo = solitaire_from_json(dict(data))
            check_position(solo, dict(data), solitaire=True)
            return solo
        state = state_from_json(dict(data), StarDiceState)
        if BLANK in state.table:
            raise BadPosition("the blank d6 belongs to mode=objective1 only")
        check_position(state, dict(data), solitaire=False)
        return state

    def bots(self) -> Mapping[str, Callable[[], Agent]]:
        from playtable.games.stardice.aiming import AimingThrower
        from playtable.games.stardice.bots import BOTS

        # the aiming bot builds on bots.py's evaluation, so it lives apart and joins here
        return {**BOTS, "aiming": AimingThrower}

    def evaluate(self, state: StarDiceState, seat: int) -> float:
        from playtable.games.stardice.bots import evaluate

        return evaluate(state, seat)


GAME = StarDiceGame()
