"""The Star Dice state's fields and everything that only reads them: whose turn it is, which
actions are legal now (`is_legal`), the face values and Borg pips on the table, what the
formation engine sees and what the table scores, the outcome (`returns`, `metrics`) and each
seat's `observation`. `StarDiceTable` is the base of `StarDiceMenu` (menu.py), which is the
base of the playable `StarDiceState` (match.py); nothing here changes the state.
"""

from __future__ import annotations

from typing import Any, Literal

from playtable.core.chance import Chance
from playtable.core.errors import IllegalAction
from playtable.core.protocol import TERMINAL, State
from playtable.games.stardice.actions import (
    BORG,
    SEAT_NAMES,
    Call,
    Hold,
    Throw,
    Touch,
    kind_of,
    owner_of,
)
from playtable.games.stardice.formation import (
    Detected,
    FormationEngine,
    Group,
    Layout,
    SeenTuple,
    Sighting,
    detect_groups,
)
from playtable.games.stardice.params import StarDiceParams
from playtable.games.stardice.physics import PhysicsParams, Piece
from playtable.games.stardice.scoring import DieInfo, TableScore, score_table, zeroed

Phase = Literal["call", "borg", "throw", "torpedo", "over"]

_STONES: dict[str, bool] = {}


def _is_stone(piece: str) -> bool:
    """kind_of(piece) == "stone", remembered (asked for every piece of every frame)."""
    stone = _STONES.get(piece)
    if stone is None:
        if len(_STONES) > 4096:  # ids come from positions too: keep the memory bounded
            _STONES.clear()
        stone = _STONES[piece] = kind_of(piece) == "stone"
    return stone


class StarDiceTable(State):
    """The fields of a Star Dice state and the queries on them (see the module docstring)."""

    def __init__(self, params: StarDiceParams, chance: Chance) -> None:
        self.params = params
        self.chance = chance
        self.phase: Phase = "call"
        self.battle = 1
        self.war = [0, 0]
        self.battle_points: list[list[int]] = []
        self.borg_roller = 1
        self.call: str | None = None
        self.to_move = 0
        self.hands: list[list[str]] = [[], []]
        self.torpedoes_left = [0, 0]
        self.torpedoes_used = [0, 0]
        self.table: dict[str, Piece] = {}
        self.values: dict[str, int] = {}
        self.eliminated: list[str] = []
        self.engine = FormationEngine(params.formation_params())
        self.clock = 0.0
        self.rethrows = 0
        self.throws = 0
        self.forfeits: list[int] = []
        self.last_score: TableScore | None = None
        self.winner: int | None = None
        self.draw = False
        self._borg_face_index = 0

    # -- protocol: whose turn ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == "over" else self.to_move

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def hand_names(self, seat: int) -> list[str]:
        return [d.split(".", 1)[1] for d in self.hands[seat]]

    def _torpedo_allowed(self, seat: int) -> bool:
        p = self.params
        if self.torpedoes_left[seat] <= 0:
            return False
        if self.phase == "torpedo":
            return True
        if p.torpedo_rule == "iter8" and self.phase == "throw":
            own_d6 = sum(1 for d in self.table if owner_of(d) == seat and kind_of(d) == "d6")
            return self.torpedoes_used[seat] < own_d6
        return False

    def is_legal(self, action: Any) -> str | None:
        """None if `action` is legal now, else the reason it is not."""
        if self.phase == "over":
            return "the game is over"
        if isinstance(action, Throw):  # the common case first (menus check dozens a turn)
            return self._throw_legal(action)
        if isinstance(action, Call):
            return None if self.phase == "call" else "no odd/even call is due now"
        if isinstance(action, Hold):
            return None if self.phase == "torpedo" else "'hold' answers the torpedo choice only"
        if isinstance(action, Touch):
            if self.phase not in ("throw", "torpedo"):
                return "no battle turn is under way"
            if self.params.foul_rule == "forfeit":
                return None if not action.die else "a foul forfeits the battle: just 'touch'"
            hand = self.hand_names(self.to_move)
            if not action.die:
                return None if not hand else "name the die to discard: 'touch d6a'"
            return None if action.die in hand else f"'{action.die}' is not in hand"
        return f"'{action}' is not a Star Dice action"

    def _throw_legal(self, action: Throw) -> str | None:
        return self._throw_place_legal(action) or self._throw_piece_legal(action.mode,
                                                                          action.piece)

    def _throw_place_legal(self, action: Throw) -> str | None:
        """Where and how a throw starts: on the frame, its speed and spin."""
        geo = self.physics().geometry
        x, y = action.x, action.y
        if not geo.on_table(x, y) or (0 < x < geo.width and 0 < y < geo.depth):
            return (f"a throw starts on the glass frame (x in [-{geo.frame}, "
                    f"{geo.width + geo.frame}], y in [-{geo.frame}, {geo.depth + geo.frame}], "
                    "outside the touch surface)")
        if not 0 < action.speed <= self.params.max_speed:
            return f"speed must be in (0, {self.params.max_speed}]"
        if abs(action.spin) > 60:
            return "spin must be within +-60 rad/s"
        return None

    def _throw_piece_legal(self, mode: str, piece: str) -> str | None:
        """What is thrown, and how, in this phase of the turn."""
        if self.phase == "borg":
            return None if piece == BORG and mode == "roll" else \
                "the Borg die must be rolled now"
        if self.phase == "call":
            return "the odd/even call comes first"
        if mode == "torpedo":
            return None if self._torpedo_allowed(self.to_move) else "no torpedo may be fired now"
        if self.phase == "torpedo":
            return "fire a torpedo or hold"
        if piece not in self.hand_names(self.to_move):
            return f"'{piece}' is not in {SEAT_NAMES[self.to_move]}'s hand"
        if mode == "slide" and not (self.params.slide_d6 and piece.startswith("d6")):
            return "only a d6 may be slid (and only when slide_d6 is on)"
        return None

    def require_legal(self, action: Any) -> None:
        reason = self.is_legal(action)
        if reason is not None:
            raise IllegalAction(f"'{action}' is not legal now: {reason}")

    def physics(self) -> PhysicsParams:
        """`params.physics_params()`, made once for the state's parameters (it is asked for
        at every throw, frame and menu)."""
        cached = self.__dict__.get("_physics")
        if cached is None or cached[0] is not self.params:
            cached = self.__dict__["_physics"] = (self.params, self.params.physics_params())
        physics: PhysicsParams = cached[1]
        return physics

    def _sightings(self, positions: dict[str, tuple[float, float, float, float]]
                   ) -> tuple[list[Sighting], list[Detected]]:
        groups = self._groups(positions)
        seen = self._seen(positions, groups)
        return [Sighting(*s) for s in seen], [Detected(*g) for g in groups]

    def _groups(self, positions: dict[str, tuple[float, float, float, float]]) -> list[Group]:
        """What the touch surface sees of `positions`: the dice on it (stones are never seen)
        grouped as `detect` groups them."""
        geo = self.physics().geometry
        width, depth = geo.width, geo.depth
        on = [(k, v[0], v[1]) for k, v in positions.items()
              if not _is_stone(k) and 0.0 <= v[0] <= width and 0.0 <= v[1] <= depth]
        return detect_groups(on, self.params.merge_distance)

    @staticmethod
    def _seen(positions: dict[str, tuple[float, float, float, float]], groups: list[Group]
              ) -> list[SeenTuple]:
        """The sightings of `groups` (id, x, y, vx, vy): each object's velocity is the mean of
        its dice's."""
        out: list[SeenTuple] = []
        for gid, x, y, members in groups:
            if len(members) == 1:
                v = positions[gid]
                out.append((gid, x, y, (0 + v[2]) / 1, (0 + v[3]) / 1))
                continue
            vx = sum(positions[m][2] for m in members) / len(members)
            vy = sum(positions[m][3] for m in members) / len(members)
            out.append((gid, x, y, vx, vy))
        return out

    def frame_seen(self, positions: dict[str, tuple[float, float, float, float]]
                   ) -> list[SeenTuple]:
        """The formation engine's input for one frame of `positions` (id: x, y, vx, vy)."""
        return self._seen(positions, self._groups(positions))

    def describe_value(self, die: str) -> str:
        v = self.values.get(die)
        if v is None:
            return "nothing"
        if die == BORG:
            return f"{v} ({self.borg_pips()} pips)"
        return str(v)

    def borg_pips(self) -> int:
        v = self.values.get(BORG)
        if v is None:
            return 0
        return self.params.borg_pips[self._borg_face_index]

    def _dice_info(self, forfeiter: int | None) -> dict[str, DieInfo]:
        info = {}
        for k, v in self.values.items():
            if k not in self.table:
                continue
            info[k] = DieInfo(owner_of(k), v, self.borg_pips() if k == BORG else 0)
        return zeroed(info, forfeiter) if forfeiter is not None else info

    def current_score(self, forfeiter: int | None = None) -> TableScore:
        """The score the table shows now."""
        layout = self.engine.layout()
        members = self.members()
        dice = self._dice_info(forfeiter)
        for obj in layout.positions:
            for d in members.get(obj, (obj,)):
                if d not in dice:  # a die seen but without a value (cannot happen in play)
                    dice[d] = DieInfo(owner_of(d), 0, 0)
        return score_table(layout, members, dice, self.params.scoring_rules())

    def members(self) -> dict[str, tuple[str, ...]]:
        pos = {k: (pc.x, pc.y, 0.0, 0.0) for k, pc in self.table.items()}
        return {g[0]: g[3] for g in self._groups(pos)}

    def layout(self) -> Layout:
        return self.engine.layout()

    # -- outcome ---------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if self.phase != "over":
            return [0.0, 0.0]
        if self.draw:
            return [0.5, 0.5]
        return [1.0, 0.0] if self.winner == 0 else [0.0, 1.0]

    def metrics(self) -> dict[str, float | int | str | bool]:
        last = self.battle_points[-1] if self.battle_points else [0, 0]
        layout = self.engine.layout()
        return {
            "battles": len(self.battle_points),
            "war_federation": self.war[0],
            "war_klingon": self.war[1],
            "last_battle_federation": last[0],
            "last_battle_klingon": last[1],
            "throws": self.throws,
            "eliminated": len(self.eliminated),
            "formations": len(layout.formations),
            "forfeits": len(self.forfeits),
            "winner": "draw" if self.draw else (SEAT_NAMES[self.winner]
                                                if self.winner is not None else "none"),
        }

    # -- information -----------------------------------------------------------------------------
    def end_text(self) -> str | None:
        """Why the game ended: the war's or the single battle's points (FR "War", "Battle")."""
        if not self.is_terminal:
            return None
        if self.params.war_target == 0:
            points = self.battle_points[-1] if self.battle_points else [0, 0]
            what = f"The battle ends {points[0]} to {points[1]}"
        else:
            what = f"The war ends {self.war[0]} to {self.war[1]} after {self.battle} battle(s)"
        if self.draw:
            return f"{what}: a draw."
        return f"{what}: {SEAT_NAMES[self.winner or 0]} wins."

    def public_observation(self) -> dict[str, Any]:
        """A spectator sees what the players see (nothing at a Star Dice table is hidden but the
        future), under no seat."""
        obs = self.observation(0)
        obs["seat"] = None
        return obs

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything on and around the table is public; only the future is hidden."""
        layout = self.engine.layout()
        score = self.current_score()
        return {
            "seat": seat,
            "phase": self.phase,
            "to_move": self.current_player,
            "battle": self.battle,
            "war": list(self.war),
            "war_target": self.params.war_target,
            "battle_points": [list(b) for b in self.battle_points],
            "call": self.call,
            "borg_roller": self.borg_roller,
            "hands": [self.hand_names(0), self.hand_names(1)],
            "torpedoes_left": list(self.torpedoes_left),
            "table": [{"id": pc.id, "kind": pc.kind, "x": pc.x, "y": pc.y, "angle": pc.angle,
                       "owner": owner_of(pc.id), "value": self.values.get(pc.id)}
                      for pc in sorted(self.table.values(), key=lambda pc: pc.id)],
            "borg_pips": self.borg_pips() if BORG in self.values else None,
            "eliminated": list(self.eliminated),
            "layout": layout.to_json(),
            "score": score.to_json(),
            "winner": self.winner,
            # the last scored battle as it was scored (a forfeiter's points zeroed): the table is
            # cleared for the next battle at once, and a front end shows this scoring frozen
            "last_score": self.last_score.to_json() if self.last_score else None,
        }
