"""Star Dice, seed 002 "Second Iteration", Objective 1: the solitaire rounds game with the blank
d6 (variant `objective1`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playtable.cli import main
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter, BadPosition, IllegalAction
from playtable.core.params import params_from_dict
from playtable.core.playout import play_out
from playtable.core.protocol import TERMINAL
from playtable.core.records import record_of, replay
from playtable.games.stardice.actions import BLANK, Touch
from playtable.games.stardice.bots import RandomThrower, SearchThrower, evaluate
from playtable.games.stardice.formation import FormationEngine
from playtable.games.stardice.game import GAME
from playtable.games.stardice.params import VARIANTS, StarDiceParams
from playtable.games.stardice.physics import Piece
from playtable.games.stardice.render import render_table
from playtable.games.stardice.scoring import objective1_target
from playtable.games.stardice.solitaire import SolitaireState

SOLO = params_from_dict(StarDiceParams, VARIANTS["objective1"])


def fresh(seed: int = 1) -> SolitaireState:
    state = GAME.new_state(SOLO, seed)
    assert isinstance(state, SolitaireState)
    return state


def lay(state: SolitaireState, pieces: dict[str, tuple[float, float, int]]) -> None:
    """Put exactly `pieces` (id -> x, y, value) on the table at rest and let the engine see them;
    the dice laid are taken out of the hand."""
    state.table = {k: Piece(k, "d6" if k == BLANK else k.split(".")[1][:-1], x, y, 0.0)
                   for k, (x, y, _) in pieces.items()}
    state.values = {k: v for k, (_, _, v) in pieces.items()}
    state.hands[0] = [d for d in state.hands[0] if d not in pieces]
    state.engine = FormationEngine(state.params.formation_params())
    state._finish_frames(0.0)


def chain(state: SolitaireState, a: int, b: int) -> list:
    """End the round with the blank, d20a and d12a in a straight string (values a and b) and
    the rest of the hand discarded: the round scores a + b (strings at face value)."""
    lay(state, {BLANK: (0.3, 0.4, 0), "F.d20a": (0.45, 0.4, a), "F.d12a": (0.6, 0.4, b)})
    state.hands[0] = []
    return state._next_turn(0)


def test_objective1_is_a_one_player_variant_with_the_iteration2_dice() -> None:
    """Second Iteration, Objective 1: a solitaire game; the player holds the First Iteration's
    dice (1 of each: d4, d6, d8, d10, d12, d20) and the blank d6 is dropped on the table at
    setup."""
    s = fresh()
    assert GAME.num_players(SOLO) == 1 and s.num_players == 1
    assert GAME.seat_names(SOLO) == ["Federation"]
    assert s.current_player == 0
    assert s.hand_names(0) == ["d4a", "d6a", "d8a", "d10a", "d12a", "d20a"]
    assert set(s.table) == {BLANK} and s.values[BLANK] == 0
    geo = SOLO.physics_params().geometry
    assert geo.on_surface(s.table[BLANK].x, s.table[BLANK].y)
    assert [e.kind for e in s.setup_events] == ["round_started", "blank_dropped"]
    assert SOLO.scoring == "multiplier" and SOLO.single_value == "one"
    assert not SOLO.use_borg


def test_blank_die_scores_zero_but_joins_shapes() -> None:
    """Second Iteration: "The blank d6 is treated as a die that is always worth 0. (But it
    still counts for making shapes.)" With it, d20 and d12 close a 3-shape (x2); without it
    they are a mere string; alone, the blank is worth nothing."""
    s = fresh()
    lay(s, {BLANK: (0.40, 0.30, 0), "F.d20a": (0.50, 0.30, 15),
            "F.d12a": (0.45, 0.38, 7)})
    layout = s.layout()
    assert len(layout.formations) == 1 and len(layout.formations[0]) == 3
    assert s.current_score().points[0] == 2 * (15 + 7)
    lay(s, {BLANK: (0.9, 0.7, 0), "F.d20a": (0.50, 0.30, 15), "F.d12a": (0.45, 0.38, 7)})
    assert s.current_score().points[0] == 15 + 7
    lay(s, {BLANK: (0.9, 0.7, 0)})
    assert s.current_score().points[0] == 0


def test_blank_die_connected_makes_a_die_worth_its_face() -> None:
    """Second Iteration: single dice are worth 1, connected dice not in a closed shape their
    face value; a die connected only to the blank counts as connected."""
    s = fresh()
    lay(s, {BLANK: (0.9, 0.7, 0), "F.d20a": (0.3, 0.3, 17)})
    assert s.current_score().points[0] == 1
    lay(s, {BLANK: (0.4, 0.3, 0), "F.d20a": (0.3, 0.3, 17)})
    assert s.current_score().points[0] == 17


def test_blank_die_knocked_still_shows_zero() -> None:
    """Second Iteration: the blank is *always* worth 0, even after a knock (no face drawn)."""
    s = fresh()
    assert s._roll_face(BLANK) == 0


def test_targets_are_10_20_30() -> None:
    """Second Iteration, Objective 1: "First round you need to beat 10 points. Second round 20
    points, third round 30 points, and so on"."""
    assert [objective1_target(n) for n in (1, 2, 3, 4)] == [10, 20, 30, 40]
    s = fresh()
    assert s.target == 10
    events = chain(s, 6, 5)  # 11 beats 10
    assert [e.kind for e in events][:1] == ["round_scored"] and events[0].data["cleared"]
    assert s.battle == 2 and s.target == 20 and not s.is_terminal
    chain(s, 15, 6)  # 21 beats 20
    assert s.battle == 3 and s.target == 30 and s.rounds_cleared == 2
    assert s.observation(0)["target"] == 30


def test_equal_to_the_target_does_not_beat_it_and_ends_the_game() -> None:
    """Second Iteration, Objective 1: the game ends at the first failed round; "beat" means
    more than the target, so exactly 10 in round 1 fails."""
    s = fresh()
    events = chain(s, 5, 5)
    assert s.is_terminal and s.current_player == TERMINAL and s.legal_actions() == []
    assert [e.kind for e in events] == ["round_scored", "game_over"]
    assert s.rounds_cleared == 0 and s.returns() == [0.0]
    with pytest.raises(IllegalAction):
        s.apply(Touch("d4a"))


def test_game_ends_at_first_failure_and_reports_rounds_cleared() -> None:
    """Second Iteration, Objective 1: "See how far you can get before failing": the result and
    metrics give the rounds cleared."""
    s = fresh(3)
    chain(s, 10, 1)
    chain(s, 20, 1)
    chain(s, 20, 10)  # 30 does not beat 30
    assert s.is_terminal and s.rounds_cleared == 2 and s.returns() == [2.0]
    m = s.metrics()
    assert m["rounds_cleared"] == 2 and m["rounds_played"] == 3
    assert m["last_round_points"] == 30 and m["last_target"] == 30
    assert m["total_points"] == 11 + 21 + 30


def test_next_round_starts_with_a_cleared_table_full_hand_and_a_new_blank_drop() -> None:
    """Interpretation (RULES.md, Second Iteration): every round is a fresh play of the rules."""
    s = fresh(4)
    events = chain(s, 9, 9)
    assert [e.kind for e in events] == ["round_scored", "round_started", "blank_dropped"]
    assert set(s.table) == {BLANK} and len(s.hands[0]) == 6 and s.eliminated == []


def test_foul_discards_a_die_from_hand() -> None:
    """Second Iteration, Fouls: "he must immediately discard one die of his choice from his
    hand"."""
    s = fresh()
    with pytest.raises(IllegalAction):
        s.apply(Touch())
    s.apply(Touch("d20a"))
    assert "d20a" not in s.hand_names(0) and "F.d20a" in s.eliminated
    for name in list(s.hand_names(0)):
        s.apply(Touch(name))
    assert s.is_terminal and s.rounds_cleared == 0  # nothing thrown: the blank alone scores 0


def test_mode_requires_no_borg_and_no_torpedoes() -> None:
    """Second Iteration, Objective 1 has no Borg (neutral) die and no torpedoes."""
    with pytest.raises(BadParameter):
        params_from_dict(StarDiceParams, {"use_borg": True}, SOLO).validate()
    with pytest.raises(BadParameter):
        params_from_dict(StarDiceParams, {"mode": "coop"}, SOLO).validate()


@pytest.mark.parametrize("bot", [RandomThrower, lambda: SearchThrower(candidates=4)])
def test_bots_play_objective1_to_the_end(bot) -> None:  # type: ignore[no-untyped-def]
    """Second Iteration, Objective 1: random and search bots play until a round fails."""
    s = fresh(5)
    play_out(s, [bot()], Chance(5))
    assert s.is_terminal
    rounds = s.metrics()["rounds_played"]
    assert rounds == s.rounds_cleared + 1
    assert 0.0 <= evaluate(s, 0) < 1.0


def test_json_round_trip_and_replay_exact_in_objective1() -> None:
    """Second Iteration, Objective 1: positions survive JSON exactly; a record replays every
    event and the final table."""
    s = fresh(21)
    events: list = []
    actions = play_out(s, [RandomThrower()], Chance(2), events=events)
    again, replayed = replay(record_of("stardice", SOLO, 21, actions))
    assert [e.to_json() for e in replayed] == [e.to_json() for e in
                                               list(s.setup_events) + events]
    assert again.to_json() == s.to_json() and isinstance(again, SolitaireState)
    text = json.dumps(s.to_json())
    back = GAME.state_from_json(json.loads(text))
    assert isinstance(back, SolitaireState) and back.to_json() == s.to_json()
    assert back.metrics() == s.metrics()


def test_bad_objective1_positions_are_rejected() -> None:
    """Second Iteration, Objective 1: one hand only; the blank d6 only in this mode."""
    data = fresh().to_json()
    data["hands"][1] = ["K.d4a"]
    with pytest.raises(BadPosition):
        GAME.state_from_json(data)
    data = fresh().to_json()
    data["params"]["mode"] = "versus"
    data["params"]["use_borg"] = False
    with pytest.raises(BadPosition):
        GAME.state_from_json(data)


def test_objective1_table_draws(tmp_path: Path) -> None:
    """Second Iteration, Objective 1: the final table draws, titled with round and target."""
    s = fresh(2)
    play_out(s, [RandomThrower()], Chance(1))
    out = render_table(s, tmp_path / "solo.png")
    assert out.exists() and out.stat().st_size > 0


@settings(deadline=None, max_examples=8)
@given(st.integers(0, 10_000))
def test_objective1_invariants_along_random_play(seed: int) -> None:
    """Second Iteration, Objective 1: legal actions apply, JSON and clones round-trip at every
    step, the observation shows one hand and the round's target."""
    s = fresh(seed)
    rng = Chance(seed + 1)
    bot = RandomThrower()
    steps = 0
    while not s.is_terminal and steps < 40:
        obs = s.observation(0)
        assert len(obs["hands"]) == 1 and obs["target"] == objective1_target(obs["round"])
        assert json.loads(json.dumps(obs)) == obs
        data = s.to_json()
        assert GAME.state_from_json(json.loads(json.dumps(data))).to_json() == data
        action = bot.choose(s, rng)
        assert s.parse_action(str(action)) == action
        twin = s.clone()
        s.apply(action)
        assert twin.to_json() == data
        steps += 1


def test_battle_command_refuses_objective1_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    """`playtable stardice battle` is the two-player match: objective1 exits 2 with one line."""
    with pytest.raises(SystemExit) as done:
        main(["stardice", "battle", "--variant", "objective1", "--quiet"])
    assert done.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "solitaire" in err and len(err.splitlines()) == 1
