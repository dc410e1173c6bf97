"""The rollout troll bot (rollout.py) and the fitted win-chance model (learned.py): legal,
deterministic for a seed, blind to hidden cards and future dice, and selectable by name."""

from __future__ import annotations

import pytest

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.playout import play_out
from playtable.games.troll.game import GAME
from playtable.games.troll.learned import FEATURES, features, win_chance
from playtable.games.troll.rollout import RolloutTroll

# Small budgets, so that a test game is quick.
FAST = "rollout:samples=3,width=2,horizon=2"


def test_it_plays_only_legal_actions_and_is_deterministic_for_a_seed() -> None:
    for spec in (FAST, FAST + ",leaf=learned", "expectimax:leaf=rows", "expectimax:depth=1,leaf=network"):
        runs = []
        for _ in range(2):
            state = GAME.new_state(seed=11)
            actions = play_out(state, [make_agent(GAME, spec)], Chance(4))  # apply() rejects illegal ones
            runs.append([str(a) for a in actions])
            assert state.is_terminal
        assert runs[0] == runs[1]


def test_it_is_selectable_by_name_with_the_other_troll_bots() -> None:
    assert "rollout" in GAME.bots()
    agent = make_agent(GAME, "rollout:samples=5")
    assert isinstance(agent, RolloutTroll) and agent.samples == 5


def test_it_never_reads_hidden_cards_or_future_dice() -> None:
    """Positions that differ only in what the player cannot see (unseen bricks, the deck's
    order, the die rolls to come) get the same move for the same rng."""
    for seed in (1, 6, 23):
        state = GAME.new_state(seed=seed)
        twins = [state] + [state.determinize(0, Chance(100 + k)) for k in range(3)]
        assert any(t.deck != state.deck for t in twins[1:])
        for spec in (FAST, "expectimax:leaf=learned", "expectimax:leaf=distilled", "expectimax:leaf=network",
                     "expectimax:leaf=rows", "expectimax:leaf=draws"):
            moves = {str(make_agent(GAME, spec).choose(t, Chance(9))) for t in twins}
            assert len(moves) == 1, spec


def test_the_win_chance_is_a_probability_read_from_what_the_player_sees() -> None:
    state = GAME.new_state(seed=3)
    held = state.clone()
    held.hold_next_turn = True
    assert 0.0 < win_chance(held) < 1.0
    assert len(features(held)) == len(FEATURES)
    twin = held.determinize(0, Chance(5))
    twin.hold_next_turn = True
    assert features(twin) == features(held) and win_chance(twin) == win_chance(held)


def test_an_unknown_leaf_is_one_clear_error() -> None:
    for spec in ("rollout:leaf=nope", "expectimax:leaf=nope", "hindsight:leaf=nope"):
        with pytest.raises(BadParameter, match="leaf"):
            make_agent(GAME, spec)
