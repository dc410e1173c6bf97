"""Reading files and JSON that a person may have written or edited: one reader with limits.

Every file playtable reads from a user (positions, board files, dice maps, records) comes
through `read_text` and, for JSON, `parse_json`, so each class of bad input is refused in one
place with one line naming the problem, whatever door it comes through:

* a file too large, missing, not a regular file (a directory, a FIFO, a device: refused, never
  waited on; `core.files.open_input`), or not UTF-8 (a UTF-8 byte-order mark is accepted and
  dropped: editors on some systems write one);
* JSON nested deeper than `MAX_DEPTH` (Python's parser would overflow its stack first);
* integers longer than `MAX_INT_DIGITS` digits (no game needs them; Python refuses to print
  ones of 4,300 digits, and they make every later computation slow);
* `NaN`, `Infinity` and numbers that overflow to infinity (not JSON, and no rule is written
  for them), and control characters in keys.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from playtable.core.errors import BadPosition, PlaytableError
from playtable.core.files import open_input, shown

MAX_BYTES = 16 * 1024 * 1024
"""A position is a few kilobytes and a board file one; 16 MB leaves room for records."""
MAX_DEPTH = 64
"""The deepest position nests five levels; 64 stays far from the parser's own limit."""
MAX_INT_DIGITS = 40
"""Seeds are 64-bit (20 digits); 40 digits leaves room without letting a number run away."""

_BOM = "\ufeff"


def read_text(path: str | Path, what: str = "file", max_bytes: int = MAX_BYTES,
              error: type[PlaytableError] = BadPosition) -> str:
    """The text of `path` as UTF-8 (a byte-order mark dropped), or `error` naming the problem.
    The size is checked before the file is read, so a huge file costs no memory."""
    try:
        with open_input(path, what, error) as handle:
            data = handle.read(max_bytes + 1)
    except OSError as err:
        raise error(f"{what} {shown(path)}: cannot be read ({err.strerror or err})") from None
    if len(data) > max_bytes:
        raise error(f"{what} {shown(path)}: larger than {max_bytes / (1024 * 1024):g} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise error(f"{what} {shown(path)}: not UTF-8 text (byte 0x{data[err.start]:02x} at offset "
                    f"{err.start})") from None
    return text[1:] if text.startswith(_BOM) else text


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"a whole number of {digits} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is out of range")
    return value


def _parse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float,
                            parse_constant=_parse_constant)
"""Made once: `json.loads` with these hooks builds a decoder and its scanner at every call,
which cost a small message (every WebSocket frame a client sends) more than its parsing."""


def _too_deep(data: Any, limit: int) -> bool:
    """Whether `data` nests deeper than `limit` (an explicit stack: no recursion)."""
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def parse_json(text: str, what: str = "input", error: type[PlaytableError] = BadPosition,
               max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads` with the limits of this module; `error` names the problem in one line."""
    if text.startswith(_BOM):
        text = text[1:]
    try:
        data = _DECODER.decode(text)
    except json.JSONDecodeError as err:
        raise error(f"{what}: not valid JSON ({err.msg} at line {err.lineno} column "
                    f"{err.colno})") from None
    except RecursionError:
        raise error(f"{what}: nests deeper than {max_depth} levels") from None
    except ValueError as err:
        raise error(f"{what}: not valid JSON here ({err})") from None
    if _too_deep(data, max_depth):
        raise error(f"{what}: nests deeper than {max_depth} levels")
    return data


def read_json(path: str | Path, what: str = "file", max_bytes: int = MAX_BYTES,
              error: type[PlaytableError] = BadPosition) -> Any:
    """The JSON value in the file `path`, read and parsed with the limits of this module."""
    return parse_json(read_text(path, what, max_bytes, error), f"{what} {path}", error)
