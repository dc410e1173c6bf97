"""The Star Dice match (Final Rules, seed 002) as a protocol State: throws are actions, the
pymunk table resolves them, the formation engine watches the table, the scoring counts.

Turn structure:

* ``call``: the calling player calls odd or even (Final Rules, Battle 1);
* ``borg``: the rolling player rolls the Borg die; if it leaves the table the call is made again
  ("The calling player may re-call"); otherwise its pips decide who goes first;
* ``throw``: the player to move warps in a ship (a roll, or a slide for a d6), or with the
  iteration-8 torpedo rule fires a torpedo instead; with the iteration-9 rule a ``torpedo``
  phase follows a rolled d6, where the same player fires or holds;
* when both players are out of dice (and torpedoes) the battle is scored; a war goes on, battle
  after battle, until a player exceeds the target.

All chance (throw noise, faces) comes from the state's Chance stream, drawn in a fixed order, so
the same seed and the same throws give the same table.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Literal

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition, IllegalAction
from playtable.core.protocol import TERMINAL, Event, State, params_as_dict
from playtable.games.stardice.formation import (
    Detected,
    FormationEngine,
    Layout,
    Sighting,
    detect,
)
from playtable.games.stardice.params import StarDiceParams
from playtable.games.stardice.physics import (
    PIECE_TYPES,
    Launch,
    Piece,
    simulate,
    speed_for_distance,
)
from playtable.games.stardice.scoring import DieInfo, TableScore, score_table, zeroed

SEATS = ("F", "K")
SEAT_NAMES = ("Federation", "Klingon")
BORG = "borg"
BLANK = "blank"
"""Iteration 2, objective 1: the blank d6 dropped on the table at setup (`solitaire.py`)."""

Phase = Literal["call", "borg", "throw", "torpedo", "over"]


# -- actions --------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Throw:
    """A throw. `piece` is the die's name in the thrower's hand ("d20a"), "borg", or "torpedo".
    The piece starts at (x, y) on the glass frame and leaves at `speed` (table widths/s) in
    direction `heading` (degrees, 0 = +x, 90 = +y), spinning `spin` rad/s. Values are kept in
    fixed decimals (thousandths; tenths for the angles and spin) so the text is canonical."""

    mode: Literal["roll", "slide", "torpedo"]
    piece: str
    x_milli: int
    y_milli: int
    heading_deci: int
    speed_milli: int
    spin_deci: int

    @property
    def x(self) -> float:
        return self.x_milli / 1000

    @property
    def y(self) -> float:
        return self.y_milli / 1000

    @property
    def heading(self) -> float:
        return self.heading_deci / 10

    @property
    def speed(self) -> float:
        return self.speed_milli / 1000

    @property
    def spin(self) -> float:
        return self.spin_deci / 10

    def __str__(self) -> str:
        head = "torpedo" if self.mode == "torpedo" else f"{self.mode} {self.piece}"
        return (f"{head} at {self.x_milli / 1000:.3f},{self.y_milli / 1000:.3f} "
                f"heading {self.heading_deci / 10:.1f} speed {self.speed_milli / 1000:.3f} "
                f"spin {self.spin_deci / 10:.1f}")

    @staticmethod
    def make(mode: Literal["roll", "slide", "torpedo"], piece: str, x: float, y: float,
             heading: float, speed: float, spin: float = 0.0) -> Throw:
        return Throw(mode, piece if mode != "torpedo" else "torpedo", round(x * 1000),
                     round(y * 1000), round((heading % 360.0) * 10) % 3600, round(speed * 1000),
                     round(spin * 10))


@dataclass(frozen=True, order=True)
class Call:
    parity: Literal["odd", "even"]

    def __str__(self) -> str:
        return f"call {self.parity}"


@dataclass(frozen=True, order=True)
class Hold:
    """Iteration 9: decline to fire the torpedo after a d6."""

    def __str__(self) -> str:
        return "hold"


@dataclass(frozen=True, order=True)
class Touch:
    """A foul: the player touched the table so that the game's state changed. Final Rules:
    a forfeit (`touch`). Iteration 2-4 (`foul_rule=discard`): the player discards a die of
    their choice from hand (`touch d6a`)."""

    die: str = ""

    def __str__(self) -> str:
        return f"touch {self.die}" if self.die else "touch"


Action = Throw | Call | Hold | Touch

_NUM = r"(-?\d+(?:\.\d+)?)"
_THROW_RE = re.compile(
    rf"^(?:(roll|slide)\s+([a-z0-9]+)|(torpedo))\s+at\s+{_NUM}\s*,\s*{_NUM}\s+heading\s+{_NUM}"
    rf"\s+speed\s+{_NUM}\s+spin\s+{_NUM}$"
)


def parse_action_text(text: str) -> Action:
    t = " ".join(text.strip().lower().split())
    if t in ("call odd", "call even"):
        return Call("odd" if t.endswith("odd") else "even")
    if t == "hold":
        return Hold()
    if t == "touch":
        return Touch()
    if t.startswith("touch ") and re.fullmatch(r"[a-z0-9]+", t[6:]):
        return Touch(t[6:])
    m = _THROW_RE.match(t)
    if not m:
        raise IllegalAction(
            f"cannot read '{text}': expected 'call odd|even', 'hold', 'touch', or a throw like "
            "'roll d20a at 0.500,-0.030 heading 90.0 speed 1.200 spin 3.0'")
    mode: Literal["roll", "slide", "torpedo"]
    if m.group(3):
        mode, piece = "torpedo", "torpedo"
    else:
        mode = "roll" if m.group(1) == "roll" else "slide"
        piece = m.group(2)
    x, y, heading, speed, spin = (float(m.group(i)) for i in range(4, 9))
    if heading < 0 or heading >= 360:
        raise IllegalAction(f"heading {heading} must be in [0, 360)")
    return Throw.make(mode, piece, x, y, heading, speed, spin)


# -- the state --------------------------------------------------------------------------------------


def die_names(params: StarDiceParams) -> list[str]:
    """Names of one player's dice in hand order: d20a, d20b, d12a, d8a, d6a, d6b, d6c."""
    counts: dict[str, int] = {}
    out = []
    for kind in params.dice:
        n = counts.get(kind, 0)
        counts[kind] = n + 1
        out.append(f"{kind}{chr(ord('a') + n)}")
    return out


def kind_of(die_id: str) -> str:
    """'F.d20a' -> 'd20'; 'borg' -> 'borg'; 'F.t1' -> 'stone'."""
    if die_id == BORG:
        return BORG
    if die_id == BLANK:
        return "d6"
    name = die_id.split(".", 1)[1]
    if name.startswith("t"):
        return "stone"
    return name.rstrip("abcdefghijklmnopqrstuvwxyz")


def owner_of(die_id: str) -> int | None:
    if die_id in (BORG, BLANK):
        return None
    return SEATS.index(die_id.split(".", 1)[0])


class StarDiceState(State):
    game_id = "stardice"

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

    # -- setup -----------------------------------------------------------------------------------
    def start_battle(self) -> list[Event]:
        p = self.params
        names = die_names(p)
        self.hands = [[f"{s}.{n}" for n in names] for s in SEATS]
        self.torpedoes_left = [p.torpedoes, p.torpedoes]
        self.torpedoes_used = [0, 0]
        self.table = {}
        self.values = {}
        self.eliminated = []
        self.engine = FormationEngine(p.formation_params())
        self.rethrows = 0
        self.call = None
        if p.use_borg:
            self.phase = "call"
            self.to_move = 1 - self.borg_roller
            return [Event("battle_started", f"Battle {self.battle}: "
                          f"{SEAT_NAMES[self.borg_roller]} rolls the Borg die, "
                          f"{SEAT_NAMES[1 - self.borg_roller]} calls odd or even.",
                          {"battle": self.battle, "roller": self.borg_roller})]
        self.phase = "throw"
        self.to_move = (self.battle - 1) % 2
        return [Event("battle_started", f"Battle {self.battle}: {SEAT_NAMES[self.to_move]} "
                      "throws first.", {"battle": self.battle, "first": self.to_move})]

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
        if not isinstance(action, Throw):
            return f"'{action}' is not a Star Dice action"
        geo = self.params.physics_params().geometry
        if not geo.on_table(action.x, action.y) or (
                0 < action.x < geo.width and 0 < action.y < geo.depth):
            return (f"a throw starts on the glass frame (x in [-{geo.frame}, "
                    f"{geo.width + geo.frame}], y in [-{geo.frame}, {geo.depth + geo.frame}], "
                    "outside the touch surface)")
        if not 0 < action.speed <= self.params.max_speed:
            return f"speed must be in (0, {self.params.max_speed}]"
        if abs(action.spin) > 60:
            return "spin must be within +-60 rad/s"
        if self.phase == "borg":
            return None if action.piece == BORG and action.mode == "roll" else \
                "the Borg die must be rolled now"
        if self.phase == "call":
            return "the odd/even call comes first"
        if action.mode == "torpedo":
            return None if self._torpedo_allowed(self.to_move) else "no torpedo may be fired now"
        if self.phase == "torpedo":
            return "fire a torpedo or hold"
        if action.piece not in self.hand_names(self.to_move):
            return f"'{action.piece}' is not in {SEAT_NAMES[self.to_move]}'s hand"
        if action.mode == "slide" and not (self.params.slide_d6 and action.piece.startswith("d6")):
            return "only a d6 may be slid (and only when slide_d6 is on)"
        return None

    def require_legal(self, action: Any) -> None:
        reason = self.is_legal(action)
        if reason is not None:
            raise IllegalAction(f"'{action}' is not legal now: {reason}")

    POOL = 32
    """Sampled throws in the menu of `legal_actions`."""

    def legal_actions(self) -> list[Any]:
        """A finite menu of the continuous throws: the discrete choices; for each piece type in
        hand one throw from the middle of each side of the frame to the table's centre; and
        `POOL` throws sampled as in `fresh_throws` from a stream seeded by the public position
        (so the menu is the same in every determinization of a position, which tree search
        needs). Any other throw within the limits is legal too (`is_legal`); `touch` (a foul)
        is accepted but not listed."""
        if self.phase == "over":
            return []
        if self.phase == "call":
            return [Call("even"), Call("odd")]
        out = self._center_menu()
        seen = {str(a) for a in out}
        for a in self.fresh_throws(Chance(self._public_seed()), self.POOL):
            if str(a) not in seen:
                seen.add(str(a))
                out.append(a)
        return out

    def _public_seed(self) -> int:
        public = [self.phase, self.battle, self.to_move, self.hands, self.torpedoes_left,
                  self.throws, [[p.id, p.x, p.y] for p in sorted(self.table.values(),
                                                                key=lambda p: p.id)]]
        digest = hashlib.blake2b(json.dumps(public).encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def _center_menu(self) -> list[Any]:
        out: list[Any] = []
        pieces: list[tuple[Literal["roll", "slide", "torpedo"], str]] = []
        if self.phase == "borg":
            pieces.append(("roll", BORG))
        elif self.phase == "torpedo":
            out.append(Hold())
            pieces.append(("torpedo", "torpedo"))
        else:
            seen = set()
            for name in self.hand_names(self.to_move):
                kind = kind_of(f"X.{name}")
                if kind in seen:
                    continue
                seen.add(kind)
                pieces.append(("roll", name))
                if kind == "d6" and self.params.slide_d6:
                    pieces.append(("slide", name))
            if self._torpedo_allowed(self.to_move):
                pieces.append(("torpedo", "torpedo"))
        geo = self.params.physics_params().geometry
        cx, cy = geo.width / 2, geo.depth / 2
        f = geo.frame / 2
        starts = [(cx, -f), (geo.width + f, cy), (cx, geo.depth + f), (-f, cy)]
        for mode, name in pieces:
            kind = "stone" if mode == "torpedo" else (BORG if name == BORG else kind_of(f"X.{name}"))
            for sx, sy in starts:
                dist = math.hypot(cx - sx, cy - sy)
                speed = min(self.params.max_speed, speed_for_distance(kind, dist))
                heading = math.degrees(math.atan2(cy - sy, cx - sx))
                out.append(Throw.make(mode, name, sx, sy, heading, speed, 0.0))
        return out

    def parse_action(self, text: str) -> Any:
        return parse_action_text(text)

    def sample_actions(self, rng: Chance, k: int) -> list[Any]:
        """Up to k actions of the `legal_actions` menu (all of it when it is small enough; in
        the torpedo phase `hold` is always offered), chosen with `rng`."""
        legal = self.legal_actions()
        if len(legal) <= k:
            return legal
        keep = [a for a in legal if isinstance(a, Hold)]
        rest = [a for a in legal if not isinstance(a, Hold)]
        rng.shuffle(rest)
        return (keep + rest)[:k]

    def fresh_throws(self, rng: Chance, k: int) -> list[Any]:
        """k throws drawn from `rng`: aimed at random points of the touch surface (half of them
        near dice already there) from random points of the frame, each die type and mode in
        hand equally likely, at the speed that stops a lone die there."""
        if self.phase in ("over", "call"):
            return self.legal_actions()[:k]
        menu = [a for a in self._center_menu() if isinstance(a, Throw)]
        choices = sorted({(a.mode, a.piece) for a in menu})
        geo = self.params.physics_params().geometry
        out: list[Any] = [Hold()] if self.phase == "torpedo" else []
        targets = sorted(self.table.values(), key=lambda pc: pc.id)
        while len(out) < k and choices:
            mode, name = choices[rng.below(len(choices))]
            kind = "stone" if mode == "torpedo" else (BORG if name == BORG else kind_of(f"X.{name}"))
            if targets and rng.random() < 0.5:
                t = targets[rng.below(len(targets))]
                r = self.params.connect_range * rng.uniform(0.3, 0.95)
                a = rng.uniform(0, 2 * math.pi)
                tx = min(max(t.x + r * math.cos(a), 0.03), geo.width - 0.03)
                ty = min(max(t.y + r * math.sin(a), 0.03), geo.depth - 0.03)
                if mode == "torpedo":
                    tx, ty = t.x, t.y
            else:
                tx, ty = rng.uniform(0.05, geo.width - 0.05), rng.uniform(0.05, geo.depth - 0.05)
            side = rng.below(4)
            along = rng.uniform(0.0, 1.0)
            depth = geo.frame * rng.uniform(0.2, 0.8)
            if side == 0:
                sx, sy = along * geo.width, -depth
            elif side == 1:
                sx, sy = geo.width + depth, along * geo.depth
            elif side == 2:
                sx, sy = along * geo.width, geo.depth + depth
            else:
                sx, sy = -depth, along * geo.depth
            dist = math.hypot(tx - sx, ty - sy)
            boost = 1.6 if mode == "torpedo" else 1.0
            speed = min(self.params.max_speed, max(0.01, speed_for_distance(kind, dist) * boost))
            heading = math.degrees(math.atan2(ty - sy, tx - sx))
            spin = rng.uniform(-8, 8) if mode == "roll" else 0.0
            action = Throw.make(mode, name, sx, sy, heading, speed, spin)
            if self.is_legal(action) is None:
                out.append(action)
        return out[:k]

    # -- applying ------------------------------------------------------------------------------
    def apply(self, action: Any) -> list[Event]:
        self.require_legal(action)
        seat = self.to_move
        if isinstance(action, Call):
            self.call = action.parity
            self.phase = "borg"
            self.to_move = self.borg_roller
            return [Event("called", f"{SEAT_NAMES[seat]} calls {action.parity}.",
                          {"seat": seat, "call": action.parity})]
        if isinstance(action, Touch):
            if not action.die:
                return self._forfeit(seat, "touched the table")
            die = f"{SEATS[seat]}.{action.die}"
            self.hands[seat].remove(die)
            self.eliminated.append(die)
            events = [Event("foul", f"{SEAT_NAMES[seat]} fouls and discards {action.die}.",
                            {"seat": seat, "die": die})]
            if self.phase == "torpedo" or not self._has_stock(seat):
                self.phase = "throw"
                return events + self._next_turn(seat)
            return events
        if isinstance(action, Hold):
            events = [Event("held_fire", f"{SEAT_NAMES[seat]} holds the torpedo.",
                            {"seat": seat})]
            self.phase = "throw"
            return events + self._next_turn(seat)
        assert isinstance(action, Throw)
        return self._throw(seat, action)

    def _noisy(self, action: Throw) -> tuple[float, float]:
        p = self.params
        if action.mode == "roll":
            dn, sn = p.roll_dir_noise_deg, p.roll_speed_noise
        else:
            dn, sn = p.slide_dir_noise_deg, p.slide_speed_noise
        # triangular noise: the sum of two uniforms
        d = (self.chance.uniform(-1, 1) + self.chance.uniform(-1, 1)) / 2 * dn
        s = (self.chance.uniform(-1, 1) + self.chance.uniform(-1, 1)) / 2 * sn
        return action.heading + d, max(0.0, action.speed * (1.0 + s))

    def _sightings(self, positions: dict[str, tuple[float, float, float, float]]
                   ) -> tuple[list[Sighting], list[Detected]]:
        geo = self.params.physics_params().geometry
        seen = [(k, v[0], v[1]) for k, v in positions.items()
                if kind_of(k) != "stone" and geo.on_surface(v[0], v[1])]
        objs = detect(seen, self.params.merge_distance)
        out = []
        for o in objs:
            vx = sum(positions[m][2] for m in o.members) / len(o.members)
            vy = sum(positions[m][3] for m in o.members) / len(o.members)
            out.append(Sighting(o.id, o.x, o.y, vx, vy))
        return out, objs

    def _throw(self, seat: int, action: Throw) -> list[Event]:
        p = self.params
        events: list[Event] = []
        if action.mode == "torpedo":
            self.torpedoes_left[seat] -= 1
            self.torpedoes_used[seat] += 1
            piece_id = f"{SEATS[seat]}.t{self.torpedoes_used[seat]}"
        elif action.piece == BORG:
            piece_id = BORG
        else:
            piece_id = f"{SEATS[seat]}.{action.piece}"
            self.hands[seat].remove(piece_id)
        heading, speed = self._noisy(action)
        kind = kind_of(piece_id)
        rad = math.radians(heading)
        launch = Launch(Piece(piece_id, kind, action.x, action.y, 0.0),
                        speed * math.cos(rad), speed * math.sin(rad), action.spin)
        base = self.clock
        engine = self.engine

        def on_frame(t: float, pos: dict[str, tuple[float, float, float, float]]) -> None:
            engine.update(self._sightings(pos)[0], base + t)

        before = self.engine.layout()
        result = simulate(list(self.table.values()), launch, p.physics_params(), on_frame)
        self.throws += 1
        who = SEAT_NAMES[seat]
        verb = {"roll": "rolls", "slide": "slides", "torpedo": "fires"}[action.mode]
        what = "a torpedo" if action.mode == "torpedo" else kind
        # the thrown piece
        never_entered = (piece_id in result.off_table and not result.detected
                         and not result.moved and action.mode != "torpedo")
        self.table = dict(result.pieces)
        if never_entered and piece_id != BORG:
            self.rethrows += 1
            if self.rethrows <= p.max_rethrows:
                self.hands[seat].append(piece_id)
                self.hands[seat].sort(key=lambda d: die_names(p).index(d.split(".", 1)[1]))
                events.append(Event("rethrow", f"{who} {verb} {what}: it misses the table "
                                    "without touching anything and may be thrown again.",
                                    {"seat": seat, "die": piece_id}))
                self._finish_frames(result.time)
                return events
        # faces: the thrown die, then every die knocked hard enough to tumble (id order)
        new_faces = []
        if kind != "stone" and piece_id in result.pieces:
            new_faces.append(piece_id)
        for k in sorted(result.moved):
            if k in result.pieces and kind_of(k) != "stone" and \
                    result.max_speed.get(k, 0.0) > p.tumble_speed:
                new_faces.append(k)
        for k in new_faces:
            self.values[k] = self._roll_face(k)
        fell = [k for k in result.off_table]
        for k in fell:
            self.values.pop(k, None)
            if (kind_of(k) != "stone" and k != BORG) or (k == BORG and self.phase != "borg"):
                self.eliminated.append(k)
        if piece_id in result.pieces:
            pc = result.pieces[piece_id]
            seen = "" if p.physics_params().geometry.on_surface(pc.x, pc.y) else \
                " (on the frame, unseen by the table)"
            face = f" showing {self.describe_value(piece_id)}" if piece_id in self.values else ""
            events.append(Event("landed", f"{who} {verb} {what}: it comes to rest at "
                                f"({pc.x:.2f}, {pc.y:.2f}){face}{seen}.",
                                {"seat": seat, "piece": piece_id, "x": pc.x, "y": pc.y,
                                 "value": self.values.get(piece_id)}))
        for k in sorted(result.moved):
            if k in result.pieces and k in new_faces:
                events.append(Event("knocked", f"{k} is knocked and now shows "
                                    f"{self.describe_value(k)}.",
                                    {"piece": k, "value": self.values.get(k)}))
        for k in fell:
            events.append(Event("knocked_off", f"{k} falls off the table"
                                + (" and is eliminated." if k in self.eliminated else "."),
                                {"piece": k}))
        self._finish_frames(result.time)
        after = self.engine.layout()
        events.extend(_shape_events(before, after))
        # the Borg die of the opening roll
        if self.phase == "borg":
            return events + self._borg_landed(seat)
        if BORG in fell:
            return events + self._forfeit(seat, "knocked the Borg die off the table")
        if (action.mode == "roll" and kind == "d6" and p.torpedoes > 0
                and p.torpedo_rule == "iter9" and self.torpedoes_left[seat] > 0):
            self.phase = "torpedo"
            self.rethrows = 0
            return events
        if self.phase == "torpedo":
            self.phase = "throw"
        return events + self._next_turn(seat)

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

    def _roll_face(self, die: str) -> int:
        if die == BORG:
            i = self.chance.roll(len(self.params.borg_faces), queue="borg") - 1
            self._borg_face_index = i
            return self.params.borg_faces[i]
        return self.chance.roll(PIECE_TYPES[kind_of(die)].sides)

    def _finish_frames(self, sim_time: float) -> None:
        """The table comes to rest: two more frames, settle_time apart, so every die that
        stopped settles and connects."""
        pos = {k: (pc.x, pc.y, 0.0, 0.0) for k, pc in self.table.items()}
        sightings = self._sightings(pos)[0]
        t = self.clock + sim_time
        self.engine.update(sightings, t)
        self.engine.update(sightings, t + self.params.settle_time)
        self.clock = t + self.params.settle_time + 1.0

    def _borg_landed(self, roller: int) -> list[Event]:
        if BORG not in self.table:
            self.phase = "call"
            self.to_move = 1 - roller
            self.values.pop(BORG, None)
            return [Event("borg_reroll", "The Borg die left the table: it is rolled again, and "
                          "the call may be made again.", {})]
        pips = self.borg_pips()
        parity = "odd" if pips % 2 else "even"
        caller = 1 - roller
        first = caller if parity == self.call else roller
        self.phase = "throw"
        self.to_move = first
        self.rethrows = 0
        return [Event("first_player", f"The Borg shows {self.values[BORG]} with {pips} pips "
                      f"({parity}): {SEAT_NAMES[first]} goes first.",
                      {"pips": pips, "value": self.values[BORG], "first": first})]

    def _has_stock(self, seat: int) -> bool:
        if self.hands[seat]:
            return True
        return self.params.torpedo_rule == "iter8" and self._torpedo_allowed_after(seat)

    def _torpedo_allowed_after(self, seat: int) -> bool:
        if self.torpedoes_left[seat] <= 0:
            return False
        own_d6 = sum(1 for d in self.table if owner_of(d) == seat and kind_of(d) == "d6")
        return self.torpedoes_used[seat] < own_d6

    def _next_turn(self, seat: int) -> list[Event]:
        self.rethrows = 0
        other = 1 - seat
        if self._has_stock(other):
            self.to_move = other
            return []
        if self._has_stock(seat):
            self.to_move = seat
            return []
        return self._score_battle(None)

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
        return {o.id: o.members for o in self._sightings(pos)[1]}

    def layout(self) -> Layout:
        return self.engine.layout()

    def _forfeit(self, seat: int, why: str) -> list[Event]:
        self.forfeits.append(seat)
        events = [Event("forfeit", f"{SEAT_NAMES[seat]} {why} and forfeits the battle.",
                        {"seat": seat, "why": why})]
        return events + self._score_battle(seat)

    def _score_battle(self, forfeiter: int | None) -> list[Event]:
        score = self.current_score(forfeiter)
        pts = list(score.points)
        if forfeiter is not None:
            pts[forfeiter] = 0
        self.last_score = TableScore(tuple(pts), score.shapes)
        self.battle_points.append(pts)
        p = self.params
        if p.war_scoring == "both":
            gained = pts
        else:
            gained = [pts[0] if pts[0] > pts[1] else 0, pts[1] if pts[1] > pts[0] else 0]
        self.war = [self.war[0] + gained[0], self.war[1] + gained[1]]
        events = [Event("battle_scored", f"Battle {self.battle}: Federation {pts[0]}, "
                        f"Klingon {pts[1]}.", {"battle": self.battle, "points": pts,
                                               "war": list(self.war)})]
        if p.war_target == 0:
            self.phase = "over"
            if pts[0] != pts[1]:
                self.winner = 0 if pts[0] > pts[1] else 1
            else:
                self.draw = True
            return events
        over = [s for s in (0, 1) if self.war[s] > p.war_target]
        if over and self.war[0] != self.war[1]:
            self.winner = 0 if self.war[0] > self.war[1] else 1
        elif self.battle >= p.max_battles:
            if self.war[0] != self.war[1]:
                self.winner = 0 if self.war[0] > self.war[1] else 1
            else:
                self.draw = True
        if self.winner is not None or self.draw:
            self.phase = "over"
            text = "The war ends in a draw." if self.draw else \
                f"{SEAT_NAMES[self.winner or 0]} wins the war {self.war[0]}-{self.war[1]}."
            return events + [Event("war_over", text, {"winner": self.winner,
                                                      "war": list(self.war)})]
        self.battle += 1
        self.borg_roller = 1 - self.borg_roller
        return events + self.start_battle()

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
        }

    def determinize(self, seat: int, rng: Chance) -> StarDiceState:
        clone = self.clone()
        clone.chance = Chance(rng.next_u64())
        return clone

    # -- copies and persistence --------------------------------------------------------------------
    def clone(self) -> StarDiceState:
        return state_from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {
            "params": params_as_dict(self.params),
            "chance": self.chance.to_json(),
            "phase": self.phase,
            "battle": self.battle,
            "war": list(self.war),
            "battle_points": [list(b) for b in self.battle_points],
            "borg_roller": self.borg_roller,
            "call": self.call,
            "to_move": self.to_move,
            "hands": [list(h) for h in self.hands],
            "torpedoes_left": list(self.torpedoes_left),
            "torpedoes_used": list(self.torpedoes_used),
            "table": [{"id": pc.id, "x": pc.x, "y": pc.y, "angle": pc.angle}
                      for pc in sorted(self.table.values(), key=lambda pc: pc.id)],
            "values": dict(sorted(self.values.items())),
            "borg_face": self._borg_face_index,
            "eliminated": list(self.eliminated),
            "engine": self.engine.to_json(),
            "clock": self.clock,
            "rethrows": self.rethrows,
            "throws": self.throws,
            "forfeits": list(self.forfeits),
            "last_score": self.last_score.to_json() if self.last_score else None,
            "winner": self.winner,
            "draw": self.draw,
        }


def _shape_events(before: Layout, after: Layout) -> list[Event]:
    events = []
    old = {frozenset(f) for f in before.formations}
    for f in after.formations:
        if frozenset(f) not in old:
            events.append(Event("formation_closed", f"A formation of {len(f)} closes: "
                                + ", ".join(f) + ".", {"objects": list(f)}))
    new = {frozenset(f) for f in after.formations}
    for f in before.formations:
        if frozenset(f) not in new:
            events.append(Event("formation_broken", f"The formation {', '.join(f)} breaks.",
                                {"objects": list(f)}))
    return events


def state_from_json(data: Any) -> StarDiceState:
    from playtable.core.params import params_from_dict

    if not isinstance(data, dict):
        raise BadPosition("a Star Dice position must be a JSON object")
    try:
        params: StarDiceParams = params_from_dict(StarDiceParams, dict(data["params"]))
        params.validate()
        state = StarDiceState(params, Chance.from_json(data["chance"]))
        phase = data["phase"]
        if phase not in ("call", "borg", "throw", "torpedo", "over"):
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
            from playtable.games.stardice.scoring import ShapeScore

            state.last_score = TableScore(
                tuple(int(v) for v in last["points"]),
                tuple(ShapeScore(s["kind"], tuple(s["objects"]), tuple(s["dice"]),
                                 int(s["points"]), s["owner"], int(s["bonus"]),
                                 tuple(s["totals"]), s["note"]) for s in last["shapes"]))
        w = data.get("winner")
        state.winner = None if w is None else int(w)
        state.draw = bool(data.get("draw", False))
        return state
    except BadPosition:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise BadPosition(f"malformed Star Dice position: {type(err).__name__}: {err}") from None
