"""The troll app's words: actions described and keyed, prompts, the quick reference, the end.

Like troll_view, it reads only the observation and the canonical action texts (and, from the
game's public face, which verbs spend an item: the "use" word offers them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from playtable.games.troll import ITEM_VERBS
from playtable.tui.troll_view import (
    ARROW,
    card_face,
    colour_cards,
    direction_to,
    neighbour,
    slot_of,
    stack_at,
    top_card,
)

GROUPS: dict[str, tuple[str, ...]] = {
    "pick": ("pick",), "use": ITEM_VERBS, "club": ("club",), "throw": ("throw",),
    "shovel": ("shovel",), "wake": ("wake",), "lay": ("lay",),
}
PROMPTS = {
    "pick": "Pick up which brick?", "use": "Use your card which way?", "club": "Club which way?",
    "throw": "Throw which way?", "shovel": "Shovel which brick?", "wake": "Wake which brick?",
    "lay": "Lay the brick down where?",
}
NOTHING_TO = {
    "pick": "Nothing to pick up: no awake brick other than a heart is next to the troll"
            " (or your hands are full).",
    "use": "You carry no awake card you can use here.",
    "lay": "You carry no dormant brick to lay down (shovel one up with a spade first).",
    "stomp": "Nothing to stomp: the brick under the troll is not awake.",
    "wait": "You can't wait while something else can be done.",
}
EVENT_STYLE = {
    "awakened": "#e0a000", "flew_away": "bold #d0312d", "fled": "#d0312d", "fled_step": "#c07030",
    "won": "bold #2e9e44", "lost": "bold #d0312d", "no_brick": "dim", "no_awakening": "dim",
}

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
        return f"pick up {top}" + (" (THE CLUB!)" if top == "A♣" else "")
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
    if verb in ITEM_VERBS:
        use_verbs = {split_action(t)[0] for t in legal} & set(ITEM_VERBS)
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
