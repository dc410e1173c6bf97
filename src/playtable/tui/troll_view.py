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

QUICK_REFERENCE = [
    "Goal: play through the whole deck of awakening and end with every brick "
    "dormant (face down) and the bridge still standing.",
    "Each turn a card is played: its colour picks the row, a die picks the brick, which awakens "
    "(turns face up). Cards set aside last turn are played first, one by one, instead of a draw.",
    "A brick awakened twice flies away; if the troll stands on it, you lose.",
    "You then take 2 actions. Move (arrow keys): one step onto a brick, never onto a brick "
    "already stood on this turn.",
    "Stomp (s): the awake brick under the troll goes dormant.",
    "Pick up (p + arrow): take an awake brick next to you (not a heart). Carry one at a time.",
    "Use it (u + arrow): ♣ club an awake brick next to you dormant; ♦ throw at the first awake "
    "brick in a line; ♠ shovel an awake brick next to you into your hands, dormant. Used cards "
    "are set aside. A♣ is THE CLUB: kept forever, but you can pick up nothing else.",
    "Lay down (l + arrow): put a carried dormant brick in a slot next to you.",
    "Then awake bricks flee one step towards the nearer bank the troll does not block (arrows "
    "on the bricks); off the end they escape and come back as set-aside cards.",
    "The bridge collapses (a loss) if the banks are no longer joined by touching bricks or both "
    "end slots at one bank are empty. Score: cards left in the deck (lower is better). "
    "A perfect win keeps a brick in every slot.",
]


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
    """Where an awake brick will step in the flight phase, as a reading aid only: towards the
    nearer bank (positions 1-3 left, 4-6 right) unless the troll stands between it and that bank
    in the same row (seed §6.2/§7.1). The game decides; this arrow just previews it."""
    troll = slot_of(obs["troll"])
    if slot == troll or not stack_at(obs, slot)["awake"]:
        return None
    row, pos = slot
    step = -1 if pos <= 3 else 1
    if troll[0] == row and (troll[1] - pos) * step > 0:
        step = -step
    return "left" if step < 0 else "right"


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
    deck.append(" cards · next: ")
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


def status_text(obs: Mapping[str, Any], seed: int) -> Text:
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
    out.append(f" · seed {seed}")
    return out


# -- actions in words ---------------------------------------------------------------------------
USE_VERBS = ("club", "throw", "shovel", "wake")
VERB_KEY = {"move": "", "stomp": "s", "pick": "p", "lay": "l", "wait": "w",
            "club": "c", "throw": "t", "shovel": "h", "wake": "k"}


def split_action(text: str) -> tuple[str, str, tuple[str, int] | None]:
    """'pick up' -> ('pick', 'up', None); 'lay upper 3' -> ('lay', '', ('upper', 3))."""
    parts = text.split()
    if parts[0] == "lay":
        return "lay", "", (parts[1], int(parts[2]))
    return parts[0], parts[1] if len(parts) > 1 else "", None


def throw_target(obs: Mapping[str, Any], direction: str) -> tuple[str, int] | None:
    slot: tuple[str, int] | None = neighbour(slot_of(obs["troll"]), direction)
    while slot is not None:
        if stack_at(obs, slot)["awake"]:
            return slot
        slot = neighbour(slot, direction)
    return None


def carried_card(obs: Mapping[str, Any], suit: str) -> str:
    for item in obs.get("carried", []):
        if str(item["card"]).endswith(suit):
            return str(item["card"])
    return "?" + suit


def _slot_name(slot: tuple[str, int] | None) -> str:
    return f"{slot[0]} {slot[1]}" if slot else "nowhere"


def describe(obs: Mapping[str, Any], text: str) -> str:
    """An action in a few plain words (the key column already shows its direction)."""
    verb, direction, lay_slot = split_action(text)
    troll = slot_of(obs["troll"])
    target = neighbour(troll, direction) if direction else None
    top = card_face(top_card(obs, target) or "?S") if target else "?"
    if verb == "move":
        return f"move to {_slot_name(target)}"
    if verb == "stomp":
        return f"stomp {card_face(top_card(obs, troll) or '?S')} flat"
    if verb == "pick":
        return f"pick up {top}"
    if verb == "club":
        return f"club {top} with {card_face(carried_card(obs, 'C'))}"
    if verb == "throw":
        hit = throw_target(obs, direction)
        aim = card_face(top_card(obs, hit) or "?S") if hit else "nothing"
        return f"throw {card_face(carried_card(obs, 'D'))} at {aim}"
    if verb == "shovel":
        return f"shovel up {top} with {card_face(carried_card(obs, 'S'))}"
    if verb == "wake":
        return f"wake brick with {card_face(carried_card(obs, 'S'))}"
    if verb == "lay":
        return f"lay brick at {_slot_name(lay_slot)}"
    return "wait (nothing else to do)"


def key_for(obs: Mapping[str, Any], text: str, legal: Sequence[str]) -> str:
    """The keys that play an action, as shown in the list: '←', 's', 'p →', 'u ↓', 'l ↑', and
    for a far slot (draft rules) 'l 3', or 'l 3↓' when both rows of column 3 are possible."""
    verb, direction, lay_slot = split_action(text)
    if verb == "move":
        return ARROW[direction]
    if verb in USE_VERBS:
        use_verbs = {split_action(t)[0] for t in legal} & set(USE_VERBS)
        letter = "u" if len(use_verbs) == 1 else VERB_KEY[verb]
        return f"{letter} {ARROW[direction]}"
    if verb == "lay" and lay_slot is not None:
        d = direction_to(slot_of(obs["troll"]), lay_slot)
        if d:
            return f"l {ARROW[d]}"
        same_column = [t for t in legal if t.startswith("lay ") and t.endswith(f" {lay_slot[1]}")]
        row_key = ("↑" if lay_slot[0] == "upper" else "↓") if len(same_column) > 1 else ""
        return f"l {lay_slot[1]}{row_key}"
    if direction:
        return f"{VERB_KEY[verb]} {ARROW[direction]}"
    return VERB_KEY[verb]


def action_line(obs: Mapping[str, Any], text: str, legal: Sequence[str]) -> Text:
    out = Text.assemble((f"{key_for(obs, text, legal):<3} ", "bold #f0a020"))
    out.append_text(colour_cards(describe(obs, text)))
    return out


def end_title(obs: Mapping[str, Any]) -> tuple[str, str]:
    """The headline and its style for the end screen."""
    if obs.get("outcome") == "win":
        if obs.get("perfect"):
            return "PERFECT WIN!", "bold #2e9e44"
        return "YOU WIN!", "bold #2e9e44"
    return "THE BRIDGE WINS", "bold #d0312d"


END_REASONS = {
    "collapse": "The bridge collapsed.",
    "double_awakening": "The brick under the troll awoke twice and flew away with the troll.",
    "fell": "The troll fell with its unsupported brick.",
    "turn_limit": "The turn limit was reached.",
    "win": "The deck is spent and every brick on the bridge is dormant.",
    "perfect": "The deck is spent, every brick is dormant and no slot is empty.",
}
