"""The position of a game of Angry Troll versus Magic Bridge (seed 000 §6-§7.1): every field
(bridge stacks, cards seen and face up, deck, flight stacks, the troll and what it carries, the
turn and the outcome), the queries that only read them, and its copies.

This is the bottom of the troll package: the JSON form and the views (`serialize`, `views`) read
a `TrollPosition`, and the rules (`rules.TrollState`) extend it, so none of them import each
other in a circle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from playtable.core.chance import Chance
from playtable.core.protocol import TERMINAL, Event, State
from playtable.games.troll import bridge as geo
from playtable.games.troll.actions import TrollAction, parse_troll_action
from playtable.games.troll.params import TrollParams


class TrollPosition(State):
    """Every field of a troll game and the queries that only read them; the rules
    (`rules.TrollState`) build on it."""

    game_id = "troll"

    def __init__(self, params: TrollParams, chance: Chance):
        self.params = params
        self.chance = chance
        self.stacks: list[list[int]] = [[] for _ in range(geo.SLOTS)]
        self.face_up: set[int] = set()  # face-up cards on the bridge or in the troll's hands
        self.seen: set[int] = set()  # cards the player has seen (remembered when face down)
        self.deck: list[int] = []  # the deck of awakening; top card last
        self.set_aside: list[int] = []  # waiting for the next awakening phase, in order
        self.played: tuple[list[int], list[int]] = ([], [])  # lower and upper flight stacks
        self.lower_red = True
        self.troll = 0
        self.carried: list[int] = []
        self.visited: set[int] = set()
        self.actions_left = 2
        self.turn = 0
        self.outcome: str | None = None  # "win" or "loss"
        self.end_reason = ""
        self.stats = {"awakenings": 0, "double_awakenings": 0, "fled": 0, "items_used": 0,
                      "stomps": 0, "club_acquired": 0}
        self.setup_events: Sequence[Event] = []
        self._legal: list[TrollAction] | None = None
        self.hold_next_turn = False  # bots' previews stop before the next awakening is drawn

    # -- protocol: turn and actions ----------------------------------------------------------
    def clone(self, within_turn: bool = False) -> Self:
        """An independent copy. `within_turn=True` is a lighter copy for searching the troll's
        own actions and the flight phase of the final rules, which never touch the random stream,
        the deck, the seen cards or the played stacks: those are shared with this state, so the
        copy must not go on to an awakening phase (hold it with `hold_next_turn`)."""
        other = type(self).__new__(type(self))
        other.params = self.params
        other.stacks = list(map(list, self.stacks))
        other.face_up = set(self.face_up)
        if within_turn:
            other.chance, other.seen = self.chance, self.seen
            other.deck, other.played = self.deck, self.played
        else:
            other.chance = self.chance.clone()
            other.seen = set(self.seen)
            other.deck = list(self.deck)
            other.played = (list(self.played[0]), list(self.played[1]))
        other.set_aside = list(self.set_aside)
        other.lower_red = self.lower_red
        other.troll = self.troll
        other.carried = list(self.carried)
        other.visited = set(self.visited)
        other.actions_left = self.actions_left
        other.turn = self.turn
        other.outcome = self.outcome
        other.end_reason = self.end_reason
        other.stats = dict(self.stats)
        other.setup_events = self.setup_events
        other._legal = self._legal
        other.hold_next_turn = self.hold_next_turn
        return other

    @property
    def num_players(self) -> int:
        return 1

    @property
    def current_player(self) -> int:
        return TERMINAL if self.outcome else 0

    @property
    def is_terminal(self) -> bool:
        return self.outcome is not None

    def returns(self) -> list[float]:
        return [1.0 if self.outcome == "win" else 0.0]

    @property
    def perfect(self) -> bool:
        return self.outcome == "win" and all(self.stacks)

    @property
    def score(self) -> int:
        """Cards left in the deck of awakening (§7.1 "Your score"); lower is better."""
        return len(self.deck)

    def metrics(self) -> dict[str, float | int | str | bool]:
        return {"won": self.outcome == "win", "perfect": self.perfect, "score": self.score,
                "turns": self.turn, "end_reason": self.end_reason, **self.stats}

    def parse_action(self, text: str) -> TrollAction:
        return parse_troll_action(text)
