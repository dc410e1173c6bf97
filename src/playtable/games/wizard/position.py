"""The position of a game of The Wizard's Labyrinth: its data and the helpers the rules share.

This is the bottom of the wizard package. The rules (`setup.py`, `wizard_turn.py`,
`hero_turn.py`, dispatched by `rules.py`), what each seat may see (`observe.py`) and the JSON
form (`serialize.py`) all read and change a `WizardPosition`; `state.py`, at the top, makes it
the protocol's `WizardState` by delegating to them. A position advances through *decisions* (one
seat at a time) and a queue of automatic *steps* (flipping tokens, combats, the loot phase) run
between them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition
from playtable.core.protocol import TERMINAL, Event, State
from playtable.core.words import plural
from playtable.games.wizard import board
from playtable.games.wizard.actions import parse
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


class WizardPosition(State):
    """Every field of a wizard game and the helpers the rules share; `state.WizardState` adds
    the protocol's moves, views and copies."""

    game_id = "wizard"

    def __init__(self, params: WizardParams, chance: Chance):
        self.params = params
        self.content: Content = load_content(params.content, params.count_overrides())
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

    def parse_action(self, text: str) -> Any:
        return parse(text)

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
                     f", dropping {plural(dropped, 'item')} and {plural(keys, 'key')} on {board.name(drop)}.",
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
