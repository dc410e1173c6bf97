"""The match on a real table (seed It. 3 "Wish that the game could keep track
of the score", FR "Rules of Play" and "War"): the Borg roll and the odd/even call (FR Battle 1),
whose turn (FR Battle 2, It. 3/It. 9), the end of a battle and its scoring (FR Calculate your
score), the war to 50 (FR War) and forfeits (FR Other rules), kept by `LiveMatch` from the dice
the table sees and what the players confirm. The rules are the game's own state's: the war
totals are checked against `score_table` on the same layout."""

from __future__ import annotations

from typing import Any

import pytest

from playtable.core.errors import BadParameter
from playtable.games.stardice.formation import Sighting
from playtable.games.stardice.live import DieSpec, LiveDice
from playtable.games.stardice.live_match import LiveMatch
from playtable.games.stardice.params import StarDiceParams
from playtable.games.stardice.scoring import score_table, zeroed

ONE_EACH = StarDiceParams(dice=("d20",))  # one d20 a side: a battle is two throws
TRIANGLE = {"F.d20a": (0.3, 0.4), "K.d20a": (0.5, 0.4), "borg": (0.4, 0.55)}


class RealTable:
    """Dice put on and taken off a table, as the tracker would report them."""

    def __init__(self, params: StarDiceParams) -> None:
        names = ["borg"] + [f"{s}.{k}{chr(97 + params.dice[:i].count(k))}"
                            for s in "FK" for i, k in enumerate(params.dice)]
        self.live = LiveDice({i: DieSpec(n) for i, n in enumerate(names)},
                             params.formation_params(), params.scoring_rules(),
                             params.borg_faces, params.borg_pips)
        self.match = LiveMatch(params, self.live)
        self.pos: dict[str, tuple[float, float]] = {}
        self.t = 0.0

    def show(self) -> list[dict[str, Any]]:
        """A report: the dice where they lie, then long enough for them to settle."""
        seen = [Sighting(k, x, y, 0.0, 0.0) for k, (x, y) in self.pos.items()]
        self.live.update(seen, self.t)
        self.t += 0.5
        return self.match.see(self.live.update(seen, self.t))

    def put(self, die: str, where: tuple[float, float] | None = None) -> list[dict[str, Any]]:
        self.pos[die] = where or TRIANGLE[die]
        return self.show()

    def clear(self) -> None:
        self.pos = {}
        self.show()

    def face(self, die: str, value: int) -> list[dict[str, Any]]:
        self.live.enter_value(die, value)
        return self.match.see(self.live.engine.layout())


def opened(params: StarDiceParams, call: str = "even", borg: int = 16) -> RealTable:
    """Battle 1 past its opening (the Klingon rolls, the Federation calls; interpretation 9)."""
    table = RealTable(params)
    table.match.start()
    table.match.call(0, call)
    table.put("borg")
    table.face("borg", borg)
    return table


def test_the_opening_call_and_borg_roll_decide_who_goes_first() -> None:
    """FR Battle 1: the caller goes first if the pips' parity matches the call, else the roller."""
    table = RealTable(ONE_EACH)
    assert table.match.phase() == "idle"
    table.match.start()
    assert table.match.phase() == "call" and "Klingon rolls the Borg die" in table.match.prompt()
    with pytest.raises(BadParameter, match="Federation calls"):
        table.match.call(1, "odd")  # the roller does not call
    table.match.call(0, "even")
    assert table.match.phase() == "borg" and table.match.view()["missing"] == ["borg"]
    table.put("borg")
    assert table.match.phase() == "borg" and "face" in table.match.prompt()  # no face yet
    events = table.face("borg", 16)  # 4 pips: even, the call was right
    assert table.match.phase() == "throw" and table.match.view()["to_move"] == 0
    assert "Federation goes first" in events[-1]["text"]
    odd = opened(ONE_EACH, call="even", borg=8)  # 3 pips: odd, the roller goes first
    assert odd.match.view()["to_move"] == 1


def test_the_borg_die_off_the_table_at_the_opening_is_rolled_again() -> None:
    """FR Other rules: "If the Borg die is initially rolled off the table, re-roll it. The
    calling player may re-call"."""
    table = RealTable(ONE_EACH)
    table.match.start()
    table.match.call(0, "odd")
    events = table.match.borg_off()
    assert events[0]["kind"] == "borg_reroll" and table.match.phase() == "call"
    table.match.call(0, "even")
    assert table.match.phase() == "borg"


def test_a_borg_die_on_the_frame_lands_on_the_players_word() -> None:
    """Interpretation 10: a Borg die on the frame is on the table, unseen by the surface; the
    face the players enter decides who goes first."""
    table = RealTable(ONE_EACH)
    table.match.start()
    table.match.call(0, "odd")
    events = table.face("borg", 8)  # 3 pips: odd, the caller goes first
    assert table.match.phase() == "throw" and table.match.view()["to_move"] == 0
    assert events[-1]["kind"] == "first_player"


def test_a_battle_starts_on_a_clear_table() -> None:
    """It. 3 "Do not start with any dice on the table": the call waits until no ship lies there."""
    table = RealTable(ONE_EACH)
    table.put("F.d20a")
    table.match.start()
    assert "take every ship off" in table.match.prompt()
    with pytest.raises(BadParameter, match="take the ships off"):
        table.match.call(0, "odd")
    table.clear()
    table.match.call(0, "odd")
    assert table.match.phase() == "borg"


def test_turns_follow_the_dice_that_arrive() -> None:
    """FR Battle 2: the players take turns; a ship of the player to move that appears is their
    throw. A ship of the other player is thrown out of turn: it leaves its owner's hand, and the
    turn stays. A throw the table never saw is confirmed out by the players (FR Other rules)."""
    params = StarDiceParams()  # the Final Rules' seven dice a side
    table = opened(params)
    view = table.match.view()
    assert view["to_move"] == 0 and len(view["hands"][0]) == 7
    events = table.put("F.d20a", (0.2, 0.2))
    assert events[0]["kind"] == "thrown" and table.match.view()["to_move"] == 1
    assert "F.d20a" not in table.match.view()["hands"][0]
    assert table.match.view()["missing"] == ["F.d20a"]  # its face is to be entered
    events = table.put("F.d6a", (0.8, 0.1))  # on the Klingon's turn
    assert events[0]["kind"] == "out_of_turn" and table.match.view()["to_move"] == 1
    assert "F.d6a" not in table.match.view()["hands"][0]
    with pytest.raises(BadParameter, match="not in the Klingon's hand"):
        table.match.unseen("F.d6b")
    table.match.unseen("K.d6c")
    view = table.match.view()
    assert view["to_move"] == 0 and "K.d6c" not in view["hands"][1]


def test_a_battle_ends_when_both_fleets_are_in_and_scores_into_the_war() -> None:
    """It. 3 "a way to freeze the game when it's over": with both hands empty the battle waits
    for its faces and the players' word; its score is the game's (FR: the triangle is worth 3,
    the Federation's 20 beats the Klingon's 5 and the Borg's 16, and the Borg's 4 pips are its
    bonus); the next battle's roller is the other player (interpretation 9)."""
    table = opened(ONE_EACH)
    table.put("F.d20a")
    table.put("K.d20a")
    assert table.match.phase() == "count"
    with pytest.raises(BadParameter, match="enter the faces of"):
        table.match.score_battle()
    table.face("F.d20a", 20)
    table.face("K.d20a", 5)
    layout = table.live.engine.layout()
    expected = score_table(layout, {}, {k: table.live.die_info(k) for k in layout.positions},
                           ONE_EACH.scoring_rules()).points
    assert expected == (7, 0)
    events = table.match.score_battle()
    view = table.match.view()
    assert [e["kind"] for e in events] == ["battle_scored", "battle_started"]
    assert view["war"] == [7, 0] and view["battle_points"] == [[7, 0]]
    assert view["battle"] == 2 and view["roller"] == 0 and view["phase"] == "call"
    assert view["last_score"]["points"] == [7, 0]
    assert table.live.values == {}  # every die is rolled afresh


def test_a_forfeit_scores_the_forfeiters_dice_as_zeroes() -> None:
    """FR Other rules: "If a player hits the Borg die off the table then he forfeits the
    battle"; the forfeiter scores 0, the other "as if all the forfeiting player's dice rolled
    zeroes"."""
    table = opened(ONE_EACH)
    table.put("F.d20a")
    table.face("F.d20a", 3)
    table.put("K.d20a")  # the Klingon's 19 would own the triangle
    table.face("K.d20a", 19)
    layout = table.live.engine.layout()
    dice = zeroed({k: table.live.die_info(k) for k in layout.positions}, 1)
    assert score_table(layout, {}, dice, ONE_EACH.scoring_rules()).points == (0, 0)  # 3 < Borg 16
    table.face("F.d20a", 17)
    events = table.match.forfeit(1, "knocked the Borg die off the table")
    assert events[0]["text"] == ("Klingon knocked the Borg die off the table and forfeits the "
                                 "battle.")
    assert table.match.view()["war"] == [7, 0] and table.match.view()["forfeits"] == [1]


def test_the_borg_die_leaving_during_the_turns_is_shown_for_the_players_to_rule() -> None:
    table = opened(ONE_EACH)
    table.put("F.d20a")
    del table.pos["borg"]
    events = table.show()
    assert [e["kind"] for e in events] == ["borg_left"]
    view = table.match.view()
    assert view["borg_off"] and view["last_thrower"] == 0
    # on the frame it is still on the table (FR: only hitting it off forfeits): play on
    table.match.borg_on_frame()
    assert not table.match.view()["borg_off"] and table.match.phase() == "throw"
    with pytest.raises(BadParameter):
        table.match.borg_on_frame()


def test_the_war_goes_to_the_first_past_50() -> None:
    """FR War: "The first player to exceed 50 points wins the war"; 7 a battle passes 50 in the
    eighth battle, and the match is over."""
    table = RealTable(ONE_EACH)
    table.match.start()
    for battle in range(1, 9):
        assert table.match.view()["battle"] == battle
        table.clear()
        table.match.call(1 - table.match.view()["roller"], "odd")
        table.put("borg")
        table.face("borg", 16)
        for die in ("F.d20a", "K.d20a"):
            table.put(die)
        table.face("F.d20a", 20)
        table.face("K.d20a", 2)
        table.match.score_battle()
    view = table.match.view()
    assert view["phase"] == "over" and view["war"] == [56, 0] and view["winner"] == 0
    assert "Federation wins" in view["prompt"]
    with pytest.raises(BadParameter, match="over"):
        table.match.call(0, "odd")


def test_blank_dice_need_only_the_borg_face() -> None:
    """It. 2/It. 6 blank dice (`ignore_values`): each die counts one, so only the Borg die's
    face (its pips decide who goes first, FR Battle 1) is asked for."""
    table = opened(StarDiceParams(dice=("d20",), ignore_values=True))
    table.put("F.d20a")
    table.put("K.d20a")
    view = table.match.view()
    assert view["phase"] == "count" and view["missing"] == []
    table.match.score_battle()
    assert table.match.view()["battle"] == 2


def test_variants_the_real_table_cannot_referee_are_refused() -> None:
    for params in (StarDiceParams(torpedoes=3), StarDiceParams(foul_rule="discard"),
                   StarDiceParams(many_per_turn=True)):
        with pytest.raises(BadParameter):
            LiveMatch(params, LiveDice({}))
