"""Quiet-time ticks are timed from the newest datagram (`listener.QuietTicks`), so a live table
whose ticking timer wakes late (a loaded machine) decides exactly as a replay of its recording:
the same datagrams at the same times give the same frames, whenever the timer woke.

Settling is timed and the formation engine decides on the order dice settle in (It. 7's
connections are made as dice come to rest), so ticks taken when a late timer woke could join
dice that the replay did not: the second test shows the wake-time ticking diverging on the
shipped session.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playtable.games.stardice.params import StarDiceParams
from playtable.tableinput.dicemap import parse_dice_map
from playtable.tableinput.listener import TICK, QuietTicks, recording_line, replay_recording
from playtable.tableinput.samples import build_session
from playtable.tableinput.tracking import TuioTable

DICE = "14=borg:16,0=F.d20a:17,7=K.d20a:12,3=F.d12a,10=K.d8a:5,11=K.d6a:4,4=F.d6a:6"
SENDER = "127.0.0.1:3333"
Frames = list[tuple[Any, ...]]


def frames_of(feed: Callable[[TuioTable], object]) -> Frames:
    params = StarDiceParams()
    reports: list[dict[str, Any]] = []
    table = TuioTable(parse_dice_map(DICE), params.formation_params(), params.scoring_rules(),
                      borg_faces=params.borg_faces, borg_pips=params.borg_pips,
                      on_frame=reports.append)
    feed(table)
    return [(r["frame"], r["formations"], r["strings"], r["points"])
            for r in reports if not r.get("tick")]


def arrivals(rng: random.Random, delay: float) -> list[tuple[float, bytes]]:
    """The sample session as a loaded server receives it: each datagram up to `delay` late,
    never before the one before it, to the microsecond a recording keeps."""
    out: list[tuple[float, bytes]] = []
    at = 0.0
    for t, data in build_session():
        at = round(max(at, t + rng.uniform(0, delay)), 6)
        out.append((at, data))
    return out


def replayed(stream: list[tuple[float, bytes]], tmp: Path) -> Frames:
    path = tmp / "received.jsonl"
    path.write_text("".join(recording_line(t, SENDER, d) for t, d in stream), encoding="utf-8")
    return frames_of(lambda table: replay_recording(table, path, quiet=0))


def late_timer(rng: random.Random, lateness: float) -> list[float]:
    """When a ticking task that sleeps TICK wakes, up to `lateness` late each time."""
    wakes, at = [], rng.uniform(0, TICK)
    while at < 60:
        wakes.append(at)
        at += TICK + rng.uniform(0, lateness)
    return wakes


def lived(stream: list[tuple[float, bytes]], wakes: list[float]) -> Callable[[TuioTable], None]:
    """The live table's way: the timer runs the ticks due when it wakes, a datagram first runs
    those the timer had not reached."""
    def feed(table: TuioTable) -> None:
        ticks, pending = QuietTicks(table), iter(wakes)
        wake = next(pending)
        for t, data in stream:
            while wake < t:
                ticks.run(wake)
                wake = next(pending)
            ticks.run(t)
            table.feed(data, SENDER, t)
            ticks.heard(t)
    return feed


def woke(stream: list[tuple[float, bytes]], wakes: list[float]) -> Callable[[TuioTable], None]:
    """Ticks taken at the timer's wake-up times, after TICK of quiet (the way before)."""
    def feed(table: TuioTable) -> None:
        pending, last = iter(wakes), -1.0
        wake = next(pending)
        for t, data in stream:
            while wake < t:
                if wake - last >= TICK:
                    table.tick(wake)
                wake = next(pending)
            table.feed(data, SENDER, t)
            last = t
    return feed


def test_a_late_timer_ticks_at_the_replays_instants(tmp_path: Path) -> None:
    for seed in range(40):
        rng = random.Random(seed)
        stream = arrivals(rng, delay=0.1)
        want = replayed(stream, tmp_path)
        assert len(want) == len(build_session())
        assert frames_of(lived(stream, late_timer(rng, lateness=0.2))) == want, f"seed {seed}"


def test_ticks_at_wake_times_joined_dice_the_replay_did_not(tmp_path: Path) -> None:
    differed = 0
    for seed in range(40):
        rng = random.Random(seed)
        stream = arrivals(rng, delay=0.1)
        differed += frames_of(woke(stream, late_timer(rng, lateness=0.2))) != replayed(stream, tmp_path)
    assert differed > 0
