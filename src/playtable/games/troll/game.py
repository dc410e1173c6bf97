"""Angry Troll versus Magic Bridge as a protocol `Game` (seed 000)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from playtable.core.chance import Chance
from playtable.core.claims import DesignClaims
from playtable.core.protocol import Agent, Game, VariantGroup
from playtable.games.troll.bots import evaluate as heuristic_evaluate
from playtable.games.troll.claims import TrollClaims
from playtable.games.troll.engine import FastTrollState
from playtable.games.troll.params import VARIANTS, TrollParams
from playtable.games.troll.rules import TrollState
from playtable.games.troll.serialize import state_from_json


class TrollGame(Game[TrollParams, TrollState]):
    id = "troll"
    name = "Angry Troll versus Magic Bridge"
    params_type = TrollParams
    variants = VARIANTS
    variant_descriptions = {
        "draft": "The Day-5 draft rules: unsupported bricks fall into the river, and the troll with them.",
        "easier-ends": "One more brick in each end slot, where a collapse usually starts.",
        "plus-one": "One more brick in every slot: much easier, a good first real game.",
        "tutorial": "Two more bricks in every slot: the gentlest bridge, to learn the rules.",
        "troll-card": "The troll starts holding the deck's top card.",
        "reusable-diamond": "The ace of diamonds comes back to the troll after every throw.",
        "club-start": "The troll starts holding THE CLUB (the ace of clubs).",
        "toys": "The troll starts with both aces, and the ace of diamonds is reusable.",
        "owed-awakenings": "A win also waits until every set-aside card has awakened a brick.",
        "row-roll": ("From the last playtest (Test #7): a first roll picks the troll's row "
                     "(1-3 bottom, 4-6 top)."),
        "same-start": ("From the last playtest (Test #7): the troll always starts on the same brick "
                       "(lower 3)."),
        "black-lower": ("From the last playtest (Test #7): black cards always go to the bottom stack "
                        "and red to the top."),
        "ladder-10": "Difficulty ladder, hard: the game's bot wins about 1 deal in 10.",
        "ladder-30": "Difficulty ladder: the game's bot wins about 3 deals in 10.",
        "ladder-50": "Difficulty ladder, even: the game's bot wins about half the deals.",
        "ladder-70": "Difficulty ladder, easy: the game's bot wins about 7 deals in 10.",
        "expert-10": "Expert ladder, hardest: a thinner bridge (3,1,1,1,1,3) and a reusable ace of "
                     "diamonds; the strongest bot wins about 1 deal in 10.",
        "expert-30": "Expert ladder: one more brick at one end (4,2,1,1,2,3) and a reusable ace of "
                     "diamonds; the strongest bot wins about 3 deals in 10.",
        "expert-50": "Expert ladder, even: two more bricks in each end slot; the strongest bot wins "
                     "about half the deals.",
        "expert-70": "Expert ladder, easy: the bridge 6,3,1,1,2,5 and a card for the troll at the "
                     "start; the strongest bot wins about 7 deals in 10.",
    }
    # Seed 000 §4.1 (the variations, the Day-5 draft), §8.1 (Test #7's setup ideas), and the
    # lab's difficulty ladders (RULES.md "Variants").
    seat_titles = {"troll": "the troll"}
    variant_titles = {
        "draft": "Day-5 draft rules",
        "easier-ends": "Sturdier ends",
        "plus-one": "Sturdier bridge",
        "tutorial": "Learning bridge",
        "troll-card": "Troll starts with a card",
        "reusable-diamond": "Ace of diamonds returns",
        "club-start": "Troll starts with the club",
        "toys": "Troll starts with both aces",
        "owed-awakenings": "Every set-aside card must wake",
        "row-roll": "Roll for the troll's row",
        "same-start": "Same starting brick",
        "black-lower": "Black cards low, red high",
        "ladder-10": "Challenge: hard",
        "ladder-30": "Challenge: tough",
        "ladder-50": "Challenge: even",
        "ladder-70": "Challenge: gentle",
        "expert-10": "Expert challenge: hardest",
        "expert-30": "Expert challenge: hard",
        "expert-50": "Expert challenge: even",
        "expert-70": "Expert challenge: gentle",
    }
    # Seed 000 §4.1 "Destructive variations": one brick more per slot is "much easier", two is
    # "tutorial mode"; the designer's own rules are the hardest, so a newcomer starts on these.
    variant_groups = (VariantGroup("Easier: for a first game", "A sturdier bridge than the designer's.",
                                   ("plus-one", "tutorial"), first=True),)
    standard_title = "Standard rules (hardest)"
    standard_description = "The designer's own rules, as first written: a hard game."
    pitch = (
        "A solitaire game for a deck of cards and a die. An angry troll lives under a magic "
        "bridge that wants to fly away: each turn a card awakens a brick, and awake bricks flee. "
        "Stomp, carry and throw bricks to keep some kind of bridge standing until the deck runs "
        "out. The designer's own rules are fiendishly hard; start on the Sturdier bridge or the "
        "Learning bridge."
    )
    score_name = "score: cards left in the deck of awakening"  # §7.1 "Your score"
    lower_score_is_better = True

    def num_players(self, params: TrollParams) -> int:
        return 1

    def seat_names(self, params: TrollParams) -> list[str]:
        return ["troll"]

    def new_state(self, params: TrollParams | None = None, seed: int = 0,
                  rigged: Mapping[str, list[Any]] | None = None) -> TrollState:
        if params is None:
            params = _DEFAULT  # frozen, so one shared copy; checked once below the class
        else:
            params.validate()
        state = FastTrollState(params, Chance(seed, rigged=dict(rigged) if rigged else None))
        state.setup()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> TrollState:
        return state_from_json(data, FastTrollState)

    def bots(self) -> Mapping[str, Callable[[], Agent]]:
        from playtable.games.troll.bots import HeuristicTroll
        from playtable.games.troll.deep import ThirdTurnTroll
        from playtable.games.troll.hindsight import HindsightTroll
        from playtable.games.troll.rollout import RolloutTroll
        from playtable.games.troll.search import ExpectimaxTroll, StrongestTroll

        return {"heuristic": HeuristicTroll, "expectimax": ExpectimaxTroll, "hindsight": HindsightTroll,
                "rollout": RolloutTroll, "strongest": StrongestTroll, "thirdturn": ThirdTurnTroll}

    def evaluate(self, state: TrollState, seat: int) -> float:
        return heuristic_evaluate(state)

    def claims(self) -> DesignClaims:
        """Seed 000 §4.2's intended consequences and §7's minimum awakenings."""
        return TrollClaims(self)


_DEFAULT = TrollParams()
_DEFAULT.validate()
GAME = TrollGame()
