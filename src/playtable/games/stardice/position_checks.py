"""The invariants of a Star Dice position that the rules rely on, checked when a position is
read from outside (`StarDiceGame.state_from_json`, after `state_json` has read its fields;
copies of a valid state skip it): each broken one raises BadPosition naming it.

* Every die of a seat in play is exactly once in its hand, on the table or eliminated (FR
  Materials: 2d20, 1d12, 1d8, 3d6 a player; RULES.md rules 3-4); torpedo stones on the table
  are ones already fired, and left + fired is the game's number (It. 8/9).
* Pieces lie at finite places on the table, its frame included (a piece past the frame has
  fallen off and is no longer in `table`); every die on the table shows one of its faces, the
  Borg die one of `borg_faces`, the blank d6 nothing (objective 1).
* Counters are in range (battle, war points, rethrows, throws, the clock), and the phase agrees
  with the rest: the Borg opening only with the Borg die, a call before the Borg roll, a winner
  or a draw exactly when the war is over, something to throw for the player to move.
"""

from __future__ import annotations

import math
from typing import Any

from playtable.core import checks
from playtable.core.errors import BadPosition
from playtable.games.stardice.actions import BLANK, BORG, SEAT_NAMES, SEATS, die_names, kind_of
from playtable.games.stardice.physics import PIECE_TYPES
from playtable.games.stardice.table import StarDiceTable


def check_position(state: StarDiceTable, data: dict[str, Any], solitaire: bool) -> None:
    """Raise BadPosition naming the first invariant `state` (read from `data`) breaks. Numbers
    are checked in `data` as written, so 1.5 or true is never read as a whole number."""
    _check_written(data)
    p = state.params
    checks.rigged(state.chance.rigged, {"borg": checks.die(len(p.borg_faces)),
                                        **{k: checks.die(t.sides) for k, t in PIECE_TYPES.items()
                                           if k.startswith("d")}})
    _check_counters(state, solitaire)
    _check_pieces(state, solitaire)
    _check_values(state)
    _check_phase(state, data, solitaire)


def _check_written(data: dict[str, Any]) -> None:
    for key in ("battle", "borg_roller", "to_move", "rethrows", "throws"):
        checks.whole(data[key], key)
    checks.whole(data.get("borg_face", 0), "borg_face")
    checks.number(data["clock"], "clock")
    for key in ("war", "torpedoes_left", "torpedoes_used", "forfeits"):
        for v in checks.items(data[key], key):
            checks.whole(v, key)
    for row in checks.items(data["battle_points"], "battle_points"):
        for v in checks.items(row, "battle_points"):
            checks.whole(v, "battle_points")
    for k, v in checks.mapping(data["values"], "values").items():
        checks.whole(v, f"values.{k}")
    for item in checks.items(data["table"], "table"):
        for axis in ("x", "y", "angle"):
            if axis in checks.mapping(item, "table"):
                checks.number(item[axis], f"table {item.get('id')}.{axis}")
    checks.word(data.get("winner"), "winner", (None, 0, 1))
    checks.flag(data.get("draw", False), "draw")


def _pair(value: Any, what: str, lo: int = 0, hi: int | None = None) -> list[int]:
    pair = checks.items(value, what, 2)
    return [checks.whole(v, f"{what}[{i}]", lo, hi) for i, v in enumerate(pair)]


def _check_counters(state: StarDiceTable, solitaire: bool) -> None:
    p = state.params
    checks.whole(state.battle, "battle", 1, p.max_battles)
    _pair(state.war, "war")
    width = 1 if solitaire else 2
    for i, points in enumerate(checks.items(state.battle_points, "battle_points")):
        for v in checks.items(points, f"battle_points[{i}]", width):
            checks.whole(v, f"battle_points[{i}]", 0)
    over = state.phase == "over"
    expected = state.battle if over else state.battle - 1
    if len(state.battle_points) != expected:
        raise BadPosition(f"'battle_points' must hold one score per battle played ({expected} in "
                          f"battle {state.battle}{', the last one over' if over else ''}), "
                          f"not {len(state.battle_points)}")
    left = _pair(state.torpedoes_left, "torpedoes_left", 0, p.torpedoes)
    used = _pair(state.torpedoes_used, "torpedoes_used", 0, p.torpedoes)
    for seat in (0, 1):
        if left[seat] + used[seat] != p.torpedoes:
            raise BadPosition(f"{SEAT_NAMES[seat]}'s torpedoes left and fired must add up to "
                              f"torpedoes={p.torpedoes}, not {left[seat]} + {used[seat]}")
    checks.whole(state.rethrows, "rethrows", 0, p.max_rethrows)
    checks.whole(state.throws, "throws", 0)
    checks.number(state.clock, "clock", 0.0)
    for f in checks.items(state.forfeits, "forfeits"):
        checks.word(f, "forfeits", (0, 1))
    if len(state.forfeits) > len(state.battle_points):
        raise BadPosition("'forfeits' lists more forfeits than battles scored")


def _check_pieces(state: StarDiceTable, solitaire: bool) -> None:
    p = state.params
    names = die_names(p)
    seats = (0, 1) if p.mode in ("versus", "objective2") else (0,)  # objective2: the red dice
    dice = [f"{SEATS[s]}.{n}" for s in seats for n in names]
    found = [d for hand in state.hands for d in hand]
    found += [k for k in state.table if k not in (BORG, BLANK) and kind_of(k) != "stone"]
    found += [k for k in state.eliminated if k not in (BORG, BLANK)]
    checks.exactly_once(found, set(dice), "the dice (in hand, on the table or eliminated)")
    if len(set(state.eliminated)) != len(state.eliminated):
        raise BadPosition("a piece is eliminated twice")
    for k in state.eliminated:
        if k == BLANK or kind_of(k) == "stone" or (k == BORG and not p.use_borg):
            raise BadPosition(f"'{k}' cannot be eliminated")
    if BORG in state.table and not p.use_borg:
        raise BadPosition("the Borg die is on the table, but use_borg is false")
    if (BLANK in state.table) != (p.mode == "objective1"):
        raise BadPosition("the blank d6 lies on the table in objective1 and only there")
    if p.mode == "objective2" and state.hands[1]:
        raise BadPosition("objective2: the red dice are rolled at setup, never held")
    geo = p.physics_params().geometry
    for k, piece in state.table.items():
        for axis, value in (("x", piece.x), ("y", piece.y), ("angle", piece.angle)):
            checks.number(value, f"table {k}.{axis}")
        if not geo.on_table(piece.x, piece.y):
            raise BadPosition(f"'{k}' at ({piece.x:.3g}, {piece.y:.3g}) is off the table and its "
                              "frame: such a piece has fallen off")
        if kind_of(k) == "stone":
            seat = SEATS.index(k.split(".", 1)[0])
            number = k.split(".", 1)[1][1:]
            if not number.isdigit() or not 1 <= int(number) <= state.torpedoes_used[seat]:
                raise BadPosition(f"torpedo '{k}' was never fired ({SEAT_NAMES[seat]} fired "
                                  f"{state.torpedoes_used[seat]})")


def _check_values(state: StarDiceTable) -> None:
    p = state.params
    for k, v in state.values.items():
        checks.whole(v, f"values.{k}")
        if k == BORG:
            if v != p.borg_faces[state._borg_face_index]:
                raise BadPosition(f"the Borg die shows {v}, but its face {state._borg_face_index} "
                                  f"is {p.borg_faces[state._borg_face_index]} (borg_faces)")
        elif k == BLANK:
            if v != 0:
                raise BadPosition("the blank d6 shows no value (0)")
        elif kind_of(k) == "stone":
            raise BadPosition(f"torpedo '{k}' shows no value")
        elif not 1 <= v <= PIECE_TYPES[kind_of(k)].sides:
            raise BadPosition(f"'{k}' shows {v}: a {kind_of(k)} shows 1 to "
                              f"{PIECE_TYPES[kind_of(k)].sides}")
    for k in state.table:
        if kind_of(k) != "stone" and k not in state.values:
            raise BadPosition(f"'{k}' lies on the table without a value")


def _check_phase(state: StarDiceTable, data: dict[str, Any], solitaire: bool) -> None:
    p = state.params
    checks.word(state.call, "call", (None, "odd", "even"))
    if state.phase in ("call", "borg") and not p.use_borg:
        raise BadPosition(f"phase '{state.phase}' is the Borg opening, but use_borg is false")
    if state.phase == "borg" and state.call is None:
        raise BadPosition("the Borg die is rolled after the call: 'call' must be odd or even")
    if state.phase == "torpedo" and (p.torpedo_rule != "iter9" or
                                     state.torpedoes_left[state.to_move] <= 0):
        raise BadPosition("phase 'torpedo' follows a d6 under torpedo_rule=iter9 with a torpedo "
                          "left")
    if state.phase == "more" and (not p.many_per_turn or not state.hands[state.to_move]):
        raise BadPosition("phase 'more' follows a die under many_per_turn, with dice in hand")
    ended = state.winner is not None or state.draw
    if state.winner is not None and state.draw:
        raise BadPosition("a war has a winner or is a draw, not both")
    if not solitaire and ended != (state.phase == "over"):
        raise BadPosition("a winner or a draw is given exactly when the phase is 'over'")
    if solitaire and ended:
        raise BadPosition("objective1 has no winner or draw: it counts rounds cleared")
    if state.phase == "throw":
        seat = state.to_move
        fouls_only = not state.hands[seat] and not (
            p.torpedo_rule == "iter8" and state.torpedoes_left[seat] > 0)
        if fouls_only:
            raise BadPosition(f"it is {SEAT_NAMES[seat]}'s turn to throw, with nothing to throw")
    if not math.isfinite(state.clock):
        raise BadPosition("'clock' must be a finite number")
