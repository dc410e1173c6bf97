"""The bot ladders (agents/levels.py): each game with opponents has named levels from a
beginner's opponent to the strongest, each an agent spec of the game's own agents, accepted
wherever an agent name is."""

from __future__ import annotations

import pytest

from playtable.agents import available_agents, check_remote_agent_spec, ladder, make_agent
from playtable.core.errors import BadParameter
from playtable.core.registry import game_ids, get_game
from playtable.games.stardice.aiming import AimingThrower


@pytest.mark.parametrize(("game_id", "top"), [
    ("stardice", "Strongest"),
    # The wizard game's search lost every measured game to Strong (levels.py), so it is no level.
    ("wizard", "Strong"),
])
def test_every_game_with_opponents_has_named_levels_from_a_beginner(game_id: str, top: str) -> None:
    levels = ladder(game_id)
    assert 3 <= len(levels) <= 6
    assert levels[0].title == "Beginner" and levels[-1].title == top
    assert len({lv.agent for lv in levels}) == len(levels) == len({lv.title for lv in levels})
    game = get_game(game_id)
    for level in levels:
        assert level.about and level.agent in available_agents(game)
        assert level.agent not in {*game.bots(), "random", "greedy", "ismcts"}  # no name hidden
        check_remote_agent_spec(game, level.agent)  # a web seat may take it by name
        agent = make_agent(game, level.agent)
        assert type(agent) is type(make_agent(game, level.spec))


def test_solitaire_games_keep_their_variant_ladders() -> None:
    with_levels = {g for g in game_ids() if ladder(g)}
    assert with_levels == {"stardice", "wizard"}


def test_a_level_plays_its_spec_and_takes_no_options() -> None:
    game = get_game("stardice")
    strongest = make_agent(game, "strongest")
    assert isinstance(strongest, AimingThrower) and strongest == AimingThrower()
    with pytest.raises(BadParameter, match="takes no options"):
        make_agent(game, "strongest:samples=8")
    with pytest.raises(BadParameter, match="takes no options"):
        check_remote_agent_spec(game, "strongest:aims=64")


def test_the_aiming_bots_options_are_bounded_for_remote_clients() -> None:
    game = get_game("stardice")
    check_remote_agent_spec(game, "aiming:samples=2,aims=12")
    with pytest.raises(BadParameter, match="samples"):
        check_remote_agent_spec(game, "aiming:samples=1000")
