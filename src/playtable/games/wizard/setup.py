"""Preparation (seed 8 Nov 'Preparation'): the grid, the tower and its entrance, the secret key
tiles, the wizard's opening draw (5, keep 3), the heroes' start corner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from playtable.core.chance import Chance
from playtable.games.wizard import board
from playtable.games.wizard.actions import Act, act
from playtable.games.wizard.board import Square
from playtable.games.wizard.hero_turn import flip_tile, pick_up
from playtable.games.wizard.params import WizardParams
from playtable.games.wizard.position import Cell, Hero, WizardPosition

P = TypeVar("P", bound=WizardPosition)

OPENING_DRAW = 5
OPENING_KEEP = 3


def new_game(params: WizardParams, seed: int, rigged: Mapping[str, list[Any]] | None,
             cls: type[P]) -> P:
    """A new game's position as a `cls` (the protocol's `WizardState`), before its first step."""
    st = cls(params, Chance(seed, 0, {k: list(v) for k, v in (rigged or {}).items()}))
    content = st.content
    st.deck = content.wizard_instances(params.rules)
    st.chance.shuffle(st.deck)
    st.loot_deck = content.loot_instances()
    st.chance.shuffle(st.loot_deck)
    tiles = content.regular_tiles()
    st.chance.shuffle(tiles)
    n = st.size
    choices = board.centre_choices(n)
    for r in range(n):
        for c in range(n):
            st.cells[(r, c)] = Cell(tile="" if [(r, c)] == choices else tiles.pop())
    st.unused_tiles = tiles + content.key_tiles()  # key tiles wait beside the board
    st.heroes = [Hero(seat=s) for s in range(1, params.players)]
    st.wheel = params.mana_start
    st.say("setup", f"A {n}x{n} labyrinth of face-down tiles is laid out.", size=n)
    if len(choices) == 1:
        _place_tower(st, choices[0])
        st.decision = {"kind": "entrance", "seat": 0}
    else:
        st.decision = {"kind": "tower", "seat": 0}
    return st


def _place_tower(st: WizardPosition, sq: Square) -> None:
    cell = st.cells[sq]
    if cell.tile:
        st.unused_tiles.append(cell.tile)
    cell.tile = ""
    cell.flipped = True
    st.tower = sq
    st.say("tower", f"The wizard's tower stands on {board.name(sq)}.", square=board.name(sq))


# -- decisions ------------------------------------------------------------------------------------
def legal_tower(st: WizardPosition) -> list[Act]:
    return [act("tower", board.name(sq)) for sq in board.centre_choices(st.size)]


def do_tower(st: WizardPosition, a: Act) -> None:
    _place_tower(st, board.parse_square(a.args[0], st.size))
    st.decision = {"kind": "entrance", "seat": 0}


def legal_entrance(st: WizardPosition) -> list[Act]:
    return [act("entrance", d) for d in board.DIRS]


def do_entrance(st: WizardPosition, a: Act) -> None:
    st.entrance = a.args[0]
    st.say("entrance", f"The tower's entrance faces {a.args[0]} "
           f"(enter from {board.name(st.entrance_square())}).", direction=a.args[0])
    st.decision = {"kind": "key", "seat": 0, "left": len(st.content.key_tiles())}


def legal_key(st: WizardPosition) -> list[Act]:
    return [act("key", board.name(sq)) for sq, c in sorted(st.cells.items())
            if sq != st.tower and not c.key]


def do_key(st: WizardPosition, a: Act) -> None:
    sq = board.parse_square(a.args[0], st.size)
    cell = st.cells[sq]
    keys = st.content.key_tiles()
    placed = len(keys) - int(st.decision["left"])
    st.unused_tiles.append(cell.tile)
    st.unused_tiles.remove(keys[placed])
    cell.tile = keys[placed]
    cell.key = True
    left = int(st.decision["left"]) - 1
    st.say("key_hidden", "While the heroes close their eyes, the wizard hides a key tile.")
    if left:
        st.decision = {"kind": "key", "seat": 0, "left": left}
        return
    st.offered = []
    for _ in range(OPENING_DRAW):
        card = st._draw(st.deck, st.discard, "wizard_draw")
        if card is not None:
            st.offered.append(card)
    st.say("opening_draw", f"The wizard draws {len(st.offered)} cards.")
    _next_opening(st)


def _next_opening(st: WizardPosition) -> None:
    extra = len(st.offered) - OPENING_KEEP
    if extra > 0:
        st.decision = {"kind": "opening", "seat": 0, "left": extra}
        return
    st.hand.extend(st.offered)
    st.offered = []
    st.chance.shuffle(st.deck)
    st.say("opening_kept", f"The wizard keeps {len(st.hand)} cards and shuffles the rest back.")
    st.decision = {"kind": "start", "seat": 1}


def legal_opening(st: WizardPosition) -> list[Act]:
    return [act("return", k) for k in sorted({c.rsplit(".", 1)[0] for c in st.offered})]


def do_opening(st: WizardPosition, a: Act) -> None:
    card = next(c for c in st.offered if c.rsplit(".", 1)[0] == a.args[0])
    st.offered.remove(card)
    st.deck.append(card)
    st.decision = {}
    _next_opening(st)


def legal_start(st: WizardPosition) -> list[Act]:
    return [act("start", k) for k in board.CORNERS]


def do_start(st: WizardPosition, a: Act) -> None:
    sq = board.corner(st.size, a.args[0])
    st.start = sq
    for h in st.heroes:
        h.pos = sq
    st.say("start", f"The heroes enter the labyrinth at {board.name(sq)}.", square=board.name(sq))
    flip_tile(st, sq)
    pick_up(st, sq)
    st.decision = {}
    st.steps.append({"do": "wizard_turn"})


LEGAL = {"tower": legal_tower, "entrance": legal_entrance, "key": legal_key,
         "opening": legal_opening, "start": legal_start}
PERFORM = {"tower": do_tower, "entrance": do_entrance, "key": do_key,
           "opening": do_opening, "start": do_start}
STEPS: dict[str, Any] = {}
