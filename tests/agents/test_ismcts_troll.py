"""ISMCTS on the troll game (its fast information-set key and resampling):
legal, deterministic for a seed, and blind to what the troll cannot see."""

from __future__ import annotations

from playtable.agents import make_agent
from playtable.agents.ismcts import IsmctsAgent
from playtable.core.chance import Chance
from playtable.core.playout import play_out
from playtable.games.troll.game import GAME


def test_it_plays_whole_games_legally_and_the_same_for_a_seed() -> None:
    runs = []
    for _ in range(2):
        state = GAME.new_state(seed=5)
        # apply() raises on an illegal action
        actions = play_out(state, [make_agent(GAME, "ismcts:iterations=40")], Chance(3))
        assert state.is_terminal
        runs.append([str(a) for a in actions])
    assert runs[0] == runs[1]


def test_the_search_sees_only_the_information_set() -> None:
    """Positions that differ only in what the troll cannot see (unseen bricks, the deck's order,
    the die rolls to come) get the same move from the same search: every edge's visits and
    value are equal too, so no hidden card steered any iteration."""
    for seed in (1, 6, 9):
        state = GAME.new_state(seed=seed)
        rng = Chance(seed)
        for _ in range(seed % 4):  # a few moves in, past an awakening
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        twins = [state] + [state.determinize(0, Chance(100 + k)) for k in range(3)]
        assert any(t.deck != state.deck for t in twins[1:])
        assert len({t.info_key(0) for t in twins}) == 1
        searches = []
        for twin in twins:
            agent = IsmctsAgent(iterations=150)
            agent.bind(GAME)
            move = agent.choose(twin, Chance(9))
            searches.append((str(move), agent.last_stats["edges"]))
        assert all(s == searches[0] for s in searches[1:])


def test_the_search_leaves_the_real_position_alone() -> None:
    state = GAME.new_state(seed=2)
    before = state.to_json()
    make_agent(GAME, "ismcts:iterations=100").choose(state, Chance(1))
    assert state.to_json() == before
