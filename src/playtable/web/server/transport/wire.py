"""The WebSocket messages: reading and checking what a client sends, and the limits on it.

Everything a client sends is checked here before a table sees it; a message that fails gets
one `error` message naming the problem and changes nothing. The messages a table sends are
built in `tables.py` (they need the table's state) and turned into text here (`encode`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from playtable.core.errors import PlaytableError
from playtable.core.jsonio import parse_json

MAX_FRAME = 16 * 1024
"""The largest text frame a client may send, in bytes (UTF-8)."""
MAX_ACTION_TEXT = 200


CLIENT_TYPES = ("act", "undo", "hint", "sync", "chat", "hello", "vote", "pace", "keep_playing")
PACES = {"normal": 1.0, "fast": 3.0, "instant": None}
"""The paces a page may ask a throw's motion to be shown at (`pace`), as a speed over the
physics' own time: as thrown, three times as fast, or at once (None: only where everything came
to rest). The table streams at the slowest pace any of its pages asked for (`Table.pace`)."""
MAX_CHAT_TEXT = 300
KEY_LENGTH = 43
KEY_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
"""A player key's shape (`people.py` keeps the players; wire only checks what arrives)."""


class BadMessage(Exception):
    """A client message that cannot be read; `code` is the wire error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ClientMessage:
    type: str
    step: int | None = None
    action: str | None = None
    key: str | None = None
    """`hello`: the page's player key (never sent in a URL)."""
    seat: int | None = None
    """`hello`: the seat this player asks for (their own, from "Yours"), if any."""
    pace: str | None = None
    """`pace`: how this page wants throws shown, one of PACES."""


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


_FALLBACK = json.JSONEncoder(separators=(",", ":"), check_circular=False)
"""For what orjson refuses (a key that is not a string, an integer beyond 64 bits): the standard
library's encoder, made once (`json.dumps` with options builds one a call), without the
circular-reference check (a message is a tree the server builds fresh from JSON-ready parts)."""


def _text(message: dict[str, Any]) -> str:
    """A message as compact JSON text. orjson encodes a table's state in a few microseconds
    against about 50 for the standard library (`benchmarks/wire_encode.py`); both
    write the same JSON values (orjson leaves non-ASCII characters as they are instead of
    \\u escapes, which a JSON reader takes as the same string). Its option for keys that are
    not strings would make every message four times dearer: such a rare message takes the
    standard library's way instead."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError: a key that is not a string, a huge integer
        return _FALLBACK.encode(message)


class Encoded(dict[str, Any]):
    """A message going to several connections, its text made once (`shared`); still the
    message's dict for whoever reads it in the server."""

    text: str


def shared(message: dict[str, Any]) -> Encoded:
    """`message` encoded now, once for every connection it is pushed to."""
    once = Encoded(message)
    once.text = _text(message)
    return once


def encode(message: dict[str, Any]) -> str:
    """A message's text on the wire (made once for a `shared` one)."""
    if type(message) is Encoded:
        return message.text
    return _text(message)


def _step(data: dict[str, Any], required: bool) -> int | None:
    if "step" not in data:
        if required:
            raise BadMessage("bad_message", "this message needs a 'step' (the step you are at)")
        return None
    step = data["step"]
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < 10**9:
        raise BadMessage("bad_message", "'step' must be a whole number of at least 0")
    return step


def parse_client_message(raw: str | bytes | None) -> ClientMessage:
    """Read one frame; raises BadMessage with the error code and a sentence."""
    if raw is None:
        raise BadMessage("bad_message", "send text frames of JSON, not binary frames")
    # A character is at most 4 bytes of UTF-8: only a frame that might be too large is measured.
    size = len(raw) if isinstance(raw, bytes) or 4 * len(raw) <= MAX_FRAME \
        else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_FRAME:
        raise BadMessage("too_large", f"a message may be at most {MAX_FRAME} bytes; this one has {size}")
    if isinstance(raw, bytes):
        raise BadMessage("bad_message", "send text frames of JSON, not binary frames")
    try:
        data = parse_json(raw, "the message")
    except PlaytableError as err:
        raise BadMessage("bad_message", str(err)) from None
    if not isinstance(data, dict):
        raise BadMessage("bad_message", "a message must be a JSON object with a 'type'")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise BadMessage("bad_message", f"'type' must be one of {', '.join(CLIENT_TYPES)}")
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION_TEXT:
            raise BadMessage("bad_message", "'action' must be a non-empty action text "
                             f"of at most {MAX_ACTION_TEXT} characters")
        return ClientMessage("act", _step(data, True), action.strip())
    if kind in ("sync", "keep_playing"):  # keep_playing: decline (or take back) a mid-game proposal
        return ClientMessage(kind)
    if kind == "chat":  # table chat: one printable line (the text travels in `action`)
        text = data.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHAT_TEXT \
                or not text.isprintable():
            raise BadMessage("bad_message", "'text' must be one printable line of at most "
                             f"{MAX_CHAT_TEXT} characters")
        return ClientMessage("chat", None, text.strip())
    if kind == "hello":  # whose page this is: the player key, and the seat asked for
        key, seat = data.get("key"), data.get("seat")
        if not (isinstance(key, str) and len(key) == KEY_LENGTH and set(key) <= KEY_ALPHABET):
            raise BadMessage("bad_message", f"'key' must be a player key ({KEY_LENGTH} characters "
                             "of A-Z, a-z, 0-9, '-' and '_')")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 1000):
            raise BadMessage("bad_message", "'seat' must be a seat number, or absent")
        return ClientMessage("hello", key=key, seat=seat)
    if kind == "vote":  # the wizard game's end-screen vote: the seat voted for (votes.py)
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 1000:
            raise BadMessage("bad_message", "'seat' must be the seat number voted for")
        return ClientMessage("vote", seat=seat)
    if kind == "pace":  # how fast this page wants a throw's motion (Star Dice), see PACES
        pace = data.get("pace")
        if not isinstance(pace, str) or pace not in PACES:
            raise BadMessage("bad_message", f"'pace' must be one of {', '.join(PACES)}")
        return ClientMessage("pace", pace=pace)
    return ClientMessage(kind, _step(data, True))
