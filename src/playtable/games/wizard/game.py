"""The Wizard's Labyrinth (seed 003): one wizard against 2-4 heroes. Seat 0 is the wizard."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from playtable.core.protocol import Agent, Game
from playtable.games.wizard.params import VARIANTS, WizardParams
from playtable.games.wizard.serialize import state_from_json
from playtable.games.wizard.state import WizardState


class WizardGame(Game[WizardParams, WizardState]):
    id = "wizard"
    name = "The Wizard's Labyrinth"
    params_type = WizardParams
    variants = VARIANTS
    variant_descriptions = {
        "final": "The final rules of 8 November.",
        "beta": "The beta rules of 23 October: three keys, the wheel starts at 1, a save per trap.",
        "alpha": "The alpha rules of 17 October: the wheel grows each turn, fight dice add up, no rage.",
        "balanced": ("The final rules with the wheel's start and the number of empty rooms tuned so the "
                     "bots' wizard wins about half the games."),
    }
    variant_titles = {  # seed 003: final rules (8 Nov), beta (23 Oct), alpha (17 Oct)
        "final": "Final rules",
        "beta": "Beta rules",
        "alpha": "Alpha rules",
        "balanced": "Balanced final rules",
    }
    seat_titles = {  # seed 003 calls the seats "the wizard" and the heroes by number
        "wizard": "the wizard", "hero1": "Hero 1", "hero2": "Hero 2", "hero3": "Hero 3", "hero4": "Hero 4",
    }
    pitch = (
        "One wizard against two to four heroes. The heroes explore the wizard's labyrinth, "
        "fight his traps and monsters, loot items and hunt for the keys to his tower; their moves "
        "are chosen in secret and revealed together. The wizard plays cards from a hidden hand, "
        "fuelled by the Mana Wheel, to stop them before they break in."
    )

    def num_players(self, params: WizardParams) -> int:
        return params.players

    def seat_names(self, params: WizardParams) -> list[str]:
        return ["wizard"] + [f"hero{i}" for i in range(1, params.players)]

    def sides(self, params: WizardParams) -> list[list[int]]:
        """The wizard against the heroes, who share one result (RULES.md, "Returns")."""
        return [[0], list(range(1, params.players))]

    def new_state(
        self, params: WizardParams | None = None, seed: int = 0,
        rigged: Mapping[str, list[Any]] | None = None,
    ) -> WizardState:
        from playtable.games.wizard.rules import run
        from playtable.games.wizard.setup import new_game

        params = params or WizardParams()
        params.validate()
        st = new_game(params, seed, rigged, WizardState)
        run(st)
        st._events = []
        return st

    def state_from_json(self, data: Mapping[str, Any]) -> WizardState:
        """A position from outside, checked for every invariant (`position_checks`); clones
        of a valid state go straight through `serialize`."""
        from playtable.games.wizard.position_checks import check_position

        state = state_from_json(data, WizardState)
        check_position(state, dict(data))
        return state

    def bots(self) -> Mapping[str, Callable[[], Agent]]:
        from playtable.games.wizard.bots import BOTS

        return BOTS

    def evaluate(self, state: WizardState, seat: int) -> float:
        from playtable.games.wizard.bots import evaluate

        return evaluate(state, seat)


GAME = WizardGame()
