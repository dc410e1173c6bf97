"""The match on a real table (the seed's table mode): the seed's wish "that the game could keep track
of the score" (It. 3; FR "War"). The dice are thrown by hand on the table; the table sees where
they lie (`LiveDice`, fed by `playtable.tableinput`), and the players confirm what it cannot see
(the call, a die's face, a throw that never reached the touch surface, who forfeits).

The rules are the game's own, not a copy: a `LiveMatch` holds a `StarDiceState` (match.py)
whose table is the real one (`_RealTableState.current_score` is the live table's score, a
forfeiter's dice zeroed). The call goes in as the protocol's `Call` action; the Borg die's landing,
the next turn, a forfeit and the scoring of a battle into the war run the very methods a
simulated throw reaches (`_borg_landed`, `_next_turn`, `_forfeit`, `_score_battle`): who goes
first, the war's total to 50, the war's end, the next battle's roller are decided once, there.

What the table decides from the dice it sees (`see(layout)`, after every report):

* the Borg opening: once the call is made and the Borg die's face is entered (and the die, if
  the surface sees it, lies still), its pips decide who goes first (FR Battle 1);
* a turn: a die of the player to move that appears on the table is that player's throw; it
  leaves the hand, its face is to be entered, and the turn passes (FR Battle 2; when one player
  is out of dice the other keeps throwing, It. 3, It. 9);
* when both hands are empty the battle waits to be scored: the players enter the last faces
  and confirm (It. 3 "Need a way to freeze the game when it's over").

Interpretations (docs/web.md, "The match on a live table"): a die of the other player that
appears is thrown out of turn (it leaves its owner's hand; the turn stays); dice lying on the
table when a battle's call is due must be taken off first (It. 3: "Do not start with any dice on
the table"); a forfeit and the scoring wait for the faces that count (a forfeiter's dice count
as zeroes, so theirs are not needed).
"""

from __future__ import annotations

from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.protocol import Event
from playtable.games.stardice.actions import BORG, SEAT_NAMES, Call, owner_of
from playtable.games.stardice.formation import Layout
from playtable.games.stardice.live import LiveDice
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.params import StarDiceParams
from playtable.games.stardice.physics import Piece
from playtable.games.stardice.scoring import TableScore

LOG_KEPT = 60
"""Lines of the match's log a page is sent (the newest)."""


class _RealTableState(StarDiceState):
    """The game's match state, scoring the real table instead of its own simulated one."""

    def __init__(self, params: StarDiceParams, live: LiveDice) -> None:
        super().__init__(params, Chance(0))  # no chance is ever drawn: the dice are real
        self.live = live

    def current_score(self, forfeiter: int | None = None, layout: Layout | None = None
                      ) -> TableScore:
        return self.live.score(self.live.engine.layout(), forfeiter)


def check_live_params(params: StarDiceParams) -> None:
    """The rules a live match can keep: the two-player game without torpedoes, fouls forfeiting,
    one ship a turn. Torpedo stones are not dice the table names, and a torpedo turn (It. 8/9)
    cannot be told from a throw; the discard foul (It. 2-4) predates the Surface table; with
    several ships a turn (It. 9's idea) the table could not see where a turn ends."""
    params.validate()
    if params.mode != "versus":
        raise BadParameter("a live match is the two-player game (mode=versus)")
    if params.torpedoes:
        raise BadParameter("a live match plays without torpedoes (torpedoes=0, as the Final Rules)")
    if params.foul_rule != "forfeit":
        raise BadParameter("a live match forfeits on a foul (foul_rule=forfeit, the Final Rules)")
    if params.many_per_turn:
        raise BadParameter("a live match passes the turn with each ship (many_per_turn: the table "
                           "cannot see a player end a turn)")


class LiveMatch:
    """A war on a real table. `start()` begins one; `see(layout)` after every report of the
    table; the players' confirmations are `call`, `borg_off`, `unseen`, `forfeit` and
    `score_battle`. Each returns the events it caused; `view()` is the match for a page."""

    def __init__(self, params: StarDiceParams, live: LiveDice) -> None:
        check_live_params(params)
        self.params = params
        self.live = live
        self.state: _RealTableState | None = None
        self.counting = False
        """Both hands are empty: the battle waits for its last faces and the players' word."""
        self.on_table: set[str] = set()
        """The named dice the table saw at the last report."""
        self.layout: Layout | None = None
        self.last_thrower: int | None = None
        self.borg_seen = False
        """The Borg die lay on the table during this battle's turns."""
        self.log: list[dict[str, Any]] = []

    # -- the war -----------------------------------------------------------------------------
    def start(self) -> list[dict[str, Any]]:
        """A new war (the one running, if any, is dropped): battle 1's opening."""
        self.state = _RealTableState(self.params, self.live)
        self.log = []
        return self._battle_begins(self.state.start_battle())

    def _battle_begins(self, events: list[Event]) -> list[dict[str, Any]]:
        self.live.values.clear()  # every die is rolled afresh
        self.counting = False
        self.last_thrower = None
        self.borg_seen = False
        return self._record(events)

    def _running(self) -> _RealTableState:
        if self.state is None:
            raise BadParameter("no war is running: start one first")
        if self.state.phase == "over":
            raise BadParameter("the war is over: start a new one")
        return self.state

    def _record(self, events: list[Event]) -> list[dict[str, Any]]:
        out = [{"kind": e.kind, "text": e.text} for e in events]
        self.log.extend(out)
        del self.log[:-LOG_KEPT]
        return out

    def _say(self, kind: str, text: str) -> list[dict[str, Any]]:
        return self._record([Event(kind, text)])

    def phase(self) -> str:
        """idle (no war), call, borg, throw, count (both hands empty), over."""
        if self.state is None:
            return "idle"
        if self.state.phase == "throw" and self.counting:
            return "count"
        return self.state.phase

    # -- what the players confirm --------------------------------------------------------------
    def call(self, seat: int, parity: str) -> list[dict[str, Any]]:
        """The caller's odd or even (FR Battle 1), once the table holds no ship."""
        state = self._running()
        if state.phase != "call":
            raise BadParameter("no odd/even call is due now")
        if seat != 1 - state.borg_roller:
            raise BadParameter(f"the {SEAT_NAMES[1 - state.borg_roller]} calls in battle "
                               f"{state.battle}; the {SEAT_NAMES[state.borg_roller]} rolls the Borg die")
        ships = self._ships_on_table()
        if ships:
            raise BadParameter(f"take the ships off the table first ({', '.join(ships)}): a battle "
                               "starts with no dice on the table")
        events = self._record(state.apply(Call("odd" if parity == "odd" else "even")))
        return events + self._progress()

    def borg_off(self) -> list[dict[str, Any]]:
        """The opening roll left the table: roll again, and the call may be made again (FR
        Other rules)."""
        state = self._running()
        if state.phase != "borg":
            raise BadParameter("the Borg die is re-rolled only during the opening roll")
        state.table.pop(BORG, None)
        self.live.values.pop(BORG, None)
        return self._record(state._borg_landed(state.borg_roller))

    def borg_on_frame(self) -> list[dict[str, Any]]:
        """The Borg die the table lost during the turns lies on the frame: still on the table,
        so nobody forfeits (FR Other rules: only hitting it *off* the table does; 10, 12)."""
        self._running()
        if not self.view().get("borg_off"):
            raise BadParameter("the table sees the Borg die, or it never lay there this battle")
        self.borg_seen = False  # asked again if the surface sees it and loses it again
        return self._say("borg_on_frame", "The Borg die lies on the frame: the battle goes on.")

    def unseen(self, die: str) -> list[dict[str, Any]]:
        """The player to move threw `die` and the table never saw it, though it may not be
        re-rolled (it touched another die, or it lies on the frame: "tough luck", FR Other
        rules): it leaves the hand and the turn passes."""
        state = self._running()
        if self.phase() != "throw":
            raise BadParameter("no throw is under way")
        seat = state.to_move
        if die not in state.hands[seat]:
            raise BadParameter(f"{die[:20]} is not in the {SEAT_NAMES[seat]}'s hand")
        return self._thrown(seat, die, seen=False)

    def forfeit(self, seat: int, why: str) -> list[dict[str, Any]]:
        """`seat` forfeits the battle (FR Other rules: the Borg die hit off the table, a touch
        that changed the game): it ends at once, the forfeiter scores 0, the other as if the
        forfeiter's dice rolled zeroes; it waits only for the other side's faces."""
        state = self._running()
        if state.phase != "throw":
            raise BadParameter("a battle is forfeited during its turns")
        self._require_faces(seat)
        self.counting = False
        events = state._forfeit(seat, why)
        return self._after_scoring(events)

    def score_battle(self) -> list[dict[str, Any]]:
        """Both fleets are on the table and every face is entered: the battle is scored into
        the war (FR Calculate your score, War)."""
        state = self._running()
        if not self.counting:
            raise BadParameter("the battle goes on until both players are out of dice")
        self._require_faces(None)
        return self._after_scoring(state._score_battle(None))

    def _require_faces(self, forfeiter: int | None) -> None:
        layout = self.live.engine.layout()
        missing = self.live.missing_values(tuple(layout.positions), forfeiter)
        if missing:
            raise BadParameter(f"enter the faces of {', '.join(missing)} first")
        moving = sorted(k for k in layout.positions if k not in layout.settled)
        if moving:
            raise BadParameter(f"wait until every die lies still ({', '.join(moving)})")

    def _after_scoring(self, events: list[Event]) -> list[dict[str, Any]]:
        assert self.state is not None
        if self.state.phase == "over":
            self.counting = False
            return self._record(events)
        return self._battle_begins(events)

    # -- what the table sees -----------------------------------------------------------------
    def _ships_on_table(self) -> list[str]:
        return sorted(d for d in self.on_table if d != BORG)

    def see(self, layout: Layout) -> list[dict[str, Any]]:
        """The table's layout after a report: ships that arrived are throws; the Borg die's
        landing decides who goes first."""
        self.layout = layout
        named = {k for k in layout.positions if k in self.live.by_name}
        arrived = sorted(named - self.on_table)
        left = sorted(self.on_table - named)
        self.on_table = named
        if self.state is None or self.state.phase == "over":
            return []
        events: list[dict[str, Any]] = []
        state = self.state
        for die in arrived:
            if die == BORG:
                continue
            seat = owner_of(die)
            if seat is None or die not in state.hands[seat]:
                continue  # a die already in play, back on the touch surface
            if state.phase != "throw":
                events += self._say("early", f"The {SEAT_NAMES[seat]} {_kind(die)} is on the table "
                                    "before the Borg roll has decided who goes first: take it off.")
                continue
            events += self._thrown(seat, die, seen=True)
        if state.phase == "throw":
            if BORG in named:
                self.borg_seen = True
            for die in left:
                if die == BORG:
                    events += self._say("borg_left", "The Borg die left the table: whoever hit it "
                                        "off forfeits the battle (FR Other rules).")
                else:
                    events += self._say("left", f"The {SEAT_NAMES[owner_of(die) or 0]} "
                                        f"{_kind(die)} left the table.")
        return events + self._progress()

    def _progress(self) -> list[dict[str, Any]]:
        """The Borg opening decided, once the call is made and the Borg die lies still with
        its face entered."""
        state = self.state
        layout = self.layout
        if state is None or state.phase != "borg" or layout is None:
            return []
        value = self.live.values.get(BORG)
        if value is None or (BORG in layout.positions and BORG not in layout.settled):
            return []
        # a Borg die on the frame is on the table but unseen (interpretation 10): its face,
        # entered by the players, is their word that it landed
        x, y = layout.positions.get(BORG, (0.5, -0.03))
        state.table[BORG] = Piece(BORG, "borg", x, y, 0.0)
        state.values[BORG] = value
        state._borg_face_index = self.params.borg_faces.index(value)
        events = self._record(state._borg_landed(state.borg_roller))
        self.borg_seen = True
        return events

    def _thrown(self, seat: int, die: str, seen: bool) -> list[dict[str, Any]]:
        state = self.state
        assert state is not None
        state.hands[seat].remove(die)
        self.live.values.pop(die, None)
        self.last_thrower = seat
        who = SEAT_NAMES[seat]
        if seen:
            text = f"The {who} warps in a {_kind(die)} ({die})."
        else:
            text = f"The {who}'s {_kind(die)} ({die}) was not seen by the table: it is out."
        on_turn = seat == state.to_move
        events = self._say("thrown" if on_turn else "out_of_turn", text if on_turn else
                           f"Out of turn: {text}")
        if not (state._has_stock(0) or state._has_stock(1)):
            self.counting = True
            return events + self._say("fleets_in", "Both fleets are on the table: enter every "
                                      "face, then score the battle.")
        if on_turn:
            events += self._record(state._next_turn(seat))
        return events

    # -- for a page ----------------------------------------------------------------------------
    def prompt(self) -> str:
        """What happens now, in words."""
        state = self.state
        phase = self.phase()
        if state is None:
            return "No war is running. Start one when the table is clear."
        roller, caller = SEAT_NAMES[state.borg_roller], SEAT_NAMES[1 - state.borg_roller]
        if phase == "call":
            ships = self._ships_on_table()
            if ships:
                which = ", ".join(ships) if len(ships) <= 3 else f"{len(ships)} ships"
                return f"Battle {state.battle}: take every ship off the table ({which})."
            return (f"Battle {state.battle}: the {roller} rolls the Borg die, "
                    f"the {caller} calls odd or even.")
        if phase == "borg":
            layout = self.layout
            if layout is None or BORG not in layout.positions:
                return (f"The {caller} called {state.call}: the {roller} rolls the Borg die "
                        "(on the frame, the table cannot see it: enter its face).")
            if BORG not in layout.settled:
                return "The Borg die is rolling…"
            return "Enter the Borg die's face."
        if phase == "throw":
            return f"The {SEAT_NAMES[state.to_move]}'s turn: warp in a ship."
        if phase == "count":
            layout = self.layout
            missing = self.live.missing_values(tuple(layout.positions) if layout else ())
            if missing:
                return f"Both fleets are in. Enter the faces of {', '.join(missing)}."
            if layout is not None and set(layout.positions) - layout.settled:
                return "Both fleets are in; the dice are still moving…"
            return "Both fleets are in: score the battle."
        return state.end_text() or "The war is over."

    def _missing(self, phase: str, on_table: tuple[str, ...]) -> list[str]:
        """The faces the players are asked for: the dice on the table without one, and during
        the opening the Borg die's, which may lie on the frame where the table cannot see it."""
        if phase == "call":
            return []
        missing = self.live.missing_values(on_table)
        if phase == "borg" and BORG not in missing and BORG not in self.live.values:
            missing.insert(0, BORG)
        return missing

    def view(self) -> dict[str, Any]:
        state = self.state
        phase = self.phase()
        out: dict[str, Any] = {"type": "match", "phase": phase, "prompt": self.prompt(),
                               "log": list(self.log), "war_target": self.params.war_target}
        if state is None:
            return out
        layout = self.layout
        on_table = tuple(layout.positions) if layout is not None else ()
        borg_off = (phase in ("throw", "count") and self.borg_seen
                    and (layout is None or BORG not in layout.positions))
        out.update({
            "battle": state.battle, "to_move": state.to_move if phase in ("throw",) else None,
            "roller": state.borg_roller, "caller": 1 - state.borg_roller, "call": state.call,
            "hands": [list(h) for h in state.hands], "war": list(state.war),
            "battle_points": [list(b) for b in state.battle_points],
            "forfeits": list(state.forfeits), "winner": state.winner, "draw": state.draw,
            "missing": self._missing(phase, on_table),
            "ships_on_table": self._ships_on_table() if phase == "call" else [],
            "moving": sorted(k for k in on_table if layout is not None and k not in layout.settled),
            "borg_off": borg_off, "last_thrower": self.last_thrower,
            "last_score": state.last_score.to_json() if state.last_score else None,
        })
        return out


def _kind(die: str) -> str:
    return die.split(".", 1)[1].rstrip("abcdefghijklmnopqrstuvwxyz") if "." in die else die
