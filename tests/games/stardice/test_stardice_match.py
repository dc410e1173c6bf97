"""The Star Dice match (Final Rules, seed 002) through the game protocol."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition, IllegalAction
from playtable.core.params import params_from_dict, resolve_params
from playtable.core.playout import play_out
from playtable.core.records import record_of, replay
from playtable.core.registry import get_game
from playtable.games.stardice.actions import BORG, Call, Hold, Throw, Touch, parse_action_text
from playtable.games.stardice.bots import RandomThrower, SearchThrower
from playtable.games.stardice.formation import segments_cross
from playtable.games.stardice.game import GAME
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.params import VARIANTS, StarDiceParams

BATTLE = params_from_dict(StarDiceParams, {"war_target": 0})


def opened(seed: int = 1, call: str = "odd", **rigged: list[int]) -> StarDiceState:
    """A battle past the opening: the call made and the Borg die rolled onto the table."""
    state = GAME.new_state(BATTLE, seed, rigged or None)
    state.apply(Call("odd" if call == "odd" else "even"))
    state.apply(Throw.make("roll", BORG, 0.5, -0.03, 90.0, 1.6, 2.0))
    assert state.phase == "throw"
    return state


def play(state: StarDiceState, seed: int = 5) -> list[str]:
    agents = [RandomThrower(), RandomThrower()]
    return [str(a) for a in play_out(state, agents, Chance(seed))]


def test_registered_and_final_rules_materials() -> None:
    """Final Rules, materials: each side 2d20, 1d12, 1d8 and 3d6; the Borg die 8,16,16,24,24,32
    with pips 3,4,4,5,5,6."""
    assert get_game("stardice") is GAME
    state = GAME.new_state(seed=1)
    assert state.hand_names(0) == ["d20a", "d20b", "d12a", "d8a", "d6a", "d6b", "d6c"]
    assert state.hands[1][0] == "K.d20a"
    assert state.params.borg_faces == (8, 16, 16, 24, 24, 32)
    assert state.params.borg_pips == (3, 4, 4, 5, 5, 6)
    assert GAME.seat_names(state.params) == ["Federation", "Klingon"]


def test_battle_step1_borg_roll_and_odds_evens_decide_the_first_player() -> None:
    """Final Rules, Battle 1: the caller goes first if the Borg's pips match the call."""
    # rig the Borg face: index 2 -> 16 with 4 pips (even)
    s = GAME.new_state(BATTLE, 3, {"borg": [2]})
    assert s.phase == "call" and s.current_player == 0  # Klingon rolls, Federation calls
    s.apply(Call("even"))
    assert s.current_player == 1
    events = s.apply(Throw.make("roll", BORG, 0.5, -0.03, 90.0, 1.6, 2.0))
    assert s.values[BORG] == 16 and s.borg_pips() == 4
    assert s.current_player == 0 and events[-1].kind == "first_player"
    s = GAME.new_state(BATTLE, 3, {"borg": [1]})  # 8 with 3 pips: odd, the call fails
    s.apply(Call("even"))
    s.apply(Throw.make("roll", BORG, 0.5, -0.03, 90.0, 1.6, 2.0))
    assert s.current_player == 1


def test_other_rules_borg_rolled_off_is_rerolled_and_recalled() -> None:
    """Other rules: "If the Borg die is initially rolled off the table, re-roll it. The calling
    player may re-call"."""
    s = GAME.new_state(BATTLE, 3)
    s.apply(Call("odd"))
    events = s.apply(Throw.make("roll", BORG, 0.5, -0.03, 270.0, 2.0, 0.0))  # away from it
    assert events[-1].kind == "borg_reroll"
    assert s.phase == "call" and s.current_player == 0 and BORG not in s.table
    assert BORG not in s.eliminated


def test_a_die_that_never_entered_may_be_rethrown() -> None:
    """Other rules: a die that rolls off, is never detected and touches no die may be
    re-rolled: it returns to the hand and the same player throws again."""
    s = opened()
    seat = s.current_player
    events = s.apply(Throw.make("roll", "d8a", 0.5, -0.03, 270.0, 1.0, 0.0))
    assert events[-1].kind == "rethrow"
    assert "d8a" in s.hand_names(seat) and s.current_player == seat


def test_dice_knocked_off_are_eliminated_and_a_die_off_after_entering_is_lost() -> None:
    """Other rules: a die hit off the table is eliminated; a die that crossed the touch surface
    and left cannot be re-rolled."""
    s = opened()
    seat = s.current_player
    s.apply(Throw.make("roll", "d20a", 0.5, -0.03, 90.0, 4.5, 0.0))  # straight across and off
    assert f"{'FK'[seat]}.d20a" in s.eliminated
    assert "d20a" not in s.hand_names(seat) and s.current_player == 1 - seat


def test_knocking_the_borg_die_off_forfeits_the_battle() -> None:
    """Other rules: "If a player hits the Borg die off the table then he forfeits the battle";
    the other scores as if the forfeiter's dice rolled zeroes."""
    s = opened()
    data = s.to_json()
    for item in data["table"]:
        if item["id"] == BORG:
            item["x"], item["y"] = 0.5, 0.1
    data["engine"] = {"time": 0.0, "tracks": {}, "edges": []}
    s = GAME.state_from_json(data)
    seat = s.current_player
    events = s.apply(Throw.make("roll", "d20a", 0.5, -0.03, 90.0, 5.0, 0.0))
    assert BORG not in s.table
    kinds = [e.kind for e in events]
    assert "forfeit" in kinds and s.is_terminal
    assert s.battle_points[-1][seat] == 0


def test_touching_the_table_forfeits() -> None:
    """Other rules: touching the table so that the game's state changes forfeits the battle."""
    s = opened()
    seat = s.current_player
    events = s.apply(Touch())
    assert events[0].kind == "forfeit" and s.is_terminal
    assert s.returns()[seat] in (0.0, 0.5)


def test_only_a_d6_may_be_slid() -> None:
    """Ninth iteration / Final Rules: "The d6 dice are special ... slide it"."""
    s = opened()
    with pytest.raises(IllegalAction):
        s.apply(Throw.make("slide", "d20a", 0.5, -0.03, 90.0, 1.0, 0.0))
    s.apply(Throw.make("slide", "d6a", 0.5, -0.03, 90.0, 1.0, 0.0))


def test_illegal_actions_change_nothing() -> None:
    s = opened()
    before = json.dumps(s.to_json(), sort_keys=True)
    bad = [Call("odd"), Hold(), Throw.make("roll", "d4a", 0.5, -0.03, 90.0, 1.0, 0.0),
           Throw.make("roll", "d20a", 0.5, 0.3, 90.0, 1.0, 0.0),  # starts on the surface
           Throw.make("roll", "d20a", 0.5, -0.03, 90.0, 9.0, 0.0),  # too fast
           Throw.make("roll", BORG, 0.5, -0.03, 90.0, 1.0, 0.0)]
    for a in bad:
        with pytest.raises(IllegalAction):
            s.apply(a)
        assert json.dumps(s.to_json(), sort_keys=True) == before
    with pytest.raises(IllegalAction):
        s.apply(s.parse_action("roll d20a at nowhere"))


def test_action_texts_round_trip() -> None:
    s = opened()
    for a in s.legal_actions() + s.sample_actions(Chance(3), 20) + [Touch()]:
        assert parse_action_text(str(a)) == a
        assert s.parse_action(str(a)) == a
    t = parse_action_text("ROLL d20a at 0.5,-0.03 heading 90 speed 1.2 spin 3")
    assert str(t) == "roll d20a at 0.500,-0.030 heading 90.0 speed 1.200 spin 3.0"


def test_same_seed_and_same_throws_give_the_same_table() -> None:
    """All chance comes from the state's stream: two tables, same seed, same throws."""
    a, b = opened(seed=9), opened(seed=9)
    for text in ("roll d20a at 0.300,-0.030 heading 80.0 speed 1.400 spin 2.0",
                 "slide d6a at 1.030,0.400 heading 180.0 speed 1.100 spin 0.0"):
        assert [e.to_json() for e in a.apply_text(text)] == \
            [e.to_json() for e in b.apply_text(text)]
    assert a.to_json() == b.to_json()
    c = opened(seed=10)
    c.apply_text("roll d20a at 0.300,-0.030 heading 80.0 speed 1.400 spin 2.0")
    assert c.to_json()["table"] != a.to_json()["table"] or c.values != a.values


def test_rigged_faces() -> None:
    s = opened(d20=[17])
    seat = s.current_player
    s.apply(Throw.make("roll", "d20a", 0.5, -0.03, 90.0, 1.0, 0.0))
    assert s.values[f"{'FK'[seat]}.d20a"] == 17


def test_replay_reproduces_a_battle_exactly() -> None:
    """A record (seed + action texts) replays every event and the final table exactly."""
    state = GAME.new_state(BATTLE, 21)
    events: list = []
    actions = play_out(state, [SearchThrower(candidates=4), RandomThrower()], Chance(2),
                       events=events)
    rec = record_of("stardice", BATTLE, 21, actions)
    again, replayed = replay(rec)
    assert [e.to_json() for e in replayed] == [e.to_json() for e in events]
    assert again.to_json() == state.to_json()
    assert state.is_terminal and sum(state.returns()) == 1.0


def test_json_round_trip_and_clone_independence() -> None:
    s = opened(seed=4)
    s.apply(Throw.make("roll", "d12a", 0.2, -0.03, 70.0, 1.3, 1.0))
    data = json.loads(json.dumps(s.to_json()))
    back = GAME.state_from_json(data)
    assert back.to_json() == s.to_json()
    clone = s.clone()
    clone.apply(clone.sample_actions(Chance(1), 1)[0])
    assert clone.to_json() != s.to_json()
    assert back.to_json() == s.to_json()


def test_bad_positions_are_named() -> None:
    s = opened()
    data = s.to_json()
    on_table = data["table"][0]["id"]
    ghost = {"time": 0.0, "edges": [], "tracks": {"F.d8a": {"x": 0.1, "y": 0.1, "anchor": None,
                                                          "still": [0.1, 0.1]}}}
    for key, value in (("phase", "dancing"), ("hands", [["K.d20a"], []]), ("table", 3),
                       ("eliminated", [on_table]), ("engine", ghost),
                       ("values", {"F.d4a": 3})):
        bad = dict(data)
        bad[key] = value
        with pytest.raises(BadPosition):
            GAME.state_from_json(bad)


def test_war_to_more_than_50_points() -> None:
    """Final Rules, War: battles add up; the first to exceed 50 wins; if both exceed after the
    same battle the higher total wins."""
    params = params_from_dict(StarDiceParams, {"war_target": 6})
    state = GAME.new_state(params, 2)
    play_out(state, [RandomThrower(), RandomThrower()], Chance(3))
    assert state.is_terminal
    assert max(state.war) > 6 or len(state.battle_points) == params.max_battles
    assert state.war[state.winner or 0] >= state.war[1 - (state.winner or 0)]
    assert sum(b[0] for b in state.battle_points) == state.war[0]


def test_torpedo_variant_iter9_fires_only_after_a_d6() -> None:
    """Iteration 9 (a variant): a torpedo may be fired immediately after rolling a d6, and only
    then."""
    params = resolve_params(StarDiceParams, VARIANTS, "torpedoes_iter9", ["war_target=0"])
    s = GAME.new_state(params, 1)
    s.apply(Call("odd"))
    s.apply(Throw.make("roll", BORG, 0.5, -0.03, 90.0, 1.6, 2.0))
    seat = s.current_player
    with pytest.raises(IllegalAction):
        s.apply(Throw.make("torpedo", "torpedo", 0.5, -0.03, 90.0, 1.0, 0.0))
    s.apply(Throw.make("roll", "d6a", 0.5, -0.03, 90.0, 1.0, 0.0))
    assert s.phase == "torpedo" and s.current_player == seat
    s.apply(Throw.make("torpedo", "torpedo", 0.2, -0.03, 60.0, 2.0, 0.0))
    assert s.torpedoes_left[seat] == 2 and s.current_player == 1 - seat
    assert s.phase == "throw"
    assert not any(k.endswith(".t1") for k in s.layout().positions)  # stones are not seen


def test_torpedo_variant_iter8_one_per_own_d6() -> None:
    """Iteration 8 (a variant): each own d6 on the table unlocks one torpedo, fired instead of
    a ship."""
    params = resolve_params(StarDiceParams, VARIANTS, "torpedoes_iter8", ["war_target=0"])
    s = GAME.new_state(params, 1)
    s.apply(Call("odd"))
    s.apply(Throw.make("roll", BORG, 0.5, -0.03, 90.0, 1.6, 2.0))
    seat = s.current_player
    torpedo = Throw.make("torpedo", "torpedo", 0.5, -0.03, 90.0, 1.0, 0.0)
    assert s.is_legal(torpedo) is not None
    s.apply(Throw.make("roll", "d6a", 0.5, -0.03, 90.0, 1.0, 0.0))
    s.apply(s.sample_actions(Chance(1), 1)[0])  # the other player
    if f"{'FK'[seat]}.d6a" in s.table:
        assert s.is_legal(torpedo) is None


def test_every_variant_plays_to_the_end() -> None:
    for name in VARIANTS:
        params = resolve_params(StarDiceParams, VARIANTS, name, ["war_target=0"])
        state = GAME.new_state(params, 7)
        play_out(state, [RandomThrower(), RandomThrower()], Chance(1))
        assert state.is_terminal, name


@settings(deadline=None, max_examples=15)
@given(st.integers(0, 10_000))
def test_property_random_battles_keep_invariants(seed: int) -> None:
    """Random battles: every die is in a hand, on the table or eliminated (never two of these),
    observations are JSON and hold no stream, the state round-trips."""
    state = GAME.new_state(BATTLE, seed)
    rng = Chance(seed)
    while not state.is_terminal:
        state.apply(RandomThrower().choose(state, rng))
        on_table = set(state.table)
        for hand in state.hands:
            assert not on_table & set(hand)
            assert not set(state.eliminated) & set(hand)
        assert not on_table & set(state.eliminated)
        obs = state.observation(0)
        assert "chance" not in json.dumps(obs)
        lay = state.layout()
        for k in lay.positions:
            assert lay.degree(k) <= 2
        for i, (a, b) in enumerate(lay.edges):
            for c, d in lay.edges[i + 1:]:
                pos = lay.positions
                assert not segments_cross(pos[a], pos[b], pos[c], pos[d])
    assert GAME.state_from_json(state.to_json()).to_json() == state.to_json()


def test_replay_reproduces_a_war_exactly() -> None:
    """A whole war (several battles, Borg roles alternating) replays exactly."""
    params = params_from_dict(StarDiceParams, {"war_target": 12})
    state = GAME.new_state(params, 8)
    events: list = []
    actions = play_out(state, [RandomThrower(), RandomThrower()], Chance(8), events=events)
    assert len(state.battle_points) >= 2
    again, replayed = replay(record_of("stardice", params, 8, actions))
    assert [e.to_json() for e in replayed] == [e.to_json() for e in events]
    assert again.to_json() == state.to_json()
    # the Klingon rolled the Borg die in battle 1; the roles alternate from battle 2 on
    rollers = [e.data["roller"] for e in events if e.kind == "battle_started"]
    assert rollers == [(b + 1) % 2 for b in range(1, len(state.battle_points))]


def test_observation_and_determinize_hide_only_the_future() -> None:
    s = opened(seed=2)
    s.apply(Throw.make("roll", "d12a", 0.2, -0.03, 70.0, 1.3, 1.0))
    obs = s.observation(1)
    assert obs["hands"][0] == s.hand_names(0) and len(obs["table"]) == len(s.table)
    json.dumps(obs)
    d = s.determinize(1, Chance(5))
    assert d.table == s.table and d.values == s.values and d.chance != s.chance


def test_same_table_in_a_fresh_process() -> None:
    """The table does not depend on the process: a fresh interpreter replays the same throws to
    the same positions, bit for bit."""
    import subprocess
    import sys

    code = (
        "import json\n"
        "from playtable.core.chance import Chance\n"
        "from playtable.core.params import params_from_dict\n"
        "from playtable.core.playout import play_out\n"
        "from playtable.games.stardice.bots import RandomThrower\n"
        "from playtable.games.stardice.game import GAME\n"
        "p = params_from_dict(GAME.params_type, {'war_target': 0})\n"
        "s = GAME.new_state(p, 31)\n"
        "play_out(s, [RandomThrower(), RandomThrower()], Chance(31))\n"
        "print(json.dumps(s.to_json(), sort_keys=True))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    here = GAME.new_state(BATTLE, 31)
    play_out(here, [RandomThrower(), RandomThrower()], Chance(31))
    assert json.loads(out) == json.loads(json.dumps(here.to_json(), sort_keys=True))


def test_iteration2_foul_discards_a_die_of_the_players_choice() -> None:
    """Iteration 2 (kept through iteration 4): "When a play incurs a foul, he must immediately
    discard one die of his choice from his hand. If he has no dice left, then he automatically
    loses the game." The Final Rules make a foul a forfeit instead."""
    params = resolve_params(StarDiceParams, VARIANTS, "iteration4")
    s = GAME.new_state(params, 2)
    s.apply(Call("odd"))
    s.apply(Throw.make("roll", BORG, 0.5, -0.03, 90.0, 1.6, 2.0))
    seat = s.current_player
    with pytest.raises(IllegalAction):
        s.apply(Touch())  # the die must be named
    events = s.apply(s.parse_action("touch d20a"))
    assert events[0].kind == "foul" and "d20a" not in s.hand_names(seat)
    assert f"{'FK'[seat]}.d20a" in s.eliminated and s.current_player == seat
    final = opened()
    with pytest.raises(IllegalAction):
        final.apply(Touch("d20a"))


def test_menu_is_public_and_samples_come_from_it() -> None:
    """legal_actions is a finite menu fixed by the public position (the same in every
    determinization, as tree search needs); sample_actions picks from it; every menu throw is
    legal."""
    s = opened(seed=6)
    s.apply(Throw.make("roll", "d12a", 0.2, -0.03, 70.0, 1.3, 1.0))
    menu = [str(a) for a in s.legal_actions()]
    assert len(menu) > StarDiceState.POOL
    assert [str(a) for a in s.determinize(0, Chance(9)).legal_actions()] == menu
    assert set(map(str, s.sample_actions(Chance(2), 10))) <= set(menu)
    assert all(s.is_legal(a) is None for a in s.legal_actions())
    fresh = s.fresh_throws(Chance(3), 5)
    assert len(fresh) == 5 and all(s.is_legal(a) is None for a in fresh)
