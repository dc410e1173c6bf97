"""The seed's other modes as named variants (seed 002), each
tested against the seed section it cites, and a knob for every playtest question of the seed
that docs/playtest-answers.md answers (benchmarks/stardice_questions.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from playtable.core.chance import Chance
from playtable.core.params import params_from_dict
from playtable.core.playout import play_out
from playtable.games.stardice.actions import Hold, Throw
from playtable.games.stardice.bots import BOTS, RandomThrower
from playtable.games.stardice.formation import static_layout
from playtable.games.stardice.game import GAME
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.params import VARIANTS, StarDiceParams
from playtable.games.stardice.scoring import DieInfo, ScoringRules, score_table

TRI = {"a": (0.3, 0.3), "b": (0.5, 0.3), "c": (0.4, 0.45)}
LONE = {"z": (0.95, 0.05)}


def params(variant: str, **extra: Any) -> StarDiceParams:
    return params_from_dict(StarDiceParams, {**VARIANTS[variant], **extra})


def played(variant: str, seed: int, **extra: Any) -> StarDiceState:
    p = params(variant, **extra)
    state = GAME.new_state(p, seed)
    play_out(state, [RandomThrower() for _ in range(GAME.num_players(p))], Chance(seed))
    back = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert back.to_json() == state.to_json()
    return state


# -- Second Iteration, Objective 2 ---------------------------------------------------------------

def test_objective2_rolls_a_matching_red_set_and_the_player_must_exceed_it() -> None:
    """It. 2 materials "A set of red dice matching the player's set of white dice"; setup "Roll
    all the red dice at once onto the table"; scoring "calculate the score of the red dice in
    exactly the same manner"; objective "You win if your total score exceeds the total score of
    the red dice"."""
    p = params("objective2")
    assert GAME.num_players(p) == 1
    state = GAME.new_state(p, 4)
    red = [d for d in state.table if d.startswith("K.")]
    assert len(red) + sum(d.startswith("K.") for d in state.eliminated) == len(p.dice)
    assert state.hands[0] and not state.hands[1] and all(state.values[d] >= 1 for d in red)
    outcomes = set()
    for seed in range(6):
        s = played("objective2", seed)
        white, red_points = s.current_score().points[:2]
        assert s.war == [white, red_points]
        assert s.returns() == [1.0 if white > red_points else 0.0]
        assert s.metrics()["won"] == (white > red_points)
        outcomes.add(s.returns()[0])
    assert outcomes == {0.0, 1.0}


def test_white_and_red_dice_mix_in_one_shape_and_each_scores_its_own() -> None:
    """It. 2 "(Objective 2) The white and red dice may mix within the same shape": with the
    multiplier scoring each side scores its own dice at the shape's multiplier."""
    layout = static_layout({**TRI, **LONE})
    rules = ScoringRules(system="multiplier", single_value="one")
    s = score_table(layout, {}, {"a": DieInfo(0, 6), "b": DieInfo(1, 5), "c": DieInfo(1, 3),
                                 "z": DieInfo(0, 20)}, rules)
    assert s.points == (6 * 2 + 1, (5 + 3) * 2)


# -- First Iteration: solo for the highest score -------------------------------------------------

def test_solo_play_scores_the_table_once_for_the_highest_score() -> None:
    """It. 1 "Objective: Achieve the highest score possible at the end of the match"; materials
    one of each die; scoring: singles and strings at face value, closed shapes x(n-1)."""
    p = params("solo_iteration1")
    assert GAME.num_players(p) == 1 and p.scoring == "multiplier" and p.single_value == "face"
    state = GAME.new_state(p, 0)
    assert not state.table and len(state.hands[0]) == 6  # no blank d6: that is It. 2
    s = played("solo_iteration1", 1)
    assert s.is_terminal and s.returns() == [float(s.current_score().points[0])]
    assert s.returns()[0] >= 1 and s.throws >= 6


# -- blank dice ---------------------------------------------------------------------------------

def test_blank_dice_count_ships_not_faces() -> None:
    """It. 2 "Ignore numbers on the dice"; It. 6 (Craig) "Make all dice blank d6. (Ignore rolled
    values.)": a shape goes to whoever has more dice in it, whatever the faces."""
    layout = static_layout({**TRI, **LONE})
    faces = {"a": DieInfo(0, 6), "b": DieInfo(1, 1), "c": DieInfo(1, 1), "z": DieInfo(0, 6)}
    assert score_table(layout, {}, faces).points == (3, 0)  # by the faces, 6 beats 1 + 1
    assert score_table(layout, {}, faces, ScoringRules(ignore_values=True)).points == (0, 3)
    p = params("blank_dice")
    assert p.dice == ("d6",) * 7 and p.ignore_values
    assert played("blank_dice", 2, war_target=0).is_terminal


# -- rounds and best of X ---------------------------------------------------------------------------

def test_rounds_play_x_battles_and_only_the_winner_adds_points() -> None:
    """It. 4 "When playing in rounds, keep track of the winner's score after every round and add
    it to his total sum. The loser receives 0 points for that round. Play to X number of
    rounds"."""
    s = played("rounds_iter4", 3)
    assert len(s.battle_points) == 5
    expected = [sum(b[seat] for b in s.battle_points if b[seat] > b[1 - seat]) for seat in (0, 1)]
    assert s.war == expected
    assert (s.winner is None) == (s.war[0] == s.war[1])


def test_best_of_x_ends_when_a_player_has_won_most_of_the_battles() -> None:
    """It. 7 "How to play a series of games? In rounds, best of X": the first to win 3 of 5."""
    for seed in (5, 6):
        s = played("best_of_iter7", seed)
        won = s.battles_won()
        assert max(won) == 3 and s.winner == won.index(3)
        last = s.battle_points[-1]
        assert last[s.winner] > last[1 - s.winner]  # the deciding battle was the winner's


# -- as many dice as a player wishes ---------------------------------------------------------------

def test_a_player_throws_as_many_dice_as_they_wish_then_ends_the_turn() -> None:
    """It. 9 "What if you can roll two at once? Can roll as many dice as you want. If you run out
    before the other player, then the other player can keep rolling"; "If I had more time to
    playtest, then I would try allowing the player to roll as many dice as he wishes in a
    turn"."""
    state = GAME.new_state(params("any_dice_iter9", war_target=0), 1)
    while state.phase in ("call", "borg"):
        state.apply(state.legal_actions()[0])
    seat = state.to_move
    rng = Chance(9)
    for _ in range(len(state.hands[seat])):  # a whole hand in one turn
        assert state.to_move == seat
        throw = next(a for a in state.fresh_throws(rng, 4) if isinstance(a, Throw))
        state.apply(throw)
    assert not state.hands[seat] and state.to_move == 1 - seat and state.phase == "throw"
    state.apply(next(a for a in state.fresh_throws(rng, 4) if isinstance(a, Throw)))
    assert state.to_move == 1 - seat and state.phase == "throw"  # out of dice: keeps rolling
    assert Hold() not in state.legal_actions()


def test_ending_a_turn_of_several_dice_hands_the_table_over() -> None:
    """It. 9, as above: after each die the player may throw another or end the turn."""
    state = GAME.new_state(params("any_dice_iter9", war_target=0), 2)
    while state.phase in ("call", "borg"):
        state.apply(state.legal_actions()[0])
    seat = state.to_move
    state.apply(next(a for a in state.fresh_throws(Chance(3), 4) if isinstance(a, Throw)))
    assert state.phase == "more" and state.to_move == seat and Hold() in state.legal_actions()
    state.apply(Hold())
    assert state.to_move == 1 - seat and state.phase == "throw"


def test_one_die_a_turn_stays_the_default() -> None:
    state = GAME.new_state(params("battle"), 1)
    while state.phase in ("call", "borg"):
        state.apply(state.legal_actions()[0])
    seat = state.to_move
    state.apply(next(a for a in state.fresh_throws(Chance(2), 4) if isinstance(a, Throw)))
    assert state.to_move == 1 - seat and state.phase == "throw"


# -- the Borg as the enemy -----------------------------------------------------------------------

def test_the_borg_holds_the_shapes_it_is_not_beaten_in_and_wipes_out_the_weaker() -> None:
    """It. 6 (Craig) "Borg die is the enemy; must be defeated"; (Brent) "Secondary goal of not
    getting wiped out by Borg"."""
    layout = static_layout({**TRI, "p": (0.6, 0.65), "q": (0.8, 0.65)})
    rules = ScoringRules(borg_enemy=True)
    unbeaten = {"a": DieInfo(0, 6), "b": DieInfo(1, 5), "c": DieInfo(None, 24, 5),
                "p": DieInfo(0, 4), "q": DieInfo(0, 3)}
    plain = score_table(layout, {}, unbeaten)
    assert plain.points == (1, 0) and plain.borg is None
    s = score_table(layout, {}, unbeaten, rules)
    assert s.borg is not None and s.borg.points == 3 and s.borg.wiped == (0, 1)
    assert s.points == (0, 0) and s.shapes[0].note == "the Borg holds it"
    beaten = {**unbeaten, "a": DieInfo(0, 30)}
    s = score_table(layout, {}, beaten, rules)
    assert s.borg is not None and s.borg.points == 0 and s.points == (1 + 3 + 5, 0)
    assert params("borg_enemy").borg_enemy and played("borg_enemy", 4, war_target=0).is_terminal


# -- a knob for every question -------------------------------------------------------------------

QUESTION_KNOBS: list[tuple[str, dict[str, Any], str]] = [
    ("connection range: 'close enough' (It. 1-7 question 1)", {"connect_range": 0.3}, "connect_range"),
    ("number of dice; 'ends too soon' (It. 2-3 question 2, It. 9)",
     {"dice": ("d20", "d20", "d12", "d8", "d6", "d6", "d6", "d6")}, "dice"),
    ("Scoring 1 against Scoring 2 (It. 3)", {**VARIANTS["iteration3_scoring2"]}, "scoring"),
    ("a d12 instead of the neutral d20 (It. 4 question 1)",
     {**VARIANTS["iteration3_scoring1"], "borg_faces": tuple(range(1, 13)), "borg_pips": (0,) * 12},
     "borg_faces"),
    ("auto-disconnect (It. 7 question 5)", {"disconnect_on_move": False}, "disconnect_on_move"),
    ("Borg 2 and 'the 64 can't be beaten' (It. 7)", {**VARIANTS["iteration7_borg2"]}, "borg_faces"),
    ("torpedoes (It. 8, It. 9)", {**VARIANTS["torpedoes_iter9"]}, "torpedoes"),
    ("Objective 1 'far too long' (It. 2)", {**VARIANTS["objective1"]}, "mode"),
    ("Objective 2 'too easy', 'varies widely' (It. 2)", {**VARIANTS["objective2"]}, "mode"),
    ("skill: the throw's noise (It. 1 question 6)", {"roll_dir_noise_deg": 0.0}, "roll_dir_noise_deg"),
]


@pytest.mark.parametrize(("question", "values", "knob"), QUESTION_KNOBS,
                         ids=[q.split(" (")[0] for q, _, _ in QUESTION_KNOBS])
def test_each_seed_question_has_a_knob_that_changes_the_game(question: str, values: dict[str, Any],
                                                             knob: str) -> None:
    p = params_from_dict(StarDiceParams, values)
    assert getattr(p, knob) != getattr(StarDiceParams(), knob), question
    state = GAME.new_state(p, 0)
    assert state.params == p and not state.is_terminal


def test_graded_bots_exist_for_the_balance_of_strategy_skill_and_chance() -> None:
    """It. 1-3 question 6 ("Does the balance between strategy, skill, and chance feel good?"):
    bots of graded strength, the random thrower and two search budgets."""
    assert {"random-thrower", "search", "search-strong"} <= set(BOTS)
    weak, strong = BOTS["search"](), BOTS["search-strong"]()
    assert (weak.candidates, weak.samples) < (strong.candidates, strong.samples)  # type: ignore[attr-defined]


def test_the_search_bot_plays_objective2_for_white_against_red() -> None:
    """The bots' value (`Game.evaluate`) in Objective 2 is the white score against the red, not
    Objective 1's target: a table where red leads is worth less than where white leads."""
    state = GAME.new_state(params("objective2"), 3)
    white, red = state.current_score().points[:2]
    value = GAME.evaluate(state, 0)
    assert (value < 0.5) == (white < red) and 0.0 < value < 1.0
    over = played("objective2", 1)
    assert GAME.evaluate(over, 0) == over.returns()[0]
