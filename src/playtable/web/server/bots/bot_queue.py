"""Bot time shared fairly (docs/web.md, "Facing a network"): the scheduler in front of the bots' worker
processes, so that a stranger's heavy all-bot tables slow down rather than freeze every
person's bot.

Two lanes of workers (`bots.Pool`): the *play* lane serves the bot moves of tables where a
person is waiting (a human seat whose person is connected), the *background* lane every other
bot move (all-bot tables, and tables whose people are away). The background lane's workers run
at a lower CPU priority (`BACKGROUND_NICE`), so where both lanes want the same core the person's
bot gets it, and a background table waits after each move as long as that move took
(`PACE`): it plays at most half the time, and a heavy one slows down. Which lane a waiting job
belongs to is asked again whenever a worker frees up and every `WAKE_SECONDS`: a person who
arrives at a table whose bot job is waiting moves it to the play lane. A new table with a human
seat counts as one where a person waits for its first `ARRIVAL_SECONDS`, until its creator's
page connects.

A seated person's hint runs in the play lane too, counted for the asker's network.

In each lane, waiting jobs are served round-robin across the networks of the tables' creators
(`transport.networks.network_of`: an IPv6 /64 is one network, an IPv4 address is one), and no
network holds more than `cap` of a lane's workers at once, so ten slow tables from one address take one worker
and wait their turn behind each other, not in front of everyone else.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from playtable.web.server.tables.tables import Table

T = TypeVar("T")


class Pool(Protocol):
    """What the queue needs of a set of workers (`bots.Pool`, which imports this module): how
    many there are, and running one job in one of them."""

    size: int

    async def run(self, job: Callable[..., T], *args: Any) -> T: ...

BACKGROUND_NICE = 19
"""How much lower the background lane's workers run (os.nice): at 19 the kernel gives a normal
process about 70 times their share of a contended core (at 10, about 10 times: a person's bot
answered at p99 1.97-2.04 s under benchmarks/web_hostile.py's attacks, against 1.84 s at 19)."""
PACE = 1.0
"""A background table waits this many times its last move's worker time before its next move
may start."""
WAKE_SECONDS = 0.25
"""How often waiting jobs are looked at again while some cannot start (a person arrived, a
paced table's wait is over)."""
ARRIVAL_SECONDS = 10.0
"""How long a new table with a human seat counts as one where a person waits before its person
has arrived (their page is loading)."""
MAX_PACED = 10_000
"""Tables whose pacing is remembered, past which the ones whose wait is over are forgotten."""


def person_waiting(table: Table) -> bool:
    """Whether a person is at the table: a connection holds one of its human seats, or the
    table is new (`ARRIVAL_SECONDS`) and a human seat's person has not yet arrived: the page
    that created it connects only once it has its answer, after the first bot job was asked."""
    seats = table.row.seats
    if any(c.seat is not None and 0 <= c.seat < len(seats) and seats[c.seat].kind == "human"
           for c in table.connections):
        return True
    if not any(s.kind == "human" and not s.joined for s in seats):
        return False
    try:
        created = datetime.fromisoformat(table.row.created)
    except ValueError:
        return False
    if created.tzinfo is None:
        created = created.replace(tzinfo=UTC)
    return (datetime.now(UTC) - created).total_seconds() < ARRIVAL_SECONDS


@dataclass(eq=False)
class _Job:
    network: str
    table_id: str
    urgent: Callable[[], bool]
    granted: asyncio.Future[_Lane] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class _Lane:
    """One pool's workers as the scheduler counts them: busy in all, and by network."""

    def __init__(self, name: str, pool: Pool) -> None:
        self.name = name
        self.pool = pool
        self.cap = max(1, pool.size // 2)
        """The most of this lane's workers one network may hold at once."""
        self.busy = 0
        self.by_network: dict[str, int] = {}
        self.started = 0
        """Jobs this lane has started (what the tests read)."""

    def free(self) -> bool:
        return self.busy < self.pool.size

    def take(self, network: str) -> None:
        self.busy += 1
        self.started += 1
        self.by_network[network] = self.by_network.get(network, 0) + 1

    def release(self, network: str) -> None:
        self.busy -= 1
        left = self.by_network[network] - 1
        if left:
            self.by_network[network] = left
        else:
            del self.by_network[network]


class BotQueue:
    """The bot jobs' scheduler (the module's documentation): `run` waits for the job's turn in
    its lane, then runs it there."""

    def __init__(self, play: Pool, background: Pool, pace: float = PACE) -> None:
        self.play = _Lane("play", play)
        self.background = _Lane("background", background)
        self.pace = pace
        self.waiting: OrderedDict[str, deque[_Job]] = OrderedDict()
        """Each network's waiting jobs, oldest first; the networks in round-robin order."""
        self.paced: dict[str, float] = {}
        """Background tables and the monotonic time before which their next move may not start."""
        self._timer: asyncio.TimerHandle | None = None

    def waiting_from(self, network: str) -> int:
        """Jobs of `network` waiting for their turn."""
        return len(self.waiting.get(network, ()))

    async def run(self, network: str, table_id: str, urgent: Callable[[], bool],
                  job: Callable[..., T], *args: Any) -> T:
        """Run `job(*args)` for table `table_id` created from `network` when its turn comes: in
        the play lane while `urgent()` (a person is waiting), else in the background lane."""
        entry = _Job(network, table_id, urgent)
        self.waiting.setdefault(network, deque()).append(entry)
        self._dispatch()
        try:
            lane = await entry.granted
        except asyncio.CancelledError:
            if entry.granted.done() and not entry.granted.cancelled():
                self._finish(entry.granted.result(), entry, 0.0)
            else:
                self._forget(entry)
            raise
        began = time.monotonic()
        try:
            result: T = await lane.pool.run(job, *args)
        finally:
            self._finish(lane, entry, time.monotonic() - began)
        return result

    def _finish(self, lane: _Lane, entry: _Job, seconds: float) -> None:
        lane.release(entry.network)
        if lane is self.background and self.pace > 0:
            self.paced[entry.table_id] = time.monotonic() + self.pace * seconds
            if len(self.paced) > MAX_PACED:
                now = time.monotonic()
                self.paced = {k: t for k, t in self.paced.items() if t > now}
        self._dispatch()

    def _forget(self, entry: _Job) -> None:
        jobs = self.waiting.get(entry.network)
        if jobs is not None and entry in jobs:
            jobs.remove(entry)
            if not jobs:
                del self.waiting[entry.network]

    def _dispatch(self) -> None:
        """Start every waiting job that may start now, each lane round-robin by network."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        urgency: dict[int, bool] = {}

        def wants(lane: _Lane, entry: _Job) -> bool:
            urgent = urgency.get(id(entry))
            if urgent is None:
                urgent = urgency[id(entry)] = bool(entry.urgent())
            if lane is self.play:
                return urgent
            return not urgent and self.paced.get(entry.table_id, 0.0) <= time.monotonic()

        for lane in (self.play, self.background):
            while lane.free():
                entry = self._next(lane, wants)
                if entry is None:
                    break
                lane.take(entry.network)
                entry.granted.set_result(lane)
        if self.waiting:
            self._timer = asyncio.get_running_loop().call_later(WAKE_SECONDS, self._dispatch)

    def _next(self, lane: _Lane, wants: Callable[[_Lane, _Job], bool]) -> _Job | None:
        """The next job `lane` serves: the oldest it wants of the first network in round-robin
        order below the lane's cap; that network then goes to the back of the round."""
        for network, jobs in self.waiting.items():
            if lane.by_network.get(network, 0) >= lane.cap:
                continue
            for entry in jobs:
                if wants(lane, entry):
                    jobs.remove(entry)
                    if jobs:
                        self.waiting.move_to_end(network)
                    else:
                        del self.waiting[network]
                    return entry
        return None
