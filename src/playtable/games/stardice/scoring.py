"""Scoring a table: the final rules and every earlier scoring system of seed 002 as a variant.

The input is the formation engine's `Layout` (whose vertices are *detected objects*), the dice
each object holds (`members`: two dice lying so close that the table sees one), and what each die
rolled. Shape size always counts detected objects, never dice: the final rules' "treat both dice
as being part of the formation for determining who owns it, but do not re-score the formation".

Systems (`ScoringRules.system`):

* ``final`` (iteration 5 onward, the Final Rules): a formation of n dice is worth the points
  table (3 -> 3, 4 -> 6, ... 13 -> 73), a string 1, a single 0; the player with the highest sum
  of rolled values in the shape owns it; a tie scores nothing; with the Borg die in the shape the
  owner's sum must be greater than the Borg's value, and then (iteration 7 "Borg 2", closed
  formations only) the owner also gains the Borg's pips as a bonus.
* ``multiplier`` (iterations 1 and 2): every die scores its face value times its shape's
  multiplier: 1 in a string, n-1 in a closed shape of n dice; a single die scores its face
  (iteration 1) or 1 (iteration 2, `single_value="one"`). Each player scores their own dice
  (iteration 2, objective 2: "calculate the score of the red dice in exactly the same manner").
* ``max`` (iteration 3 "Scoring 1", and iteration 4): a single die is worth 1, a string the
  maximum rolled value in it, a closed shape of n dice n-1 times its maximum; only the player
  whose die rolled the maximum scores the shape; a tie scores nothing; the neutral die may be in
  shapes but must not be the maximum (iteration 3/4 neutral die rule).
* ``max_best`` (iteration 3 "Scoring 2"): as ``max``, but a player's score is the maximum of
  their shapes instead of the sum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from playtable.games.stardice.formation import Layout

FINAL_POINTS: tuple[int, ...] = (3, 6, 10, 15, 21, 28, 35, 43, 52, 62, 73)
"""Iteration 5's table for closed formations of 3..13 dice."""

System = Literal["final", "multiplier", "max", "max_best"]


@dataclass(frozen=True)
class DieInfo:
    """A die on the table: its owner (a seat, or None for the neutral Borg die), the value it
    rolled, and the pips on that face (the Borg die of iteration 7 "Borg 2" and later)."""

    owner: int | None
    value: int
    pips: int = 0


@dataclass(frozen=True)
class ScoringRules:
    system: System = "final"
    formation_points: tuple[int, ...] = FINAL_POINTS
    string_points: int = 1
    single_points: int = 0
    borg_must_be_beaten: bool = True
    borg_bonus: bool = True
    single_value: Literal["face", "one"] = "face"
    """multiplier system: iteration 1 scores a single die at its face, iteration 2 at 1."""
    ignore_values: bool = False
    """Blank dice (It. 2, It. 6): every die counts 1 whatever it shows."""
    borg_enemy: bool = False
    """The Borg as the enemy (It. 6): final system only; see `borg_takes`."""


def formation_points(size: int, table: Sequence[int] = FINAL_POINTS) -> int:
    """Points of a closed formation of `size` dice. Past the end of the table the steps keep
    growing by one (the seed's table stops at 13 dice: 14 -> 85, 15 -> 98)."""
    if size < 3:
        return 0
    index = size - 3
    if index < len(table):
        return int(table[index])
    value = int(table[-1])
    step = int(table[-1]) - int(table[-2]) if len(table) > 1 else 1
    for _ in range(index - len(table) + 1):
        step += 1
        value += step
    return value


@dataclass(frozen=True)
class ShapeScore:
    kind: Literal["formation", "string", "single"]
    objects: tuple[str, ...]
    dice: tuple[str, ...]
    points: int
    """The shape's value (what the table displays)."""
    owner: int | None
    """The seat that scores it (None: nobody)."""
    bonus: int = 0
    totals: tuple[int, ...] = ()
    """Per seat: the sum (final) or maximum (max systems) of its rolled values in the shape."""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "objects": list(self.objects), "dice": list(self.dice),
                "points": self.points, "owner": self.owner, "bonus": self.bonus,
                "totals": list(self.totals), "note": self.note}


@dataclass(frozen=True)
class BorgTake:
    """The Borg as the enemy (It. 6): the points of the shapes it holds unbeaten, and the seats
    it wiped out (fewer points than that: they score 0)."""

    points: int
    wiped: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "wiped": list(self.wiped)}


@dataclass(frozen=True)
class TableScore:
    points: tuple[int, ...]
    shapes: tuple[ShapeScore, ...] = field(default_factory=tuple)
    borg: BorgTake | None = None
    """Only under `ScoringRules.borg_enemy`."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"points": list(self.points),
                               "shapes": [s.to_json() for s in self.shapes]}
        if self.borg is not None:
            out["borg"] = self.borg.to_json()
        return out


def scoring_shapes(score: TableScore) -> list[dict[str, Any]]:
    """The public description of a scored table, front-end free: every shape that can score
    (formations and strings; lone dice never do under the final rules), in the order the table
    lists them, each with its members (`objects`, `dice`), `owner` (a seat, or None: nobody),
    `points`, Borg `bonus`, each seat's `totals` and the `note` saying why nobody scores."""
    return [s.to_json() for s in score.shapes if s.kind != "single"]


def _shapes(layout: Layout) -> list[tuple[Literal["formation", "string", "single"],
                                          tuple[str, ...]]]:
    out: list[tuple[Literal["formation", "string", "single"], tuple[str, ...]]] = []
    out.extend(("formation", f) for f in layout.formations)
    out.extend(("string", s) for s in layout.strings)
    out.extend(("single", (s,)) for s in layout.singles)
    return out


def score_table(
    layout: Layout,
    members: Mapping[str, Sequence[str]],
    dice: Mapping[str, DieInfo],
    rules: ScoringRules = ScoringRules(),
    players: int = 2,
) -> TableScore:
    """Score every shape of `layout`. `members[obj]` lists the dice of a detected object (an
    object missing from it is the die of the same id)."""
    if rules.ignore_values:  # blank dice: each die counts one, whatever it shows
        dice = {k: DieInfo(d.owner, 1, d.pips) for k, d in dice.items()}
    scored: list[ShapeScore] = []
    for kind, objects in _shapes(layout):
        ids = tuple(d for o in objects for d in members.get(o, (o,)))
        info = [dice[d] for d in ids]
        if rules.system == "final":
            scored.append(_final(kind, objects, ids, info, rules, players))
        elif rules.system == "multiplier":
            scored.append(_multiplier(kind, objects, ids, info, rules, players))
        else:
            scored.append(_max(kind, objects, ids, info, players))
    points = [0] * players
    if rules.system == "multiplier":
        for s in scored:
            for seat in range(players):
                points[seat] += s.totals[seat]
    elif rules.system == "max_best":
        for s in scored:
            if s.owner is not None:
                points[s.owner] = max(points[s.owner], s.points + s.bonus)
    else:
        for s in scored:
            if s.owner is not None:
                points[s.owner] += s.points + s.bonus
    if rules.borg_enemy and rules.system == "final":
        return borg_takes(points, scored, {k for k, d in dice.items() if d.owner is None})
    return TableScore(tuple(points), tuple(scored))


def borg_takes(points: list[int], scored: list[ShapeScore], borg: set[str]) -> TableScore:
    """The Borg as the enemy (It. 6, Craig: "Borg die is the enemy; must be defeated"; Brent:
    "Secondary goal of not getting wiped out by Borg"). A shape holding the Borg and a player's
    die that no player beats (the Borg is not beaten, or the players tie) is the Borg's: it
    holds those points. A player with fewer points than the Borg holds is wiped out and scores
    0 for the battle. `borg`: the ids of the neutral dice."""
    held = 0
    shapes = []
    for s in scored:
        if borg & set(s.dice) and len(s.dice) > 1 and s.owner is None and s.points > 0:
            held += s.points
            s = ShapeScore(s.kind, s.objects, s.dice, s.points, s.owner, s.bonus, s.totals,
                           "the Borg holds it")
        shapes.append(s)
    wiped = tuple(seat for seat, p in enumerate(points) if p < held)
    final = tuple(0 if seat in wiped else p for seat, p in enumerate(points))
    return TableScore(final, tuple(shapes), BorgTake(held, wiped))


def _final(kind: Literal["formation", "string", "single"], objects: tuple[str, ...],
           ids: tuple[str, ...], info: list[DieInfo], rules: ScoringRules,
           players: int) -> ShapeScore:
    if kind == "formation":
        value = formation_points(len(objects), rules.formation_points)
    elif kind == "string":
        value = rules.string_points
    else:
        value = rules.single_points
    totals = tuple(sum(d.value for d in info if d.owner == seat) for seat in range(players))
    borg = [d for d in info if d.owner is None]
    best = max(totals)
    leaders = [seat for seat, t in enumerate(totals) if t == best]
    owner: int | None = leaders[0] if len(leaders) == 1 else None
    note = ""
    if owner is None:
        note = "tie: nobody scores"
    elif borg and rules.borg_must_be_beaten and best <= max(d.value for d in borg):
        owner, note = None, "the Borg is not beaten: nobody scores"
    elif value == 0 and kind == "single":
        owner = None
    bonus = 0
    if owner is not None and borg and rules.borg_bonus and kind == "formation":
        bonus = sum(d.pips for d in borg)
        note = f"Borg beaten: +{bonus}"
    if owner is not None and value == 0 and bonus == 0:
        owner = None
    return ShapeScore(kind, objects, ids, value, owner, bonus, totals, note)


def _multiplier(kind: Literal["formation", "string", "single"], objects: tuple[str, ...],
                ids: tuple[str, ...], info: list[DieInfo], rules: ScoringRules,
                players: int) -> ShapeScore:
    mult = len(objects) - 1 if kind == "formation" else 1
    per_seat = [0] * players
    if kind == "single" and rules.single_value == "one":
        # It. 2: dice the table sees as one are "a single die whose value is their sum", and a
        # single die is worth 1: the detected object scores 1, not 1 a die (interpretation 36).
        sums = [sum(d.value for d in info if d.owner == seat) for seat in range(players)]
        holders = [seat for seat in range(players) if any(d.owner == seat for d in info)]
        best = [seat for seat in holders if sums[seat] == max(sums[h] for h in holders)]
        if len(best) == 1:
            per_seat[best[0]] = 1
        return ShapeScore(kind, objects, ids, mult, None, 0, tuple(per_seat), f"x{mult}")
    for d in info:
        if d.owner is not None:
            per_seat[d.owner] += d.value * mult
    return ShapeScore(kind, objects, ids, mult, None, 0, tuple(per_seat), f"x{mult}")


def _max(kind: Literal["formation", "string", "single"], objects: tuple[str, ...],
         ids: tuple[str, ...], info: list[DieInfo], players: int) -> ShapeScore:
    maxima = tuple(max((d.value for d in info if d.owner == seat), default=0)
                   for seat in range(players))
    top = max(d.value for d in info)
    holders = {d.owner for d in info if d.value == top}
    if kind == "single":
        value = 1
    elif kind == "string":
        value = top
    else:
        value = (len(objects) - 1) * top
    owner: int | None = None
    note = ""
    if None in holders:
        note = "the neutral die is the maximum: nobody scores"
    elif len(holders) > 1:
        note = "tie for the maximum: nobody scores"
    else:
        owner = holders.pop()
    return ShapeScore(kind, objects, ids, value, owner, 0, maxima, note)


def zeroed(dice: Mapping[str, DieInfo], seat: int) -> dict[str, DieInfo]:
    """Final rules, forfeit: the other player "receives points as if all the forfeiting player's
    dice rolled zeroes"."""
    return {k: (DieInfo(d.owner, 0, d.pips) if d.owner == seat else d) for k, d in dice.items()}


def objective1_target(round_number: int) -> int:
    """Iteration 2, objective 1 (solitaire): round 1 needs more than 10 points, round 2 more
    than 20, and so on."""
    return 10 * round_number
