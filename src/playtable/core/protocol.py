"""The game protocol every game implements and every front end, bot and lab tool relies on.

It follows OpenSpiel's state API in plain Python (see DESIGN.md):

* `Game` knows its id, its parameters type (a frozen dataclass whose defaults are the seed's
  rules), its named variants, how many seats a configuration has, and makes states.
* `State` is one position: whose turn it is, the legal actions, `apply`, the outcome, what each
  seat may see, copies, determinization, and an exact JSON form (hidden parts and the random
  stream included).
* Actions are small immutable values with one canonical text (`str(a)`), parsed back by
  `State.parse_action`. An illegal or malformed action raises `IllegalAction` and the state is
  unchanged.
* `Event`s say what happened, in data and in plain words.

What a front end shows beyond this (a warning before a losing action, why the game ended, what
stayed hidden, a story's key moments, a throw's motion, a hint) is not the protocol's: a game
that has such things implements the optional `core.presentation.Presentation` as well.

Chance is resolved inside `apply` from the state's own seeded `Chance` stream, so there is no
chance player. Simultaneous moves (the wizard game's heroes) are taken as sequential secret
commits: `current_player` names one seat at a time, and the other seats' observations show only
that a commitment was made until all are revealed. Continuous actions (Star Dice throws) are
parameter records; `sample_actions(rng, k)` offers a finite candidate set to search bots.
"""

from __future__ import annotations

import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from playtable.core.chance import Chance
from playtable.core.claims import DesignClaims
from playtable.core.errors import IllegalAction

TERMINAL = -1
"""`current_player` of a finished game."""


@runtime_checkable
class Action(Hashable, Protocol):
    """Anything immutable whose `str()` is its canonical text form."""

    def __str__(self) -> str: ...


@dataclass(frozen=True)
class Event:
    """Something that happened. `kind` is a stable snake_case name the lab counts; `text` is the
    plain-words line a log shows; `data` holds the JSON-ready details a front end animates."""

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        return cls(str(data["kind"]), str(data["text"]), dict(data.get("data", {})))


P = TypeVar("P")
S = TypeVar("S", bound="State")


class State(ABC):
    """One position of a game. Subclasses keep all their data JSON-serialisable."""

    game_id: ClassVar[str]
    setup_events: Sequence[Event] = ()
    """What happened while the game was set up (before any action); replays start with it."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats this position has."""

    # -- whose turn and what may be done ---------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or TERMINAL."""

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """The current player's legal actions, in a stable order."""

    @abstractmethod
    def parse_action(self, text: str) -> Any:
        """The action whose canonical text is `text`; raises IllegalAction if malformed."""

    @abstractmethod
    def apply(self, action: Any) -> Sequence[Event]:
        """Play `action` for the current player and say what happened. Raises IllegalAction
        (state unchanged) if the action is not legal here. A game may return a sequence that
        builds its events only when read (the troll's engine does), so callers that keep the
        events copy them (`list(...)`, `extend`)."""

    def apply_text(self, text: str) -> Sequence[Event]:
        return self.apply(self.parse_action(text))

    def require_legal(self, action: Any) -> None:
        """Raise IllegalAction unless `action` is legal now; games call this first in `apply`."""
        if self.is_terminal:
            raise IllegalAction(f"the game is over; '{action}' cannot be played")
        if action not in self.legal_actions():
            raise IllegalAction(f"'{action}' is not a legal action now")

    def sample_actions(self, rng: Chance, k: int) -> list[Any]:
        """Up to k candidate actions for search bots. Discrete games sample their legal list
        without replacement; games with continuous actions override this."""
        legal = self.legal_actions()
        if len(legal) <= k:
            return list(legal)
        picked = list(legal)
        rng.shuffle(picked)
        return picked[:k]

    # -- outcome --------------------------------------------------------------------------------
    @property
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """One number per seat; 1 is a win and 0 a loss unless the game says otherwise. Before
        the end, the returns so far (usually zeros)."""

    def metrics(self) -> dict[str, float | int | str | bool]:
        """Game-specific figures the lab records per game (score, turns, how it ended...)."""
        return {}

    # -- information ------------------------------------------------------------------------------
    @abstractmethod
    def observation(self, seat: int) -> dict[str, Any]:
        """JSON-ready view holding only what `seat` may know."""

    def info_key(self, seat: int) -> Hashable:
        """A hashable key that is equal for two states exactly when `observation(seat)` is
        (search agents key information sets by it). The default is the observation as canonical
        JSON text; a game may return something cheaper, such as a tuple of the same facts."""
        return json.dumps(self.observation(seat), sort_keys=True, separators=(",", ":"))

    def events_for(self, events: Sequence[Event], seat: int | None) -> list[Event]:
        """The part of `events` that `seat` may see (None: a spectator, who sees the public part).
        The default shows every event, which is right for games whose events carry nothing
        hidden; games with secrets override this to drop or redact what a seat must not see."""
        return list(events)

    def action_for(self, action: str, actor: int | None, seat: int | None) -> str:
        """The text of `action` (played by `actor`) as `seat` may read it in a log (None: a
        spectator). The default is the text itself; games with secret moves (the wizard hiding
        keys and placing face-down tokens, the heroes' committed moves) return a text that
        says only what that seat may know."""
        return action

    def public_observation(self) -> dict[str, Any]:
        """JSON-ready view holding only what a spectator may know (a web table's watchers).
        Every game implements it; there is no safe default, since only the game knows what is
        hidden."""
        raise NotImplementedError(f"{self.game_id} does not say what a spectator may see")

    def waiting_for(self) -> list[int]:
        """Every seat that must act before the game goes on. One seat (the current player) for
        turn-based games; games with simultaneous secret commits list every seat yet to commit."""
        return [] if self.is_terminal else [self.current_player]

    def can_take_back(self, before: State) -> bool:
        """Whether the action that led from `before` to this state may be undone by the seat that
        played it (`before.current_player`): it drew nothing from chance and revealed nothing
        hidden. The game decides and writes its rule in RULES.md; the default is never."""
        return False

    @abstractmethod
    def determinize(self, seat: int, rng: Chance) -> State:
        """A copy where everything `seat` cannot know (hidden cards, future chance) is resampled
        from `rng`, consistently with what `seat` has seen."""

    # -- copies and persistence -----------------------------------------------------------------
    @abstractmethod
    def clone(self: S) -> S: ...

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state: hidden parts, rigged queues and the random stream included."""


@dataclass(frozen=True)
class VariantGroup:
    """Named variants a menu shows together, apart from the rest (the lobby's New-table form, a
    table's menu): its title, one line saying what they are, and their names in order."""

    title: str
    note: str
    names: tuple[str, ...]
    first: bool = False
    """Offered before the standard rules, its first variant chosen to start with (the troll's
    sturdier bridges for a first game: its standard rules are the designer's hardest)."""


class Game(ABC, Generic[P, S]):
    """A game design: what it is called, its parameters, and how to make and read states."""

    id: ClassVar[str]
    name: ClassVar[str]
    params_type: ClassVar[type]
    variants: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    """Named presets of parameter values (earlier rules, the seed's optional rules)."""
    variant_descriptions: ClassVar[Mapping[str, str]] = {}
    """One line per named variant, for a newcomer choosing one."""
    variant_titles: ClassVar[Mapping[str, str]] = {}
    """A name a player understands for each named variant (the lobby's and the tables' menus
    show it; the variant's id, the key of `variants`, stays in the lab and the command line)."""
    variant_groups: ClassVar[Sequence[VariantGroup]] = ()
    """How menus group the named variants; one in no group is listed after the standard rules,
    and one whose preset changes nothing (Star Dice's and the wizard's "final") is the standard
    rules, listed once, under `standard_title`."""
    standard_title: ClassVar[str] = "Standard rules"
    """What menus call the game's default rules."""
    standard_description: ClassVar[str] = ""
    """Their one line (else that of the variant that changes nothing, else a generic line)."""
    seat_titles: ClassVar[Mapping[str, str]] = {}
    """A name a player reads for each seat name of `seat_names` ("Hero 2" for `hero2`): the pages'
    headers, turn lines, buttons and logs show it, while the seat name stays the id in the lab,
    the records and the command line. A seat name missing here is shown as it is."""
    pitch: ClassVar[str] = ""
    """One paragraph telling a newcomer what the game is and why to play it."""
    score_name: ClassVar[str] = ""
    """What the `score` metric counts, in words (reports label their plots with it)."""
    lower_score_is_better: ClassVar[bool] = False
    """True when a lower `score` metric is the better result (the troll's cards left)."""

    @abstractmethod
    def num_players(self, params: P) -> int: ...

    def seat_names(self, params: P) -> list[str]:
        return [f"seat {i}" for i in range(self.num_players(params))]

    def standard_line(self) -> str:
        """The one line menus give the standard rules: `standard_description`, else that of the
        variant whose preset changes nothing, else a generic line."""
        same = [name for name, preset in self.variants.items() if not preset]
        return (self.standard_description or (self.variant_descriptions.get(same[0], "") if same else "")
                or "The game's standard rules.")

    def seat_title(self, name: str) -> str:
        """The seat called `name` in `seat_names` as a player reads it (`seat_titles`)."""
        return self.seat_titles.get(name, name)

    def sides(self, params: P) -> list[list[int]]:
        """The seats that win or lose together, side by side (ratings rate sides, not seats):
        by default every seat alone; the wizard game's heroes are one side."""
        return [[seat] for seat in range(self.num_players(params))]

    def default_params(self) -> P:
        params: P = self.params_type()
        return params

    @abstractmethod
    def new_state(
        self, params: P | None = None, seed: int = 0, rigged: Mapping[str, list[Any]] | None = None
    ) -> S:
        """A new game. `rigged` pre-loads the chance stream's queues (die rolls, a deck order)
        before setup, so even the deal can be forced."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """Read `State.to_json()` output back; raises BadPosition naming the problem."""

    def bots(self) -> Mapping[str, Callable[[], Agent]]:
        """The game's own bots by name (random is available for every game in `agents`)."""
        return {}

    def evaluate(self, state: S, seat: int) -> float:
        """A heuristic value of `state` for `seat` in [0, 1], used by greedy search. The default
        is the returns at the end and 0.5 before it."""
        if state.is_terminal:
            return float(state.returns()[seat])
        return 0.5

    def claims(self) -> DesignClaims | None:
        """What the game's design document says its rules will do, for the lab to measure
        against simulation (`playtable claims`, `core/claims.py`); None when it states nothing
        measurable."""
        return None


class Agent(Protocol):
    """Anything that picks an action for the seat to move. Agents are deterministic given the
    `rng` they are handed."""

    name: str

    def choose(self, state: State, rng: Chance) -> Any: ...


def params_as_dict(params: Any) -> dict[str, Any]:
    """JSON-ready parameter values (tuples become lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(params):
        value = getattr(params, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out
