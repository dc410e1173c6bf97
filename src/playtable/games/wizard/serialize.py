"""The wizard position's JSON form (docs/positions.md): `state_to_json` writes every field, hidden
parts and the chance stream included; `state_from_json` reads it back into the state class it is
given, checking it and raising BadPosition naming the problem.
"""

from __future__ import annotations

from typing import Any, TypeVar

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter, BadPosition, IllegalAction
from playtable.core.params import params_from_dict
from playtable.core.protocol import params_as_dict
from playtable.games.wizard import board
from playtable.games.wizard.params import WizardParams
from playtable.games.wizard.position import MONSTERS, Cell, Hero, Token, WizardPosition

P = TypeVar("P", bound=WizardPosition)

CARD_LISTS = ("hand", "deck", "discard", "out", "offered", "loot_deck", "loot_discard", "unused_tiles")
"""The position's lists of card ids (wizard cards, loot cards and unused tiles), in that order."""


def state_to_json(self: WizardPosition) -> dict[str, Any]:
    return {
        "params": params_as_dict(self.params),
        "chance": self.chance.to_json(),
        "cells": [
            {
                "square": board.name(sq), "tile": c.tile, "flipped": c.flipped,
                "removed": c.removed, "key": c.key,
                "tokens": [[t.kind, t.up, t.batch] for t in c.tokens],
                "items": list(c.items), "keys": c.keys, "cleared": c.cleared,
            }
            for sq, c in sorted(self.cells.items())
        ],
        "tower": board.name(self.tower),
        "entrance": self.entrance,
        "start": board.name(self.start) if self.start else None,
        "heroes": [
            {
                "seat": h.seat, "hp": h.hp, "pos": board.name(h.pos),
                "prev": board.name(h.prev) if h.prev else None, "alive": h.alive,
                "items": list(h.items), "keys": h.keys, "frozen": h.frozen, "stuck": h.stuck,
                "entered": h.entered, "fought": h.fought, "gives": h.gives,
            }
            for h in self.heroes
        ],
        "hand": list(self.hand), "deck": list(self.deck), "discard": list(self.discard),
        "out": list(self.out), "offered": list(self.offered), "wheel": self.wheel,
        "mana": self.mana, "loot_deck": list(self.loot_deck),
        "loot_discard": list(self.loot_discard), "unused_tiles": list(self.unused_tiles),
        "lost": [[t.kind, t.up, t.batch] for t in self.lost], "batches": self.batches,
        "tokens_placed": self.tokens_placed, "tokens_gone": self.tokens_gone,
        "keys_found": self.keys_found, "rage": self.rage, "round": self.round,
        "decision": plain_copy(self.decision), "steps": plain_copy(self.steps),
        "commits": {str(k): v for k, v in self.commits.items()},
        "winner": self.winner, "end": self.end, "stats": dict(self.stats),
    }


def plain_copy(value: Any) -> Any:
    """A deep copy of JSON-like data, tuples made lists (as JSON would)."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_copy(v) for v in value]
    return value


def _token(raw: Any) -> Token:
    kind, up, batch = raw
    if kind not in (*MONSTERS, "trap", "blank") or not isinstance(up, bool) or not isinstance(batch, int):
        raise BadPosition(f"bad token {raw!r}")
    return Token(kind, up, batch)


def state_from_json(data: Any, cls: type[P]) -> P:
    """Read `state_to_json` output into a `cls` (the protocol's `WizardState`); raises
    BadPosition naming the problem."""
    if not isinstance(data, dict):
        raise BadPosition("a wizard position must be a JSON object")
    for key in ("params", "chance", "cells", "heroes", "decision"):
        if key not in data:
            raise BadPosition(f"a wizard position needs '{key}'")
    try:
        params: WizardParams = params_from_dict(WizardParams, data["params"])
    except BadParameter as err:
        raise BadPosition(f"bad params: {err}") from None
    st = cls(params, Chance.from_json(data["chance"]))
    try:
        size = st.size
        for raw in data["cells"]:
            sq = board.parse_square(raw["square"], size)
            st.cells[sq] = Cell(
                tile=str(raw["tile"]), flipped=bool(raw["flipped"]), removed=bool(raw["removed"]),
                key=bool(raw["key"]), tokens=[_token(t) for t in raw["tokens"]],
                items=[str(i) for i in raw["items"]], keys=int(raw["keys"]),
                cleared=bool(raw["cleared"]),
            )
        if len(st.cells) != size * size:
            raise BadPosition(f"a {size}x{size} board needs {size * size} cells, not {len(st.cells)}")
        st.tower = board.parse_square(data["tower"], size)
        st.entrance = str(data["entrance"])
        if st.entrance not in board.DIRS:
            raise BadPosition(f"entrance must be N, E, S or W, not {st.entrance!r}")
        st.start = board.parse_square(data["start"], size) if data.get("start") else None
        for raw in data["heroes"]:
            st.heroes.append(Hero(
                seat=int(raw["seat"]), hp=int(raw["hp"]), pos=board.parse_square(raw["pos"], size),
                prev=board.parse_square(raw["prev"], size) if raw.get("prev") else None,
                alive=bool(raw["alive"]), items=[str(i) for i in raw["items"]],
                keys=int(raw["keys"]), frozen=bool(raw["frozen"]), stuck=bool(raw["stuck"]),
                entered=bool(raw["entered"]), fought=bool(raw["fought"]), gives=int(raw["gives"]),
            ))
        if [h.seat for h in st.heroes] != list(range(1, params.players)):
            raise BadPosition(f"heroes must be seats 1..{params.players - 1} in order")
        for key in CARD_LISTS:
            values = data[key]
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                raise BadPosition(f"'{key}' must be a list of card ids")
            setattr(st, key, list(values))
        st.lost = [_token(t) for t in data["lost"]]
        for key in ("wheel", "mana", "batches", "tokens_placed", "tokens_gone", "keys_found", "round"):
            value = data[key]
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadPosition(f"'{key}' must be a whole number")
            setattr(st, key, value)
        st.rage = bool(data["rage"])
        if not isinstance(data["decision"], dict) or not isinstance(data["steps"], list):
            raise BadPosition("'decision' must be an object and 'steps' a list")
        st.decision = plain_copy(data["decision"])
        st.steps = plain_copy(data["steps"])
        st.commits = {int(k): str(v) for k, v in dict(data["commits"]).items()}
        st.winner = str(data["winner"])
        st.end = str(data["end"])
        st.stats = {str(k): int(v) for k, v in dict(data["stats"]).items()}
        for card in st.hand + st.deck + st.discard + st.out + st.offered:
            if card.rsplit(".", 1)[0] not in st.content.wizard:
                raise BadPosition(f"unknown wizard card '{card}'")
        for card in st.loot_deck + st.loot_discard + [c for h in st.heroes for c in h.items]:
            if card.rsplit(".", 1)[0] not in st.content.loot:
                raise BadPosition(f"unknown loot card '{card}'")
        if st.decision and "seat" not in st.decision and not st.winner:
            raise BadPosition("'decision' needs a 'seat'")
    except BadPosition:
        raise
    except IllegalAction as err:
        raise BadPosition(f"bad square: {err}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        raise BadPosition(f"malformed wizard position: {type(err).__name__}: {err}") from None
    return st

