"""The troll's bots through the protocol: legal, deterministic, and the heuristic one better."""

from __future__ import annotations

from tests.games.troll.helpers import FULL_LOWER, FULL_UPPER, position

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.params import resolve_params
from playtable.core.playout import play_out
from playtable.games.troll.bots import evaluate, hit_chance
from playtable.games.troll.game import GAME
from playtable.games.troll.params import TrollParams


def _wins(bot: str, games: int) -> int:
    params = resolve_params(TrollParams, GAME.variants, "plus-one")
    agent = make_agent(GAME, bot)
    wins = 0
    for seed in range(games):
        state = GAME.new_state(params, seed)
        play_out(state, [agent], Chance(seed))
        wins += state.outcome == "win"
    return wins


def test_heuristic_bot_wins_far_more_than_random_on_the_plus_one_bridge() -> None:
    assert _wins("heuristic", 60) > _wins("random", 60) + 10


def test_bots_are_deterministic_under_a_seed() -> None:
    for bot in ("random", "heuristic"):
        runs = []
        for _ in range(2):
            state = GAME.new_state(seed=8)
            runs.append([str(a) for a in play_out(state, [make_agent(GAME, bot)], Chance(3))])
        assert runs[0] == runs[1]


def test_the_heuristic_never_peeks_at_the_next_die_roll() -> None:
    """Its plan stops before the next awakening, so rigging the future cannot change its choice."""
    agent = make_agent(GAME, "heuristic")
    choices = set()
    for rolls in ((1, 1, 1), (6, 6, 6), (3, 4, 2)):
        state = position(FULL_LOWER, FULL_UPPER, troll="lower 3", awake=("10C", "6C"),
                         deck=("2H", "3H", "4H"), d6=rolls)
        choices.add(str(agent.choose(state, Chance(1))))
    assert len(choices) == 1


def test_standing_on_an_awake_brick_is_valued_by_the_chance_a_card_lands_there() -> None:
    lower = ["", "", "", "", "", "JC QC KC"]
    upper = FULL_UPPER
    thin = position(lower, upper, troll="lower 6", awake=("KC",), deck=("2H",))
    assert hit_chance(thin, 5) == 0.5  # every lower roll is redirected to lower 6
    full = position(FULL_LOWER, FULL_UPPER, troll="lower 6", awake=("KC",), deck=("2H",))
    assert abs(hit_chance(full, 5) - 1 / 12) < 1e-9
    safe = position(FULL_LOWER, FULL_UPPER, troll="lower 6", deck=("2H",))
    assert evaluate(full) < evaluate(safe)
