"""The troll engine's inner loops (engine.py) as plain typed functions over the position's
fields, so that mypyc can compile them: the legal actions, the flight phase, the collapse
check, the awakening's target and the awakening of each card. Each does what the reference
method or `bridge` function it names does (rules.py; RULES.md R3-R14), which the differential
test checks step by step.

The install compiles this module (and core/splitmix.py) with mypyc into an extension module
where a C compiler is (setup.py), which Python imports instead of this file; elsewhere this file
runs as it is.
"""

from __future__ import annotations

from typing import Any, Final

from playtable.games.troll import bridge as geo
from playtable.games.troll import events as ev
from playtable.games.troll.actions import DIRECTED_ACTIONS, DIRECTIONS, STOMP, WAIT, TrollAction

# Final names are written into mypyc's code, or looked up once, not on every use.
COLUMNS: Final = 6
SLOTS: Final = 12
_CLUBS: Final = 0
_DIAMONDS: Final = 1
_HEARTS: Final = 2
_SPADES: Final = 3

# Per slot and direction (DIRECTIONS order): the neighbour (-1 off the bridge), the slots a
# thrown diamond passes that way, and the actions aimed that way.
_Near = tuple[int, tuple[int, ...], TrollAction, TrollAction, TrollAction, TrollAction,
              TrollAction, TrollAction]


def _ray(slot: int, direction: str) -> tuple[int, ...]:
    out = []
    slot = geo.NEIGHBOUR[slot][direction]
    while slot >= 0:
        out.append(slot)
        slot = geo.NEIGHBOUR[slot][direction]
    return tuple(out)


def _near(slot: int, d: str) -> _Near:
    def act(verb: str) -> TrollAction:
        return DIRECTED_ACTIONS[verb, d]

    return (geo.NEIGHBOUR[slot][d], _ray(slot, d), act("move"), act("pick"), act("club"),
            act("throw"), act("shovel"), act("wake"))


NEAR: Final[list[tuple[_Near, ...]]] = [tuple(_near(s, d) for d in DIRECTIONS) for s in range(SLOTS)]
# STEP[troll][slot]: the fleeing step (-1 left, +1 right) of an awake brick at `slot` (I6);
# ORDER[troll][slot]: its place in the flight, nearest the bank first (I4).
STEP: Final[list[list[int]]] = [[geo.flight_step(s, t) for s in range(SLOTS)] for t in range(SLOTS)]
ORDER: Final[list[list[int]]] = [[s % COLUMNS if STEP[t][s] < 0 else COLUMNS - s % COLUMNS
                           for s in range(SLOTS)] for t in range(SLOTS)]
# The event builders the kernel notes, bound once (an attribute of the module `ev` would be
# looked up at every event).
_FLED: Final = ev.fled
_FLED_STEP: Final = ev.fled_step
_NO_BRICK: Final = ev.no_brick
_CARD_PLAYED: Final = ev.card_played
_AWAKENED: Final = ev.awakened
_FLEW_AWAY: Final = ev.flew_away
_COLLAPSE: Final[dict[int, str | None]] = {}  # occupancy mask -> bridge.collapse_reason
_TARGET: Final[dict[int, int]] = {}  # row mask * 16 + row * 8 + column -> slot, or -1


def compiled() -> bool:
    """Whether this module runs compiled by mypyc (setup.py) rather than as Python source."""
    return not __file__.endswith(".py")


def legal(stacks: list[list[int]], face_up: set[int], troll: int, visited: set[int],
          carried: list[int], draft: bool) -> list[TrollAction] | None:
    """`TrollState._compute_legal` (R7-R12, I2), or None when a carried brick is dormant: its
    places to lay (I9, D2) are the reference's to say. (A brick is awake when its stack's top
    card is face up; the test is written out each time, a call costing more than it.)"""
    near = NEAR[troll]
    out: list[TrollAction] = []
    for entry in near:
        n = entry[0]
        if n >= 0 and stacks[n] and n not in visited:
            out.append(entry[2])
    here = stacks[troll]
    if here and here[-1] in face_up:
        out.append(STOMP)
    if not carried:
        for entry in near:
            n = entry[0]
            if n >= 0:
                stack = stacks[n]
                if stack and stack[-1] in face_up and stack[-1] // 13 != _HEARTS:
                    out.append(entry[3])
        return out if out else [WAIT]
    for card in carried:
        if card not in face_up:
            return None
        suit = card // 13
        for entry in near:
            n = entry[0]
            if suit == _DIAMONDS:  # a target anywhere that way, or the draft's throw off
                hit = draft
                for s in entry[1]:
                    if not hit and stacks[s] and stacks[s][-1] in face_up:
                        hit = True
                if hit:
                    out.append(entry[5])
            elif n >= 0 and stacks[n]:
                top_awake = stacks[n][-1] in face_up
                if suit == _CLUBS and top_awake:
                    out.append(entry[4])
                elif suit == _SPADES and (top_awake or draft):
                    out.append(entry[6] if top_awake else entry[7])
    return out if out else [WAIT]


def flight(stacks: list[list[int]], face_up: set[int], troll: int, set_aside: list[int],
           events: list[tuple[Any, ...]]) -> int:
    """`TrollState._flight_phase` (R13, I4, I6): moves the awake bricks, sets aside those that
    reach a bank and notes the events; returns how many fled."""
    movers: list[int] = []
    for s in range(SLOTS):
        stack = stacks[s]
        if stack and s != troll and stack[-1] in face_up:
            movers.append(s)
    if not movers:
        return 0
    if len(movers) > 1:  # into flight order: an insertion sort, stable as list.sort, without
        order = ORDER[troll]  # a key function to call back for every mover
        for i in range(1, len(movers)):
            slot = movers[i]
            rank = order[slot]
            j = i - 1
            while j >= 0 and order[movers[j]] > rank:
                movers[j + 1] = movers[j]
                j -= 1
            movers[j + 1] = slot
    steps = STEP[troll]
    fled = 0
    for slot in movers:
        card = stacks[slot].pop()
        step = steps[slot]
        column = slot % COLUMNS + step
        if 0 <= column < COLUMNS:
            stacks[slot + step].append(card)
            events.append((_FLED_STEP, card, slot, slot + step))
        else:
            face_up.discard(card)
            set_aside.append(card)
            fled += 1
            events.append((_FLED, card, slot, "left" if column < 0 else "right"))
    return fled


def play_cards(stacks: list[list[int]], face_up: set[int], seen: set[int],
               played: tuple[list[int], list[int]], lower_red: bool, troll: int, chance: Any,
               cards: list[int], set_aside: list[int], events: list[tuple[Any, ...]],
               stats: dict[str, int]) -> int:
    """`TrollState._play_card` and `_awaken_top` for each of `cards` in order (R3-R6, I13, I17):
    each goes to its row's flight stack, the die names the brick, which awakens, or flies away
    into `set_aside` if it was awake. Returns the index of the card whose double awakening
    threw the troll off (the caller ends the game, R5), else -1."""
    for i in range(len(cards)):
        card = cards[i]
        row = 0 if (13 <= card < 39) == lower_red else 1  # diamonds and hearts are red
        played[row].append(card)
        seen.add(card)
        roll: int = chance.roll(6)
        target = awakening_target(stacks, row, roll - 1)
        if target < 0:
            events.append((_NO_BRICK, card, roll, row))
            continue
        events.append((_CARD_PLAYED, card, roll, row, target))
        stats["awakenings"] += 1
        top = stacks[target][-1]
        if top not in face_up:
            face_up.add(top)
            seen.add(top)
            events.append((_AWAKENED, top, target, False))
            continue
        stacks[target].pop()
        face_up.discard(top)
        set_aside.append(top)
        stats["double_awakenings"] += 1
        events.append((_FLEW_AWAY, top, target))
        if target == troll:
            return i
    return -1


def deal(stacks: list[list[int]], cards: list[int], heights: tuple[int, ...]) -> None:
    """`TrollState._deal` (§7.1): each stack takes the next cards from the top of `cards` (its
    end), one by one, so the stack's bottom card is the one dealt first."""
    for slot in range(SLOTS):
        height = heights[slot % COLUMNS]
        stack: list[int] = []
        for _ in range(height):
            stack.append(cards.pop())
        stacks[slot] = stack


def occupancy(stacks: list[list[int]]) -> int:
    """The 12-bit mask of the slots that hold at least one brick."""
    mask, bit = 0, 1
    for stack in stacks:
        if stack:
            mask |= bit
        bit <<= 1
    return mask


def collapse_reason(stacks: list[list[int]]) -> str | None:
    """`bridge.collapse_reason` (R14), remembered per occupancy mask: it depends on nothing else."""
    mask = occupancy(stacks)
    if mask not in _COLLAPSE:
        _COLLAPSE[mask] = geo.collapse_reason(stacks)
    return _COLLAPSE[mask]


def awakening_target(stacks: list[list[int]], row: int, column: int) -> int:
    """`bridge.awakening_target` (R6, I13), -1 for None, remembered per row occupancy and die."""
    base = row * COLUMNS
    mask = 0
    for c in range(COLUMNS):
        if stacks[base + c]:
            mask |= 1 << c
    key = mask * 16 + row * 8 + column
    if key not in _TARGET:
        target = geo.awakening_target(stacks, row, column)
        _TARGET[key] = -1 if target is None else target
    return _TARGET[key]
