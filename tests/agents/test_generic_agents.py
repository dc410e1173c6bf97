"""The game-independent agents (greedy, ISMCTS) on the lab's toy game with hidden cards and dice."""

from __future__ import annotations

import pytest
from tests.lab.lab_toygame import GAME, ToyParams, ToyState

from playtable.agents import GENERIC_AGENTS, make_agent, split_agent_spec
from playtable.agents.greedy import GreedyAgent
from playtable.agents.ismcts import IsmctsAgent
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.playout import play_out


def _win_rate(spec: str, n: int, params: ToyParams | None = None) -> float:
    agent = make_agent(GAME, spec)
    wins = 0.0
    for seed in range(n):
        state = GAME.new_state(params, seed)
        play_out(state, [agent] * state.num_players, Chance(10_000 + seed))
        wins += state.returns()[0]
    return wins / n


def _twin_with_other_hidden_part(state: ToyState, salt: int) -> ToyState:
    """The same information set for seat 0, but another deck order and another dice future."""
    twin = state.clone()
    Chance(salt).shuffle(twin.deck)
    twin.chance = Chance(salt * 7 + 1)
    assert twin.observation(0) == state.observation(0)
    return twin


def test_generic_agents_are_registered() -> None:
    assert {"random", "greedy", "ismcts"} <= set(GENERIC_AGENTS)


def test_agent_specs_take_typed_options() -> None:
    assert split_agent_spec("ismcts:iterations=20,c=0.3") == ("ismcts", {"iterations": "20", "c": "0.3"})
    agent = make_agent(GAME, "ismcts:iterations=20,c=0.3")
    assert isinstance(agent, IsmctsAgent)
    assert agent.iterations == 20 and agent.c == 0.3
    with pytest.raises(BadParameter, match="no option 'depth'"):
        make_agent(GAME, "ismcts:depth=3")
    with pytest.raises(BadParameter, match="whole number"):
        make_agent(GAME, "greedy:samples=many")
    with pytest.raises(BadParameter, match="takes no options"):
        make_agent(GAME, "random:x=1")
    with pytest.raises(BadParameter, match="unknown agent"):
        make_agent(GAME, "oracle")


@pytest.mark.parametrize("spec", ["greedy", "ismcts:iterations=60"])
def test_agents_are_deterministic_under_a_seed(spec: str) -> None:
    state = GAME.new_state(None, 5)
    state.apply_text("roll")
    first = [make_agent(GAME, spec).choose(state.clone(), Chance(s)) for s in range(6)]
    again = [make_agent(GAME, spec).choose(state.clone(), Chance(s)) for s in range(6)]
    assert first == again
    a, b = make_agent(GAME, spec), make_agent(GAME, spec)
    assert _play(a, 9) == _play(b, 9)


def _play(agent: object, seed: int) -> list[str]:
    state = GAME.new_state(None, seed)
    return [str(a) for a in play_out(state, [agent], Chance(seed))]  # type: ignore[list-item]


@pytest.mark.parametrize("spec", ["greedy", "ismcts:iterations=80", "ismcts:iterations=80,info_sets=false"])
def test_decisions_depend_only_on_the_information_set(spec: str) -> None:
    """Futures are sampled independently of the real deal: positions that seat 0 cannot tell
    apart (another deck order, another dice stream) get the same decision and, for ISMCTS, the
    same search statistics. A clairvoyant search would tell them apart."""
    for seed in range(4):
        state = GAME.new_state(None, seed)
        state.apply_text("roll") if seed % 2 else state.apply_text("draw")
        if state.is_terminal:
            continue
        agent_a, agent_b = make_agent(GAME, spec), make_agent(GAME, spec)
        choice = agent_a.choose(state, Chance(77))
        for salt in (1, 2, 3):
            twin = _twin_with_other_hidden_part(state, salt + 10 * seed)
            assert agent_b.choose(twin, Chance(77)) == choice
            if isinstance(agent_a, IsmctsAgent):
                assert agent_a.last_stats["edges"] == agent_b.last_stats["edges"]  # type: ignore[attr-defined]


def test_search_never_touches_the_real_state() -> None:
    state = GAME.new_state(None, 2)
    before = state.to_json()
    for spec in ("greedy", "ismcts:iterations=50"):
        make_agent(GAME, spec).choose(state, Chance(1))
        assert state.to_json() == before


def test_greedy_takes_the_winning_bank() -> None:
    """With the target in reach on the last turn, banking is a sure win and greedy takes it."""
    state = GAME.new_state(ToyParams(target=10, turns=1), 0)
    state.pending = 10
    assert str(GreedyAgent().choose(state, Chance(3))) == "bank"


def test_ismcts_reports_its_search_and_honours_a_time_budget() -> None:
    state = GAME.new_state(None, 4)
    agent = IsmctsAgent(iterations=40)
    agent.bind(GAME)
    agent.choose(state, Chance(1))
    assert agent.last_stats["iterations"] == 40
    assert sum(v for v, _ in agent.last_stats["edges"].values()) == 40
    timed = IsmctsAgent(seconds=0.05)
    timed.choose(state, Chance(1))
    assert timed.last_stats["iterations"] >= 1


def test_ismcts_plays_two_player_games_with_hidden_cards() -> None:
    params = ToyParams(players=2, target=25)
    state = GAME.new_state(params, 3)
    agents = [make_agent(GAME, "ismcts:iterations=30"), make_agent(GAME, "random")]
    play_out(state, agents, Chance(8))
    assert state.is_terminal


def test_search_beats_random_on_the_same_seeds() -> None:
    """Same 40 deals for each agent (deterministic, so no flakiness): the lookahead agents win
    clearly more often than random play."""
    random_rate = _win_rate("random", 40)
    greedy_rate = _win_rate("greedy:samples=4", 40)
    ismcts_rate = _win_rate("ismcts:iterations=100", 40)
    assert greedy_rate > random_rate + 0.2
    assert ismcts_rate > random_rate + 0.2
    rollout_rate = _win_rate("ismcts:iterations=100,rollout_depth=100", 40)
    assert rollout_rate > random_rate + 0.1


@pytest.mark.parametrize("spec", ["ismcts:iterations=60", "ismcts:iterations=60,single_tree=true"])
def test_two_seat_decisions_ignore_the_other_seats_hidden_card(spec: str) -> None:
    """One tree per seat: seat 0's choice does not depend on seat 1's bonus card or the deck
    order, which seat 0 cannot see."""
    params = ToyParams(players=2, target=25)
    for seed in range(3):
        state = GAME.new_state(params, seed)
        state.apply_text("roll")
        if state.is_terminal or state.current_player != 0:
            continue
        choice = make_agent(GAME, spec).choose(state, Chance(5))
        twin = state.clone()
        twin.deck[0], twin.bonus[1] = twin.bonus[1], twin.deck[0]
        twin.chance = Chance(1234 + seed)
        assert twin.observation(0) == state.observation(0)
        assert make_agent(GAME, spec).choose(twin, Chance(5)) == choice


def test_one_tree_per_seat_beats_random_in_a_duel() -> None:
    params = ToyParams(players=2, target=25)
    wins = 0.0
    for seed in range(30):
        state = GAME.new_state(params, seed)
        play_out(state, [make_agent(GAME, "ismcts:iterations=60"), make_agent(GAME, "random")], Chance(seed))
        wins += state.returns()[0]
    assert wins / 30 > 0.6
