"""The third-turn troll bot (deep.py): legal, deterministic for a seed, blind to hidden cards and
future dice, bounded in the positions it searches, and `strongest` when it searches no root
ending deeper."""

from __future__ import annotations

import math

import pytest

from playtable.agents import make_agent
from playtable.agents.spec import check_remote_spec
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.playout import play_out
from playtable.games.troll import deep
from playtable.games.troll.deep import ThirdTurnTroll, systematic_sample
from playtable.games.troll.game import GAME
from playtable.games.troll.search import ExpectimaxTroll, awakening_outcomes, belief, turn_ends

# Small budgets, so that a test game is quick.
FAST = "thirdturn:width=2,outer_samples=2,inner_width=1,samples=2"


def test_it_plays_only_legal_actions_and_is_deterministic_for_a_seed() -> None:
    runs = []
    for _ in range(2):
        state = GAME.new_state(seed=11)
        actions = play_out(state, [make_agent(GAME, FAST)], Chance(4))  # apply() rejects illegal ones
        runs.append([str(a) for a in actions])
        assert state.is_terminal
    assert runs[0] == runs[1]


def test_it_is_selectable_by_name_with_the_other_troll_bots() -> None:
    assert "thirdturn" in GAME.bots()
    agent = make_agent(GAME, "thirdturn:samples=5,leaf=draws")
    assert isinstance(agent, ThirdTurnTroll) and agent.samples == 5 and agent.leaf == "draws"
    for spec in ("thirdturn:leaf=nope", "thirdturn:width=0", "thirdturn:samples=-1"):
        with pytest.raises(BadParameter):
            make_agent(GAME, spec)


def test_every_outcome_is_a_lab_setting_a_remote_client_cannot_ask_for() -> None:
    """Weighing every outcome (`samples=0`, `outer_samples=0`) has no bound on a move's cost: the
    lab may set it, a web client may not (its bounds are 1-16 draws)."""
    assert make_agent(GAME, "thirdturn:samples=0,outer_samples=0").samples == 0
    for spec in ("thirdturn:samples=0", "thirdturn:outer_samples=0"):
        with pytest.raises(BadParameter, match="remote"):
            check_remote_spec(GAME, GAME.bots(), spec)
    check_remote_spec(GAME, GAME.bots(), "thirdturn:samples=16,close=0.01")
    for spec in ("thirdturn:close=2", "thirdturn:close=-0.5"):
        with pytest.raises(BadParameter, match="'close' must be from 0.0 to 1.0"):
            check_remote_spec(GAME, GAME.bots(), spec)


def test_it_never_reads_hidden_cards_or_future_dice() -> None:
    """Positions that differ only in what the player cannot see (unseen bricks, the deck's
    order, the die rolls to come) get the same move for the same rng."""
    for seed in (1, 6):
        state = GAME.new_state(seed=seed)
        twins = [state] + [state.determinize(0, Chance(100 + k)) for k in range(3)]
        assert any(t.deck != state.deck for t in twins[1:])
        moves = {str(make_agent(GAME, FAST).choose(t, Chance(9))) for t in twins}
        assert len(moves) == 1


def test_with_one_root_ending_it_plays_as_the_strongest_bot() -> None:
    state = GAME.new_state(seed=5)
    mine = play_out(state, [make_agent(GAME, "thirdturn:width=1")], Chance(4))
    theirs = play_out(GAME.new_state(seed=5), [make_agent(GAME, "strongest")], Chance(4))
    assert [str(a) for a in mine] == [str(a) for a in theirs]


def test_with_no_close_call_it_plays_as_the_two_turn_search_on_its_leaf() -> None:
    """`close=0`: no lead is close enough to search a third turn, so every move is the two-turn
    search's own."""
    mine = play_out(GAME.new_state(seed=5), [make_agent(GAME, "thirdturn:close=0,leaf=draws")], Chance(4))
    theirs = play_out(GAME.new_state(seed=5), [make_agent(GAME, "expectimax:leaf=draws")], Chance(4))
    assert [str(a) for a in mine] == [str(a) for a in theirs]


def test_weighing_every_outcome_gives_the_exact_three_turn_value() -> None:
    """With every outcome weighed, the two-turn value plus the third turn's correction is the
    three-turn expectimax value (`ExpectimaxTroll` at depth 3 with the same replies), whatever
    the values remembered within the decision."""
    for seed, inner in ((3, 1), (8, 2)):
        agent = ThirdTurnTroll(width=2, inner_width=inner, outer_samples=0, samples=0, leaf="draws")
        exact = ExpectimaxTroll(depth=3, inner_width=inner, leaf="draws")
        ends = turn_ends(belief(GAME.new_state(seed=seed)))
        for _, after in ends[:3]:
            two_turns = exact.value_after_turn(after, 1)
            value = agent.three_turns(after, two_turns, 0.5, Chance(1))
            assert value == pytest.approx(exact.value_after_turn(after, 2), abs=1e-9)
            assert value != pytest.approx(two_turns, abs=1e-6)  # the third turn did change it
        assert agent._last_turns and agent._next_awakenings


def test_the_third_turn_searches_a_bounded_number_of_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deeper search is bounded by its budget in turns enumerated, whatever the position:
    for each of `width` root endings, one exact awakening and `outer_samples` outcomes of it,
    each with a reply turn and `inner_width` replies followed by `samples` last turns."""
    counts = {"turns": 0, "awakenings": 0}

    def counted_turns(state):  # type: ignore[no-untyped-def]
        counts["turns"] += 1
        return turn_ends(state)

    def counted_awakenings(state):  # type: ignore[no-untyped-def]
        counts["awakenings"] += 1
        return awakening_outcomes(state)

    monkeypatch.setattr(deep, "turn_ends", counted_turns)
    monkeypatch.setattr(deep, "awakening_outcomes", counted_awakenings)
    width, outer, inner, samples = 3, 4, 2, 3
    agent = ThirdTurnTroll(width=width, outer_samples=outer, inner_width=inner, samples=samples)
    state = GAME.new_state(seed=3)
    root_endings = len(turn_ends(belief(state)))
    assert root_endings > width  # the budget, not the position, limits the search here
    agent.best_line(state, Chance(2))
    assert 0 < counts["awakenings"] <= width * (1 + outer * inner)
    assert counts["turns"] <= 1 + width * outer * (1 + inner * samples)
    assert counts["turns"] > 1 + width  # the third turn was searched


def test_systematic_sampling_draws_each_outcome_as_often_as_its_odds() -> None:
    state = GAME.new_state(seed=7)
    _, held = turn_ends(belief(state))[0]
    outcomes = awakening_outcomes(held)
    assert len(outcomes) > 8
    for offset in (0.0, 0.37, 0.99):
        drawn = systematic_sample(outcomes, 50, offset)
        assert len(drawn) == 50
        for p, after in outcomes:
            times = sum(1 for d in drawn if d is after)
            assert math.floor(50 * p) - 1 <= times <= math.ceil(50 * p) + 1
