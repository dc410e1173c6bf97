"""A position in the middle of a spell survives save and load."""

from __future__ import annotations

import json

from tests.games.wizard.helpers import ready, sq

from playtable.games.wizard.game import GAME
from playtable.games.wizard.state import WizardState


def _move_to_hand(st: WizardState, card: str) -> None:
    """Put `card` in the wizard's hand from wherever it is, so every card stays exactly once."""
    for pile in (st.deck, st.discard, st.out, st.offered):
        if card in pile:
            pile.remove(card)
    if card not in st.hand:
        st.hand.append(card)


def test_whirlwind_half_sent_is_saved_and_read_back() -> None:
    """26 Oct update: Whirlwind "moves all players in a room one room away from each other"; the
    wizard sends them one at a time (`send b1`, then `send a2`), and between the two sends the
    decision lists the squares already used. Those are squares, not seats: reading the saved
    position back refused 'b1' as a seat, so a table stopped there for good (seed 92646142)."""
    st = ready()
    _move_to_hand(st, "whirlwind.1")
    st.mana = 5
    st.apply_text("play whirlwind")
    st.apply_text("target a1")
    st.apply_text("send b1")
    assert st.decision["kind"] == "send" and st.decision["used"] == ["b1"]
    back = GAME.state_from_json(json.loads(json.dumps(st.to_json())))
    assert back.to_json() == st.to_json()
    assert [str(a) for a in back.legal_actions()] == ["send a2"]
    back.apply_text("send a2")
    assert {back.hero(1).pos, back.hero(2).pos} == {sq("b1"), sq("a2")}


def test_the_stalled_all_bot_table_now_plays_to_its_end() -> None:
    """The all-bot 3-player table of seed 92646142 (every seat the heuristic
    bot) stopped at step 109, a half-sent Whirlwind its worker could not read back. Played as
    the server plays it: before every bot move the position goes to JSON text and back, and the
    bot's random stream is the table's seed and the step, as the server's hub makes it."""
    from playtable.agents import make_agent
    from playtable.core.chance import Chance
    from playtable.core.params import params_from_dict

    seed = 92646142
    state = GAME.new_state(params_from_dict(GAME.params_type, {"players": 3}), seed)
    bots = [make_agent(GAME, "heuristic") for _ in range(3)]
    step = 0
    while not state.is_terminal and step < 2000:
        seat = state.current_player
        position = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
        text = str(bots[seat].choose(position, Chance((seed * 1_000_003 + step) % 2**62)))
        state.apply_text(text)
        step += 1
    assert state.is_terminal and state.winner in ("wizard", "heroes", "draw"), step
