"""The position of a game of The Wizard's Labyrinth: data, persistence and shared helpers.

The rules themselves live in `setup.py`, `wizard_turn.py` and `hero_turn.py`; what each seat
may see lives in `observe.py`. A position advances through *decisions* (one seat at a time) and
a queue of automatic *steps* (flipping tokens, combats, the loot phase) run between them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition, IllegalAction
from playtable.core.protocol import TERMINAL, Event, State, params_as_dict
from playtable.games.wizard import board
from playtable.games.wizard.actions import Act, parse
from playtable.games.wizard.board import Square
from playtable.games.wizard.content import Content, load_content
from playtable.games.wizard.params import WizardParams

START_HP = 10
MONSTERS = ("m1", "m2", "m3", "m4", "m5")


@dataclass
class Token:
    kind: str  # m1..m5 | trap | blank
    up: bool = False
    batch: int = 0  # which placement put it there (public: everyone saw it placed)

    @property
    def level(self) -> int:
        return int(self.kind[1]) if self.kind in MONSTERS else 0


@dataclass
class Cell:
    tile: str = ""  # tile instance id ('' for the tower)
    flipped: bool = False
    removed: bool = False
    key: bool = False  # an untaken key lies on this (key) tile
    tokens: list[Token] = field(default_factory=list)
    items: list[str] = field(default_factory=list)  # loot dropped by dead heroes
    keys: int = 0  # keys dropped by dead heroes
    cleared: bool = False  # monsters were beaten here once (beta loot)


@dataclass
class Hero:
    seat: int
    hp: int = START_HP
    pos: Square = (0, 0)
    prev: Square | None = None
    alive: bool = True
    items: list[str] = field(default_factory=list)
    keys: int = 0
    frozen: bool = False
    stuck: bool = False
    entered: bool = False
    fought: bool = False
    gives: int = 0


class WizardState(State):
    game_id = "wizard"

    def __init__(self, params: WizardParams, chance: Chance):
        self.params = params
        self.content: Content = load_content(params.content)
        self.chance = chance
        self.size = params.size
        self.cells: dict[Square, Cell] = {}
        self.tower: Square = (0, 0)
        self.entrance = "S"
        self.start: Square | None = None
        self.heroes: list[Hero] = []
        self.hand: list[str] = []
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.out: list[str] = []  # wizard cards removed from the game
        self.offered: list[str] = []  # opening draw not yet decided / cards being resolved
        self.wheel = params.mana_start
        self.mana = 0
        self.loot_deck: list[str] = []
        self.loot_discard: list[str] = []
        self.unused_tiles: list[str] = []
        self.lost: list[Token] = []  # face-down tokens removed unseen (with their tiles)
        self.batches = 0
        self.tokens_placed = 0
        self.tokens_gone = 0
        self.keys_found = 0
        self.rage = False
        self.round = 0
        self.decision: dict[str, Any] = {}
        self.steps: list[dict[str, Any]] = []
        self.commits: dict[int, str] = {}
        self.winner = ""  # "" | wizard | heroes | draw
        self.end = ""
        self.stats: dict[str, int] = {
            "combats": 0, "combats_won": 0, "traps_sprung": 0, "deaths": 0, "tiles_removed": 0,
            "cards_played": 0, "loot_drawn": 0, "tower_attempts": 0,
        }
        self._events: list[Event] = []

    # -- protocol basics ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.params.players

    @property
    def current_player(self) -> int:
        if self.winner or not self.decision:
            return TERMINAL
        return int(self.decision["seat"])

    @property
    def is_terminal(self) -> bool:
        return bool(self.winner)

    def returns(self) -> list[float]:
        n = self.num_players
        if self.winner == "wizard":
            return [1.0] + [0.0] * (n - 1)
        if self.winner == "heroes":
            return [0.0] + [1.0] * (n - 1)
        if self.winner == "draw":
            return [0.5] * n
        return [0.0] * n

    def metrics(self) -> dict[str, float | int | str | bool]:
        out: dict[str, float | int | str | bool] = {
            "winner": self.winner or "none", "end": self.end or "running", "rounds": self.round,
            "keys_found": self.keys_found, "heroes_alive": sum(h.alive for h in self.heroes),
            "mana_wheel": self.wheel,
        }
        out.update(self.stats)
        return out

    def legal_actions(self) -> list[Any]:
        if self.is_terminal:
            return []
        from playtable.games.wizard.rules import legal

        return legal(self)

    def parse_action(self, text: str) -> Any:
        return parse(text)

    def apply(self, action: Any) -> list[Event]:
        if isinstance(action, str):
            action = parse(action)
        if not isinstance(action, Act):
            raise IllegalAction(f"not an action of this game: {action!r}")
        self.require_legal(action)
        from playtable.games.wizard.rules import perform

        self._events = []
        perform(self, action)
        events, self._events = self._events, []
        return events

    def observation(self, seat: int) -> dict[str, Any]:
        from playtable.games.wizard.observe import observation

        return observation(self, seat)

    def public_observation(self) -> dict[str, Any]:
        from playtable.games.wizard.observe import public_observation

        return public_observation(self)

    def waiting_for(self) -> list[int]:
        from playtable.games.wizard.observe import waiting_for

        return waiting_for(self)

    def determinize(self, seat: int, rng: Chance) -> WizardState:
        from playtable.games.wizard.observe import determinize

        return determinize(self, seat, rng)

    # -- helpers used by the rules -------------------------------------------------------------
    def say(self, kind: str, text: str, **data: Any) -> None:
        self._events.append(Event(kind, text, data))

    def hero(self, seat: int) -> Hero:
        return self.heroes[seat - 1]

    def living(self) -> list[Hero]:
        return [h for h in self.heroes if h.alive]

    def heroes_at(self, sq: Square) -> list[Hero]:
        return [h for h in self.heroes if h.alive and h.pos == sq]

    def open_square(self, sq: Square) -> bool:
        """On the board, not removed and not the tower."""
        return (
            0 <= sq[0] < self.size and 0 <= sq[1] < self.size
            and sq != self.tower and not self.cells[sq].removed
        )

    def entrance_square(self) -> Square:
        return board.step(self.tower, self.entrance)

    def party_keys(self) -> int:
        return sum(h.keys for h in self.heroes if h.alive)

    def door_open(self) -> bool:
        return self.party_keys() >= self.params.keys_needed

    def draw_wizard(self, n: int) -> int:
        """The wizard draws up to n cards (reshuffling the discard pile when the deck is out)."""
        drawn = 0
        for _ in range(n):
            card = self._draw(self.deck, self.discard, "wizard_draw")
            if card is None:
                break
            self.hand.append(card)
            drawn += 1
        return drawn

    def draw_loot(self) -> str | None:
        card = self._draw(self.loot_deck, self.loot_discard, "loot_draw")
        if card is not None:
            self.stats["loot_drawn"] += 1
        return card

    def _draw(self, deck: list[str], discard: list[str], queue: str) -> str | None:
        if not deck and discard:
            deck.extend(discard)
            discard.clear()
            self.chance.shuffle(deck)
            self.say("reshuffle", f"The {'loot' if queue == 'loot_draw' else 'wizard'} deck is "
                     "reshuffled from its discard pile.", deck=queue.split("_")[0])
        if not deck:
            return None
        rigged = self.chance.take_rigged(queue)
        if rigged is not None:
            for i, card in enumerate(deck):
                if card == rigged or card.rsplit(".", 1)[0] == rigged:
                    return deck.pop(i)
            raise BadPosition(f"rigged {queue} '{rigged}' is not in the deck")
        return deck.pop()

    def damage(self, h: Hero, amount: int, where: Square, why: str) -> None:
        if amount <= 0 or not h.alive:
            return
        h.hp -= amount
        self.say("damage", f"Hero {h.seat} takes {amount} damage ({why}); {max(h.hp, 0)} hp left.",
                 hero=h.seat, amount=amount, hp=max(h.hp, 0))
        if h.hp <= 0:
            h.hp = 0
            h.alive = False
            drop = where if where != self.tower else (h.prev or h.pos)
            cell = self.cells[drop]
            cell.items.extend(h.items)
            cell.keys += h.keys
            dropped, keys = len(h.items), h.keys
            h.items, h.keys = [], 0
            self.stats["deaths"] += 1
            self.say("death", f"Hero {h.seat} dies{' in the tower' if where == self.tower else ''}"
                     f", dropping {dropped} item(s) and {keys} key(s) on {board.name(drop)}.",
                     hero=h.seat, square=board.name(drop))
            if not self.living():
                self.finish("wizard", "heroes_dead", "All heroes are dead: the wizard wins.")

    def finish(self, winner: str, end: str, text: str) -> None:
        if self.winner:
            return
        self.winner, self.end = winner, end
        self.decision = {}
        self.steps = []
        self.say("game_over", text, winner=winner, end=end)

    def equipped(self, h: Hero) -> list[str]:
        """The items a hero has equipped: the best 2 swords and the best pair of boots."""
        swords = sorted((c for c in h.items if self.content.lcard(c).slot == "sword"),
                        key=lambda c: -self.content.lcard(c).combat)[:2]
        boots = sorted((c for c in h.items if self.content.lcard(c).slot == "boots"),
                       key=lambda c: -self.content.lcard(c).save)[:1]
        return swords + boots

    def combat_bonus(self, h: Hero) -> int:
        return sum(self.content.lcard(c).combat for c in self.equipped(h))

    def save_bonus(self, h: Hero) -> int:
        return sum(self.content.lcard(c).save for c in self.equipped(h))

    def token_count(self) -> int:
        return sum(len(c.tokens) for c in self.cells.values())

    # -- copies and persistence ----------------------------------------------------------------
    def clone(self) -> WizardState:
        return state_from_json(self.to_json())

    def to_json(self) -> dict[str, Any]:
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
            "decision": _copy(self.decision), "steps": _copy(self.steps),
            "commits": {str(k): v for k, v in self.commits.items()},
            "winner": self.winner, "end": self.end, "stats": dict(self.stats),
        }


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


def _token(raw: Any) -> Token:
    kind, up, batch = raw
    if kind not in (*MONSTERS, "trap", "blank") or not isinstance(up, bool) or not isinstance(batch, int):
        raise BadPosition(f"bad token {raw!r}")
    return Token(kind, up, batch)


def state_from_json(data: Any) -> WizardState:
    """Read `WizardState.to_json()` output; raises BadPosition naming the problem."""
    from playtable.core.errors import BadParameter
    from playtable.core.params import params_from_dict

    if not isinstance(data, dict):
        raise BadPosition("a wizard position must be a JSON object")
    for key in ("params", "chance", "cells", "heroes", "decision"):
        if key not in data:
            raise BadPosition(f"a wizard position needs '{key}'")
    try:
        params: WizardParams = params_from_dict(WizardParams, data["params"])
    except BadParameter as err:
        raise BadPosition(f"bad params: {err}") from None
    st = WizardState(params, Chance.from_json(data["chance"]))
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
        for key in ("hand", "deck", "discard", "out", "offered", "loot_deck", "loot_discard",
                    "unused_tiles"):
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
        st.decision = _copy(data["decision"])
        st.steps = _copy(data["steps"])
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

