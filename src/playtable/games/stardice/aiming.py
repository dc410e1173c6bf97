"""Star Dice's aiming bot: it plans its throw instead of throwing at random.

The table is read for the throws worth making (the seed's software scores closed formations far
above strings, It. 5; knocking a die is allowed and re-rolls it, FR Battle 2, It. 2):

* **closing** a string: a point within the connection range of both of its ends, so that the
  string of n becomes a formation of n + 1 (the big gain of the game);
* **a triangle**: a point within range of two loose dice (singles or string ends) that lie
  within twice the range of each other;
* **a knock**: an opponent's die in a shape, hit head on and fast enough to tumble or leave;
* a few throws drawn as `fresh_throws` draws them, so a quiet table still has candidates.

Each target is thrown at from the nearest edge of the frame with the speed that stops a lone
die there (`speed_for_distance`), with every die kind and mode in hand. Every candidate is then
played on copies of the table with the game's own physics and formation engine
(`StarDiceState.apply` on a `determinize`d copy: throw noise and faces resampled, never the
real stream), all candidates on the same sampled worlds (common random numbers) and judged by
the game's evaluation (`bots.evaluate`: the war plus what the table would score now). The best
`finalists` are judged again on more worlds, and the best of them is thrown. The work is a fixed
number of simulated throws (about 250 with the defaults: a move well under a second on one core,
`benchmarks/bot_ladder.py`), so a move's cost is bounded and reproducible.

`plan` also keeps what the chosen throw did in its simulations, which `StarDiceState.hint` tells
a player in words ("Roll the d12 towards (0.41, 0.30) to close a formation of 4...").
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from playtable.core.chance import Chance
from playtable.core.protocol import State
from playtable.games.stardice.actions import SEATS, Call, Hold, Throw, kind_of, owner_of
from playtable.games.stardice.bots import evaluate
from playtable.games.stardice.match import StarDiceState
from playtable.games.stardice.physics import speed_for_distance

Goal = Literal["close", "triangle", "knock", "scatter"]

KNOCK_BOOST = 1.8
"""A knock is thrown this much faster than the speed that would stop the die at its target."""
MARGIN = 0.03
"""Targets stay this far inside the touch surface (a die on the frame is never seen, FR)."""


@dataclass(frozen=True)
class Aim:
    """A candidate throw and what it is for: `goal`, at the table objects `at` (the string or
    pair it would join, or the die it would knock)."""

    action: Any
    goal: Goal
    at: tuple[str, ...] = ()
    target: tuple[float, float] = (0.0, 0.0)


@dataclass
class Outcome:
    """What one candidate did over its simulated throws (for the hint)."""

    aim: Aim
    value: float
    tries: int = 0
    closed: int = 0
    """Throws in which the thrown die ended in a closed formation it was not in before."""
    sizes: dict[int, int] = field(default_factory=dict)
    """Size of that formation -> how many throws made it."""
    worth: dict[int, int] = field(default_factory=dict)
    """Size -> the formation's points (as the table scored it)."""
    owned: int = 0
    """Throws in which that formation was the thrower's."""
    knocked_off: int = 0
    """Throws that sent an opponent's die off the table."""
    lead: float = 0.0
    """The thrower's mean lead (war plus table, theirs subtracted) after the throw."""


@dataclass
class AimingThrower:
    """Plans its throw (see the module documentation). Deterministic given the rng handed to
    `choose`."""

    # Remote bounds (`core.params`): a move simulates about (aims + scattered) x samples +
    # finalists x final_samples throws, each about 1 ms (benchmarks/bot_ladder.py), so the
    # largest settings stay near 1,000 throws, a second or two.
    aims: int = field(default=36, metadata={"range": (1, 64)})
    """At most this many aimed candidates (closing throws first, then knocks, then triangles)."""
    scattered: int = field(default=8, metadata={"range": (0, 32)})
    """Candidates drawn at random as `fresh_throws` draws them."""
    samples: int = field(default=4, metadata={"range": (1, 8)})
    """Sampled worlds every candidate is first judged on (the same worlds for every one)."""
    finalists: int = field(default=4, metadata={"range": (1, 8)})
    """The best candidates of the first round, judged again on `final_samples` more worlds."""
    final_samples: int = field(default=12, metadata={"range": (1, 24)})

    name = "aiming"

    def choose(self, state: State, rng: Chance) -> Any:
        return self.plan(state, rng).aim.action

    def plan(self, state: State, rng: Chance) -> Outcome:
        """The chosen throw and what it did in its simulations."""
        assert isinstance(state, StarDiceState)
        if state.phase == "call":  # parity of the Borg's pips: a coin flip, nothing to aim
            return Outcome(Aim(Call("odd" if rng.below(2) else "even"), "scatter"), 0.5)
        if state.phase == "borg":  # its pips decide who goes first, by chance: keep it on
            geo = state.physics().geometry
            throw = aimed_throw(state, "roll", "borg", geo.width / 2, geo.depth / 2)
            if throw is not None:
                return Outcome(Aim(throw, "scatter", (), (geo.width / 2, geo.depth / 2)), 0.5)
        aims = candidates(state, rng, self.aims, self.scattered)
        if len(aims) == 1:
            return Outcome(aims[0], float("nan"))
        seat = state.current_player
        first = [rng.next_u64() for _ in range(self.samples)]
        screened = [judge(state, seat, aim, first) for aim in aims]
        # Stable: ties keep the candidates' order (closing throws first).
        order = sorted(range(len(screened)), key=lambda i: -screened[i].value)
        again = [rng.next_u64() for _ in range(self.final_samples)]
        final = [judge(state, seat, aims[i], first + again) for i in order[:self.finalists]]
        return max(final, key=lambda o: o.value)


def candidates(state: StarDiceState, rng: Chance, aims: int, scattered: int) -> list[Aim]:
    """The throws worth trying now: aimed ones (closing, knocking, triangles), then scattered
    ones; `hold` first where the turn may end (iteration-9 variants)."""
    out: list[Aim] = []
    if state.phase in ("torpedo", "more"):
        out.append(Aim(Hold(), "scatter"))
    pieces = throwable(state)
    seen: set[Any] = set()
    for goal, at, (tx, ty) in targets(state):
        for mode, name in pieces:
            if len(out) >= aims:
                break
            if mode == "torpedo" and goal != "knock":
                continue  # a torpedo scores nothing: it only ever knocks
            action = aimed_throw(state, mode, name, tx, ty, knock=goal == "knock")
            if action is not None and action not in seen:
                seen.add(action)
                out.append(Aim(action, goal, at, (tx, ty)))
    for action in state.fresh_throws(rng, scattered) if scattered else []:
        if action not in seen:
            seen.add(action)
            out.append(Aim(action, "scatter"))
    if not out:  # nothing aimed and nothing drawn: the menu's first throw
        out.append(Aim(state.sample_actions(rng, 1)[0], "scatter"))
    return out


def throwable(state: StarDiceState) -> list[tuple[str, str]]:
    """(mode, piece) of every way to throw now, one per die kind: the centre menu's pieces."""
    center, _ = state._menus()
    ways = {(a.mode, a.piece) for a in center if isinstance(a, Throw)}
    return sorted(w for w in ways if state._throw_piece_legal(*w) is None)


def targets(state: StarDiceState) -> Iterator[tuple[Goal, tuple[str, ...], tuple[float, float]]]:
    """The points worth aiming at, best kinds first (see the module documentation)."""
    layout = state.engine.layout()
    pos = dict(layout.positions)
    reach = state.params.connect_range
    seat = state.to_move
    members = state.members()
    for string in layout.strings:
        for point in meeting_points(state, pos, string[0], string[-1], reach):
            yield "close", string, point
    for shape in (*layout.formations, *layout.strings):
        for obj in shape:
            dice = members.get(obj, (obj,))
            if obj in pos and all(owner_of(d) == 1 - seat for d in dice):
                yield "knock", (obj,), pos[obj]
    loose = sorted([*layout.singles, *(e for s in layout.strings for e in (s[0], s[-1]))])
    for i, a in enumerate(loose):
        for b in loose[i + 1:]:
            if any(a in s and b in s for s in layout.strings):
                continue  # the ends of one string: its closing points came first
            for point in meeting_points(state, pos, a, b, reach):
                yield "triangle", (a, b), point


def meeting_points(state: StarDiceState, pos: dict[str, tuple[float, float]], a: str, b: str,
                   reach: float) -> list[tuple[float, float]]:
    """The points within `reach` of both `a` and `b` (at 60% of it where they can be), on the
    touch surface and clear of every die: a die landing there connects to both."""
    if a not in pos or b not in pos:
        return []
    (ax, ay), (bx, by) = pos[a], pos[b]
    d = math.hypot(bx - ax, by - ay)
    if d < 1e-9 or d > 1.9 * reach:
        return []
    r = min(0.9 * reach, max(0.6 * reach, d / 2 + 0.02))
    h = math.sqrt(max(0.0, r * r - d * d / 4))
    mx, my = (ax + bx) / 2, (ay + by) / 2
    ux, uy = -(by - ay) / d, (bx - ax) / d
    geo = state.physics().geometry
    out = []
    for sign in (1, -1):
        x, y = mx + sign * h * ux, my + sign * h * uy
        if not (MARGIN <= x <= geo.width - MARGIN and MARGIN <= y <= geo.depth - MARGIN):
            continue
        if any(math.hypot(px - x, py - y) < 0.05 for px, py in pos.values()):
            continue
        out.append((x, y))
    return out


def aimed_throw(state: StarDiceState, mode: str, name: str, tx: float, ty: float,
                knock: bool = False) -> Throw | None:
    """The throw of `name` from the nearest edge of the frame, straight at (tx, ty), at the
    speed that stops a lone die there (faster for a knock); None if it would not be legal."""
    geo = state.physics().geometry
    f = geo.frame / 2
    edges = [(ty, tx, -f), (geo.width - tx, geo.width + f, ty),
             (geo.depth - ty, tx, geo.depth + f), (tx, -f, ty)]
    _, sx, sy = min(edges)
    kind = "stone" if mode == "torpedo" else "borg" if name == "borg" else kind_of(f"X.{name}")
    speed = speed_for_distance(kind, math.hypot(tx - sx, ty - sy)) * (KNOCK_BOOST if knock else 1.0)
    speed = min(state.params.max_speed, max(0.01, speed))
    heading = math.degrees(math.atan2(ty - sy, tx - sx))
    throw = Throw.make(mode, name, sx, sy, heading, speed, 0.0)  # type: ignore[arg-type]
    return throw if state.is_legal(throw) is None else None


def lead(state: StarDiceState, seat: int) -> float:
    """The seat's war total plus what the table would score now, less the other seat's."""
    if state.is_terminal:
        return float(state.war[seat] - state.war[1 - seat])
    points = state.current_score().points
    return float(state.war[seat] + points[seat] - state.war[1 - seat] - points[1 - seat])


def judge(state: StarDiceState, seat: int, aim: Aim, seeds: list[int]) -> Outcome:
    """`aim` played on one sampled world per seed (`determinize`: throw noise and faces
    resampled), with its mean evaluation and what it did."""
    out = Outcome(aim, 0.0)
    before = {frozenset(f) for f in state.engine.formations()}
    piece = thrown_piece(state, aim.action)
    total = 0.0
    for seed in seeds:
        world = state.determinize(seat, Chance(seed))
        world.apply(aim.action)
        total += evaluate(world, seat)
        out.lead += lead(world, seat)
        if piece is not None and not world.is_terminal:
            _count_shape(world, seat, piece, before, out)
        out.knocked_off += sum(1 for d in world.eliminated
                               if owner_of(d) == 1 - seat and d not in state.eliminated)
    out.tries = len(seeds)
    out.value = total / len(seeds)
    out.lead /= len(seeds)
    return out


def _count_shape(world: StarDiceState, seat: int, piece: str, before: set[frozenset[str]],
                 out: Outcome) -> None:
    """Count the formation the thrown `piece` closed in `world`, if it closed one."""
    for shape in world.current_score().shapes:
        if shape.kind == "formation" and piece in shape.dice and frozenset(shape.objects) not in before:
            n = len(shape.objects)
            out.closed += 1
            out.sizes[n] = out.sizes.get(n, 0) + 1
            out.worth[n] = shape.points
            out.owned += shape.owner == seat
            return


def thrown_piece(state: StarDiceState, action: Any) -> str | None:
    """The table id the throw puts on the table ('F.d12a'), None for a torpedo or no throw."""
    if not isinstance(action, Throw) or action.mode == "torpedo":
        return None
    return action.piece if action.piece == "borg" else f"{SEATS[state.to_move]}.{action.piece}"


def explain(state: StarDiceState, outcome: Outcome) -> str:
    """Why the planned throw is good, in a sentence a player understands."""
    action = outcome.aim.action
    if isinstance(action, Call):
        return f"{action}: the Borg's pips are odd or even by chance, so either call is as good."
    if isinstance(action, Hold):
        return "Hold: every throw tried now does worse for you than ending here."
    verb = {"roll": "Roll", "slide": "Slide", "torpedo": "Fire"}[action.mode]
    what = "a torpedo" if action.mode == "torpedo" else f"the {kind_of('X.' + action.piece)}"
    if action.piece == "borg":
        return (f"{verb} the Borg die into the middle of the table: it decides who goes first, "
                "and it must stay on the table.")
    aim, tries = outcome.aim, max(1, outcome.tries)
    now = lead(state, state.to_move)
    after = f"your lead goes from {now:+.0f} to {outcome.lead:+.0f} on average"
    towards = f"towards ({aim.target[0]:.2f}, {aim.target[1]:.2f})"
    if outcome.closed * 2 >= tries and outcome.sizes:
        n = max(outcome.sizes, key=lambda k: outcome.sizes[k])
        shape = "a triangle" if n == 3 else f"a formation of {n}"
        where = f" {towards}" if aim.goal != "scatter" else ""
        return (f"{verb} {what}{where} to close {shape} worth {outcome.worth[n]}: it closes in "
                f"{outcome.closed} of {tries} simulated throws, yours in {outcome.owned}, and "
                f"{after}.")
    ship = f"their {kind_of(aim.at[0].split('+')[0])} ({aim.at[0]})" if aim.at else ""
    if aim.goal == "knock" and outcome.knocked_off:
        return (f"{verb} {what} at {ship} to break the opponent's shape: it knocks one of "
                f"their dice off the table in {outcome.knocked_off} of {tries} simulated throws, "
                f"and {after}.")
    if aim.goal == "knock":
        return (f"{verb} {what} at {ship} to knock it and re-roll its face (It. 2): of the "
                f"throws simulated it does you the most good, and {after}.")
    return (f"{verb} {what} {towards}: no throw closes a formation for you now, and of the "
            f"throws tried on {tries} simulated tables this one does you the most good: {after}.")


def hint(state: StarDiceState) -> tuple[Any, str]:
    """The throw the aiming bot would make here and why. Its chance comes from the public
    position, so the same position gets the same hint."""
    outcome = AimingThrower().plan(state, Chance(state._public_seed()))
    return outcome.aim.action, explain(state, outcome)
