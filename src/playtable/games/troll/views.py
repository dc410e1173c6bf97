"""What a spectator of a troll game sees, why a game ended in plain words, and which of the
troll's actions may be taken back (RULES.md, "Front ends": interpretations)."""

from __future__ import annotations

from typing import Any

from playtable.games.troll import bridge as geo
from playtable.games.troll.cards import card_pretty
from playtable.games.troll.serialize import observation
from playtable.games.troll.state import TrollPosition

_WIN_TEXT = {
    "perfect": "A perfect win: the deck of awakening is spent, every brick is dormant and every "
               "slot of the bridge still has a brick.",
    "win": "The troll wins: the deck of awakening is spent and every brick on the bridge is dormant.",
}
_LOSS_TEXT = {
    "fell": "The troll fell into the river with its unsupported brick.",
    "double_awakening": "The troll's brick awoke a second time and flew away, and the troll with it.",
}


def public_observation(state: TrollPosition) -> dict[str, Any]:
    """A spectator stands behind the player: every card the player has seen was shown face up
    on the table at some moment, so the spectator sees what the player sees, and nothing more
    (never the deck order, an unseen face-down brick, or a future die)."""
    return observation(state)


def hidden_parts(state: TrollPosition) -> list[dict[str, Any]]:
    """What stayed face down at the end (RULES.md F4): each brick the player never saw, slot by
    slot from the bottom of its stack, and the deck of awakening's cards left, top first."""
    bricks = []
    for slot, stack in enumerate(state.stacks):
        unseen = [card_pretty(c) for c in stack if c not in state.seen]
        if unseen:
            bricks.append(f"{geo.slot_name(slot)}: {', '.join(unseen)} (bottom to top)")
    deck = [card_pretty(c) for c in reversed(state.deck)]
    return [
        {"heading": "Bricks never turned up", "lines": bricks or ["none: you saw every brick"]},
        {"heading": "The deck of awakening, top first", "lines": [", ".join(deck)] if deck
         else ["empty"]},
    ]


def end_text(state: TrollPosition) -> str | None:
    if state.outcome is None:
        return None
    score = (f" Score: {state.score} card{'' if state.score == 1 else 's'} left in the deck of "
             "awakening (lower is better).")
    reason = state.end_reason
    if reason in _WIN_TEXT:
        return _WIN_TEXT[reason] + score
    if reason == "collapse":
        why = geo.collapse_reason(state.stacks) or "it lost its support"
        return f"The bridge collapsed: {why}." + score
    if reason == "turn_limit":
        return f"The turn limit ({state.params.turn_limit} turns) was reached." + score
    return _LOSS_TEXT.get(reason, "The troll lost.") + score


def can_take_back(state: TrollPosition, before: TrollPosition) -> bool:
    """Only within the troll's own actions of a turn: the same turn, no card drawn or die rolled
    (the random stream and the deck untouched), no card seen for the first time, and not the
    end of the game. An action that ends the turn runs the flight and awakening phases, which
    draw, so it can never be taken back."""
    return (
        state.outcome is None
        and state.turn == before.turn
        and state.chance.counter == before.chance.counter
        and state.chance.rigged == before.chance.rigged
        and len(state.deck) == len(before.deck)
        and state.seen == before.seen
    )
