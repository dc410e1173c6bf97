"""Pictures and words for the troll terminal app, made from the game's observation only.

Everything here reads the JSON view `state.observation(0)` and action texts; nothing imports the
game package. Cards arrive as texts like "7H", "10S", "AC" and are shown as "7♥" in red or black.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

COLUMNS = 6
ROWS = ("upper", "lower")  # top to bottom on the screen; "up" means towards the upper row
SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
ARROW = {"left": "←", "right": "→", "up": "↑", "down": "↓"}
RED = "bold #e8504a"  # red suits on the dark screen
BLACK = "bold #f2f2f2"  # black suits on the dark screen are drawn light, so they stay readable
RED_ON_LIGHT = "bold #c0201a"  # on an awake (light yellow) brick
BLACK_ON_LIGHT = "bold #1a1a1a"
AWAKE_BG = "on #ffd866"
BACK = "#8fb3e0 on #23395d"
RIVER = "#4a90d9"
BANK = "#5c8a3a"

CARD_IN_TEXT = re.compile(r"(10|[2-9AJQK])([♥♦♣♠])")

def card_style(card: str, on_light: bool = False) -> str:
    if card[-1] in "HD":
        return RED_ON_LIGHT if on_light else RED
    return BLACK_ON_LIGHT if on_light else BLACK


def card_face(card: str) -> str:
    """'7H' -> '7♥'."""
    return card[:-1] + SYMBOL[card[-1]]


def card_text(card: str) -> Text:
    return Text(card_face(card), style=card_style(card))


def cards_text(cards: Sequence[str], sep: str = " ") -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(card))
    return out


def colour_cards(line: str, base: str = "") -> Text:
    """A log line with every card in it coloured red or black."""
    out = Text(style=base)
    pos = 0
    for match in CARD_IN_TEXT.finditer(line):
        out.append(line[pos:match.start()])
        out.append(match.group(0), style=RED if match.group(2) in "♥♦" else BLACK)
        pos = match.end()
    out.append(line[pos:])
    return out


def row_colour(obs: Mapping[str, Any], row: str) -> str:
    lower = str(obs["lower_colour"])
    if row == "lower":
        return lower
    return "black" if lower == "red" else "red"


def suits_of(colour: str) -> str:
    return "♥♦" if colour == "red" else "♣♠"


# -- geometry, as the player sees it -------------------------------------------------------------
def slot_of(place: Mapping[str, Any]) -> tuple[str, int]:
    return str(place["row"]), int(place["position"])


def neighbour(slot: tuple[str, int], direction: str) -> tuple[str, int] | None:
    row, pos = slot
    if direction == "left":
        return (row, pos - 1) if pos > 1 else None
    if direction == "right":
        return (row, pos + 1) if pos < COLUMNS else None
    if direction == "up":
        return ("upper", pos) if row == "lower" else None
    return ("lower", pos) if row == "upper" else None


def direction_to(src: tuple[str, int], dst: tuple[str, int]) -> str | None:
    for d in ARROW:
        if neighbour(src, d) == dst:
            return d
    return None


def stack_at(obs: Mapping[str, Any], slot: tuple[str, int]) -> Mapping[str, Any]:
    stack: Mapping[str, Any] = obs["bridge"][slot[0]][slot[1] - 1]
    return stack


def top_card(obs: Mapping[str, Any], slot: tuple[str, int] | None) -> str | None:
    if slot is None:
        return None
    cards = stack_at(obs, slot)["cards"]
    return str(cards[-1]) if cards and cards[-1] is not None else None


def flight_hint(obs: Mapping[str, Any], slot: tuple[str, int]) -> str | None:
    """Where an awake brick will step in the flight phase ("left", "right" or None), as the game
    reports it in the observation."""
    flees = stack_at(obs, slot).get("flees")
    return str(flees) if flees else None


# -- the bridge -----------------------------------------------------------------------------------
CELL = 7


def _cell(obs: Mapping[str, Any], slot: tuple[str, int]) -> tuple[Text, Text, Text]:
    """Three lines, CELL wide: a border with the stack's height, the top card, a border that
    names the troll."""
    stack = stack_at(obs, slot)
    troll = slot_of(obs["troll"]) == slot
    visited = [slot_of(v) for v in obs.get("visited", [])]
    height = int(stack["height"])
    frame = "bold #f0a020" if troll else ("#6a6a6a" if slot in visited else "#b0b0b0")
    if height == 0:
        return (Text(" " * CELL), Text(" ~~~~~ ", style=RIVER), Text(" empty ", style="dim"))
    h = str(height)
    if troll:
        top = Text("╔" + h.center(5, "═") + "╗", style=frame)
        bottom = Text("╚TROLL╝", style=frame)
        side = "║"
    else:
        top = Text("┌" + h.center(5, "─") + "┐", style=frame)
        bottom = Text("└─────┘", style=frame)
        side = "│"
    card = stack["cards"][-1]
    middle = Text()
    middle.append(side, style=frame)
    if stack["awake"] and card is not None:
        flee = flight_hint(obs, slot)
        face = card_face(card)
        left = "←" if flee == "left" else " "
        right = "→" if flee == "right" else " "
        inner = (left + face.center(3) + right) if len(face) <= 3 else (left + face + right)[:5]
        middle.append(inner[:5].ljust(5), style=f"{card_style(card, on_light=True)} {AWAKE_BG}")
    elif card is not None:
        middle.append(f" {card_face(card):^3} ", style=f"italic {BACK}")
    else:
        middle.append("▒▒▒▒▒", style=BACK)
    middle.append(side, style=frame)
    return top, middle, bottom


def render_bridge(obs: Mapping[str, Any]) -> Text:
    """The bridge: two rows of six stacks between the banks, upper row on top."""
    lines: list[Text] = []
    header = Text(" " * 8)
    for pos in range(1, COLUMNS + 1):
        header.append(str(pos).center(CELL) + " ", style="dim")
    lines.append(header)
    for row in ROWS:
        colour = row_colour(obs, row)
        margins = [
            Text.assemble((f"{row:<6}", "bold")),
            Text.assemble((f" {suits_of(colour)}   ", RED if colour == "red" else BLACK)),
            Text(" " * 6),
        ]
        cells = [_cell(obs, (row, pos)) for pos in range(1, COLUMNS + 1)]
        for i in range(3):
            line = margins[i].copy()
            line.append("█ ", style=BANK)
            for cell in cells:
                line.append_text(cell[i])
                line.append(" ")
            line.append("█", style=BANK)
            line.rstrip()
            lines.append(line)
    return Text("\n").join(lines)


def carried_text(obs: Mapping[str, Any]) -> Text:
    carried = obs.get("carried", [])
    out = Text("Troll on ", style="")
    out.append(f"{obs['troll']['row']} {obs['troll']['position']}", style="bold #f0a020")
    if not carried:
        out.append(", carrying nothing")
        return out
    out.append(", carrying ")
    for i, item in enumerate(carried):
        card = str(item["card"])
        if i:
            out.append(" and ")
        out.append_text(card_text(card))
        out.append(f" ({item_use(card, bool(item['awake']))})", style="italic")
    return out


def item_use(card: str, awake: bool) -> str:
    if not awake:
        return "a dormant brick: lay it down"
    if card == "AC":
        return "THE CLUB"
    return {"C": "a club", "D": "a diamond to throw", "S": "a spade: a shovel",
            "H": "a heart"}[card[-1]]


def info_text(obs: Mapping[str, Any]) -> Text:
    """The lines under the bridge: the troll and its load, the deck, what waits, the stacks."""
    lines = [carried_text(obs)]
    deck = Text("Deck of awakening: ")
    deck.append(str(obs["deck_count"]), style="bold")
    deck.append(" card · next: " if obs["deck_count"] == 1 else " cards · next: ")
    waiting = list(obs.get("set_aside", []))
    if waiting:
        deck.append_text(cards_text(waiting))
        deck.append(" (set aside)", style="dim")
    else:
        deck.append("draw a card" if obs["deck_count"] else "nothing to play", style="dim")
    lines.append(deck)
    for row in ROWS:
        colour = row_colour(obs, row)
        played = list(obs["flight_stacks"][row])
        line = Text(f"{row.capitalize()} stack ")
        line.append(f"{suits_of(colour)} {colour}", style=RED if colour == "red" else BLACK)
        line.append(f": {len(played)} played", style="")
        if played:
            line.append(", last ")
            line.append_text(cards_text(played[-6:]))
        lines.append(line)
    return Text("\n").join(lines)


def status_text(obs: Mapping[str, Any], origin: str) -> Text:
    """The phase line: turn, the troll's actions left, what comes next, the seed."""
    out = Text()
    out.append(f" Turn {obs['turn']}", style="bold")
    out.append(" · ")
    if obs.get("outcome"):
        out.append("game over", style="bold")
    else:
        left = int(obs["actions_left"])
        out.append("troll's actions ")
        out.append("●" * left + "○" * (2 - left), style="bold #f0a020")
        out.append(f" {left} left, then awake bricks flee")
    out.append(f" · {origin}")
    return out
