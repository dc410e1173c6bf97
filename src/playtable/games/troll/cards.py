"""The 52 playing cards as small integers, with one canonical text form each.

card = suit * 13 + (rank - 1); suits C, D, H, S; ranks A 2..10 J Q K. Text: "AC", "10H", "QS".
"""

from __future__ import annotations

from playtable.core.errors import BadPosition

SUITS = "CDHS"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
DECK = tuple(range(52))

ACE_OF_CLUBS = CLUBS * 13
ACE_OF_DIAMONDS = DIAMONDS * 13

_TEXT = [RANKS[c % 13] + SUITS[c // 13] for c in DECK]
_BY_TEXT = {t: c for c, t in enumerate(_TEXT)}


def suit(card: int) -> int:
    return card // 13


def is_red(card: int) -> bool:
    return card // 13 in (DIAMONDS, HEARTS)


def colour(card: int) -> str:
    return "red" if is_red(card) else "black"


def card_text(card: int) -> str:
    return _TEXT[card]


def card_pretty(card: int) -> str:
    """'7♥' for logs and screens."""
    return RANKS[card % 13] + SYMBOLS[SUITS[card // 13]]


def parse_card(text: object) -> int:
    if not isinstance(text, str) or text.upper() not in _BY_TEXT:
        raise BadPosition(f"{text!r} is not a card (write e.g. AC, 10H, QS)")
    return _BY_TEXT[text.upper()]
