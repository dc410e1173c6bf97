"""The seed's fouls on a real table, without a browser (RULES.md 31): a
finger (TUIO cursor) on the table in a frame where the game's state changes is flagged once per
touch; the Borg die leaving the table is announced (FR Other rules)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from playtable.tableinput.dicemap import parse_dice_map
from playtable.tableinput.fouls import FoulWatch, changes
from playtable.tableinput.tracking import TuioTable

sys.path.insert(0, str(Path(__file__).parent))
from tuio_script import DICE_MAP, TRIANGLE, bundle, cur_set, obj_set  # noqa: E402

SIDS = {0: 101, 7: 102, 14: 100}


def watched() -> tuple[TuioTable, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    watch = FoulWatch()
    table = TuioTable(parse_dice_map(DICE_MAP), on_frame=lambda r: events.extend(watch.see(r)))
    return table, events


def settle(table: TuioTable, fseq: int = 1) -> float:
    """The triangle of tuio_script (F.d20a, K.d20a, Borg) lies still and closes."""
    sets = [obj_set(SIDS[fid], fid, x, y) for fid, (x, y) in TRIANGLE.items()]
    table.feed(bundle("2Dobj", sorted(SIDS.values()), sets, fseq), "t:1", 0.0)
    for k in range(1, 12):
        table.tick(0.05 * k)
    assert table.last_report is not None and table.last_report["formations"]
    return 0.6


def test_a_finger_that_moves_a_die_is_flagged_once_per_touch() -> None:
    table, events = watched()
    now = settle(table)
    table.feed(bundle("2Dcur", [900], [cur_set(900, 0.3, 0.4)], 1), "t:1", now)
    assert events == []  # a finger alone changes nothing
    for k, x in enumerate((0.31, 0.33, 0.36)):  # the die under the finger moves
        table.feed(bundle("2Dobj", sorted(SIDS.values()), [obj_set(101, 0, x, 0.4)], 2 + k),
                   "t:1", now + 0.05 * (k + 1))
    fouls = [e for e in events if e["kind"] == "foul"]
    assert len(fouls) == 1 and "F.d20a moved" in fouls[0]["changes"]
    assert fouls[0]["touches"] == 1
    table.feed(bundle("2Dcur", [], [], 2), "t:1", now + 0.3)  # the finger leaves
    table.feed(bundle("2Dcur", [901], [cur_set(901, 0.6, 0.6)], 3), "t:1", now + 0.4)
    table.feed(bundle("2Dobj", sorted(SIDS.values()), [obj_set(101, 0, 0.30, 0.4)], 5),
               "t:1", now + 0.45)
    assert len([e for e in events if e["kind"] == "foul"]) == 2  # a new touch, a new flag


def test_no_foul_without_a_finger_and_none_for_a_still_table() -> None:
    table, events = watched()
    now = settle(table)
    table.feed(bundle("2Dobj", sorted(SIDS.values()), [obj_set(101, 0, 0.35, 0.4)], 2), "t:1", now)
    table.tick(now + 0.2)  # the listener's quiet-time tick: the move is confirmed (confirm_move)
    table.feed(bundle("2Dcur", [900], [cur_set(900, 0.9, 0.7)], 1), "t:1", now + 0.5)
    table.feed(bundle("2Dobj", sorted(SIDS.values()), [], 3), "t:1", now + 0.55)
    assert events == []


def test_the_borg_die_leaving_is_announced_after_the_grace_time() -> None:
    table, events = watched()
    now = settle(table)
    table.feed(bundle("2Dobj", [101, 102], [], 2), "t:1", now)
    assert events == []  # within the grace time it may be a hand passing over it
    table.tick(now + 0.3)
    assert [e["kind"] for e in events] == ["borg_left"]


def test_changes_in_words() -> None:
    die = {"id": "F.d6a", "x": 0.5, "y": 0.5}
    before = {"dice": [die], "connections": [], "formations": [], "strings": []}
    assert changes(before, before) == []
    nudged = {**before, "dice": [{**die, "x": 0.503}]}
    assert changes(before, nudged) == []  # within the jitter
    moved = {**before, "dice": [{**die, "x": 0.51}]}
    assert changes(before, moved) == ["F.d6a moved"]
    assert changes(before, {**before, "dice": []}) == ["F.d6a left"]
