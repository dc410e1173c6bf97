"""The troll's actions, each with one canonical text form.

    move left|right|up|down     stomp                      pick left|right|up|down
    club DIR                    throw DIR (a diamond)      shovel DIR (a spade)
    wake DIR (draft spade)      lay upper|lower 1-6        wait (only when nothing else is legal)

"up" is towards the upper row, "down" towards the lower row; positions count 1-6 left to right.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from playtable.core.checks import action_text
from playtable.core.errors import IllegalAction

DIRECTIONS = ("left", "right", "up", "down")
ROWS = ("lower", "upper")
DIRECTED = ("move", "pick", "club", "throw", "shovel", "wake")
ITEM_VERBS = ("club", "throw", "shovel", "wake")


@dataclass(frozen=True, slots=True)
class TrollAction:
    verb: str
    direction: str = ""
    slot: int = -1  # for `lay`: row * 6 + column

    def __str__(self) -> str:
        if self.verb == "lay":
            return f"lay {ROWS[self.slot // 6]} {self.slot % 6 + 1}"
        return f"{self.verb} {self.direction}" if self.direction else self.verb


STOMP = TrollAction("stomp")
WAIT = TrollAction("wait")
DIRECTED_ACTIONS = {(v, d): TrollAction(v, d) for v in DIRECTED for d in DIRECTIONS}
LAY = [TrollAction("lay", slot=s) for s in range(12)]
ALL_ACTIONS = [STOMP, WAIT, *DIRECTED_ACTIONS.values(), *LAY]
_BY_TEXT = {str(a): a for a in ALL_ACTIONS}


def items_used(actions: Iterable[TrollAction]) -> int:
    """How many of `actions` spend an item (a club, a diamond or a spade, §7.1)."""
    return sum(1 for a in actions if a.verb in ITEM_VERBS)


def priced(value: float, actions: Iterable[TrollAction]) -> float:
    """A plan's value less a thousandth for each item it uses: stomping is free and an item
    costs an awakening (its card is set aside, §7.1), so of near-equal plans the bots take the
    one that spends less."""
    return value - 0.001 * items_used(actions)


def parse_troll_action(text: str) -> TrollAction:
    action = _BY_TEXT.get(" ".join(action_text(text).lower().split()))
    if action is None:
        raise IllegalAction(
            f"'{text}' is not a troll action (e.g. 'move left', 'stomp', 'pick up', 'club right',"
            " 'throw down', 'shovel left', 'lay upper 3', 'wait')"
        )
    return action
