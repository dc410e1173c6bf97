"""Building troll positions by hand for rule tests."""

from __future__ import annotations

from typing import Any

from playtable.core.chance import Chance
from playtable.games.troll.cards import DECK, card_text, parse_card
from playtable.games.troll.game import GAME
from playtable.games.troll.rules import TrollState


def _stack(text: str) -> list[str]:
    return text.split()


def position(
    lower: list[str],
    upper: list[str],
    troll: str = "lower 1",
    awake: tuple[str, ...] = (),
    deck: tuple[str, ...] = (),
    set_aside: tuple[str, ...] = (),
    carried: tuple[str, ...] = (),
    d6: tuple[int, ...] = (),
    params: dict[str, Any] | None = None,
    actions_left: int = 2,
    visited: tuple[str, ...] = (),
    lower_colour: str = "red",
) -> TrollState:
    """Stacks are written bottom to top ("3C 7H" has 7H on top); every card not placed anywhere
    goes to the lower flight stack. `awake` cards are face up; `d6` rigs the next die rolls."""
    row, pos = troll.split()
    placed = [c for s in lower + upper for c in _stack(s)] + list(deck) + list(set_aside) + list(carried)
    used = {parse_card(c) for c in placed}
    assert len(used) == len(placed), "a card is placed twice"
    rest = [card_text(c) for c in DECK if c not in used]

    def slot(text: str) -> dict[str, Any]:
        r, p = text.split()
        return {"row": r, "position": int(p)}

    data = {
        "params": params or {},
        "chance": {"seed": 7, "counter": 0, "rigged": {"d6": list(d6)}} if d6 else {"seed": 7},
        "bridge": {"lower": [_stack(s) for s in lower], "upper": [_stack(s) for s in upper]},
        "face_up": list(awake),
        "seen": list(awake),
        "deck": list(deck),
        "set_aside": list(set_aside),
        "flight_stacks": {"lower": rest, "upper": []},
        "lower_colour": lower_colour,
        "troll": {"row": row, "position": int(pos)},
        "carried": list(carried),
        "visited": [slot(v) for v in visited],
        "actions_left": actions_left,
        "turn": 1,
    }
    return GAME.state_from_json(data)


FULL_LOWER = ["2C 3C 4C", "5C 6C", "7C", "8C", "9C 10C", "JC QC KC"]
FULL_UPPER = ["2S 3S 4S", "5S 6S", "7S", "8S", "9S 10S", "JS QS KS"]


def texts(actions: list[Any]) -> list[str]:
    return [str(a) for a in actions]


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def top(state: TrollState, row: str, pos: int) -> str | None:
    stack = state.stacks[(0 if row == "lower" else 1) * 6 + pos - 1]
    return card_text(stack[-1]) if stack else None


def is_awake(state: TrollState, row: str, pos: int) -> bool:
    stack = state.stacks[(0 if row == "lower" else 1) * 6 + pos - 1]
    return bool(stack) and stack[-1] in state.face_up


def held_twins() -> list[tuple[TrollState, TrollState]]:
    """Opening positions held at the end of a turn, each with a twin that differs only in what
    the player cannot see (the hidden cards resampled)."""
    pairs = []
    for seed in (3, 11):
        held = GAME.new_state(seed=seed).clone()
        held.hold_next_turn = True
        twin = held.determinize(0, Chance(5))
        twin.hold_next_turn = True
        pairs.append((held, twin))
    return pairs
