"""A scored Star Dice battle says why, in the game's own public terms (seed 002, Final Rules,
"Calculate your score"): the battle's event carries the shapes that scored (`scoring_shapes`:
members, owner, points, each fleet's sum), and they add up to the battle's points, so a log
that words the event agrees with the scoring; the end text names the winner first with the
winner's points first, as the table's banner does."""

from __future__ import annotations

from typing import Any

from playtable.core.chance import Chance
from playtable.games.stardice import GAME, StarDiceParams, StarDiceState, scoring_shapes
from playtable.games.stardice.bots import RandomThrower


def _battle(seed: int) -> tuple[StarDiceState, dict[str, Any]]:
    """One battle of the Final Rules between two random throwers; the state and the data of its
    `battle_scored` event."""
    state = GAME.new_state(StarDiceParams(war_target=0), seed)
    rng = Chance(seed).fork(7)
    bot = RandomThrower()
    scored: dict[str, Any] = {}
    while not state.is_terminal:
        for event in state.apply(bot.choose(state, rng)):
            if event.kind == "battle_scored":
                scored = dict(event.data)
    return state, scored


def test_the_scored_event_holds_the_shapes_that_make_its_points() -> None:
    formations = 0
    for seed in range(1, 9):
        state, scored = _battle(seed)
        assert state.last_score is not None
        assert scored["shapes"] == scoring_shapes(state.last_score)
        points = [0, 0]
        for shape in scored["shapes"]:
            assert shape["kind"] in ("formation", "string")
            formations += shape["kind"] == "formation"
            if shape["owner"] is not None:
                owner = shape["owner"]
                assert shape["totals"][owner] > shape["totals"][1 - owner]  # FR: the higher sum owns it
                points[owner] += shape["points"] + shape["bonus"]
            else:
                assert shape["note"], "a shape nobody scores says why"
        assert points == scored["points"], seed
    assert formations, "some battle closed a formation"


def test_the_end_text_names_the_winner_first_with_their_points_first() -> None:
    for seed in range(1, 30):
        state, scored = _battle(seed)
        f, k = scored["points"]
        if k > f:  # a battle the Klingon won: the side named second in the points
            assert state.end_text() == f"Klingon wins the battle, {k} to {f}."
            return
    raise AssertionError("no battle among the seeds tried was the Klingon's")
