"""Shared validators for the games' position loaders (each reads one field of a hand-editable
position and raises BadPosition naming the field and the rule it breaks) and for action texts
(`action_text`, IllegalAction).

Every loader checks the same kinds of things (a whole number in range, a finite number, one of
a few words, every piece exactly once), so they are written once here and cannot drift apart:
a `True` is not a number, `1.5` is not a whole number, `inf` and `NaN` are never in range.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from playtable.core.errors import BadPosition, IllegalAction


def _range_text(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f" from {lo} to {hi}"
    if lo is not None:
        return f" of at least {lo}"
    if hi is not None:
        return f" of at most {hi}"
    return ""


def whole(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """`value` as a whole number in [lo, hi] (either bound optional)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadPosition(f"'{what}' must be a whole number{_range_text(lo, hi)}, not {value!r:.40}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise BadPosition(f"'{what}' must be a whole number{_range_text(lo, hi)}, not {value}")
    return value


def number(value: Any, what: str, lo: float | None = None, hi: float | None = None) -> float:
    """`value` as a finite number in [lo, hi] (either bound optional)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadPosition(f"'{what}' must be a number{_range_text(lo, hi)}, not {value!r:.40}")
    result = float(value)
    if not math.isfinite(result) or (lo is not None and result < lo) or (
            hi is not None and result > hi):
        raise BadPosition(f"'{what}' must be a finite number{_range_text(lo, hi)}, not {value}")
    return result


def word(value: Any, what: str, choices: Collection[Any]) -> Any:
    """`value`, which must be one of `choices` (None may be one of them)."""
    if value not in choices:
        listed = ", ".join("null" if c is None else str(c) for c in choices)
        raise BadPosition(f"'{what}' must be one of {listed}, not {value!r:.40}")
    return value


def text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise BadPosition(f"'{what}' must be text, not {value!r:.40}")
    return value


def flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise BadPosition(f"'{what}' must be true or false, not {value!r:.40}")
    return value


def items(value: Any, what: str, length: int | None = None) -> list[Any]:
    """`value` as a list (of exactly `length` items when given)."""
    if not isinstance(value, list):
        raise BadPosition(f"'{what}' must be a list, not {type(value).__name__}")
    if length is not None and len(value) != length:
        raise BadPosition(f"'{what}' must list {length} items, not {len(value)}")
    return value


def mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BadPosition(f"'{what}' must be an object, not {type(value).__name__}")
    return value


def field(data: Mapping[str, Any], key: str, what: str | None = None) -> Any:
    """`data[key]`, or BadPosition naming the missing field."""
    if key not in data:
        raise BadPosition(f"missing '{what or key}'")
    return data[key]


def exactly_once(found: Iterable[Any], expected: Collection[Any], what: str) -> None:
    """Every piece of `expected` appears exactly once in `found`, and nothing else does; the
    error names the first piece missing, repeated or unknown."""
    counts = Counter(found)
    unknown = sorted(str(p) for p in counts if p not in expected)
    if unknown:
        raise BadPosition(f"{what}: unknown piece {unknown[0]}")
    repeated = sorted(str(p) for p, n in counts.items() if n > 1)
    if repeated:
        raise BadPosition(f"{what}: {repeated[0]} appears {counts[_key(counts, repeated[0])]} times "
                          "(every piece exactly once)")
    missing = sorted(str(p) for p in expected if p not in counts)
    if missing:
        raise BadPosition(f"{what}: {missing[0]} is missing (every piece exactly once)")


def _key(counts: Counter[Any], name: str) -> Any:
    return next(p for p in counts if str(p) == name)


def all_finite(data: Any, what: str = "position") -> None:
    """Every number anywhere inside `data` is finite: no field of any game holds inf or NaN
    (JSON cannot write them, and no rule is written for them). Names the first path found."""
    stack: list[tuple[Any, str]] = [(data, what)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise BadPosition(f"'{path}' must be a finite number, not {item}")
        if isinstance(item, Mapping):
            stack.extend((v, f"{path}.{k}") for k, v in item.items())
        elif isinstance(item, list | tuple):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))


MAX_ACTION_TEXT = 200
"""The longest canonical action text is a Star Dice throw, about 70 characters."""


def action_text(text: Any) -> str:
    """An action text as typed: one line of printable text, at most MAX_ACTION_TEXT long. Every
    game's parser calls this first, so a newline, a control character or a megabyte of digits
    is refused the same way whatever door (command line, web, records) it came through."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action must be text, not {type(text).__name__}")
    if len(text) > MAX_ACTION_TEXT:
        raise IllegalAction(f"an action text of {len(text)} characters (at most {MAX_ACTION_TEXT})")
    if not text.isprintable():
        bad = next(ch for ch in text if not ch.isprintable())
        raise IllegalAction(f"an action text is one line of printable characters, not {bad!r}")
    return text


def rigged(queues: Mapping[str, list[Any]], allowed: Mapping[str, Callable[[Any], bool]]) -> None:
    """A position's rigged chance queues: each named queue is one the game draws from, and each
    value one it can draw (a d6 rolls 1-6, a deck holds its cards). Checked when the position is
    read, so a bad value is never found half-way through an action."""
    for queue, values in queues.items():
        if queue not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise BadPosition(f"'chance.rigged.{queue}': this game draws from no such queue "
                              f"(its queues: {known})")
        for value in values:
            if not allowed[queue](value):
                raise BadPosition(f"'chance.rigged.{queue}' holds {value!r:.40}, which that "
                                  "queue can never draw")


def die(sides: int) -> Callable[[Any], bool]:
    """A rigged-queue check: a whole number 1..sides."""
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= sides
