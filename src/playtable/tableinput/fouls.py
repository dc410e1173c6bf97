"""The seed's fouls on a real table, found in the stream of reports a `TuioTable` makes.

* **A touch that changes the game's state** (FR Other rules: "If a player accidentally or
  purposefully touches the table such that the touch causes a change in the game's state then
  he forfeits the battle"): a report with a TUIO cursor (a finger, `touches` > 0) in which a die
  moved, arrived or left, or the connections, formations or strings changed. The software cannot
  tell whose finger it was nor whether it caused the change, so it only *flags* the frame for
  the players to rule on; one flag per touch (until every finger has left the table).
* **The Borg die leaving the table** (FR Other rules: "If a player hits the Borg die off the
  table then he forfeits the battle"; "If the Borg die is initially rolled off the table,
  re-roll it"): the Borg die was on the table in one report and is gone from the next (after
  the tracker's grace time, so a hand passing over it is not a departure). Announced, not
  judged: who hit it off is the players' call.

* **The Surface's touch limit** (It. 9: more dice "broke the surface table's 15 touch limit"):
  when a report counts as many contacts as the table's `touch_limit` (dice, fingers, blobs), a
  `touch_limit` warning says that any further die or finger goes unseen; one warning until the
  count drops below the limit again. Not a foul: a warning to the players.

`FoulWatch.see(report)` returns the events of one report; it keeps only the previous report.
"""

from __future__ import annotations

import math
from typing import Any

MOVED = 0.004
"""A die counts as moved when it is this far from where the previous report had it: the
formation engine's jitter (RULES.md, formations), below which the table ignores a die's wobble."""


def _layout(report: dict[str, Any]) -> tuple[Any, ...]:
    def norm(groups: list[list[str]]) -> frozenset[tuple[str, ...]]:
        return frozenset(tuple(sorted(g)) for g in groups)

    return (norm(report.get("connections", [])), norm(report.get("formations", [])),
            norm(report.get("strings", [])))


def changes(before: dict[str, Any] | None, after: dict[str, Any], moved: float = MOVED) -> list[str]:
    """What changed in the game's state between two reports, in words ([]: nothing)."""
    if before is None:
        return [f"{d['id']} arrived" for d in after.get("dice", [])]
    old = {d["id"]: d for d in before.get("dice", [])}
    new = {d["id"]: d for d in after.get("dice", [])}
    out = [f"{k} arrived" for k in new if k not in old]
    out += [f"{k} left" for k in old if k not in new]
    out += [f"{k} moved" for k, d in new.items() if k in old
            and math.hypot(d["x"] - old[k]["x"], d["y"] - old[k]["y"]) > moved]
    if _layout(before) != _layout(after):
        out.append("the formations changed")
    return out


class FoulWatch:
    """Successive reports in, foul and Borg events out (JSON-ready dicts with a `kind`)."""

    def __init__(self, moved: float = MOVED) -> None:
        self.moved = moved
        self.previous: dict[str, Any] | None = None
        self.flagged = False
        """A foul was flagged for the fingers now on the table (one flag per touch)."""
        self.at_limit = False
        """The touch-limit warning was given for the contacts now on the table."""

    def see(self, report: dict[str, Any]) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        touches = int(report.get("touches", 0))
        changed = changes(self.previous, report, self.moved) if self.previous is not None else []
        if touches == 0:
            self.flagged = False
        elif changed and not self.flagged:
            self.flagged = True
            events.append({"kind": "foul", "frame": report.get("frame"), "t": report.get("t"),
                           "touches": touches, "changes": changed,
                           "text": f"A finger was on the table while {', '.join(changed)}: "
                                   "a foul if the touch caused it (the players rule)."})
        had_borg = self.previous is not None and any(
            d["id"] == "borg" for d in self.previous.get("dice", []))
        if had_borg and not any(d["id"] == "borg" for d in report.get("dice", [])):
            events.append({"kind": "borg_left", "frame": report.get("frame"), "t": report.get("t"),
                           "text": "The Borg die left the table: whoever hit it off forfeits "
                                   "the battle (if it was the opening roll, roll it again)."})
        limit = int(report.get("touch_limit", 0))
        contacts = int(report.get("contacts", 0))
        if limit > 0 and contacts >= limit and not self.at_limit:
            self.at_limit = True
            events.append({"kind": "touch_limit", "frame": report.get("frame"), "t": report.get("t"),
                           "contacts": contacts, "limit": limit,
                           "text": f"The table sees {contacts} contacts, its limit of {limit} "
                                   "(the Surface's, It. 9): another die or finger will not be "
                                   "seen."})
        elif contacts < limit:
            self.at_limit = False
        self.previous = report
        return events
