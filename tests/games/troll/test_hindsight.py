"""The hindsight troll bot (hindsight.py): legal, deterministic for a seed, and blind to hidden
cards and future dice (its futures are drawn from what the player has seen)."""

from __future__ import annotations

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.playout import play_out
from playtable.games.troll.game import GAME
from playtable.games.troll.hindsight import HindsightTroll

# Hindsight from the first turn (late=52) with small budgets, so that a test game is quick.
FAST = "hindsight:late=52,samples=3,width=2,nodes=15,depth=1"


def test_it_plays_only_legal_actions_and_is_deterministic_for_a_seed() -> None:
    runs = []
    for _ in range(2):
        state = GAME.new_state(seed=11)
        actions = play_out(state, [make_agent(GAME, FAST)], Chance(4))  # apply() rejects illegal ones
        runs.append([str(a) for a in actions])
        assert state.is_terminal
    assert runs[0] == runs[1]


def test_it_is_selectable_by_name_with_the_other_troll_bots() -> None:
    assert "hindsight" in GAME.bots()
    assert isinstance(make_agent(GAME, "hindsight"), HindsightTroll)


def test_it_never_reads_hidden_cards_or_future_dice() -> None:
    """Positions that differ only in what the player cannot see (unseen bricks, the deck's
    order, the die rolls to come) get the same move, also with hindsight sampling on."""
    for seed in (1, 6):
        state = GAME.new_state(seed=seed)
        twins = [state] + [state.determinize(0, Chance(100 + k)) for k in range(3)]
        assert any(t.deck != state.deck for t in twins[1:])
        moves = {str(make_agent(GAME, FAST).choose(t, Chance(9))) for t in twins}
        assert len(moves) == 1
