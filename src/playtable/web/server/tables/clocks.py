"""The clocks of a table (docs/web.md "Clocks"): two paces, as on Board Game Arena.

- **Real-time**: each person's seat has `seconds` for the whole game (a chess clock), plus
  `increment` seconds after each of its moves. Out of time, the table does what it was set to
  do: the seat forfeits, or the game's stand-in bot plays every later move of that seat (Board
  Game Arena's "zombie" mode; the person may watch).
- **Come-back-later**: each move has `days` (1 to 14) before it must be played. Out of time,
  the seat forfeits, or the stand-in plays that one move and the next move has its days again.

A move is one action (what the log numbers). A seat's clock runs only while that seat must act
(the game's `current_player`: a game of simultaneous secret moves takes them one seat at a time,
so exactly one seat can act), only for a person's seat (bots have no clock), and only once
that seat's person has arrived (first connected): until then it waits, full.

`TableClock` is the pure state (what is stored, `to_json`), updated with the wall time it is
given; `ClockKeeper` arms one timer per table at its running clock's deadline and tells the hub
when a clock runs out. The wall time is `wall_time()`, one function tests replace.

A restart: a come-back-later clock continues from its stored deadline (days; the time the
server was down counts, as it does for a player who is away anyway). A real-time clock does
not charge the downtime: the seat to act gets back the time it had when its move began (a
person cannot be expected to sit through a restart with their minutes running).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from playtable.core.errors import BadParameter
from playtable.core.params import check_remote_values, params_from_dict

REAL_TIME, COME_BACK_LATER = "real-time", "come-back-later"
STAND_IN, FORFEIT = "stand-in", "forfeit"
DAY = 86400.0


def wall_time() -> float:
    """Seconds since the epoch: the one time source of every clock (tests replace it)."""
    return time.time()


@dataclass(frozen=True)
class ClockChoice:
    """What a table's creator may choose (`"clock"` in `POST /api/tables`), each field bounded
    (`core.params`): a real-time table sets `seconds` and `increment`, a come-back-later one
    `days`; both say what a timeout does."""

    pace: Literal["real-time", "come-back-later"] = "real-time"
    seconds: int = field(default=600, metadata={"range": (5, 3 * 3600), "doc": (
        "real-time: each person's time for the whole game, in seconds (5 s to 3 h; the few "
        "seconds are lichess's 'UltraBullet' end of the scale)")})
    increment: int = field(default=0, metadata={"range": (0, 60), "doc": (
        "real-time: seconds added after each of the seat's moves")})
    days: int = field(default=2, metadata={"range": (1, 14), "doc": (
        "come-back-later: days each move may wait (Board Game Arena's turn-based tables)")})
    timeout: Literal["stand-in", "forfeit"] = "stand-in"


PACE_FIELDS = {REAL_TIME: {"seconds", "increment"}, COME_BACK_LATER: {"days"}}


def settings_from_request(value: Any, trusted: bool = False) -> ClockSettings | None:
    """The clock a request's `"clock"` asks for (None: no clock), or BadParameter naming the
    first thing wrong. `trusted`: a rematch's request, made by the server, carries the old
    table's stored settings (`ClockSettings.to_json`) as they are."""
    if value is None:
        return None
    if trusted:
        return ClockSettings.from_json(value)
    if not isinstance(value, dict):
        raise BadParameter("'clock' must be null or an object such as {\"pace\": \"real-time\", "
                           "\"seconds\": 300, \"increment\": 2, \"timeout\": \"stand-in\"}")
    check_remote_values(ClockChoice, value)
    choice: ClockChoice = params_from_dict(ClockChoice, value)
    other = (set(value) & set().union(*PACE_FIELDS.values())) - PACE_FIELDS[choice.pace]
    if other:
        raise BadParameter(f"a {choice.pace} clock has no '{sorted(other)[0]}' "
                           f"(it takes {', '.join(sorted(PACE_FIELDS[choice.pace]))})")
    if choice.pace == REAL_TIME:
        return ClockSettings(REAL_TIME, float(choice.seconds), float(choice.increment), choice.timeout)
    return ClockSettings(COME_BACK_LATER, choice.days * DAY, 0.0, choice.timeout)


@dataclass(frozen=True)
class ClockSettings:
    """A table's clock as stored: `seconds` is each seat's time for the whole game (real-time)
    or for each move (come-back-later)."""

    pace: str
    seconds: float
    increment: float = 0.0
    timeout: str = STAND_IN

    def to_json(self) -> dict[str, Any]:
        return {"pace": self.pace, "seconds": self.seconds, "increment": self.increment,
                "timeout": self.timeout}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClockSettings:
        return cls(str(data["pace"]), float(data["seconds"]), float(data.get("increment", 0.0)),
                   str(data.get("timeout", STAND_IN)))


def legacy_settings(stand_in_after: float) -> ClockSettings:
    """A table stored by the earlier turn timer (`stand_in_after` seconds on each person's seat:
    a bot played one turn of a person who waited that long) has that as a per-move clock."""
    return ClockSettings(COME_BACK_LATER, float(stand_in_after), 0.0, STAND_IN)


@dataclass
class TableClock:
    """Every seat's clock at one table."""

    settings: ClockSettings
    left: list[float | None]
    """Seconds each seat has left (None: a bot's seat, never timed); for the running seat, as
    it was at `since`."""
    running: int | None = None
    """The seat whose clock counts down now."""
    since: float | None = None
    """When the running clock started this stretch (`wall_time()`)."""
    step: int = -1
    """The table's step at the last update."""
    waiting: int | None = None
    """The seat that must act but whose person has not arrived: its clock waits."""
    out: list[int] = field(default_factory=list)
    """Real-time seats that ran out of time: the stand-in plays their moves."""

    @classmethod
    def new(cls, settings: ClockSettings, humans: list[bool]) -> TableClock:
        return cls(settings, [settings.seconds if human else None for human in humans])

    def to_json(self) -> dict[str, Any]:
        return {"settings": self.settings.to_json(), "left": self.left, "running": self.running,
                "since": self.since, "step": self.step, "waiting": self.waiting, "out": self.out}

    @classmethod
    def from_json(cls, data: dict[str, Any], humans: list[bool]) -> TableClock:
        """A stored clock; settings alone (a new table, or one of the turn timer's) start full."""
        settings = ClockSettings.from_json(data["settings"])
        if "left" not in data:
            return cls.new(settings, humans)
        return cls(settings, list(data["left"]), data.get("running"), data.get("since"),
                   int(data.get("step", -1)), data.get("waiting"), list(data.get("out", [])))

    @property
    def per_move(self) -> bool:
        return self.settings.pace == COME_BACK_LATER

    def left_at(self, seat: int, now: float) -> float | None:
        left = self.left[seat]
        if left is None or seat != self.running or self.since is None:
            return left
        return max(0.0, left - (now - self.since))

    def deadline(self) -> float | None:
        """When the running clock runs out (`wall_time()`), or None."""
        if self.running is None or self.since is None:
            return None
        return self.since + (self.left[self.running] or 0.0)

    def update(self, seat: int | None, step: int, arrived: bool, now: float) -> None:
        """The table is at `step` with `seat` to act (None: nobody timed: over, or a bot's move);
        `arrived`: that seat's person has come. Stops the clock that ran (adding a real-time
        increment for its move), then starts the one that must (or lets it wait)."""
        moved = step != self.step
        if self.running is not None and (moved or seat != self.running or not arrived):
            ran = self.running
            remaining = self.left_at(ran, now) or 0.0
            earned = self.settings.increment if step > self.step and remaining > 0 else 0.0
            self.left[ran] = remaining + earned
            self.running = self.since = None
        if step < self.step and seat is not None and not self.per_move and self.left[seat] is not None:
            # An undo: the seat takes back its own move, and the increment that move earned.
            self.left[seat] = max(0.0, (self.left[seat] or 0.0) - self.settings.increment)
        if moved and self.per_move and seat is not None and self.left[seat] is not None:
            self.left[seat] = self.settings.seconds  # a fresh move has its days again
        self.step, self.waiting = step, None
        if seat is None or self.left[seat] is None or seat in self.out:
            return
        if not arrived:
            self.waiting = seat
        elif self.running is None:
            self.running, self.since = seat, now

    def resume(self, now: float) -> None:
        """After a restart (see the module's note): real-time clocks do not charge the downtime."""
        if self.running is not None and not self.per_move:
            self.since = now

    def expired(self, now: float) -> bool:
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def run_out(self, seat: int) -> None:
        """`seat`'s time is up: it stops at zero (a real-time seat stays out for the game)."""
        self.left[seat] = 0.0
        if self.running == seat:
            self.running = self.since = None
        if not self.per_move and seat not in self.out:
            self.out.append(seat)

    def message(self, now: float | None = None) -> dict[str, Any]:
        """What pages and the lobby are told: the settings and every seat's time left now."""
        at = wall_time() if now is None else now
        left = [None if self.left[s] is None else round(self.left_at(s, at) or 0.0, 1)
                for s in range(len(self.left))]
        return {**self.settings.to_json(), "left": left, "running": self.running,
                "waiting": self.waiting, "out": list(self.out)}


def forfeit_returns(sides: list[list[int]], seats: int, seat: int) -> list[float]:
    """The returns when `seat` forfeits: its side (the game's `Game.sides`) loses, every other
    side wins. Two players: the other one wins; solitaire: the game is lost; the wizard game
    (3-5 players, one wizard against heroes who share one result, seed 003 "Keys" and "Wizard
    victory"): a hero's forfeit loses the game for every hero, the wizard's for the wizard."""
    losers = next((side for side in sides if seat in side), [seat])
    return [0.0 if s in losers else 1.0 for s in range(seats)]


TimeoutCall = Callable[[str, int, int, bool], None]
"""The hub's answer to a clock run out: (table id, seat, step, first time for this seat)."""


class ClockKeeper:
    """One timer per table, at its running clock's deadline. `on_timeout` is called on the
    event loop when a clock runs out (or at once, for a real-time seat already out of time whose
    move comes round again); `save` stores a clock that changed."""

    def __init__(self, on_timeout: TimeoutCall, save: Callable[[str, TableClock], None]) -> None:
        self.on_timeout = on_timeout
        self.save = save
        self.armed: dict[str, tuple[asyncio.TimerHandle, TableClock, int]] = {}

    def arm(self, table_id: str, clock: TableClock | None, seat: int | None, step: int,
            arrived: bool, restarted: bool = False) -> None:
        """Bring `clock` up to `step` (`seat` to act, see `TableClock.update`), store it if it
        changed, and set the table's timer. `restarted`: the first arming after a restart
        (`TableClock.resume`)."""
        old = self.armed.pop(table_id, None)
        if old is not None:
            old[0].cancel()
        if clock is None:
            return
        before = clock.to_json()
        if restarted:
            clock.resume(wall_time())
        clock.update(seat, step, arrived, wall_time())
        if clock.to_json() != before:
            self.save(table_id, clock)
        if seat is not None and seat in clock.out:
            asyncio.get_running_loop().call_soon(self.on_timeout, table_id, seat, step, False)
            return
        deadline = clock.deadline()
        if deadline is None:
            return
        wait = max(0.0, deadline - wall_time())
        handle = asyncio.get_running_loop().call_later(wait, self.check_one, table_id)
        self.armed[table_id] = (handle, clock, step)

    def check_one(self, table_id: str) -> None:
        """Run the table's clock out if its deadline has passed; else wait on for it."""
        armed = self.armed.get(table_id)
        if armed is None:
            return
        handle, clock, step = armed
        seat, deadline = clock.running, clock.deadline()
        if seat is None or deadline is None:
            self.armed.pop(table_id, None)
            return
        now = wall_time()
        if now < deadline:  # woken early (the loop's clock and the wall's drift apart)
            handle.cancel()
            loop = asyncio.get_running_loop()
            self.armed[table_id] = (loop.call_later(deadline - now, self.check_one, table_id), clock, step)
            return
        self.armed.pop(table_id, None)
        handle.cancel()
        clock.run_out(seat)
        self.save(table_id, clock)
        self.on_timeout(table_id, seat, step, True)

    def check(self) -> None:
        """Run out every clock past its deadline now (each timer also does it for its own)."""
        for table_id in list(self.armed):
            self.check_one(table_id)

    def forget(self, table_id: str) -> None:
        old = self.armed.pop(table_id, None)
        if old is not None:
            old[0].cancel()
