"""Actions: a verb and its arguments; `str()` is the canonical text ('move N', 'place m3 c4')."""

from __future__ import annotations

from dataclasses import dataclass

from playtable.core.checks import action_text
from playtable.core.errors import IllegalAction

ARITY: dict[str, tuple[int, ...]] = {
    "tower": (1,), "entrance": (1,), "key": (1,), "return": (1,), "start": (1,),
    "remove": (1,), "play": (1,), "end": (0,), "place": (2,), "target": (1,),
    "switch": (2,), "send": (1,), "discard": (1,), "move": (1,), "stay": (0,),
    "sprint": (1, 2), "use": (1,), "give": (2,), "givekey": (1,), "boost": (1,), "fight": (0,),
    "retreat": (1,), "keep": (1,),
}


@dataclass(frozen=True)
class Act:
    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))


def act(verb: str, *args: str) -> Act:
    return Act(verb, tuple(args))


COMPASS = frozenset({"N", "E", "S", "W", "NE", "NW", "SE", "SW"})
"""Directions and corners, the only words written in capitals (`move N`, `start NE`)."""


def parse(text: str) -> Act:
    """The action of `text`, read without regard to letter case or spacing, as every game reads
    action texts (docs/positions.md): `MOVE  n` is `move N`, `Tower C3` is `tower c3`."""
    words = action_text(text).split()
    if not words:
        raise IllegalAction("an empty action")
    verb = words[0].lower()
    args = tuple(w.upper() if w.upper() in COMPASS else w.lower() for w in words[1:])
    if verb not in ARITY:
        raise IllegalAction(f"unknown action '{verb}' (known: {', '.join(sorted(ARITY))})")
    if len(args) not in ARITY[verb]:
        counts = " or ".join(map(str, ARITY[verb]))
        noun = "argument" if ARITY[verb] == (1,) else "arguments"
        raise IllegalAction(f"'{verb}' takes {counts} {noun}")
    return Act(verb, args)
