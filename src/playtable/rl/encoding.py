"""Encodings for the RL environments: how a game's observations and actions become fixed-size
arrays, so that `Discrete(n)` index i always means the same action.

The environments (`single`, `multi`) see a game only through the protocol: `observation(seat)`
(what that seat may know, never the hidden cards), `legal_actions()`, `parse_action(text)` and
`returns()`. An *encoding* turns the observation JSON into a fixed-size float vector and fixes a
catalogue of action texts:

* `troll`: 38 actions (stomp, wait, six verbs times four directions, lay in twelve slots) and 188
  features in [0, 1] (every slot's height, awake top, top card if known, the troll, the visited
  slots, carried cards, the deck and flight stacks).
* `rotator`: "start CELL" for the 200 cells and "drill 0-3"; seven 0/1 planes over the 20 x 10
  board (solid, control node, player, the three ages, start choices) plus gravity, boosts,
  phase and turn.
* any other game: index i is the i-th legal action in the state's own order (up to 256; the
  wizard game has been seen with 81), and the observation is the observation JSON's numbers,
  flags and hashed strings in document order, padded or cut to 256 values. Crude, but it works
  for every game.

The observation is a dict `{"observation": float32 vector, "action_mask": int8 vector}` (the
PettingZoo classic convention). An action outside the mask ends the episode with reward -1
(`info["illegal"] = True`), as PettingZoo's TerminateIllegalWrapper does. Rewards are the
seat's return at the end of the game (0 before it).
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from playtable.core.errors import IllegalAction
from playtable.core.protocol import State

ILLEGAL_REWARD = -1.0
"""The reward of an action outside the mask (and the episode ends)."""


@dataclass(frozen=True)
class Encoding:
    """How one game's observations and actions map to fixed-size arrays."""

    size: int
    low: float
    high: float
    encode: Callable[[dict[str, Any]], np.ndarray]
    action_texts: list[str] | None
    """The fixed action catalogue, or None: index i is the i-th legal action."""
    max_actions: int = 256

    @property
    def num_actions(self) -> int:
        return len(self.action_texts) if self.action_texts is not None else self.max_actions

    def legal_map(self, state: State) -> dict[int, Any]:
        """Index -> legal action for the seat to move."""
        legal = state.legal_actions()
        if self.action_texts is None:
            return dict(enumerate(legal[: self.max_actions]))
        index = {t: i for i, t in enumerate(self.action_texts)}
        out: dict[int, Any] = {}
        for action in legal:
            i = index.get(str(action))
            if i is None:
                raise IllegalAction(f"action '{action}' is missing from the environment's catalogue")
            out[i] = action
        return out


# -- troll ------------------------------------------------------------------------------------------
_SUITS = "CDHS"
_RANKS = {r: i for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])}
_ROWS = ("lower", "upper")
_TROLL_ACTIONS = (
    ["stomp", "wait"]
    + [
        f"{v} {d}"
        for v in ("move", "pick", "club", "throw", "shovel", "wake")
        for d in ("left", "right", "up", "down")
    ]
    + [f"lay {row} {p}" for row in _ROWS for p in range(1, 7)]
)


def _card(text: str | None) -> list[float]:
    """[known, suit one-hot x4, rank / 12]."""
    if not text:
        return [0.0] * 6
    suit = _SUITS.index(text[-1])
    return [1.0] + [1.0 if s == suit else 0.0 for s in range(4)] + [_RANKS[text[:-1]] / 12.0]


def _slot(data: dict[str, Any]) -> int:
    return _ROWS.index(data["row"]) * 6 + int(data["position"]) - 1


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def encode_troll(obs: dict[str, Any]) -> np.ndarray:
    f: list[float] = [
        _clip(obs["turn"] / 100.0),
        obs["actions_left"] / 2.0,
        1.0 if obs["lower_colour"] == "red" else 0.0,
        _clip(obs["deck_count"] / 52.0),
        _clip(len(obs["set_aside"]) / 8.0),
        _clip(obs["score"] / 52.0),
        1.0 if obs["outcome"] == "win" else 0.0,
        1.0 if obs["outcome"] == "loss" else 0.0,
    ]
    for row in _ROWS:
        for stack in obs["bridge"][row]:
            cards = stack["cards"]
            f += [_clip(stack["height"] / 8.0), 1.0 if stack["awake"] else 0.0]
            f += [_clip(sum(1 for c in cards if c) / 8.0)]
            f += _card(cards[-1] if cards else None)
    troll = _slot(obs["troll"])
    f += [1.0 if i == troll else 0.0 for i in range(12)]
    visited = {_slot(v) for v in obs["visited"]}
    f += [1.0 if i in visited else 0.0 for i in range(12)]
    carried = obs["carried"][:4]
    for i in range(4):
        if i < len(carried):
            f += _card(carried[i]["card"]) + [1.0 if carried[i]["awake"] else 0.0]
        else:
            f += [0.0] * 7
    for row in _ROWS:
        stack = obs["flight_stacks"][row]
        f += [_clip(len(stack) / 26.0)] + _card(stack[-1] if stack else None)
    f += _card(obs["set_aside"][0] if obs["set_aside"] else None)
    return np.asarray(f, dtype=np.float32)


# -- rotator ----------------------------------------------------------------------------------------
_ROT_ROWS, _ROT_COLS = 20, 10
_DIRECTIONS = ("south", "east", "north", "west")
_PHASES = ("start", "drill", "won", "lost")


def _cell(name: str) -> int:
    return (int(name[1:]) - 1) * _ROT_COLS + (ord(name[0].upper()) - ord("A"))


def _rotator_actions(max_drill: int) -> list[str]:
    cells = [f"{chr(ord('A') + c)}{r + 1}" for r in range(_ROT_ROWS) for c in range(_ROT_COLS)]
    return [f"start {c}" for c in cells] + [f"drill {d}" for d in range(max_drill + 1)]


def _encode_rotator(boost_total: int, turn_limit: int) -> Callable[[dict[str, Any]], np.ndarray]:
    n = _ROT_ROWS * _ROT_COLS

    def encode(obs: dict[str, Any]) -> np.ndarray:
        planes = np.zeros((7, n), dtype=np.float32)
        for c in obs["solid"]:
            planes[0, _cell(c)] = 1.0
        for r, line in enumerate(obs["board"][:_ROT_ROWS]):
            for col, ch in enumerate(line[:_ROT_COLS]):
                if ch == "@":
                    planes[1, r * _ROT_COLS + col] = 1.0
        if obs["player"]:
            planes[2, _cell(obs["player"])] = 1.0
        for c, age in obs["ages"].items():
            planes[3 + min(2, int(age)), _cell(c)] = 1.0
        for c in obs["choices"]:
            planes[6, _cell(c)] = 1.0
        extra = [1.0 if obs["down"] == d else 0.0 for d in _DIRECTIONS]
        extra += [1.0 if obs["phase"] == p else 0.0 for p in _PHASES]
        extra += [_clip(obs["boosts_left"] / max(1, boost_total)), _clip(obs["turn"] / max(1, turn_limit))]
        return np.concatenate([planes.ravel(), np.asarray(extra, dtype=np.float32)])

    return encode


# -- any game ---------------------------------------------------------------------------------------
class _Enough(Exception):
    """`_first_leaves` has its values."""


_TEXT_VALUES: dict[str, float] = {}
"""A string's value (crc32 mod 1000 / 1000), remembered: observations repeat the same ids and
words at every step."""


def _first_leaves(data: Any, out: list[float], size: int) -> None:
    """The observation's numbers, flags and hashed strings in document order (dict keys
    sorted), at least the first `size` of them (the rest would be cut off anyway): a bool is
    1.0 or 0.0, a number itself, a string its crc32 mod 1000 / 1000, None 0.0."""
    append = out.append
    for item in (data[key] for key in sorted(data)) if isinstance(data, dict) else data:
        kind = type(item)
        if kind is float:
            append(item)
        elif kind is int:
            append(float(item))
        elif kind is str:
            value = _TEXT_VALUES.get(item)
            if value is None:
                value = (zlib.crc32(item.encode()) % 1000) / 1000.0
                if len(_TEXT_VALUES) < 100_000:
                    _TEXT_VALUES[item] = value
            append(value)
        elif item is None:
            append(0.0)
        elif kind is dict or kind is list or kind is tuple:
            _first_leaves(item, out, size)
        else:
            _leaf(item, out, size)
    if len(out) >= size:
        raise _Enough


def _leaf(item: Any, out: list[float], size: int) -> None:
    """`_first_leaves` of one value of a less common type (bools, subclasses)."""
    if isinstance(item, bool):
        out.append(1.0 if item else 0.0)
    elif isinstance(item, int | float):
        out.append(float(item))
    elif isinstance(item, str):
        out.append((zlib.crc32(item.encode()) % 1000) / 1000.0)
    elif isinstance(item, dict | list | tuple):
        _first_leaves(item, out, size)


def _encode_generic(size: int) -> Callable[[dict[str, Any]], np.ndarray]:
    def encode(obs: dict[str, Any]) -> np.ndarray:
        values: list[float] = []
        with contextlib.suppress(_Enough):
            _first_leaves([obs], values, size)
        vec = np.zeros(size, dtype=np.float32)
        cut = values[:size]
        vec[: len(cut)] = np.clip(np.asarray(cut, dtype=np.float32), -1e6, 1e6)
        return vec

    return encode


def encoding_for(game: Any, params: Any, generic_size: int = 256, max_actions: int = 256) -> Encoding:
    """The encoding of `game` (a Game) with `params`; sizes are measured on a fresh deal."""
    sample = game.new_state(params, 0).observation(0)
    if game.id == "troll":
        return Encoding(len(encode_troll(sample)), 0.0, 1.0, encode_troll, list(_TROLL_ACTIONS))
    if game.id == "rotator":
        encode = _encode_rotator(
            int(getattr(params, "boost_total", 10)), int(getattr(params, "turn_limit", 200))
        )
        actions = _rotator_actions(int(getattr(params, "max_drill", 3)))
        return Encoding(len(encode(sample)), 0.0, 1.0, encode, actions)
    return Encoding(generic_size, -1e6, 1e6, _encode_generic(generic_size), None, max_actions)


def obs_space(enc: Encoding) -> spaces.Dict:
    """The observation space of both environments: the vector and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(enc.low, enc.high, (enc.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
        }
    )
