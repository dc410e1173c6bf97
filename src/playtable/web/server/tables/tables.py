"""A live table: its game and settings, its current state, the steps played so far, and the
connections watching or playing it, with the messages each connection is sent.

What leaves the server is decided here and only here: a seat's connection gets
`observation(seat)` and `events_for(events, seat)`, a watcher `public_observation()` and
`events_for(events, None)`; no message carries the seed (until the game is over), the state's
JSON, or anything else from the full state.

Each connection has an outbox drained by its own writer task (see app.py), so one slow client
never holds up a broadcast; what the handling of a connection's own frame pushes to it, its
reader task sends (`socket_pump`). A message going to several connections is encoded once.
Besides the ordered discrete messages, the outbox keeps one slot for
the newest frame of a table's live stream (Star Dice's dice positions at 60 Hz): frames are
coalesced, so a slow client gets the newest frame and never a backlog; a stream's last frame
(where everything came to rest) goes in order with the discrete messages, before the state that
follows it. `Table.stream_frame` is the place a live table feeds, at the slowest pace any of
its pages asked for (`Table.pace`, `paced_frames`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import marshal
import time
from collections import Counter, deque
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from playtable.core.params import params_from_dict
from playtable.core.presentation import presentation, revealed
from playtable.core.protocol import Event, Game, State
from playtable.core.registry import get_game
from playtable.core.story import tell
from playtable.web.server.store.rate_limits import RateLimit
from playtable.web.server.store.store import SeatRow, Snapshot, TableRow
from playtable.web.server.tables.clocks import TableClock, forfeit_returns
from playtable.web.server.tables.proposals import Proposals, other_people
from playtable.web.server.tables.replays import start_state
from playtable.web.server.transport.wire import PACES, shared

SYNC_COST = 40
"""A sync (a whole welcome: the log of a long game is hundreds of kilobytes) costs as much as
this many other messages: at the default 20 messages a second, one sync every two seconds."""

MAX_OUTBOX = 1000
"""Discrete messages a connection may have waiting; past this it is too slow and is closed."""
CHAT_KEPT = 100
"""Chat lines a table keeps for connections that join later."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _seconds(stamp: str) -> float:
    """An ISO 8601 time as stored (UTC when it names no zone) in seconds since the epoch; now
    for a text that is not one (a row made by hand: never a reason to refuse a table)."""
    try:
        at = datetime.fromisoformat(stamp)
    except ValueError:
        return time.time()
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


def seat_summary(i: int, seat: SeatRow, connected: set[int] | frozenset[int],
                 game: Game[Any, Any]) -> dict[str, Any]:
    """One seat as the lobby and the pages see it: its name in the game (the id, and the title a
    player reads), who plays it (the player's name, or the bot), whether anyone may take it, and
    whether its person is here."""
    return {"seat": i, "name": seat.name, "title": game.seat_title(seat.name), "kind": seat.kind,
            "agent": seat.agent, "player": seat.player_name, "reserved": seat.reserved, "joined": seat.joined,
            "free": seat.free, "connected": i in connected}


def upper_first(text: str) -> str:
    """`text` to start a sentence ("the wizard ran out" -> "The wizard ran out")."""
    return text[:1].upper() + text[1:]


def seat_label(seat: SeatRow, game: Game[Any, Any]) -> str:
    """What a log or a notice calls a seat: its player's name, else its title in the game."""
    return seat.player_name or game.seat_title(seat.name)


def row_summary(row: TableRow, step: int, status: str = "finished",
                result: dict[str, Any] | None = None, connected: set[int] | frozenset[int] = frozenset(),
                public_seed: bool | None = None) -> dict[str, Any]:
    """A table's summary for the lobby and the API. Without the rest, from its stored row alone
    (an ended table not in memory: its result was stored when it ended)."""
    result = result if result is not None else row.result
    if public_seed is None:  # an ended table's seed is public once its game reached its end
        public_seed = bool(result and result.get("returns") is not None)
    game = get_game(row.game)
    out: dict[str, Any] = {
        "id": row.id,
        "game": row.game,
        "game_name": game.name,
        "variant": row.variant,  # the id, for the lab; people read the title
        "variant_title": game.variant_titles.get(row.variant, row.variant) if row.variant else None,
        "params": row.params,
        "seats": [seat_summary(i, s, connected, game) for i, s in enumerate(row.seats)],
        "status": status,
        "step": step,
        "created": row.created,
        "result": result,
        "rematch": row.rematch,
        "rematch_of": row.rematch_of,
        "clock": clock_summary(row),
        "tutorial": row.tutorial,  # the guided game's name: the lobby marks it, offers to leave it
    }
    if public_seed:
        out["seed"] = row.seed
    return out


def table_clock(row: TableRow) -> TableClock | None:
    """The table's clocks as stored (None: a table without a clock)."""
    if row.clock is None:
        return None
    return TableClock.from_json(row.clock, [s.kind == "human" for s in row.seats])


def clock_summary(row: TableRow) -> dict[str, Any] | None:
    """The clocks as pages and the lobby see them (`TableClock.message`), or None."""
    clock = table_clock(row)
    return None if clock is None else clock.message()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


LogEntry = tuple[int | None, str | None, bytes | tuple[Event, ...], str | None]
"""One step of a table's log as the table keeps it: the seat, the action's text, the events
(packed) and the stand-in bot (`Step` reads it)."""


def log_entry(seat: int | None, action: str | None, events: list[Event],
              stand_in: str | None = None) -> LogEntry:
    """A log step as a plain tuple of plain values, its events packed (`marshal`: bytes, exact
    for JSON-ready data, in this process's memory only). A running table's log is most of its
    objects, and CPython's cyclic collector stops tracking a tuple that holds only untracked
    values the first time a collection sees it, so after that a step is nothing any collection
    scans (docs/web.md "Sustained load"); an object with slots would stay tracked. Events whose
    data marshal cannot hold stay as they are (a tuple of them, tracked)."""
    try:
        packed: bytes | tuple[Event, ...] = marshal.dumps([(e.kind, e.text, e.data) for e in events])
    except ValueError:  # data beyond JSON's types (a game's own object): kept unpacked
        packed = tuple(events)
    return (seat, action, packed, stand_in)


class Step:
    """One entry of a table's log as it is read: step 0 is the setup, step k the k-th action
    (a view of a `LogEntry`, made when the log is read: a welcome, the end's story, the last
    step of a state message)."""

    __slots__ = ("entry",)

    def __init__(self, seat: int | None, action: str | None, events: list[Event],
                 stand_in: str | None = None) -> None:
        self.entry = log_entry(seat, action, events, stand_in)

    @classmethod
    def of(cls, entry: LogEntry) -> Step:
        step = cls.__new__(cls)
        step.entry = entry
        return step

    @property
    def seat(self) -> int | None:
        return self.entry[0]

    @property
    def action(self) -> str | None:
        return self.entry[1]

    @property
    def stand_in(self) -> str | None:
        """The bot that played this step for the seat's person (their clock ran out)."""
        return self.entry[3]

    @property
    def events(self) -> list[Event]:
        packed = self.entry[2]
        if isinstance(packed, tuple):
            return list(packed)
        return [Event(kind, text, data) for kind, text, data in marshal.loads(packed)]


SNAPSHOT_EVERY = 50
"""A running table's state is stored every this many actions (`Play.act`), so a restart replays
at most this many of its actions, however long its record."""


def replayed(row: TableRow, state: State, first: int, last: int) -> list[LogEntry]:
    """The record's actions `first` to `last` played on `state`, in place, as log entries. The
    record was legal when it was stored: no copy of the state at every step (a wizard game's
    copy is a JSON round trip: that copy was most of a restart's time,
    benchmarks/web_restart.py)."""
    steps = []
    for k in range(first, last + 1):
        seat, text = row.actions[k - 1]
        events = list(state.apply(state.parse_action(text)))
        steps.append(log_entry(seat, text, events, row.stand_ins.get(k)))
    return steps


def forfeit_result(game: Game[Any, Any], row: TableRow, seat: int) -> dict[str, Any]:
    """`seat` ran out of time at a table set to forfeit: its side loses, every other side
    wins (the game's `sides`; docs/web.md "Clocks")."""
    sides = game.sides(params_from_dict(game.params_type, row.params))
    returns = forfeit_returns(sides, len(row.seats), seat)
    winners = [seat_label(row.seats[s], game) for s, r in enumerate(returns) if r > 0]
    then = f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}." if winners \
        else "the game is lost."
    return {"returns": returns, "forfeit": seat,
            "text": f"{upper_first(seat_label(row.seats[seat], game))} ran out of time and forfeits: {then}"}


def fresh_start(row: TableRow) -> State:
    """The first state of the row's game, settings and seed (a table being restored)."""
    return start_state(row.game, row.params, row.seed)


@dataclass
class Rebuilt:
    """A table's position rebuilt without its last action (an undo), made from `of_step`."""

    of_step: int
    state: State
    before: State | None
    log: list[LogEntry]

    @property
    def steps(self) -> list[Step]:
        return [Step.of(entry) for entry in self.log]


class Connection:
    """One WebSocket: who it is (a seat, or None for a watcher) and its outbox."""

    def __init__(self, seat: int | None, rate: float = 20.0) -> None:
        self.seat = seat
        self.outbox: deque[dict[str, Any]] = deque()
        self.frame: dict[str, Any] | None = None
        self.wake = asyncio.Event()
        self.closed = False
        self.address = ""
        self.sync_limit = RateLimit(rate / SYNC_COST, 2.0)
        self.sync_pending = False
        """A sync is due (answered when the sync limit allows)."""
        self.pace = "normal"
        """How fast this page wants a throw's motion shown (a `pace` message; wire.PACES)."""
        self.reader: asyncio.Task[Any] | None = None
        """The task reading this connection's frames (`socket_pump`): what it pushes while it
        handles a frame, it sends itself once the frame is handled, without waking the writer
        task (a turn of the event loop and a task switch an action)."""
        self.sending = asyncio.Lock()
        """Held by whichever task (the reader or the writer) sends; messages are taken from the
        outbox under it, so they go out in order."""
        self.farewell = (1008, "too slow to keep up")
        """The close code and reason the writer closes the socket with once `closed` is set
        (an outbox too full, unless `leave` said otherwise)."""

    @property
    def role(self) -> str:
        return "watcher" if self.seat is None else "player"

    def leave(self, code: int, reason: str) -> None:
        """Close the socket with `code` once what is in the outbox has gone out (1012: the page
        reconnects, to the table's new holder: `leasing.py`)."""
        self.farewell = (code, reason)
        self.closed = True
        self.wake.set()

    def push(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if len(self.outbox) >= MAX_OUTBOX:
            self.closed = True  # the writer task sees it and closes the socket
        else:
            self.outbox.append(message)
            if self.reader is not None and self._from_reader():
                return  # the reader sends it when the frame it handles is done
        self.wake.set()

    def _from_reader(self) -> bool:
        """Whether the caller is this connection's reader task (not another task, a callback, or
        another thread such as a test's)."""
        try:
            return asyncio.current_task() is self.reader
        except RuntimeError:  # no event loop runs in this thread
            return False

    def push_frame(self, frame: dict[str, Any]) -> None:
        """Replace any frame not yet sent by this newer one. A stream's `last` frame goes in
        order with the discrete messages instead (a page then has where the dice rest before
        the state that follows, even when that frame is the only one: the "instant" pace)."""
        if frame.get("last"):
            self.frame = None
            self.push(frame)
            return
        self.frame = frame
        self.wake.set()

    async def next_messages(self) -> list[dict[str, Any]]:
        """Wait for, then take, everything pending (discrete messages first, then the frame)."""
        while not (self.outbox or self.frame is not None or self.closed):
            self.wake.clear()
            await self.wake.wait()
        out = list(self.outbox)
        self.outbox.clear()
        if self.frame is not None:
            out.append(self.frame)
            self.frame = None
        return out


class Table:
    """A table in memory, rebuilt from its `TableRow` (settings and record) by replaying."""

    def __init__(self, row: TableRow, start: State | None = None, snapshot: Snapshot | None = None) -> None:
        """`start`: the game's first state (None: made again from the row's game, settings and
        seed when needed); `snapshot`: a stored state part way through the record, from which
        only the actions after it are replayed (`SNAPSHOT_EVERY`)."""
        self.row = row
        self.game: Game[Any, Any] = get_game(row.game)
        self._start = start
        self.before: State | None = None
        """The state before the last action, for the game's take-back rule."""
        self._unreplayed = 0
        """Restored from a snapshot: the log's steps 0 to this one are rebuilt only when the
        whole log is first needed (`steps`), so a restart replays no more than the snapshot's
        tail."""
        self._snapshot: Snapshot | None = None
        """The last snapshot this table was restored from or gave to be stored (`snapshot`):
        an undo replays from it rather than from the first action."""
        first = 1
        if snapshot is not None and snapshot.step < len(row.actions):
            self._snapshot = snapshot
            self.state = self.game.state_from_json(snapshot.state)
            self._steps: list[LogEntry] = []
            self._unreplayed, first = snapshot.step, snapshot.step + 1
        else:
            self.state = self.start.clone()
            self._steps = [log_entry(None, None, list(self.start.setup_events))]
        self.connections: set[Connection] = set()
        self.bot_busy = False
        self.network = ""
        """The network its creator came from (`transport.networks.network_of`; "" for a table restored
        after a restart), whose fair share of the bots' workers its bots use."""
        self.chat_log: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        """The table chat's last lines (kept in memory only: a restart clears the chat)."""
        self.notices: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        """What the server did about a failing bot or a timer (kept in memory only)."""
        self.abandoned = False
        """Ended by the server: nobody played it for too long, or its bots could not move."""
        self.last_activity = _seconds(row.created) if row.ended or not row.actions else time.time()
        """When the table was last played, in seconds since the epoch (a restart counts as a
        move: it may have been down). A number, not a text: it is set at every action."""
        self.proposals = Proposals()  # mid-game proposals of a new game (stored: `keep_in`)
        self.version = 0
        """Counts every change of the record (an undo too), for the caches of views."""
        self.clock: TableClock | None = table_clock(row)
        """Every seat's clock, when the table has them (kept up to date by the hub, clocks.py)."""
        self.forfeited: int | None = None
        """The seat that forfeited (its clock ran out at a table set to forfeit): the table is over."""
        self._logs: dict[int | None, tuple[int, list[dict[str, Any]]]] = {}
        self._end: tuple[int, dict[str, Any]] | None = None
        last = len(row.actions)
        self._steps += replayed(self.row, self.state, first, last - 1)
        if last >= first:  # the last action keeps the state before it, for the take-back rule
            seat, text = row.actions[last - 1]
            self._play(seat, text, row.stand_ins.get(last))
        if row.ended is not None and row.result is not None and row.result.get("abandoned"):
            self.abandoned = True
        if row.ended is not None and row.result is not None and row.result.get("forfeit") is not None:
            self.forfeited = int(row.result["forfeit"])

    # -- the record ----------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def step(self) -> int:
        return len(self.row.actions)

    @property
    def start(self) -> State:
        """The game's first state (made again from the row when the table was restored)."""
        if self._start is None:
            self._start = fresh_start(self.row)
        return self._start

    @property
    def steps(self) -> list[Step]:
        """The whole log, step 0 (the setup) to the last action, with each step's events."""
        if self._unreplayed:
            start = self.start
            self._steps[:0] = [log_entry(None, None, list(start.setup_events)),
                               *replayed(self.row, start.clone(), 1, self._unreplayed)]
            self._unreplayed = 0
        return [Step.of(entry) for entry in self._steps]

    @property
    def last_step(self) -> Step:
        """The log's last step (known without rebuilding the whole log)."""
        return Step.of(self._steps[-1])

    def snapshot(self) -> Snapshot | None:
        """The state before the last action with its step, to be stored (None: no action yet),
        and kept for this table's undo. The state before, not the current one: a table restored
        from it replays at least its last action, which gives the take-back rule its state
        before and the log its last events."""
        if self.before is None:
            return None
        self._snapshot = Snapshot(self.step - 1, self.before.to_json())
        return self._snapshot

    def _play(self, seat: int | None, text: str, stand_in: str | None = None) -> list[Event]:
        """Apply an action text to a copy and, if legal, make it current. Raises IllegalAction
        (or another PlaytableError) with this table unchanged."""
        after = self.state.clone()
        events = list(after.apply(after.parse_action(text)))
        self.before, self.state = self.state, after
        self._steps.append(log_entry(seat, text, events, stand_in))
        return events

    def try_action(self, text: str) -> tuple[str, State, list[Event]]:
        """The canonical text, new state and events of playing `text` now, leaving this table
        unchanged (the caller stores the action, then calls `commit`)."""
        after = self.state.clone()
        action = after.parse_action(text)
        events = list(after.apply(action))
        return str(action), after, events

    def commit(self, seat: int | None, text: str, after: State, events: list[Event],
               stand_in: str | None = None) -> None:
        """Make a stored action current; `stand_in`: the bot that played it for the seat's
        person (their clock ran out)."""
        self.before, self.state = self.state, after
        self._steps.append(log_entry(seat, text, events, stand_in))
        self.row.actions.append((seat, text))
        if stand_in:
            self.row.stand_ins[len(self.row.actions)] = stand_in
        self.last_activity = time.time()
        self.version += 1

    def replay_without_last(self) -> Rebuilt:
        """Undo's work: the record minus its last action replayed, leaving this table unchanged
        (so it can run in a thread, off the event loop: `adopt` makes it current). From the
        table's snapshot when one comes before the last kept action and the log is whole (the
        log is then the kept part of this one's), else from the first action."""
        of_step = len(self.row.actions)
        kept = of_step - 1
        snapshot = self._snapshot
        if snapshot is not None and snapshot.step < kept and not self._unreplayed:
            state = self.game.state_from_json(snapshot.state)
            replayed(self.row, state, snapshot.step + 1, kept - 1)
            before, state = state, state.clone()
            replayed(self.row, state, kept, kept)
            return Rebuilt(of_step, state, before, self._steps[:kept + 1])
        start = self.start
        state, before = start.clone(), None
        steps = [log_entry(None, None, list(start.setup_events)), *replayed(self.row, state, 1, kept - 1)]
        if kept >= 1:  # the last kept action keeps the state before it, for the take-back rule
            before, state = state, state.clone()
            steps += replayed(self.row, state, kept, kept)
        return Rebuilt(of_step, state, before, steps)

    def adopt(self, rebuilt: Rebuilt) -> None:
        """Make an undo's replay current (the caller checked the table had not moved since)."""
        self.row.stand_ins.pop(len(self.row.actions), None)
        self.row.actions = self.row.actions[:-1]
        self.state, self.before, self._steps = rebuilt.state, rebuilt.before, rebuilt.log
        self._unreplayed = 0
        if self._snapshot is not None and self._snapshot.step >= len(self.row.actions):
            self._snapshot = None  # as the store drops it: it no longer comes before an action
        self.version += 1

    def can_undo(self, seat: int | None) -> bool:
        if seat is None or self.before is None or self.is_over:
            return False
        if self.last_step.seat != seat:
            return False
        return self.state.can_take_back(self.before)

    # -- who is who ---------------------------------------------------------------------------
    def token_ok(self, seat: int, token: str | None) -> bool:
        seats = self.row.seats
        if token is None or not 0 <= seat < len(seats) or seats[seat].token_hash is None:
            return False
        return hmac.compare_digest(seats[seat].token_hash or "", hash_token(token))

    @property
    def hidden_texts(self) -> bool:
        """Whether action texts are still shown as each seat may read them (`action_for`)."""
        return not self.decided

    @property
    def left_unfinished(self) -> bool:
        """The players moved on to a rematch (another variant from the table menu) before the
        game ended: the table is over for the lobby, and no one, bot or timer, plays it on."""
        return self.row.rematch is not None and not self.state.is_terminal

    @property
    def is_over(self) -> bool:
        return self.decided or self.left_unfinished or self.abandoned

    @property
    def decided(self) -> bool:
        """The game has its result: played to its end, or forfeited by a seat."""
        return self.state.is_terminal or self.forfeited is not None

    def bot_to_move(self) -> int | None:
        """The bot seat that must act now, if any: only the current player acts (a game of
        simultaneous moves takes them as sequential secret commits, one seat at a time, even
        though `waiting_for` lists every seat still to commit)."""
        if self.is_over:
            return None
        seat = self.state.current_player
        if 0 <= seat < len(self.row.seats) and self.row.seats[seat].kind == "bot":
            return seat
        return None

    def label(self, seat: int) -> str:
        """The seat as people read it: its player's name, else its name in the game."""
        return seat_label(self.row.seats[seat], self.game)

    @property
    def status(self) -> str:
        """finished; open (a seat anyone may take: `SeatRow.free`); else running."""
        if self.is_over:
            return "finished"
        if any(s.free for s in self.row.seats):
            return "open"
        return "running"

    # -- messages -----------------------------------------------------------------------------
    def result(self) -> dict[str, Any] | None:
        if self.forfeited is not None:
            return forfeit_result(self.game, self.row, self.forfeited)
        if self.state.is_terminal:
            text = presentation(self.state).end_text() or "The game is over."
            return {"returns": self.state.returns(), "text": text}
        if self.left_unfinished:
            return {"returns": None, "text": "Left unfinished: the players moved to a new table."}
        if self.abandoned:
            return {"returns": None, "abandoned": True, "text": (
                "The tutorial was left before its game's end." if self.row.tutorial else
                "Ended by the server: nobody played this table for too long, or its bots could not move.")}
        return None

    def final_returns(self) -> list[float]:
        """Each seat's return once the game is decided (`decided`): the game's own at its end,
        or the forfeit's when a seat's clock ran out."""
        if self.forfeited is not None:
            returns: list[float] = forfeit_result(self.game, self.row, self.forfeited)["returns"]
            return returns
        return self.state.returns()

    def summary(self) -> dict[str, Any]:
        connected = {c.seat for c in self.connections if c.seat is not None}
        return row_summary(self.row, self.step, self.status, self.result(), connected,
                           self.decided)

    def propose(self, seat: int, variant: str | None) -> list[int]:
        """Seat `seat` asks for a new game mid-game: the seats of the other people who sat down
        here and have not asked for the same (empty: everyone agrees). Each proposal is told to
        every connection, so the others can agree."""
        missing = self.proposals.ask(seat, variant, other_people(self.row.seats, seat))
        proposal = self.open_proposal()
        if proposal is not None:
            self.broadcast({"type": "rematch_proposed", **proposal})
        return missing

    def open_proposal(self) -> dict[str, Any] | None:
        """The open proposal (`Proposals.told`; None after the end), in every welcome too."""
        if self.decided or self.row.rematch is not None:
            return None
        return self.proposals.told(self.label, self.game.variant_titles)

    def notice(self, text: str) -> None:
        """Something the server did at this table (a bot replaced, a timer run out), to everyone."""
        line = {"type": "notice", "text": text, "at": _now()}
        self.notices.append(line)
        self.broadcast(line)

    def log_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The whole log as `seat` may read it; built once per change of the table and view
        (every watcher's welcome and sync shares it)."""
        cached = self._logs.get(seat)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        log = [
            {"step": k, "seat": s.seat, "action": self.action_for(s.action, s.seat, seat),
             "events": [e.to_json() for e in self.state.events_for(s.events, seat)],
             **({"stand_in": s.stand_in} if s.stand_in else {})}
            for k, s in enumerate(self.steps)
        ]
        self._logs[seat] = (self.version, log)
        return log

    def action_for(self, action: str | None, actor: int | None, seat: int | None) -> str | None:
        """An action's text as `seat` may read it: the game hides secret moves (`State.action_for`)
        until the game is over, when the record is public anyway."""
        if action is None or self.decided:
            return action
        return self.state.action_for(action, actor, seat)

    def welcome(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "welcome",
            "table": self.summary(),
            "seat": seat,
            "role": "watcher" if seat is None else "player",
            "seat_names": [s.name for s in self.row.seats],
            "seat_titles": [self.game.seat_title(s.name) for s in self.row.seats],
            "proposal": self.open_proposal(),
            "players": [s.player_name for s in self.row.seats],
            "log": self.log_for(seat),
            "chat": list(self.chat_log),
            "notices": list(self.notices),
        }

    def state_message(self, seat: int | None, events: list[Event]) -> dict[str, Any]:
        state = self.state
        your_turn = seat is not None and not self.is_over and state.current_player == seat \
            and not (self.clock is not None and seat in self.clock.out)
        observation = state.public_observation() if seat is None else state.observation(seat)
        return {
            "type": "state",
            "step": self.step,
            "current_player": state.current_player,
            "your_turn": your_turn,
            "observation": observation,
            "legal": [{"action": str(a), "warning": presentation(state).action_warning(a)}
                      for a in state.legal_actions()] if your_turn else [],
            "events": [e.to_json() for e in state.events_for(events, seat)],
            "last_action": self.action_for(self.last_step.action, self.last_step.seat, seat),
            "last_stand_in": self.last_step.stand_in,
            "terminal": self.decided,
            "result": self.result(),
            "can_undo": self.can_undo(seat),
            "waiting_for": state.waiting_for(),
            "bot_thinking": self.bot_busy,
            "clock": self.clock_message(),
            **({"end": self.end_story()} if state.is_terminal else {}),
        }

    def end_story(self) -> dict[str, Any]:
        """What a finished game shows every seat and watcher alike: what stayed hidden
        (`State.revealed`, empty before the end) and the story told from the log
        (`core.story.tell`). Built once per change of the table."""
        if self._end is None or self._end[0] != self.version:
            log = [(s.seat, s.action, s.events) for s in self.steps]
            self._end = (self.version, {"revealed": revealed(self.state),
                                        "story": tell(self.state, log)})
        return self._end[1]

    def clock_message(self) -> dict[str, Any] | None:
        """Every seat's clock now (`TableClock.message`; None: the table has no clock)."""
        return None if self.clock is None else self.clock.message()

    def seats_message(self) -> dict[str, Any]:
        """Who sits where, sent when a seat gets its player (taken, or named on arrival)."""
        connected = {c.seat for c in self.connections if c.seat is not None}
        seats = [seat_summary(i, s, connected, self.game) for i, s in enumerate(self.row.seats)]
        return {"type": "seats", "seats": seats, "players": [s.player_name for s in self.row.seats],
                "status": self.status}

    def broadcast_state(self, events: list[Event]) -> None:
        """Send every connection the new state; one message per seat (and one for watchers) is
        built, and encoded, however many connections share it."""
        built: dict[int | None, dict[str, Any]] = {}
        connections = list(self.connections)
        audience = Counter(conn.seat for conn in connections) if len(connections) > 1 else None
        for conn in connections:
            if conn.seat not in built:
                message = self.state_message(conn.seat, events)
                built[conn.seat] = shared(message) if audience and audience[conn.seat] > 1 else message
            conn.push(built[conn.seat])

    def chat(self, seat: int, text: str) -> None:
        """A seated player's chat line, to every connection (watchers read the chat too)."""
        line = {"type": "chat", "seat": seat, "name": self.label(seat), "text": text,
                "at": datetime.now(UTC).isoformat(timespec="seconds")}
        self.chat_log.append(line)
        self.broadcast(line)

    def broadcast(self, message: dict[str, Any]) -> None:
        if len(self.connections) > 1:
            message = shared(message)
        for conn in list(self.connections):
            conn.push(message)

    @property
    def pace(self) -> str:
        """The pace a throw's motion is streamed at: the slowest any connection asked for (one
        that asked nothing is at "normal", as is a table nobody watches), so a page never sees
        less of a throw than it asked to, and a stranger watching cannot hurry a player's."""
        order = list(PACES)
        return min((c.pace for c in self.connections), key=order.index, default="normal")

    def stream_frame(self, frame: dict[str, Any]) -> None:
        """Send a live-stream frame (`{"type": "frame", ...}`) to every connection; frames are
        coalesced per connection. Only what every seat may see belongs in a frame."""
        for conn in list(self.connections):
            conn.push_frame(frame)


def paced_frames(motion: list[dict[str, Any]], step: int, pace: str) -> list[tuple[float, dict[str, Any]]]:
    """A throw's motion (`Presentation.motion()`, frames `{"t", "pieces"}` in physics seconds) as the
    `frame` messages of the step it made, each with the seconds after the throw at which it
    goes out at `pace` (wire.PACES): every frame at t / speed, or at once only the last one.
    Each message names its pace and speed (null at once), so a page plays it back as sent."""
    speed = PACES[pace]
    sent = motion if speed is not None else motion[-1:]
    return [(0.0 if speed is None else frame["t"] / speed,
             {"type": "frame", "step": step, "last": i == len(sent) - 1, "pace": pace,
              "speed": speed, **frame})
            for i, frame in enumerate(sent)]
