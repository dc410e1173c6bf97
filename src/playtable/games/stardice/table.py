"""The Star Dice state's fields and everything that only reads them: whose turn it is, which
actions are legal now (`is_legal`), the face values and Borg pips on the table, what the
formation engine sees and what the table scores, the outcome (`returns`, `metrics`) and each
seat's `observation`. `StarDiceTable` is the base of `StarDiceMenu` (menu.py), which is the
base of the playable `StarDiceState` (match.py); nothing here changes the state.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, Literal

from playtable.core.chance import Chance
from playtable.core.errors import IllegalAction
from playtable.core.presentation import Presentation
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

Phase = Literal["call", "borg", "throw", "torpedo", "more", "over"]
"""more: under many_per_turn (It. 9), the player who just threw may throw another die or end
the turn (`hold`)."""

_STONES: dict[str, bool] = {}


def _is_stone(piece: str) -> bool:
    """kind_of(piece) == "stone", remembered (asked for every piece of every frame)."""
    stone = _STONES.get(piece)
    if stone is None:
        if len(_STONES) > 4096:  # ids come from positions too: keep the memory bounded
            _STONES.clear()
        stone = _STONES[piece] = kind_of(piece) == "stone"
    return stone


class StarDiceTable(Presentation, State):
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
            return None if self.phase in ("torpedo", "more") else \
                "'hold' answers the torpedo choice, or ends a turn of several dice"
        if isinstance(action, Touch):
            if self.phase not in ("throw", "torpedo", "more"):
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
        x, y = action.x_milli / 1000, action.y_milli / 1000  # action.x, action.y
        f, width, depth = geo.frame, geo.width, geo.depth
        # geo.on_table(x, y), written out (the menus check hundreds of throws a turn)
        if not (-f <= x <= width + f and -f <= y <= depth + f) or (
                0 < x < width and 0 < y < depth):
            return (f"a throw starts on the glass frame (x in [-{geo.frame}, "
                    f"{geo.width + geo.frame}], y in [-{geo.frame}, {geo.depth + geo.frame}], "
                    "outside the touch surface)")
        if not 0 < action.speed_milli / 1000 <= self.params.max_speed:
            return f"speed must be in (0, {self.params.max_speed}]"
        if abs(action.spin_deci / 10) > 60:
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

    def frame_reader(self) -> FrameReader:
        """A reader of one throw's frames (`FrameReader`)."""
        return FrameReader(self)

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

    def current_score(self, forfeiter: int | None = None, layout: Layout | None = None
                      ) -> TableScore:
        """The score the table shows now (`layout`: the engine's layout, if already read)."""
        layout = layout or self.engine.layout()
        members = self.members()
        dice = self._dice_info(forfeiter)
        for obj in layout.positions:
            for d in members.get(obj, (obj,)):
                if d not in dice:  # a die seen but without a value (cannot happen in play)
                    dice[d] = DieInfo(owner_of(d), 0, 0)
        return score_table(layout, members, dice, self.params.scoring_rules())

    def members(self) -> dict[str, tuple[str, ...]]:
        """The dice of each object the touch surface sees (dice lying together are one). Kept
        while the table holds the very same pieces (pieces are immutable)."""
        items = list(self.table.items())
        memo = self.__dict__.get("_members")
        if memo is not None and memo[0] is self.params and len(memo[1]) == len(items) and all(
                k == mk and pc is mpc for (k, pc), (mk, mpc) in zip(items, memo[1],
                                                                    strict=True)):
            return dict(memo[2])
        pos = {k: (pc.x, pc.y, 0.0, 0.0) for k, pc in items}
        members = {g[0]: g[3] for g in self._groups(pos)}
        self.__dict__["_members"] = (self.params, items, members)
        return dict(members)

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
    def story_figures(self) -> list[str]:
        """The end screen's figures in words: each battle's points (a single battle said as
        one, a solitaire's points round by round), the war's total, the throws and forfeits."""
        battles = self.battle_points
        lines: list[str] = []
        if self.num_players == 1:
            if battles:
                each = ", ".join(str(b[0]) for b in battles)
                lines.append(f"Points {'round by round' if len(battles) > 1 else 'scored'}: {each}.")
        elif len(battles) == 1:
            fed, kli = battles[0]
            lines.append(f"A single battle: Federation {fed} point{'' if fed == 1 else 's'}, Klingon {kli}.")
        elif battles:
            each = "; ".join(f"{b[0]} to {b[1]}" for b in battles)
            lines.append(f"{len(battles)} battles, Federation to Klingon: {each}. "
                         f"The war: {self.war[0]} to {self.war[1]}.")
        lines.append(f"{self.throws} throw{'' if self.throws == 1 else 's'} in all.")
        for seat in sorted(set(self.forfeits)):
            n = self.forfeits.count(seat)
            lines.append(f"{SEAT_NAMES[seat]} forfeited {'a battle' if n == 1 else f'{n} battles'}.")
        return lines

    def end_text(self) -> str | None:
        """Why the game ended: the war's or the single battle's points (FR "War", "Battle"),
        the winner named first and their points first, as the table's own banner says it."""
        if not self.is_terminal:
            return None
        after = f" after {self.battle} battle{'s' if self.battle != 1 else ''}"
        if self.params.war_format == "best_of":
            score = [sum(1 for b in self.battle_points if b[s] > b[1 - s]) for s in (0, 1)]
            what, unit = "the war", " battles"
        elif self.params.war_target == 0 and self.params.war_format == "target":
            score = list(self.battle_points[-1]) if self.battle_points else [0, 0]
            what, unit, after = "the battle", "", ""
        else:
            score, what, unit = list(self.war), "the war", ""
        if self.draw:
            return f"{what.capitalize()} ends in a draw, {score[0]} to {score[1]}{after}."
        w = self.winner or 0
        return f"{SEAT_NAMES[w]} wins {what}, {score[w]}{unit} to {score[1 - w]}{after}."

    def public_observation(self) -> dict[str, Any]:
        """A spectator sees what the players see (nothing at a Star Dice table is hidden but the
        future), under no seat."""
        obs = self.observation(0)
        obs["seat"] = None
        return obs

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything on and around the table is public; only the future is hidden. A war of
        the earlier formats (rounds, best of X) also says its format, X and the battles won."""
        obs = self._observation(seat)
        if self.params.war_format != "target":
            won = [sum(1 for b in self.battle_points if b[s] > b[1 - s]) for s in (0, 1)]
            obs.update({"war_format": self.params.war_format, "war_rounds": self.params.war_rounds,
                        "battles_won": won})
        return obs

    def _observation(self, seat: int) -> dict[str, Any]:
        layout = self.engine.layout()
        score = self.current_score(layout=layout)
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


Position = tuple[float, float, float, float]


class FrameReader:
    """One throw's frames, read for the formation engine (`StarDiceTable.frame_seen`) and for
    the motion a front end animates, reusing the last frame's work for every piece that has not
    moved since: the physics hands a resting piece's very same tuple at every frame
    (`physics.simulate`), so `is` tells which pieces moved. The answers are exactly those of
    `frame_seen` and of rounding every position afresh."""

    def __init__(self, state: StarDiceTable) -> None:
        self.state = state
        geo = state.physics().geometry
        self.width, self.depth = geo.width, geo.depth
        self.merge = state.params.merge_distance
        self.last: dict[str, Position] = {}
        """Each piece's position tuple in the last frame."""
        self.alone: dict[str, SeenTuple | None] = {}
        """Each piece's sighting when it is an object of its own (None: not seen, a stone or
        off the touch surface), for the tuple in `last`."""
        self.close: set[tuple[str, str]] = set()
        """The pairs of seen pieces closer than the merge distance in the last frame."""
        self.groups: list[SeenTuple] = []
        """The objects of several dice in the last frame that had such pairs..."""
        self.grouped: set[str] = set()
        """...and their dice."""
        self.rounded: dict[str, tuple[Position, float, float]] = {}

    def seen(self, pos: dict[str, Position]) -> list[SeenTuple]:
        last, alone = self.last, self.alone
        moved = [k for k, v in pos.items() if last.get(k) is not v]
        if not moved and len(pos) == len(last) and not self.close:
            return [a for a in (alone[k] for k in sorted(pos)) if a is not None]
        width, depth, merge = self.width, self.depth, self.merge
        for k in moved:
            x, y, vx, vy = v = pos[k]
            last[k] = v
            alone[k] = (k, 0.0 + x, 0.0 + y, (0 + vx) / 1, (0 + vy) / 1) if (
                not _is_stone(k) and 0.0 <= x <= width and 0.0 <= y <= depth) else None
        for k in [k for k in last if k not in pos]:
            del last[k], alone[k]
        # close pairs: the last frame's between pieces that have not moved, and those of each
        # piece that moved (tested as `detect_groups` tests them: hypot of the smaller id's
        # position minus the larger's, skipped when one axis alone is too far apart)
        moved_set = set(moved)
        close = {pair for pair in self.close
                 if pair[0] not in moved_set and pair[1] not in moved_set
                 and pair[0] in pos and pair[1] in pos}
        hypot = math.hypot
        if len(moved) <= 2:
            pairs: Any = ((k, other) for k in moved if alone[k] is not None
                          for other, b in alone.items()
                          if b is not None and other != k
                          and not (other in moved_set and other < k))
        else:  # many moved (the first frame): the pairs within reach along x, by a sweep
            by_x = sorted((pos[k][0], k) for k, a in alone.items() if a is not None)
            pairs = ((ka, kb) for i, (xa, ka) in enumerate(by_x)
                     for xb, kb in _within(by_x, i, merge)
                     if ka in moved_set or kb in moved_set)
        for k, other in pairs:
            lo, hi = (k, other) if k < other else (other, k)
            (lx, ly, _, _), (hx, hy, _, _) = pos[lo], pos[hi]
            dx, dy = lx - hx, ly - hy
            if dx >= merge or -dx >= merge or dy >= merge or -dy >= merge:
                continue
            if hypot(dx, dy) < merge:
                close.add((lo, hi))
        if not close:
            self.close = close
            return [a for a in (alone[k] for k in sorted(pos)) if a is not None]
        if close == self.close and not any(k in self.grouped for k in moved):
            # the same dice lying together, none of them moved: the same objects
            same = [a for a in (alone[k] for k in sorted(pos))
                    if a is not None and a[0] not in self.grouped]
            same.extend(self.groups)
            same.sort(key=_first_seen)
            return same
        self.close = close
        # dice lying together: grouped as `detect_groups` groups them (each object at its
        # dice's mean position, in id order; its velocity the mean of theirs)
        ids = [k for k in sorted(pos) if alone[k] is not None]
        parent = {k: k for k in ids}

        def find(k: str) -> str:
            while parent[k] != k:
                parent[k] = parent[parent[k]]
                k = parent[k]
            return k

        for first, second in close:
            parent[find(second)] = find(first)
        groups: dict[str, list[str]] = {}
        for k in ids:
            groups.setdefault(find(k), []).append(k)
        out: list[SeenTuple] = []
        self.groups = []
        self.grouped = set()
        for group in groups.values():
            if len(group) == 1:
                single = alone[group[0]]
                assert single is not None
                out.append(single)
                continue
            n = len(group)
            seen = ("+".join(group), sum(pos[m][0] for m in group) / n,
                    sum(pos[m][1] for m in group) / n, sum(pos[m][2] for m in group) / n,
                    sum(pos[m][3] for m in group) / n)
            out.append(seen)
            self.groups.append(seen)
            self.grouped.update(group)
        out.sort(key=_first_seen)
        return out

    def motion(self, pos: dict[str, Position]) -> list[list[Any]]:
        """`[[id, round(x, 4), round(y, 4)] ...]` in id order."""
        rounded = self.rounded
        out: list[list[Any]] = []
        for k in sorted(pos):
            v = pos[k]
            r = rounded.get(k)
            if r is None or r[0] is not v:
                r = rounded[k] = (v, round(v[0], 4), round(v[1], 4))
            out.append([k, r[1], r[2]])
        return out


def _first_seen(seen: SeenTuple) -> str:
    return seen[0]


def _within(by_x: list[tuple[float, str]], i: int, reach: float) -> Iterator[tuple[float, str]]:
    """The entries after `by_x[i]` (sorted by x) less than `reach` further along x."""
    xa = by_x[i][0]
    for j in range(i + 1, len(by_x)):
        entry = by_x[j]
        if entry[0] - xa >= reach:
            return
        yield entry
