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

The state is built in layers: `StarDiceTable` (table.py: the fields and the read-only
queries), `StarDiceMenu` (menu.py: the throw menu), and here `StarDiceState`, which adds the
turn, battle and war flow: applying an action, resolving a throw on the table, the Borg
opening, the next turn, forfeits, and scoring a battle into the war. The actions and piece
names are in actions.py; the JSON form in state_json.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

from playtable.core.chance import Chance
from playtable.core.protocol import Event
from playtable.games.stardice.actions import (
    BORG,
    SEAT_NAMES,
    SEATS,
    Call,
    Hold,
    Throw,
    Touch,
    die_names,
    kind_of,
    owner_of,
)
from playtable.games.stardice.formation import FormationEngine, Formations
from playtable.games.stardice.menu import StarDiceMenu
from playtable.games.stardice.physics import PIECE_TYPES, Launch, Piece, simulate
from playtable.games.stardice.scoring import TableScore, scoring_shapes
from playtable.games.stardice.state_json import state_to_json
from playtable.games.stardice.table import FrameReader


class StarDiceState(StarDiceMenu):
    game_id = "stardice"
    story_kinds = frozenset({"battle_scored", "round_scored", "forfeit", "foul", "war_over",
                             "game_over"})
    """The end screen's key moments (RULES.md, "The end screen"); Star Dice hides nothing."""

    # -- setup -----------------------------------------------------------------------------------
    def clear_table(self, hands: list[list[str]], torpedoes: int) -> None:
        """An empty table and fresh hands: the start of a battle (or of a solitaire round)."""
        self.hands = hands
        self.torpedoes_left = [torpedoes, torpedoes]
        self.torpedoes_used = [0, 0]
        self.table = {}
        self.values = {}
        self.eliminated = []
        self.engine = FormationEngine(self.params.formation_params())
        self.rethrows = 0
        self.call = None

    def start_battle(self) -> list[Event]:
        p = self.params
        names = die_names(p)
        self.clear_table([[f"{s}.{n}" for n in names] for s in SEATS], p.torpedoes)
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
    # -- applying ------------------------------------------------------------------------------
    def motion(self) -> list[dict[str, Any]]:
        """The last throw's motion, for a front end to animate (the web table streams it): one
        entry per physics frame (`frame_dt`), `{"t": seconds, "pieces": [[id, x, y], ...]}`.
        Not part of the state: it is not saved, and a copy or a restored state has none.

        A throw keeps its frames as the physics gave them (`_motion_frames`), and they are
        rounded into this form when first asked for: most throws (an RL environment's, a
        search's) are never animated."""
        raw = self.__dict__.pop("_motion_frames", None)
        if raw is not None:
            table, (piece_id, x, y), frames, reader = raw
            start = sorted([[k, round(pc.x, 4), round(pc.y, 4)] for k, pc in table]
                           + [[piece_id, x, y]])
            pieces = reader.motion
            self._motion: list[dict[str, Any]] = [{"t": 0.0, "pieces": start}] + [
                {"t": round(t, 3), "pieces": pieces(pos)} for t, pos in frames]
        return getattr(self, "_motion", [])

    def apply(self, action: Any) -> list[Event]:
        self.require_legal(action)
        self._motion = []
        self.__dict__.pop("_motion_frames", None)
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
            if self.phase in ("torpedo", "more") or not self._has_stock(seat):
                self.phase = "throw"
                return events + self._next_turn(seat)
            return events
        if isinstance(action, Hold):
            if self.phase == "more":  # It. 9 idea: the player ends a turn of several dice
                events = [Event("turn_ended", f"{SEAT_NAMES[seat]} ends the turn.",
                                {"seat": seat})]
            else:
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

        frames: list[tuple[float, dict[str, tuple[float, float, float, float]]]] = []
        reader = self.frame_reader()

        def on_frame(t: float, pos: dict[str, tuple[float, float, float, float]]) -> None:
            engine.advance_seen(reader.seen(pos), base + t)
            frames.append((t, pos))  # each frame a dict of its own, never changed after

        before = self.engine.formations()
        # the table before the throw (pieces are immutable; the live table changes its dict)
        self._motion_frames = (list(self.table.items()), (piece_id, action.x, action.y), frames,
                               reader)
        result = simulate(list(self.table.values()), launch, self.physics(), on_frame)
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
                self._finish_frames(result.time, reader)
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
            seen = "" if self.physics().geometry.on_surface(pc.x, pc.y) else \
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
        self._finish_frames(result.time, reader)
        events.extend(_shape_events(before, self.engine.formations()))
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
        if p.many_per_turn and self.hands[seat] and self._has_stock(1 - seat):
            # It. 9: "roll as many dice as he wishes in a turn": another die, or end the turn
            self.phase = "more"
            self.rethrows = 0
            return events
        self.phase = "throw"
        return events + self._next_turn(seat)

    def _roll_face(self, die: str) -> int:
        if die == BORG:
            i = self.chance.roll(len(self.params.borg_faces), queue="borg") - 1
            self._borg_face_index = i
            return self.params.borg_faces[i]
        return self.chance.roll(PIECE_TYPES[kind_of(die)].sides)

    def _finish_frames(self, sim_time: float, reader: FrameReader | None = None) -> None:
        """The table comes to rest: two more frames, settle_time apart, so every die that
        stopped settles and connects (read by the throw's `reader`, when given, which has the
        answer of `frame_seen` from what it kept of the throw's frames)."""
        pos = {k: (pc.x, pc.y, 0.0, 0.0) for k, pc in self.table.items()}
        seen = self.frame_seen(pos) if reader is None else reader.seen(pos)
        t = self.clock + sim_time
        self.engine.advance_seen(seen, t)
        self.engine.advance_seen(seen, t + self.params.settle_time)
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
        self.last_score = TableScore(tuple(pts), score.shapes, score.borg)
        self.battle_points.append(pts)
        p = self.params
        if p.war_scoring == "both":
            gained = pts
        else:
            gained = [pts[0] if pts[0] > pts[1] else 0, pts[1] if pts[1] > pts[0] else 0]
        self.war = [self.war[0] + gained[0], self.war[1] + gained[1]]
        # What scored and why goes with the event (its data), so a log that words it says the
        # same as the scoring.
        events = [Event("battle_scored", f"Battle {self.battle}: Federation {pts[0]}, "
                        f"Klingon {pts[1]}.", {"battle": self.battle, "points": pts,
                                               "war": list(self.war),
                                               "shapes": scoring_shapes(self.last_score)})]
        if p.war_format != "target":
            return events + self._rounds_over()
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
        return events + self._next_battle()

    def _next_battle(self) -> list[Event]:
        self.battle += 1
        self.borg_roller = 1 - self.borg_roller
        return self.start_battle()

    def battles_won(self) -> list[int]:
        """Battles each player won outright (more battle points; a tie is nobody's)."""
        won = [0, 0]
        for a, b in self.battle_points:
            if a != b:
                won[0 if a > b else 1] += 1
        return won

    def _rounds_over(self) -> list[Event]:
        """War formats of earlier iterations. rounds (It. 4 "Play to X number of rounds"): after
        `war_rounds` battles the higher war total wins, equal is a draw. best_of (It. 7 "In
        rounds, best of X"): the first to win more than half of `war_rounds` battles wins; tied
        battles win nothing, so past `max_battles` the one with more battles won wins (equal:
        a draw)."""
        p = self.params
        if p.war_format == "rounds":
            if self.battle >= min(p.war_rounds, p.max_battles):
                if self.war[0] != self.war[1]:
                    self.winner = 0 if self.war[0] > self.war[1] else 1
                else:
                    self.draw = True
            detail = f"{self.war[0]}-{self.war[1]}"
        else:
            won = self.battles_won()
            need = p.war_rounds // 2 + 1
            if max(won) >= need or self.battle >= p.max_battles:
                if won[0] != won[1]:
                    self.winner = 0 if won[0] > won[1] else 1
                else:
                    self.draw = True
            detail = f"{won[0]} battles to {won[1]}"
        if self.winner is None and not self.draw:
            return self._next_battle()
        self.phase = "over"
        text = "The war ends in a draw." if self.draw else \
            f"{SEAT_NAMES[self.winner or 0]} wins the war {detail}."
        return [Event("war_over", text, {"winner": self.winner, "war": list(self.war)})]

    hint_planner: ClassVar[Callable[[StarDiceState], tuple[Any, str]] | None] = None
    """The aiming bot's throw and why for a position (`aiming.hint`), given by the game
    (`game.py`): the bots read this module's states, so this module may not import them."""

    def hint(self) -> tuple[Any, str] | None:
        """The aiming bot's throw and why (`aiming.py`): a war only (the solitaire modes have
        their own objectives). Its chance comes from the public position, so the same
        position gets the same hint."""
        planner = StarDiceState.hint_planner
        if self.is_terminal or self.params.mode != "versus" or planner is None:
            return None
        return planner(self)

    def determinize(self, seat: int, rng: Chance) -> StarDiceState:
        clone = self.clone()
        clone.chance = Chance(rng.next_u64())
        return clone

    # -- copies and persistence --------------------------------------------------------------------
    def clone(self) -> StarDiceState:
        """The same position as reading back its JSON (`state_from_json(self.to_json())`),
        without the JSON: every field copied (the parameters, the last score and the pieces
        are immutable and shared), the chance stream cloned, the formation engine copied; a
        copy has no motion. Search bots copy a position for every throw they try."""
        twin = StarDiceState.__new__(StarDiceState)
        fields = dict(self.__dict__)
        fields.pop("_motion", None)
        fields.pop("_motion_frames", None)
        fields.pop("setup_events", None)
        twin.__dict__.update(fields)
        twin.chance = self.chance.clone()
        twin.war = list(self.war)
        twin.battle_points = [list(b) for b in self.battle_points]
        twin.hands = [list(h) for h in self.hands]
        twin.torpedoes_left = list(self.torpedoes_left)
        twin.torpedoes_used = list(self.torpedoes_used)
        twin.table = dict(self.table)
        twin.values = dict(self.values)
        twin.eliminated = list(self.eliminated)
        twin.engine = self.engine.copy()
        twin.forfeits = list(self.forfeits)
        return twin

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self)


def _shape_events(before: Formations, after: Formations) -> list[Event]:
    """The formations closed and broken between two moments (`FormationEngine.formations`)."""
    events = []
    old = {frozenset(f) for f in before}
    for f in after:
        if frozenset(f) not in old:
            events.append(Event("formation_closed", f"A formation of {len(f)} closes: "
                                + ", ".join(f) + ".", {"objects": list(f)}))
    new = {frozenset(f) for f in after}
    for f in before:
        if frozenset(f) not in new:
            events.append(Event("formation_broken", f"The formation {', '.join(f)} breaks.",
                                {"objects": list(f)}))
    return events

