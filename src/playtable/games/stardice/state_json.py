"""A Star Dice state's JSON form: `state_to_json` writes every field (hidden parts and the
chance stream included) and `state_from_json` reads it back, checking it as it goes (the
phase, the hands against the dice in play, the pieces on the table, values only for dice on
the table, nothing both in hand and on the table or eliminated and still in play, the
formation engine seeing only pieces on the table) and raising BadPosition naming the problem.
`StarDiceState.to_json` and `clone` go through here.

The fields are those of `StarDiceTable` (table.py), so this module sits between the table and
the match: it reads into whichever state class it is given (`StarDiceState`, the match) and
never imports the match, which imports it.
"""

from __future__ import annotations

from typing import Any, TypeVar

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition
from playtable.core.params import params_from_dict
from playtable.core.protocol import params_as_dict
from playtable.games.stardice.actions import BLANK, BORG, SEAT_NAMES, SEATS, die_names, kind_of
from playtable.games.stardice.formation import FormationEngine
from playtable.games.stardice.params import StarDiceParams
from playtable.games.stardice.physics import PIECE_TYPES, Piece
from playtable.games.stardice.scoring import BorgTake, ShapeScore, TableScore
from playtable.games.stardice.table import StarDiceTable

S = TypeVar("S", bound=StarDiceTable)


def state_to_json(state: StarDiceTable) -> dict[str, Any]:
    return {
        "params": params_as_dict(state.params),
        "chance": state.chance.to_json(),
        "phase": state.phase,
        "battle": state.battle,
        "war": list(state.war),
        "battle_points": [list(b) for b in state.battle_points],
        "borg_roller": state.borg_roller,
        "call": state.call,
        "to_move": state.to_move,
        "hands": [list(h) for h in state.hands],
        "torpedoes_left": list(state.torpedoes_left),
        "torpedoes_used": list(state.torpedoes_used),
        "table": [{"id": pc.id, "x": pc.x, "y": pc.y, "angle": pc.angle}
                  for pc in sorted(state.table.values(), key=lambda pc: pc.id)],
        "values": dict(sorted(state.values.items())),
        "borg_face": state._borg_face_index,
        "eliminated": list(state.eliminated),
        "engine": state.engine.to_json(),
        "clock": state.clock,
        "rethrows": state.rethrows,
        "throws": state.throws,
        "forfeits": list(state.forfeits),
        "last_score": state.last_score.to_json() if state.last_score else None,
        "winner": state.winner,
        "draw": state.draw,
    }


def state_from_json(data: Any, cls: type[S]) -> S:
    """A `cls` (the match's state class) read from `data` and checked."""
    if not isinstance(data, dict):
        raise BadPosition("a Star Dice position must be a JSON object")
    try:
        params: StarDiceParams = params_from_dict(StarDiceParams, dict(data["params"]))
        params.validate()
        state = cls(params, Chance.from_json(data["chance"]))
        phase = data["phase"]
        if phase not in ("call", "borg", "throw", "torpedo", "more", "over"):
            raise BadPosition(f"unknown phase {phase!r}")
        state.phase = phase
        state.battle = int(data["battle"])
        state.war = [int(v) for v in data["war"]]
        state.battle_points = [[int(v) for v in b] for b in data["battle_points"]]
        state.borg_roller = int(data["borg_roller"])
        state.call = data.get("call")
        state.to_move = int(data["to_move"])
        if state.to_move not in (0, 1) or state.borg_roller not in (0, 1):
            raise BadPosition("to_move and borg_roller must be 0 or 1")
        names = die_names(params)
        hands = [[str(d) for d in h] for h in data["hands"]]
        if len(hands) != 2:
            raise BadPosition("'hands' must list two hands")
        for seat, hand in enumerate(hands):
            for d in hand:
                if not d.startswith(SEATS[seat] + ".") or d.split(".", 1)[1] not in names:
                    raise BadPosition(f"'{d}' cannot be in {SEAT_NAMES[seat]}'s hand")
        state.hands = hands
        state.torpedoes_left = [int(v) for v in data["torpedoes_left"]]
        state.torpedoes_used = [int(v) for v in data["torpedoes_used"]]
        table = {}
        for item in data["table"]:
            pid = str(item["id"])
            if pid not in (BORG, BLANK) and (pid.split(".", 1)[0] not in SEATS or kind_of(pid) not in
                                PIECE_TYPES):
                raise BadPosition(f"unknown piece '{pid}' on the table")
            if pid in table:
                raise BadPosition(f"piece '{pid}' lies on the table twice")
            table[pid] = Piece(pid, kind_of(pid), float(item["x"]), float(item["y"]),
                               float(item.get("angle", 0.0)))
        state.table = table
        state.values = {str(k): int(v) for k, v in dict(data["values"]).items()}
        for k in state.values:
            if k not in table:
                raise BadPosition(f"a value is given for '{k}', which is not on the table")
        state._borg_face_index = int(data.get("borg_face", 0))
        if not 0 <= state._borg_face_index < len(params.borg_faces):
            raise BadPosition("'borg_face' is out of range")
        state.eliminated = [str(v) for v in data["eliminated"]]
        state.engine = FormationEngine.from_json(params.formation_params(), data["engine"])
        in_hand = {d for h in hands for d in h}
        if in_hand & set(table):
            raise BadPosition(f"{sorted(in_hand & set(table))[0]} is both in hand and on the table")
        gone = set(state.eliminated)
        if gone & (in_hand | set(table)):
            raise BadPosition(f"{sorted(gone & (in_hand | set(table)))[0]} is eliminated but "
                              "still in play")
        for obj in state.engine.tracks:
            for member in obj.split("+"):
                if member not in table:
                    raise BadPosition(f"the formation engine sees '{obj}', which is not on "
                                      "the table")
        state.clock = float(data["clock"])
        state.rethrows = int(data["rethrows"])
        state.throws = int(data["throws"])
        state.forfeits = [int(v) for v in data["forfeits"]]
        last = data.get("last_score")
        if last is not None:
            state.last_score = TableScore(
                tuple(int(v) for v in last["points"]),
                tuple(ShapeScore(s["kind"], tuple(s["objects"]), tuple(s["dice"]),
                                 int(s["points"]), s["owner"], int(s["bonus"]),
                                 tuple(s["totals"]), s["note"]) for s in last["shapes"]),
                BorgTake(int(last["borg"]["points"]),
                         tuple(int(v) for v in last["borg"]["wiped"])) if last.get("borg")
                else None)
        w = data.get("winner")
        state.winner = None if w is None else int(w)
        state.draw = bool(data.get("draw", False))
        return state
    except BadPosition:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise BadPosition(f"malformed Star Dice position: {type(err).__name__}: {err}") from None
