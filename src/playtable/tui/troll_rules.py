"""The rules of the troll game being played, in a player's words: the player rules (HOW_TO_PLAY.md)
with this game's bridge instead of the standard one (the Learning bridge's stacks are 5, 4, 3, 3,
4, 5, not 3, 2, 1, 1, 2, 3: seed 000 §4.1, §6.1), and what differs from the standard rules, said
as the game's variant title and description, or each changed parameter's own description
(`core.params.field_docs`), never `extra_per_slot=2`."""

from __future__ import annotations

import dataclasses
from typing import Any

from playtable.core.params import field_docs, resolve_params
from playtable.core.registry import get_game, player_rules
from playtable.games.troll import TrollParams

CARDS = 52
STANDARD_STACKS = "3, 2, 1, 1, 2, 3 in each row"
STANDARD_DECK = "The other 28 cards"


def stacks_of(params: TrollParams) -> str:
    """'5, 4, 3, 3, 4, 5': every position's stack, left to right (the same in both rows)."""
    return ", ".join(str(h) for h in params.slot_heights())


def deck_size(params: TrollParams) -> int:
    """The cards left for the deck of awakening once both rows are built and the troll holds
    what it starts with (the colour card is the deck's first card)."""
    held = int(params.troll_starts_with_card) + int(params.club_from_start) + int(params.diamond_from_start)
    return CARDS - 2 * sum(params.slot_heights()) - held


def bridge_rules(params: TrollParams) -> str:
    """The player rules with this game's stacks and deck of awakening."""
    text = player_rules("troll")
    standard = TrollParams()
    if params.slot_heights() == standard.slot_heights() and deck_size(params) == deck_size(standard):
        return text
    return (text.replace(STANDARD_STACKS, f"{stacks_of(params)} in each row (the standard rules have "
                                          f"{STANDARD_STACKS.removesuffix(' in each row')})")
            .replace(STANDARD_DECK, f"The other {deck_size(params)} cards"))


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def _name_words(name: str) -> str:
    """A parameter as its description says it ('bricks added to every slot'), without the
    section it cites or the values it lists; its name in words where the description is a list."""
    doc = field_docs(TrollParams).get(name, "")
    said = doc.split(":")[0].split(" (")[0].split(";")[0].strip()
    return said if said and "=" not in said else name.replace("_", " ")


def rules_in_words(params: TrollParams) -> str:
    """What this game's rules are, when not the standard ones: '' for the standard rules, else
    the named variant's title and description, or each changed parameter in words; and the
    bridge's stacks when they differ."""
    game = get_game("troll")
    standard = game.default_params()
    if params == standard:
        return ""
    named = next((name for name in game.variants
                  if resolve_params(game.params_type, game.variants, name) == params), None)
    if named is not None:
        what = game.variant_descriptions.get(named, "").rstrip(".")
        said = f"{game.variant_titles.get(named, named)}. {what}"
    else:
        changed = [f"{_name_words(f.name)}: {_value_words(getattr(params, f.name))}"
                   for f in dataclasses.fields(params)
                   if getattr(params, f.name) != getattr(standard, f.name)]
        said = "changed rules: " + "; ".join(changed)
    if params.slot_heights() != standard.slot_heights():
        said += f". The stacks: {stacks_of(params)} in each row"
    return said
