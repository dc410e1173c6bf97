"""A tiny game with hidden cards and dice, written only to test the lab and the generic agents.

"Pig deck": each seat banks points towards a target within a number of turns. On a turn the
seat to act may `roll` a d6 (a 1 busts: the turn's points are lost and the turn ends), `draw`
the top card of a face-down deck (a 0 busts the same way; the deck order is hidden), or `bank`
(add the turn's points to the score and end the turn; only with points on the table). Each seat
also holds one private bonus card dealt from the deck at the start, added to its score at the
end. Solitaire (players=1): win when score + bonus reaches the target by the last turn. Two
players: the game ends when a seat's banked score reaches the target or every seat has had its
turns; the higher total wins, a tie is a draw (0.5 each).

Hidden information (the deck order, the other seat's bonus card) and chance (dice) make it a
small model of the troll game for the lab's tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from playtable.core.chance import Chance
from playtable.core.errors import BadPosition, IllegalAction
from playtable.core.params import params_from_dict
from playtable.core.protocol import TERMINAL, Event, Game, State, params_as_dict

DECK = (0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7)


@dataclass(frozen=True)
class ToyParams:
    players: int = 1
    target: int = 35
    turns: int = 5

    def validate(self) -> None:
        from playtable.core.errors import BadParameter

        if self.players not in (1, 2):
            raise BadParameter("players must be 1 or 2")


@dataclass(frozen=True)
class ToyAction:
    kind: str

    def __str__(self) -> str:
        return self.kind


ROLL, DRAW, BANK = ToyAction("roll"), ToyAction("draw"), ToyAction("bank")


class ToyState(State):
    game_id: ClassVar[str] = "toy"

    def __init__(self, params: ToyParams, chance: Chance) -> None:
        self.params = params
        self.chance = chance
        self.deck: list[int] = []
        self.bonus: list[int] = []
        self.scores = [0] * params.players
        self.turns_taken = [0] * params.players
        self.seat = 0
        self.pending = 0
        self.drawn: list[int] = []
        self.done = False

    # -- protocol -----------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.params.players

    @property
    def current_player(self) -> int:
        return TERMINAL if self.done else self.seat

    def legal_actions(self) -> list[Any]:
        if self.done:
            return []
        out = [ROLL]
        if self.deck:
            out.append(DRAW)
        if self.pending > 0:
            out.append(BANK)
        return out

    def parse_action(self, text: str) -> Any:
        for action in (ROLL, DRAW, BANK):
            if text.strip() == action.kind:
                return action
        raise IllegalAction(f"'{text}' is not a toy action (roll, draw, bank)")

    def apply(self, action: Any) -> list[Event]:
        self.require_legal(action)
        events: list[Event] = []
        if action == ROLL:
            die = self.chance.roll(6)
            if die == 1:
                events.append(Event("bust", f"rolled a 1: {self.pending} points lost", {"die": 1}))
                self._end_turn(events)
            else:
                self.pending += die
                events.append(Event("roll", f"rolled {die}", {"die": die}))
        elif action == DRAW:
            card = self.deck.pop(0)
            self.drawn.append(card)
            if card == 0:
                events.append(Event("bust", "drew a 0: points lost", {"card": 0}))
                self._end_turn(events)
            else:
                self.pending += card
                events.append(Event("draw", f"drew {card}", {"card": card}))
        else:
            self.scores[self.seat] += self.pending
            events.append(Event("bank", f"banked {self.pending}", {"points": self.pending}))
            self._end_turn(events)
        return events

    def _end_turn(self, events: list[Event]) -> None:
        self.pending = 0
        self.turns_taken[self.seat] += 1
        p = self.params
        reached = p.players == 2 and max(self.scores) >= p.target
        if reached or all(t >= p.turns for t in self.turns_taken):
            self.done = True
        else:
            self.seat = (self.seat + 1) % p.players
        if self.done:
            events.append(Event("game_over", "the game is over"))

    @property
    def is_terminal(self) -> bool:
        return self.done

    def totals(self) -> list[int]:
        return [s + b for s, b in zip(self.scores, self.bonus, strict=True)]

    def returns(self) -> list[float]:
        if not self.done:
            return [0.0] * self.num_players
        totals = self.totals()
        if self.num_players == 1:
            return [1.0 if totals[0] >= self.params.target else 0.0]
        if totals[0] == totals[1]:
            return [0.5, 0.5]
        return [1.0, 0.0] if totals[0] > totals[1] else [0.0, 1.0]

    def metrics(self) -> dict[str, float | int | str | bool]:
        return {"total": self.totals()[0], "turns": max(self.turns_taken), "cards_drawn": len(self.drawn)}

    def observation(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "to_move": self.current_player,
            "scores": list(self.scores),
            "my_bonus": self.bonus[seat],
            "pending": self.pending,
            "turns_taken": list(self.turns_taken),
            "drawn": list(self.drawn),
            "deck_size": len(self.deck),
        }

    def determinize(self, seat: int, rng: Chance) -> ToyState:
        copy = self.clone()
        # Sorted first, so the world drawn depends only on what `seat` knows and on `rng`.
        unseen = sorted(list(self.deck) + [b for i, b in enumerate(self.bonus) if i != seat])
        rng.shuffle(unseen)
        copy.deck = unseen[: len(self.deck)]
        rest = unseen[len(self.deck) :]
        for i in range(self.num_players):
            if i != seat:
                copy.bonus[i] = rest.pop(0)
        copy.chance = Chance(rng.next_u64())
        return copy

    def clone(self) -> ToyState:
        copy = ToyState(self.params, self.chance.clone())
        copy.deck = list(self.deck)
        copy.bonus = list(self.bonus)
        copy.scores = list(self.scores)
        copy.turns_taken = list(self.turns_taken)
        copy.seat = self.seat
        copy.pending = self.pending
        copy.drawn = list(self.drawn)
        copy.done = self.done
        return copy

    def to_json(self) -> dict[str, Any]:
        return {
            "params": params_as_dict(self.params),
            "chance": self.chance.to_json(),
            "deck": list(self.deck),
            "bonus": list(self.bonus),
            "scores": list(self.scores),
            "turns_taken": list(self.turns_taken),
            "seat": self.seat,
            "pending": self.pending,
            "drawn": list(self.drawn),
            "done": self.done,
        }


class ToyGame(Game[ToyParams, ToyState]):
    id: ClassVar[str] = "toy"
    name: ClassVar[str] = "Pig deck (lab test game)"
    params_type: ClassVar[type] = ToyParams
    variants: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "duel": {"players": 2},
        "easy": {"target": 12},
    }

    def num_players(self, params: ToyParams) -> int:
        return params.players

    def new_state(
        self,
        params: ToyParams | None = None,
        seed: int = 0,
        rigged: Mapping[str, list[Any]] | None = None,
    ) -> ToyState:
        params = params or ToyParams()
        state = ToyState(params, Chance(seed, rigged={k: list(v) for k, v in (rigged or {}).items()}))
        deck = list(DECK)
        state.chance.shuffle(deck)
        state.bonus = [deck.pop() for _ in range(params.players)]
        state.deck = deck
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> ToyState:
        try:
            params = params_from_dict(ToyParams, data["params"])
            state = ToyState(params, Chance.from_json(data["chance"]))
            for key in ("deck", "bonus", "scores", "turns_taken", "drawn"):
                setattr(state, key, list(data[key]))
            state.seat = int(data["seat"])
            state.pending = int(data["pending"])
            state.done = bool(data["done"])
        except KeyError as err:
            raise BadPosition(f"missing field {err}") from None
        return state

    def evaluate(self, state: ToyState, seat: int) -> float:
        if state.is_terminal:
            return float(state.returns()[seat])
        target = state.params.target
        mine = state.scores[seat] + state.bonus[seat]
        if state.seat == seat:
            mine += state.pending * 0.8
        if state.num_players == 1:
            left = max(1, state.params.turns - state.turns_taken[0])
            return min(1.0, mine / target) * (0.6 + 0.4 * min(1.0, left / state.params.turns))
        other = state.totals()[1 - seat]
        return min(1.0, max(0.0, 0.5 + (mine - other) / (2 * target)))


GAME = ToyGame()
