"""The expectimax troll bot (search.py): legal, deterministic, blind to hidden cards and future
dice, and its chance model is exactly the awakening phase of seed 000 §7.1."""

from __future__ import annotations

from collections import Counter
from math import sqrt

from tests.games.troll.helpers import FULL_LOWER, FULL_UPPER, position

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.params import resolve_params
from playtable.core.playout import play_out
from playtable.games.troll.cards import card_text
from playtable.games.troll.game import GAME
from playtable.games.troll.leaves import LEAVES
from playtable.games.troll.params import TrollParams
from playtable.games.troll.rules import TrollState
from playtable.games.troll.search import (
    ExpectimaxTroll,
    StrongestTroll,
    _card_class,
    awakening_outcomes,
    belief,
    best_turn_value,
    end_key,
    position_key,
    turn_ends,
)

FAST = "expectimax:depth=2,width=3,inner_width=2"


def _held(state: TrollState) -> TrollState:
    """The position as it stands at the end of a turn, before the next awakening phase."""
    held = state.clone()
    held.actions_left = 0
    held.hold_next_turn = True
    return held


def _signature(state: TrollState) -> tuple[object, ...]:
    """What the player sees of a position after an awakening phase: heights, which tops are
    awake and what kind of card each is, the set-aside pile, the outcome."""
    awake = tuple(sorted((slot, _card_class(s[-1], False)) for slot, s in enumerate(state.stacks)
                         if s and s[-1] in state.face_up))
    return (tuple(len(s) for s in state.stacks), awake, len(state.set_aside), state.outcome,
            len(state.deck), len(state.played[0]), len(state.played[1]))


def _compare_with_rules(held: TrollState, samples: int = 3000) -> None:
    model: Counter[tuple[object, ...]] = Counter()
    for p, after in awakening_outcomes(belief(held)):
        model[_signature(after)] += p  # type: ignore[assignment]
    assert abs(sum(model.values()) - 1.0) < 1e-9
    seen: Counter[tuple[object, ...]] = Counter()
    for i in range(samples):
        world = held.determinize(0, Chance(1000 + i))
        world.hold_next_turn = False
        world._start_turn([])
        seen[_signature(world)] += 1
    for sig in set(model) | set(seen):
        p = model.get(sig, 0.0)
        freq = seen.get(sig, 0) / samples
        assert abs(freq - p) <= 4.5 * sqrt(max(p * (1 - p), 1e-4) / samples) + 0.004, (sig, p, freq)


def test_chance_model_of_a_deck_draw_matches_the_rules() -> None:
    """§7.1 "Brick awakening phase": with nothing set aside one card is drawn; its colour names
    the row (odds from the unseen cards), the die the position; empty positions redirect
    ("No brick there..."); an awake brick hit again flies away, with the troll on it."""
    state = GAME.new_state(seed=5)
    for _ in range(6):  # a few turns in, so some bricks are awake, seen or gone
        if state.is_terminal:
            break
        state.apply(make_agent(GAME, "heuristic").choose(state, Chance(0)))
    assert not state.is_terminal
    _compare_with_rules(_held(state))


def test_chance_model_of_set_aside_cards_and_double_awakenings() -> None:
    """§7.1: set-aside cards are all played back, one die each, in order; a face-up brick rolled
    again flies away and is set aside; a double awakening under the troll ends the game."""
    lower = ["", "2C", "3C", "4C", "", "JC QC KC"]
    held = _held(position(lower, FULL_UPPER, troll="lower 6", awake=("KC", "3C", "10S"),
                          set_aside=("5H", "6D"), deck=("2H", "3H", "4H")))
    outcomes = awakening_outcomes(belief(held))
    assert abs(sum(p for p, _ in outcomes) - 1.0) < 1e-9
    lost = sum(p for p, after in outcomes if after.outcome == "loss")
    assert lost > 0
    _compare_with_rules(held)


def test_chance_model_with_an_empty_deck_and_nothing_set_aside() -> None:
    """§7.1 "The deck of awakening is empty...": no awakening, the turn goes on."""
    held = _held(position(FULL_LOWER, FULL_UPPER, troll="lower 3", awake=("7C",)))
    outcomes = awakening_outcomes(belief(held))
    assert len(outcomes) == 1 and outcomes[0][0] == 1.0
    assert outcomes[0][1].turn == held.turn + 1 and outcomes[0][1].actions_left == 2


def test_it_plays_only_legal_actions_and_is_deterministic() -> None:
    runs = []
    for _ in range(2):
        state = GAME.new_state(seed=11)
        agent = make_agent(GAME, FAST)
        actions = play_out(state, [agent], Chance(4))  # apply() rejects any illegal action
        runs.append([str(a) for a in actions])
        assert state.is_terminal
    assert runs[0] == runs[1]


def test_it_plays_a_variant_to_the_end() -> None:
    params = resolve_params(TrollParams, GAME.variants, "plus-one")
    state = GAME.new_state(params, 2)
    play_out(state, [make_agent(GAME, "expectimax:depth=1")], Chance(2))
    assert state.is_terminal


def test_it_never_reads_hidden_cards_or_future_dice() -> None:
    """Positions that differ only in what the player cannot see (unseen bricks, the deck's
    order, the die rolls to come) look the same to the bot and get the same move."""
    agent = ExpectimaxTroll(depth=2, width=4, inner_width=2)
    for seed in (1, 6):
        state = GAME.new_state(seed=seed)
        twins = [state] + [state.determinize(0, Chance(100 + k)) for k in range(3)]
        assert any(t.deck != state.deck for t in twins[1:])
        assert len({position_key(belief(t)) for t in twins}) == 1
        assert len({str(ExpectimaxTroll(depth=2, width=4, inner_width=2).choose(t, Chance(9)))
                    for t in twins}) == 1
        assert agent.choose(state, Chance(9)) is not None


def test_the_strongest_bot_is_offered_by_name_and_is_the_search_on_the_rows_leaf() -> None:
    """The strongest bot is selectable wherever a bot name is (the web lobby lists
    `GAME.bots()`), takes the search's options, and plays as `expectimax:leaf=rows`."""
    assert "strongest" in GAME.bots()
    agent = make_agent(GAME, "strongest:depth=1")
    assert isinstance(agent, StrongestTroll) and agent.leaf == "rows" and agent.depth == 1
    games = []
    for spec in ("strongest:depth=1", "expectimax:depth=1,leaf=rows"):
        state = GAME.new_state(seed=5)
        games.append([str(a) for a in play_out(state, [make_agent(GAME, spec)], Chance(3))])
    assert games[0] == games[1]


def test_turn_ends_cover_every_pair_of_actions() -> None:
    """§6.2: the troll takes two actions; every legal pair ends in one of the listed positions."""
    state = belief(GAME.new_state(seed=3))
    ends = {end_key(after) for _, after in turn_ends(state)}
    for first in state.legal_actions():
        one = state.clone()
        one.apply(first)
        for second in one.legal_actions():
            two = one.clone()
            two.apply(second)
            assert end_key(two) in ends, (str(first), str(second))
    assert all(card_text(c) for c in state.deck)


def test_the_best_turn_value_is_the_best_leaf_over_the_distinct_endings() -> None:
    """`best_turn_value` scores every way through the turn, repeats included: in the final rules
    it equals the best leaf over `turn_ends`' distinct endings for every leaf, along whole random
    games. In the draft's (a spade's wake reveals a brick mid-turn, seed 001 §4.1) two ways may end
    alike with different bricks seen, and `turn_ends` keeps only the first: never worse there."""
    for rules in ("final", "draft"):
        compared = 0
        for seed in range(10, 30):
            state = GAME.new_state(seed=seed, params=TrollParams(rules=rules))
            rng = Chance(seed)
            while not state.is_terminal:
                if state.actions_left == 2:
                    held = belief(state)
                    for leaf in LEAVES.values():
                        distinct = max(leaf(after) for _, after in turn_ends(held))
                        found = best_turn_value(held, leaf)
                        same = found == distinct if rules == "final" else found >= distinct
                        assert same, (rules, seed, state.turn)
                    compared += 1
                state.apply(rng.choice(state.legal_actions()))
        assert compared >= 20, rules


def test_the_within_turn_copy_keeps_every_field_and_leaves_the_original_alone() -> None:
    state = GAME.new_state(seed=4)
    before = state.to_json()
    light = state.clone(within_turn=True)
    assert set(vars(light)) == set(vars(state.clone()))
    light.hold_next_turn = True
    while not light.outcome and light.actions_left:
        light.apply(light.legal_actions()[0])
    assert state.to_json() == before
