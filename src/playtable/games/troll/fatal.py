"""Warnings before a troll action that loses on the spot, or leaves the troll to be thrown off
by the next awakening (RULES.md "Warnings before a fatal action"), so that a front end can ask
the player to confirm. `TrollState.action_warning` calls `action_warning` here.

Only the turn's last action can end the game (the bridge is checked after the flight phase,
§7.1 "Brick flight phase", interpretation I7), so the action is tried on a copy held before the
next awakening (`hold_next_turn`): the flight, the draft's falling and the collapse check are
certain, and nothing of the deck or the dice is looked at. The words name only what the player
can see: the reason comes from the bridge's shape, never from an event naming a hidden card.
"""

from __future__ import annotations

from typing import Any

from playtable.games.troll import bridge as geo
from playtable.games.troll.cards import DECK, is_red
from playtable.games.troll.state import TrollPosition


def action_warning(state: TrollPosition, action: Any) -> str | None:
    """Plain words when `action` (legal now) ends the turn with a lost game, or with the troll on
    an awake brick that the next awakening may fly away with; None otherwise."""
    if state.outcome or state.actions_left != 1 or action not in state.legal_actions():
        return None
    # The lighter copy the search's turn endings use (`search.turn_ends`): held before the next
    # awakening, this turn's end never touches what it shares (the draft's spade reveals a card
    # mid-turn, so its copy is whole).
    after = state.clone(state.params.rules != "draft")
    after.hold_next_turn = True
    after.apply(action)
    if after.outcome == "loss":
        return _loss_words(after)
    if after.outcome or not after.stacks[after.troll]:
        return None
    if after.stacks[after.troll][-1] not in after.face_up:
        return None
    chance = double_awakening_chance(after)
    if chance <= 0:
        return None
    return (f"This ends the turn with the troll on an awake brick ({geo.slot_name(after.troll)}): "
            f"if the next awakening hits it (about {_odds(chance)}), it flies away with the troll "
            "and the game is lost.")


def _loss_words(after: TrollPosition) -> str:
    if after.end_reason == "collapse":
        reason = geo.collapse_reason(after.stacks) or "the bricks no longer connect the two banks"
        return (f"This ends the turn, and after the bricks flee the bridge collapses ({reason}): "
                "the game is lost.")
    if after.end_reason == "fell":
        return ("This ends the turn, and the troll's unsupported stack falls off the bridge "
                "(draft rules): the game is lost.")
    if after.end_reason == "turn_limit":
        return f"This ends turn {after.turn}, the last the turn limit allows: the game ends as a loss."
    return "This action loses the game."


def double_awakening_chance(state: TrollPosition) -> float:
    """The chance that the next awakening phase lands on the troll's slot (§7.1 "Brick awakening
    phase", "No brick there..."), as the player can judge it: each card set aside goes to the row
    of its known colour; a card drawn instead has the colour odds of the cards never seen; the die
    is even, empty positions redirect. Cards played one after another are taken as independent
    (the bridge barely changes between them), so this is an estimate for several cards."""
    row, column_faces = state.troll // geo.COLUMNS, 0
    for column in range(geo.COLUMNS):
        column_faces += geo.awakening_target(state.stacks, row, column) == state.troll
    on_position = column_faces / 6
    lower_colour_is_red = state.lower_red
    if state.set_aside:
        row_odds = [float((row == 0) == (is_red(card) == lower_colour_is_red)) for card in state.set_aside]
    elif state.deck:
        unseen = [card for card in DECK if card not in state.seen]
        red = sum(map(is_red, unseen)) / len(unseen) if unseen else 0.5
        lower = red if lower_colour_is_red else 1 - red
        row_odds = [lower if row == 0 else 1 - lower]
    else:
        return 0.0
    safe = 1.0
    for odds in row_odds:
        safe *= 1 - odds * on_position
    return 1 - safe


def _odds(chance: float) -> str:
    """'1 in 8' for small chances, '45%' for larger ones."""
    if chance >= 0.25:
        return f"{round(chance * 100)}%"
    return f"1 in {max(2, round(1 / chance))}"
