"""The wizard game's bots: legal, ending games, better than random, and the hero bot sees only
what its seat may see."""

from __future__ import annotations

from tests.games.wizard.helpers import params

from playtable.agents import make_agent
from playtable.agents.random_agent import RandomAgent
from playtable.core.chance import Chance
from playtable.core.protocol import Agent
from playtable.games.wizard.bots import HeuristicAgent, p_heroes_win
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


def test_hero_bot_uses_only_what_its_seat_sees() -> None:
    """A hero bot chooses the same on the true state and on any determinization for its seat."""
    bot = HeuristicAgent()
    st = GAME.new_state(params(4), 3)
    rng = Chance(1)
    checked = 0
    while not st.is_terminal and checked < 60:
        seat = st.current_player
        if seat != 0:
            det = st.determinize(seat, Chance(checked))
            assert str(bot.choose(det, Chance(99))) == str(bot.choose(st, Chance(99)))
            checked += 1
        st.apply(bot.choose(st, rng))


def test_win_probability_formula() -> None:
    """8 Nov 'Combat': ties go to the heroes, the best hero die counts."""
    assert abs(p_heroes_win(1, 0, 0) - 0.525) < 1e-9  # P(h >= w) for two d20
    assert p_heroes_win(2, 0, 0) > p_heroes_win(1, 0, 0)
    assert p_heroes_win(1, 0, 25) == 0.0 and p_heroes_win(1, 25, 0) == 1.0
