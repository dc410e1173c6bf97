"""The wizard game's bots: legal, ending games, better than random, and the hero bot sees only
what its seat may see."""

from __future__ import annotations

import pytest
from tests.games.wizard.helpers import params

from playtable.agents import check_remote_agent_spec, make_agent
from playtable.agents.random_agent import RandomAgent
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.protocol import Agent
from playtable.games.wizard.bots import (
    HERO_STYLES,
    HeuristicAgent,
    StyledAgent,
    _hoard_threat,
    p_heroes_win,
)
from playtable.games.wizard.game import GAME
from playtable.games.wizard.state import WizardState


def _play(players: int, seed: int, wizard: Agent, heroes: Agent) -> WizardState:
    st = GAME.new_state(params(players), seed)
    rng = Chance(seed + 11)
    while not st.is_terminal:
        agent = wizard if st.current_player == 0 else heroes
        a = agent.choose(st, rng)
        assert a in st.legal_actions()
        st.apply(a)
    return st


def test_bots_are_registered() -> None:
    assert "heuristic" in GAME.bots()
    assert make_agent(GAME, "heuristic").name == "heuristic"


def test_heuristic_heroes_beat_a_random_wizard() -> None:
    wins = sum(_play(3, s, RandomAgent(), HeuristicAgent()).winner == "heroes" for s in range(12))
    assert wins >= 10


def test_heuristic_wizard_beats_random_heroes() -> None:
    smart = sum(_play(3, s, HeuristicAgent(), RandomAgent()).winner == "wizard" for s in range(12))
    dumb = sum(_play(3, s, RandomAgent(), RandomAgent()).winner == "wizard" for s in range(12))
    assert smart > dumb and smart >= 5


def test_every_player_count_ends_with_heuristic_bots() -> None:
    for players in (3, 4, 5):
        st = _play(players, players, HeuristicAgent(), HeuristicAgent())
        assert st.is_terminal


def _chooses_from_its_seat_alone(bot: Agent, seed: int, rng: Chance, checks: int) -> None:
    """Over a game the bot plays, each hero's choice is the same on the true state and on a
    determinization for that hero's seat."""
    st = GAME.new_state(params(4), seed)
    checked = 0
    while not st.is_terminal and checked < checks:
        seat = st.current_player
        if seat != 0:
            det = st.determinize(seat, Chance(checked))
            assert str(bot.choose(det, Chance(99))) == str(bot.choose(st, Chance(99)))
            checked += 1
        st.apply(bot.choose(st, rng))


def test_hero_bot_uses_only_what_its_seat_sees() -> None:
    """A hero bot chooses the same on the true state and on any determinization for its seat."""
    _chooses_from_its_seat_alone(HeuristicAgent(), 3, Chance(1), 60)


def test_an_erring_heuristic_departs_from_the_heuristic_at_its_rate_only() -> None:
    """`heuristic:mistakes=P` (the ladder's Casual, RULES.md §9): at rate 0 it is the heuristic
    move for move on the same stream; at 0.5 some of its choices are other legal moves and the
    rest the heuristic's; at 1 nearly none is. The rate is bounded for a web seat."""
    heuristic = HeuristicAgent()
    for rate, least, most in ((0.0, 1.0, 1.0), (0.5, 0.45, 0.9), (1.0, 0.0, 0.45)):
        erring = make_agent(GAME, f"heuristic:mistakes={rate}")
        st = GAME.new_state(params(4), 7)
        play, same, choices = Chance(3), 0, 0
        while not st.is_terminal and choices < 200:
            legal = st.legal_actions()
            act = erring.choose(st, Chance(choices))
            assert act in legal
            if len(legal) > 1:
                same += str(act) == str(heuristic.choose(st, Chance(choices)))
                choices += 1
            st.apply(heuristic.choose(st, play))
        assert least <= same / choices <= most, (rate, same, choices)
    check_remote_agent_spec(GAME, "heuristic:mistakes=0.35")
    with pytest.raises(BadParameter, match="from 0.0 to 1.0"):
        check_remote_agent_spec(GAME, "heuristic:mistakes=1.5")


def test_win_probability_formula() -> None:
    """8 Nov 'Combat': ties go to the heroes, the best hero die counts."""
    assert abs(p_heroes_win(1, 0, 0) - 0.525) < 1e-9  # P(h >= w) for two d20
    assert p_heroes_win(2, 0, 0) > p_heroes_win(1, 0, 0)
    assert p_heroes_win(1, 0, 25) == 0.0 and p_heroes_win(1, 25, 0) == 1.0


# -- play styles (seed 003, 26 Oct: "fair for the wizard and the heroes no matter what
# play-style they choose") -----------------------------------------------------------------------
STYLES = ("cautious", "reckless", "hoarder", "spender")


def test_style_agents_are_named_and_take_both_styles_as_options() -> None:
    """26 Oct 'Goal': the styles are agents of the game, by name, and `styled` takes a style
    for each side."""
    for name in STYLES:
        assert name in GAME.bots() and make_agent(GAME, name).name == name
    agent = make_agent(GAME, "styled:heroes=reckless,wizard=hoarding")
    assert isinstance(agent, StyledAgent) and (agent.heroes, agent.wizard) == ("reckless", "hoarding")
    assert (agent.care, agent.together, agent.own_target) == (0.3, 0.0, True)
    plain = make_agent(GAME, "styled")
    assert [getattr(plain, d) for d in HERO_STYLES["cautious"]] == [
        getattr(HeuristicAgent, d) for d in HERO_STYLES["cautious"]]


def test_every_pairing_of_styles_ends_its_games() -> None:
    """26 Oct 'Goal': each wizard style against each hero style plays legal games to the end."""
    for i, (wizard, heroes) in enumerate([(w, h) for w in ("hoarder", "spender", "heuristic")
                                          for h in ("cautious", "reckless")]):
        st = _play(3, 40 + i, make_agent(GAME, wizard), make_agent(GAME, heroes))
        assert st.is_terminal


def _first_main(seed: int) -> WizardState:
    st = GAME.new_state(params(4), seed)
    bot = HeuristicAgent()
    rng = Chance(5)
    while st.decision.get("kind") != "main":
        st.apply(bot.choose(st, rng))
    return st


def test_a_hoarding_wizard_keeps_his_hand_until_a_threat() -> None:
    """The hoarding style: with no hero near a hidden key, fewer keys found than one short of the
    door and a hand of at most HOARD_HAND, he ends his turn where the heuristic plays a card;
    with a hero two steps from a key he plays as the heuristic does."""
    for seed in range(30):
        st = _first_main(seed)
        heuristic = HeuristicAgent().choose(st, Chance(1))
        if heuristic.verb != "play" or _hoard_threat(st):
            continue
        assert str(make_agent(GAME, "hoarder").choose(st, Chance(1))) == "end"
        key = next(sq for sq, c in st.cells.items() if c.key)
        st.hero(1).pos = (key[0], key[1] - 1) if key[1] > 0 else (key[0], key[1] + 1)
        assert _hoard_threat(st)
        assert str(make_agent(GAME, "hoarder").choose(st, Chance(1))) == str(heuristic)
        return
    raise AssertionError("no seed gave a quiet first turn")


def test_a_spending_wizard_plays_his_cheapest_cards_first() -> None:
    """The spending style: spells at any target first, then the cheapest monster or trap."""
    st = _first_main(2)
    st.hand = ["orc.1", "goblin.1", "troll.1"]
    st.mana = 6
    assert str(make_agent(GAME, "spender").choose(st, Chance(1))) == "play goblin"
    assert str(HeuristicAgent().choose(st, Chance(1))) == "play troll"


def test_cautious_and_reckless_heroes_differ_on_a_potion() -> None:
    """The hero styles: a cautious hero drinks a potion at 7 hit points, the heuristic at 5, a
    reckless one at 2."""
    st = _first_main(3)
    st.apply_text("end")
    h = st.hero(int(st.decision["seat"]))
    h.items, h.hp = ["health_potion.1"], 6
    assert str(make_agent(GAME, "cautious").choose(st, Chance(1))) == "use health_potion"
    for name in ("heuristic", "reckless"):
        assert make_agent(GAME, name).choose(st, Chance(1)).verb != "use"


def test_style_hero_bots_use_only_what_their_seat_sees() -> None:
    """As the heuristic: each hero style chooses the same on any determinization for its seat."""
    for name in ("cautious", "reckless"):
        _chooses_from_its_seat_alone(make_agent(GAME, name), 5, Chance(2), 30)
