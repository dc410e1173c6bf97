"""What happens in a troll game, as protocol `Event`s: one builder per kind, with its data and
its plain words, and `TrollEvents`, the list `apply` returns, which builds them only when read.

The rules (rules.py, engine.py) do not build events while they play: they note a *record*, the
builder and its arguments, `(moved, "left", 3)`. Random play, search and the lab's workers
apply hundreds of thousands of actions whose events nobody reads; building each event's text
was a third of a random game. A record costs one tuple; reading a `TrollEvents`
builds every event of that action once, exactly as if it had been built at once (the records
hold every value the text needs, taken when it happened).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from playtable.core.protocol import Event
from playtable.games.troll import bridge as geo
from playtable.games.troll.cards import card_pretty, colour

Record = tuple[Any, ...]
_SLOT = [geo.slot_name(s) for s in range(geo.SLOTS)]  # 'lower 4': the words, looked up
_CARD = [card_pretty(c) for c in range(52)]  # '7♥'
"""A builder of this module and its arguments, e.g. `(moved, "left", 3)`."""


def build(record: Record) -> Event:
    builder: Callable[..., Event] = record[0]
    return builder(*record[1:])


class TrollEvents(Sequence[Event]):
    """The events of one `apply` (or of the setup), built from their records when first read."""

    __slots__ = ("_records", "_built")

    def __init__(self, records: list[Record]):
        self._records = records
        self._built: list[Event] | None = None

    def _events(self) -> list[Event]:
        if self._built is None:
            self._built = [r[0](*r[1:]) for r in self._records]  # build(r), written out
        return self._built

    def __len__(self) -> int:
        return len(self._records)

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        return self._events()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TrollEvents | list | tuple):
            return self._events() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a list of events, compared by value

    def __repr__(self) -> str:
        return f"TrollEvents({self._events()!r})"


# -- the builders, in the order of a turn (§6.2, §7.1) -------------------------------------------
def given(card: int) -> Event:
    return Event("given", f"The troll is given {_CARD[card]}.", {"card": card})


def setup(card: int, roll: int, troll: int) -> Event:
    return Event("setup", f"{_CARD[card]} starts the lower stack: the lower row is "
                 f"{colour(card)}. Rolled {roll}: the troll stands on lower {roll}.",
                 {"card": card, "roll": roll, "troll": troll})


def setup_test7(card: int | None, lower_red: bool, row_roll: int, roll: int, troll: int) -> Event:
    """The setup under Test #7's ideas (seed 000 §8.1): `card` None when no colour card is drawn,
    `row_roll` 0 when the troll's row is not rolled, `roll` 0 when its brick is not."""
    lower = "red" if lower_red else "black"
    upper = "black" if lower_red else "red"
    colours = (f"{_CARD[card]} starts the lower stack: the lower row is {lower}." if card is not None
               else f"{lower.capitalize()} cards go to the lower stack, {upper} to the upper.")
    row = "lower" if troll < geo.COLUMNS else "upper"
    where = (f" Rolled {row_roll} for the row: {row}." if row_roll else "")
    where += f" Rolled {roll}:" if roll else ""
    return Event("setup", f"{colours}{where} The troll stands on {_SLOT[troll]}.",
                 {"card": card, "roll": roll or None, "row_roll": row_roll or None, "troll": troll,
                  "lower_colour": lower})


def turn(number: int) -> Event:
    return Event("turn", f"Turn {number} begins.", {"turn": number})


def no_awakening() -> Event:
    return Event("no_awakening", "No card to play: no brick awakens.", {})


def no_brick(card: int, roll: int, row: int) -> Event:
    name = "lower" if row == 0 else "upper"
    return Event("no_brick", f"{_CARD[card]} goes to the {name} stack, rolled {roll}: no "
                 f"brick left in the {name} row.", {"card": card, "roll": roll, "row": row})


def card_played(card: int, roll: int, row: int, slot: int) -> Event:
    name = "lower" if row == 0 else "upper"
    return Event("card_played", f"{_CARD[card]} goes to the {name} stack, rolled {roll}.",
                 {"card": card, "roll": roll, "row": row, "slot": slot})


def flew_away(card: int, slot: int) -> Event:
    return Event("flew_away", f"{_CARD[card]} at {_SLOT[slot]} jolts awake again "
                 "and flies away!", {"slot": slot, "card": card})


def awakened(card: int, slot: int, by_troll: bool) -> Event:
    return Event("awakened", f"{_CARD[card]} awakened at {_SLOT[slot]}.",
                 {"slot": slot, "card": card, "by_troll": by_troll})


def waited() -> Event:
    return Event("waited", "The troll has nothing it can do and waits.", {})


def stomped(card: int, slot: int) -> Event:
    return Event("stomped", f"The troll stomps {_CARD[card]} at {_SLOT[slot]} flat.",
                 {"slot": slot})


def laid(card: int, slot: int) -> Event:
    return Event("laid", f"The troll lays {_CARD[card]} down at {_SLOT[slot]}.",
                 {"slot": slot})


def moved(direction: str, slot: int) -> Event:
    return Event("moved", f"The troll steps {direction} to {_SLOT[slot]}.", {"slot": slot})


def picked_up(card: int, slot: int) -> Event:
    return Event("picked_up", f"The troll picks up {_CARD[card]} from {_SLOT[slot]}.",
                 {"slot": slot, "card": card})


def used(card: int) -> Event:
    return Event("used", f"{_CARD[card]} is used up and set aside.", {"card": card})


def clubbed(card: int, slot: int) -> Event:
    return Event("clubbed", f"The troll clubs {_CARD[card]} at {_SLOT[slot]} senseless.",
                 {"slot": slot})


def thrown_off(direction: str) -> Event:
    return Event("thrown", f"The troll throws the diamond {direction} off the bridge.", {"slot": None})


def thrown(card: int, slot: int) -> Event:
    return Event("thrown", f"The troll's diamond knocks {_CARD[card]} at {_SLOT[slot]} "
                 "out.", {"slot": slot})


def shovelled(card: int, slot: int) -> Event:
    return Event("shovelled", f"The troll shovels {_CARD[card]} from {_SLOT[slot]} "
                 "into its hands, dormant.", {"slot": slot, "card": card})


def fled_step(card: int, source: int, target: int) -> Event:
    return Event("fled_step", f"{_CARD[card]} creeps from {_SLOT[source]} to "
                 f"{_SLOT[target]}.", {"from": source, "to": target, "card": card})


def fled(card: int, source: int, bank: str) -> Event:
    return Event("fled", f"{_CARD[card]} fled to the {bank} bank.",
                 {"from": source, "bank": bank, "card": card})


def fell(slot: int, count: int) -> Event:
    return Event("fell", f"Unsupported bricks at {_SLOT[slot]} fall into the river.",
                 {"slot": slot, "count": count})


def ended(outcome: str, text: str, reason: str, score: int) -> Event:
    return Event("won" if outcome == "win" else "lost", f"{text} Score: {score}.",
                 {"reason": reason, "score": score})
