"""Geometry of the two-row bridge: slots, neighbours, standing, and where awakenings land.

Slot index = row * 6 + column; row 0 is the lower row, row 1 the upper; columns 0-5 are the
seed's positions 1-6 counted left to right (§4.1 non-destructive variations: the direction of
counting makes no difference).
"""

from __future__ import annotations

from collections.abc import Sequence

COLUMNS = 6
SLOTS = 12
LEFT, RIGHT, UP, DOWN = "left", "right", "up", "down"


def _neighbour(slot: int, direction: str) -> int:
    row, col = divmod(slot, COLUMNS)
    if direction == LEFT:
        return slot - 1 if col > 0 else -1
    if direction == RIGHT:
        return slot + 1 if col < COLUMNS - 1 else -1
    if direction == UP:
        return slot + COLUMNS if row == 0 else -1
    return slot - COLUMNS if row == 1 else -1


NEIGHBOUR: list[dict[str, int]] = [
    {d: _neighbour(s, d) for d in (LEFT, RIGHT, UP, DOWN)} for s in range(SLOTS)
]
ADJACENT: list[tuple[int, ...]] = [tuple(n for n in NEIGHBOUR[s].values() if n >= 0) for s in range(SLOTS)]


def slot_name(slot: int) -> str:
    """'lower 4' — the way the seed's players name a brick."""
    return f"{'lower' if slot < COLUMNS else 'upper'} {slot % COLUMNS + 1}"


def awakening_target(stacks: Sequence[Sequence[int]], row: int, column: int) -> int | None:
    """The slot an awakening lands on (seed 000 §7.1 "No brick there..."): the rolled slot; if
    empty, the next brick towards the nearer bank; if none that way, the next the other way;
    None if the row has no brick."""
    base = row * COLUMNS
    if stacks[base + column]:
        return base + column
    towards_left = column <= 2
    first = range(column - 1, -1, -1) if towards_left else range(column + 1, COLUMNS)
    second = range(column + 1, COLUMNS) if towards_left else range(column - 1, -1, -1)
    for col in (*first, *second):
        if stacks[base + col]:
            return base + col
    return None


def flight_step(slot: int, troll: int) -> int:
    """-1 or +1: the column step of an awake brick fleeing towards the closest bank not blocked
    by the troll (§6.2, §7.1). The troll blocks a bank when it stands in the same row between
    the brick and that bank; it can never block both."""
    row, col = divmod(slot, COLUMNS)
    step = -1 if col <= 2 else 1
    t_row, t_col = divmod(troll, COLUMNS)
    if t_row == row and (t_col - col) * step > 0:
        step = -step
    return step


def collapse_reason(stacks: Sequence[Sequence[int]]) -> str | None:
    """Why the bridge collapses, or None if it stands (§6.2, §7.1 brick flight phase)."""
    if not stacks[0] and not stacks[COLUMNS]:
        return "both end slots at the left bank are empty"
    if not stacks[COLUMNS - 1] and not stacks[SLOTS - 1]:
        return "both end slots at the right bank are empty"
    frontier = [s for s in (0, COLUMNS) if stacks[s]]
    reached = set(frontier)
    while frontier:
        slot = frontier.pop()
        if slot % COLUMNS == COLUMNS - 1:
            return None
        for n in ADJACENT[slot]:
            if stacks[n] and n not in reached:
                reached.add(n)
                frontier.append(n)
    return "the bricks no longer connect the two banks"


def supporting_neighbours(stacks: Sequence[Sequence[int]], slot: int) -> int:
    return sum(1 for n in ADJACENT[slot] if stacks[n])
