"""A live Star Dice table, game side: named dice at table positions in, layout and score out.

The game knows nothing of where the positions come from (a multitouch table, a recording, a
web page): an input package (`playtable.tableinput`) tracks the physical objects and hands
`Sighting`s to `LiveDice.update`; this module names the dice (`F.d20a`, `K.d6b`, `borg`), keeps
the values the players rolled, runs the formation engine (RULES.md, formations) and scores the
table with the chosen scoring rules (RULES.md, scoring). A shape holding a named die whose value
has not been entered yet is *undecided*: its point value is shown, but nobody owns it until the
value is known (RULES.md, interpretation 30).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from playtable.core.errors import BadParameter
from playtable.games.stardice.formation import FormationEngine, FormationParams, Layout, Sighting
from playtable.games.stardice.scoring import (
    DieInfo,
    ScoringRules,
    ShapeScore,
    TableScore,
    score_table,
    zeroed,
)


@dataclass(frozen=True)
class DieSpec:
    die: str
    """"F.d20a", "K.d6b" or "borg"."""
    value: int | None = None
    pips: int | None = None

    @property
    def owner(self) -> int | None:
        if self.die == "borg":
            return None
        return "FK".index(self.die[0])


def check_die(name: str) -> str:
    """`name` if it names a die (F.d20a, K.d6b, borg); else one clear BadParameter."""
    if name == "borg":
        return name
    if len(name) < 4 or name[0] not in "FK" or name[1] != "." or not name[2:].startswith("d"):
        raise BadParameter(f"'{name}' is not a die name like F.d20a, K.d6b or borg")
    return name


class LiveDice:
    """The dice on a live table: their names, rolled values, the formation engine and the score.
    Objects the input cannot name (keys not in `specs`) take part in shapes but score for no one."""

    def __init__(
        self,
        specs: Mapping[int, DieSpec],
        params: FormationParams | None = None,
        rules: ScoringRules | None = None,
        borg_faces: tuple[int, ...] = (8, 16, 16, 24, 24, 32),
        borg_pips: tuple[int, ...] = (3, 4, 4, 5, 5, 6),
    ) -> None:
        self.specs = dict(specs)
        self.by_name = {spec.die: spec for spec in self.specs.values()}
        self.params = params or FormationParams()
        self.rules = rules or ScoringRules()
        self.borg_faces = borg_faces
        self.borg_pips = borg_pips
        self.values: dict[str, int] = {s.die: s.value for s in self.specs.values()
                                       if s.value is not None}
        self.engine = FormationEngine(self.params)

    def name_of(self, class_id: int) -> str:
        """The die a tagged object's class id (its fiducial) stands for, or an `objN` key."""
        spec = self.specs.get(class_id)
        return spec.die if spec is not None else f"obj{class_id}"

    def faces(self, die: str) -> tuple[int, ...]:
        """The faces a die of this table may show: 1..N for a dN, the Borg die's own faces."""
        if die == "borg":
            return tuple(sorted(set(self.borg_faces)))
        sides = die.split(".", 1)[1][1:].rstrip("abcdefghijklmnopqrstuvwxyz")
        return tuple(range(1, int(sides) + 1)) if sides.isdigit() and int(sides) > 0 else ()

    def set_value(self, die: str, value: int) -> None:
        """A value rolled and entered by the players."""
        check_die(die)
        self.values[die] = value

    def enter_value(self, die: str, value: int) -> None:
        """A value entered on the table (the seed's "hotkey the rolled dice values", It. 3):
        only a die of this table and one of its faces; else one BadParameter, nothing changed."""
        if die not in self.by_name:
            raise BadParameter(f"there is no die '{die[:20]}' on this table")
        faces = self.faces(die)
        if isinstance(value, bool) or not isinstance(value, int) or value not in faces:
            raise BadParameter(f"{die} has no face {value!r} (its faces: {faces[0]}..{faces[-1]})"
                               if die != "borg" else
                               f"the Borg die has no face {value!r} (its faces: "
                               f"{', '.join(map(str, faces))})")
        self.values[die] = value

    def missing_values(self, dice: tuple[str, ...], forfeiter: int | None = None) -> list[str]:
        """The named dice among `dice` whose rolled value nobody has entered (a forfeiter's dice
        count as zeroes whatever they show, FR Other rules, so none of theirs is missing; with
        blank dice, `ignore_values`, only the Borg die's face counts: its pips)."""
        blank = self.rules.ignore_values  # blank dice: faces never count
        return [d for d in dice if d in self.by_name and d not in self.values
                and (forfeiter is None or self.by_name[d].owner != forfeiter)
                and not (blank and d != "borg")]

    def update(self, sightings: list[Sighting], now: float) -> Layout:
        """The engine's layout after seeing the dice where `sightings` put them at time `now`."""
        return self.engine.update(sightings, max(now, self.engine.time))

    def die_info(self, key: str) -> DieInfo:
        spec = self.by_name.get(key)
        if spec is None:
            return DieInfo(-1, 0, 0)  # an unknown object: shapes count it, nobody's total does
        value = self.values.get(key, 0)
        pips = spec.pips if spec.pips is not None else 0
        if spec.die == "borg" and spec.pips is None and value in self.borg_faces:
            pips = self.borg_pips[self.borg_faces.index(value)]
        return DieInfo(spec.owner, value, pips)

    def score(self, layout: Layout, forfeiter: int | None = None) -> TableScore:
        """The table's score; with a `forfeiter`, as if all their dice rolled zeroes (FR Other
        rules, `scoring.zeroed`; their own points are the match's to zero)."""
        dice = {k: self.die_info(k) for k in layout.positions}
        if forfeiter is not None:
            dice = zeroed(dice, forfeiter)
        scored = score_table(layout, {}, dice, self.rules)
        shapes = tuple(self._undecided(s, forfeiter)
                       if s.kind != "single" and self.missing_values(s.dice, forfeiter)
                       else s for s in scored.shapes)
        if shapes == scored.shapes:
            return scored
        points = [0] * len(scored.points)
        for s in shapes:
            if self.rules.system == "multiplier":
                points = [p + t for p, t in zip(points, s.totals, strict=True)]
            elif s.owner is not None and self.rules.system == "max_best":
                points[s.owner] = max(points[s.owner], s.points + s.bonus)
            elif s.owner is not None:
                points[s.owner] += s.points + s.bonus
        return TableScore(tuple(points), shapes)

    def _undecided(self, shape: ShapeScore, forfeiter: int | None = None) -> ShapeScore:
        """A shape waiting for values: its size's points stand, its owner is unknown."""
        missing = self.missing_values(shape.dice, forfeiter)
        totals = (0,) * len(shape.totals) if self.rules.system == "multiplier" else shape.totals
        return replace(shape, owner=None, bonus=0, totals=totals,
                       note=f"waiting for the value of {', '.join(missing)}")

    def describe(self, layout: Layout,
                 velocities: Mapping[str, tuple[float, float]]) -> dict[str, Any]:
        """The table as JSON-ready data: dice, connections, formations, strings, points, shapes."""
        score = self.score(layout)
        dice = []
        for k, (x, y) in layout.positions.items():
            info = self.die_info(k)
            vx, vy = velocities.get(k, (0.0, 0.0))
            dice.append({
                "id": k, "x": round(x, 5), "y": round(y, 5), "vx": round(vx, 5), "vy": round(vy, 5),
                "owner": info.owner if info.owner != -1 else None,
                "known": k in self.by_name,
                "value": self.values.get(k), "settled": k in layout.settled,
            })
        return {
            "dice": dice,
            "connections": [list(e) for e in layout.edges],
            "formations": [list(f) for f in layout.formations],
            "strings": [list(s) for s in layout.strings],
            "points": list(score.points),
            "shapes": [{"kind": s.kind, "objects": list(s.objects), "points": s.points,
                        "bonus": s.bonus, "owner": s.owner, "totals": list(s.totals),
                        "note": s.note, "waiting": self.missing_values(s.dice)}
                       for s in score.shapes if s.kind != "single"],
        }

    def render(self, path: str | Path) -> Path:
        """Draw the live table (origin top left, as a tracker sees it)."""
        from playtable.games.stardice.physics import TableGeometry
        from playtable.games.stardice.render import ScenePiece, render_scene

        layout = self.engine.layout()
        score = self.score(layout)
        pieces = []
        for k, (x, y) in layout.positions.items():
            spec = self.by_name.get(k)
            kind = "d6"
            if spec is not None:
                kind = "borg" if spec.die == "borg" else spec.die.split(".", 1)[1].rstrip(
                    "abcdefghijklmnopqrstuvwxyz")
            value = self.values.get(k)
            label = "?" if value is None else str(value)
            if spec is not None and spec.die == "borg" and value is not None:
                label = f"{value}/{self.die_info(k).pips}"
            pieces.append(ScenePiece(k, kind, x, y, 0.0, spec.owner if spec else None, label,
                                     spec is not None))
        title = f"Star Dice live: Federation {score.points[0]}  -  Klingon {score.points[1]}"
        return render_scene(pieces, layout, score, self.params.connect_range, TableGeometry(),
                            path, title, y_down=True)
