"""The optional presentation hooks (core/presentation.py): a game implements them only when it
has them, and front ends ask `presentation(state)`, which answers for any state."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from playtable.core.chance import Chance
from playtable.core.presentation import NEUTRAL, Presentation, presentation, revealed
from playtable.core.protocol import TERMINAL, Event, State
from playtable.core.registry import game_ids, get_game


class Coin(State):
    """A one-seat game of one move (`flip`) whose game has no presentation at all."""

    game_id: ClassVar[str] = "coin"

    def __init__(self) -> None:
        self.done = False

    @property
    def num_players(self) -> int:
        return 1

    @property
    def current_player(self) -> int:
        return TERMINAL if self.done else 0

    def legal_actions(self) -> list[Any]:
        return [] if self.done else ["flip"]

    def parse_action(self, text: str) -> Any:
        return text

    def apply(self, action: Any) -> list[Event]:
        self.require_legal(action)
        self.done = True
        return [Event("flipped", "the coin is flipped")]

    @property
    def is_terminal(self) -> bool:
        return self.done

    def returns(self) -> list[float]:
        return [1.0 if self.done else 0.0]

    def observation(self, seat: int) -> dict[str, Any]:
        return {"done": self.done}

    def determinize(self, seat: int, rng: Chance) -> State:
        return self.clone()

    def clone(self) -> Coin:
        copy = Coin()
        copy.done = self.done
        return copy

    def to_json(self) -> dict[str, Any]:
        return {"done": self.done}


class SecretCoin(Presentation, Coin):
    """The same game with a presentation: a secret to reveal and a reason for the end."""

    story_kinds = frozenset({"flipped"})

    def end_text(self) -> str | None:
        return "The coin was flipped." if self.done else None

    def hidden_parts(self) -> list[dict[str, Any]]:
        return [{"heading": "The coin", "lines": ["It was weighted."]}]


def test_a_game_without_presentation_gets_the_neutral_hooks() -> None:
    coin = Coin()
    assert presentation(coin) is NEUTRAL and not isinstance(coin, Presentation)
    coin.apply("flip")
    shown = presentation(coin)
    assert (shown.end_text(), shown.action_warning("flip"), shown.hint(), shown.motion(),
            shown.story_kinds, revealed(coin)) == (None, None, None, [], frozenset(), [])
    # the protocol itself carries no front-end hook: a front end asks `presentation(state)`
    assert not any(hasattr(coin, hook) for hook in ("end_text", "action_warning", "hint", "motion"))


def test_a_game_with_presentation_answers_for_itself_and_reveals_only_at_the_end() -> None:
    coin = SecretCoin()
    assert presentation(coin) is coin
    assert revealed(coin) == [] and coin.end_text() is None
    coin.apply("flip")
    assert revealed(coin) == [{"heading": "The coin", "lines": ["It was weighted."]}]
    assert presentation(coin).end_text() == coin.end_text() == "The coin was flipped."
    assert presentation(coin).story_kinds == {"flipped"}
    assert coin.motion() == [] and coin.hint() is None  # the hooks it does not have stay neutral


def test_presentation_after_state_among_the_bases_works_as_well() -> None:
    """The protocol's State has no hook of its own, so the order of the bases cannot hide one."""
    backwards = type("Backwards", (Coin, Presentation), {})()
    assert presentation(backwards) is backwards and backwards.end_text() is None


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_presents_its_positions(game_id: str) -> None:
    """Each registered game implements the hooks it has; the rest stay neutral."""
    state = get_game(game_id).new_state(None, 3)
    shown = presentation(state)
    assert shown is state and shown.story_kinds
    assert shown.end_text() is None and revealed(state) == []
    assert shown.motion() == []  # nothing thrown yet, if the game throws at all


def _played_to_the_end(game_id: str, variant: str | None, seed: int) -> State:
    import random

    from playtable.core.params import resolve_params

    game = get_game(game_id)
    params = resolve_params(game.params_type, game.variants, variant) if variant else game.default_params()
    state = game.new_state(params, seed=seed)
    rng = random.Random(seed)
    for _ in range(5000):  # bounded: every game here ends far sooner under random play
        if state.is_terminal:
            break
        state.apply(rng.choice(list(state.legal_actions())))
    assert state.is_terminal
    return state


@pytest.mark.parametrize(("game_id", "variant"), [("stardice", "battle"), ("troll", None),
                                                  ("rotator", "easy"), ("wizard", None)])
def test_the_story_gives_the_games_figures_in_words(game_id: str, variant: str | None) -> None:
    """An end screen's story reads the game's own sentences, never the lab's raw counters
    ("war federation 1 · eliminated 0 · forfeits 0"); a single battle says it was one."""
    from playtable.core.story import tell

    state = _played_to_the_end(game_id, variant, seed=3)
    figures = tell(state, [])["figures"]
    assert figures and all(line.endswith(".") and " " in line for line in figures)
    raw = [f"{key.replace('_', ' ')} {value}" for key, value in state.metrics().items() if "_" in key]
    assert not any(counter in line for counter in raw for line in figures), (raw, figures)
    if game_id == "stardice":
        assert figures[0].startswith("A single battle: Federation ")
