"""The Wizard's Labyrinth as a protocol `State`: the position (position.py) with the protocol's
moves, views and copies, each delegated to the module that owns it: the rules (`rules.py`),
what a seat may see (`observe.py`), the JSON form (`serialize.py`) and the hint (`hints.py`).
This is the top of the game package; nothing in it imports this module but the game (`game.py`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from playtable.core.chance import Chance
from playtable.core.errors import IllegalAction
from playtable.core.presentation import Presentation
from playtable.core.protocol import Event
from playtable.games.wizard import hints, observe, rules, serialize
from playtable.games.wizard.actions import Act, parse
from playtable.games.wizard.position import WizardPosition


class WizardState(Presentation, WizardPosition):
    """A wizard game as the protocol sees it."""

    def legal_actions(self) -> list[Any]:
        if self.is_terminal:
            return []
        return rules.legal(self)

    def apply(self, action: Any) -> list[Event]:
        if isinstance(action, str):
            action = parse(action)
        if not isinstance(action, Act):
            raise IllegalAction(f"not an action of this game: {action!r}")
        self.require_legal(action)
        self._shared_keys = None
        self._events = []
        rules.perform(self, action)
        events, self._events = self._events, []
        return events

    def observation(self, seat: int) -> dict[str, Any]:
        return observe.observation(self, seat)

    _shared_keys: dict[bool, tuple[Any, ...]] | None = None
    """`observe.info_key`'s views of this position, kept for its other seats until a move."""

    def info_key(self, seat: int) -> Hashable:
        if self._shared_keys is None:
            self._shared_keys = {}
        return observe.info_key(self, seat, self._shared_keys)

    def public_observation(self) -> dict[str, Any]:
        return observe.public_observation(self)

    def action_for(self, action: str, actor: int | None, seat: int | None) -> str:
        return observe.action_for(action, actor, seat)

    def end_text(self) -> str | None:
        return observe.end_text(self)

    def story_figures(self) -> list[str]:
        """The end screen's figures in words (8 Nov "Keys", "Rage of the wizard!")."""
        st, alive = self.stats, sum(h.alive for h in self.heroes)
        return [f"{self.round} round{'' if self.round == 1 else 's'}; the heroes found {self.keys_found} of "
                f"{self.params.keys_needed} keys; {alive} of {len(self.heroes)} heroes alive at the end.",
                f"{st['combats']} fights, {st['traps_sprung']} traps sprung, {st['cards_played']} "
                f"wizard cards played, {st['tiles_removed']} tiles torn out in the wizard's rage."]

    story_kinds = frozenset({"key_found", "keys_picked", "give_key", "rage", "death", "frost_bolt",
                             "fireball", "whirlwind", "switcheroo", "game_over"})
    """The end screen's key moments (RULES.md section 7, "At the end")."""

    def hint(self) -> tuple[Any, str] | None:
        """The heuristic bot's choice for the player to act and why (RULES.md §9, "Hints")."""
        return hints.hint(self)

    def hidden_parts(self) -> list[dict[str, Any]]:
        return observe.hidden_parts(self)

    def waiting_for(self) -> list[int]:
        return observe.waiting_for(self)

    def determinize(self, seat: int, rng: Chance) -> WizardState:
        return observe.determinize(self, seat, rng)

    # -- copies and persistence ----------------------------------------------------------------
    def clone(self) -> WizardState:
        """An independent copy, field by field: the same position as a JSON round trip
        (`serialize`), without writing and checking it again (ISMCTS copies a position for every
        iteration; the round trip was a quarter of one). Like the round trip it turns the tuples
        in `decision` and `steps` into lists, so a copy of a copy is the same as a copy."""
        other = WizardState.__new__(WizardState)
        other.__dict__.update(self.__dict__)  # the numbers, flags, texts, params and content
        other.chance = self.chance.clone()
        other.cells = {sq: replace(c, tokens=[replace(t) for t in c.tokens], items=list(c.items))
                       for sq, c in self.cells.items()}
        other.heroes = [replace(h, items=list(h.items)) for h in self.heroes]
        for name in serialize.CARD_LISTS:
            setattr(other, name, list(getattr(self, name)))
        other.lost = [replace(t) for t in self.lost]
        other.decision = serialize.plain_copy(self.decision)
        other.steps = serialize.plain_copy(self.steps)
        other.commits = dict(self.commits)
        other.stats = dict(self.stats)
        other._events = []
        other._shared_keys = None
        return other

    def to_json(self) -> dict[str, Any]:
        return serialize.state_to_json(self)
