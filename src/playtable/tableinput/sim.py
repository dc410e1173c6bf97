"""A TUIO simulator for Star Dice: the virtual table's throws sent to a live table as
the TUIO 1.1 stream a real table would send, so a table owner can test the whole chain (UDP,
tracking, formations, the live page and its match) without the hardware, as reacTIVision's
TUIO Simulator does for its users.

A `TuioSim` plays a war on the simulated table (the game's own `StarDiceState`; the game's bots
throw) and turns it into `SimStep`s: the caller's odd or even (no datagram: the players press it
on the live page), each throw's motion as `/tuio/2Dobj` bundles (`source`, `alive`, `set`,
`fseq`), and at a battle's end the table cleared (the players pick the dice up). A step also
says, in words, what the players confirm on the live page (the call, the faces the dice show).

The stream: every die on the touch surface is alive under a session id (a new one when it comes
back from the frame, which the surface does not see); its fiducial is its class id (`FIDUCIALS`,
the shipped dice map); positions are the game's table units over TUIO's 0..1 (x / 1.0, y /
0.75); the physics' frames (every 0.1 s) are interpolated to `fps` frames a second with
velocities; a `set` goes out for a die that moved, as trackers do, and the alive list every
frame. `playtable stardice tuio-sim` sends the steps over UDP in real time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from pythonosc.osc_message_builder import OscMessageBuilder

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.presentation import presentation
from playtable.games.stardice import (
    GAME,
    SEAT_NAMES,
    TABLE_DEPTH,
    TABLE_WIDTH,
    Call,
    StarDiceParams,
    StarDiceState,
    Throw,
)
from playtable.tableinput.samples import FIDUCIALS

SOURCE = "playtable-sim"
MAX_BATTLES = 40
"""Battles one run plays at most (the game's own cap, `max_battles`)."""
MAX_FPS = 120


@dataclass
class SimStep:
    """One thing that happens at the simulated table."""

    kind: str
    """call (the caller's odd or even), throw (a die's motion), clear (the dice picked up)."""
    text: str
    """What happened, in the game's words, and what the players confirm on the live page."""
    seat: int | None = None
    parity: str = ""
    die: str = ""
    faces: dict[str, int] = field(default_factory=dict)
    """The faces of the dice this step threw or knocked over (for the players to enter)."""
    frames: list[tuple[float, bytes]] = field(default_factory=list)
    """(seconds from the step's start, datagram)."""
    unseen: str = ""
    """The thrown die, when the touch surface never saw it and it may not be thrown again (it
    lies on the frame, or went off after touching a die): the players say so on the page."""
    battle_over: bool = False


def _message(*args: Any) -> Any:
    builder = OscMessageBuilder("/tuio/2Dobj")
    for arg in args:
        builder.add_arg(arg)
    return builder.build()


class TuioSim:
    """A war on the simulated table as TUIO 1.1 steps (module docstring)."""

    def __init__(self, seed: int = 0, params: StarDiceParams | None = None, battles: int = 1,
                 bots: tuple[str, str] = ("random-thrower", "random-thrower"), fps: int = 30,
                 source: str = SOURCE) -> None:
        self.params = params or StarDiceParams()
        if not 1 <= battles <= MAX_BATTLES:
            raise BadParameter(f"battles must be 1 to {MAX_BATTLES}")
        if not 1 <= fps <= MAX_FPS:
            raise BadParameter(f"fps must be 1 to {MAX_FPS}")
        known = GAME.bots()
        for name in bots:
            if name not in known:
                raise BadParameter(f"unknown Star Dice bot '{name[:30]}' (known: {', '.join(known)})")
        self.state: StarDiceState = GAME.new_state(self.params, seed)
        for die in self._all_dice():
            if die not in FIDUCIALS:
                raise BadParameter(f"{die} has no fiducial in the shipped dice map")
        self.agents = [known[name]() for name in bots]
        self.rng = Chance(seed + 1)
        self.battles = battles
        self.fps = fps
        self.source = source
        self.fseq = 0
        self.next_sid = 100
        self.sids: dict[str, int] = {}
        self.sent: dict[str, tuple[float, float]] = {}

    def _all_dice(self) -> list[str]:
        from playtable.games.stardice import die_names

        names = die_names(self.params)
        return ["borg"] + [f"{s}.{n}" for s in "FK" for n in names]

    def steps(self) -> Iterator[SimStep]:
        """The war, step by step, until it ends or `battles` battles are played."""
        state = self.state
        geometry = self.params.physics_params().geometry
        while not state.is_terminal and len(state.battle_points) < self.battles:
            seat = state.current_player
            action = self.agents[seat].choose(state, self.rng)
            battle = state.battle
            events = state.apply(action)
            words = " ".join(e.text for e in events)
            if isinstance(action, Call):
                yield SimStep("call", f"{words} Press '{SEAT_NAMES[seat]} calls {action.parity}' "
                              "on the live page.", seat, parity=action.parity)
                continue
            assert isinstance(action, Throw)
            motion = presentation(state).motion()
            over = state.battle != battle or state.is_terminal
            # the faces from the events: a battle's last throw clears the state's table at once
            faces = {e.data["piece"]: e.data["value"] for e in events
                     if e.kind in ("landed", "knocked") and e.data.get("value") is not None}
            face_words = ", ".join(f"{k} shows {v}" for k, v in sorted(faces.items()))
            die = "borg" if action.piece == "borg" else f"{'FK'[seat]}.{action.piece}"
            unseen = "" if any(e.kind in ("rethrow", "borg_reroll") for e in events) or any(
                row[0] == die and geometry.on_surface(row[1], row[2])
                for frame in motion for row in frame["pieces"]) else die
            hint = f" Enter: {face_words}." if face_words else ""
            if unseen:
                hint += (f" The table never saw {die}: press 'not seen' for it." if die != "borg"
                         else "")
            if any(e.kind == "borg_reroll" for e in events):
                hint += " Press 'The Borg die rolled off'."
            yield SimStep("throw", words + hint, seat, die=die, faces=faces,
                          frames=self._frames(motion), unseen=unseen if die != "borg" else "",
                          battle_over=over)
            if over:
                yield SimStep("clear", "The battle is over: the dice are picked up.",
                              frames=[(0.0, self._bundle({}))])

    # -- the stream ----------------------------------------------------------------------------
    def _frames(self, motion: list[dict[str, Any]]) -> list[tuple[float, bytes]]:
        """The motion interpolated to `fps`, one bundle a frame; then the table at rest."""
        if not motion:
            return []
        out: list[tuple[float, bytes]] = []
        step = 1.0 / self.fps
        end = motion[-1]["t"]
        t, i = 0.0, 0
        while t <= end + 1e-9:
            while i + 1 < len(motion) and motion[i + 1]["t"] < t:
                i += 1
            a = motion[i]
            b = motion[min(i + 1, len(motion) - 1)]
            span = b["t"] - a["t"]
            share = 0.0 if span <= 0 else min(1.0, max(0.0, (t - a["t"]) / span))
            pa = {row[0]: (row[1], row[2]) for row in a["pieces"]}
            pb = {row[0]: (row[1], row[2]) for row in b["pieces"]}
            places = {}
            for k, (xa, ya) in pa.items():
                xb, yb = pb.get(k, (xa, ya))
                places[k] = (xa + (xb - xa) * share, ya + (yb - ya) * share)
            out.append((round(t, 4), self._bundle(places, step)))
            t += step
        out.append((round(end + 0.5, 4), self._bundle(self._last_places(motion), step)))
        return out

    @staticmethod
    def _last_places(motion: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
        return {row[0]: (row[1], row[2]) for row in motion[-1]["pieces"]}

    def _bundle(self, places: dict[str, tuple[float, float]], dt: float = 0.0) -> bytes:
        """One frame: the dice on the touch surface alive, a `set` for each that moved."""
        geometry = self.params.physics_params().geometry
        seen = {k: p for k, p in places.items() if k in FIDUCIALS and geometry.on_surface(*p)}
        for k in [k for k in self.sids if k not in seen]:
            del self.sids[k]  # off the surface: it comes back under a new session id
            self.sent.pop(k, None)
        builder = OscBundleBuilder(IMMEDIATELY)
        builder.add_content(_message("source", self.source))
        sets = []
        for k, (x, y) in sorted(seen.items()):
            if k not in self.sids:
                self.sids[k] = self.next_sid
                self.next_sid += 1
            old = self.sent.get(k)
            if old == (x, y):
                continue
            vx = vy = 0.0
            if old is not None and dt > 0:
                vx, vy = (x - old[0]) / dt / TABLE_WIDTH, (y - old[1]) / dt / TABLE_DEPTH
            self.sent[k] = (x, y)
            sets.append(_message("set", self.sids[k], FIDUCIALS[k], float(x / TABLE_WIDTH),
                                 float(y / TABLE_DEPTH), 0.0, float(vx), float(vy), 0.0, 0.0, 0.0))
        builder.add_content(_message("alive", *sorted(self.sids[k] for k in seen)))
        for message in sets:
            builder.add_content(message)
        self.fseq += 1
        builder.add_content(_message("fseq", self.fseq))
        return bytes(builder.build().dgram)

    def keep_alive(self) -> bytes:
        """A frame with nothing new (a tracker's frame while the dice lie still)."""
        return self._bundle(dict(self.sent))

    def lift(self, *dice: str) -> bytes:
        """A frame without `dice` (picked up, or knocked off the table); the rest lie still."""
        return self._bundle({k: p for k, p in self.sent.items() if k not in dice})
