"""What a front end shows of a position beyond the protocol: the optional presentation hooks.

The protocol (`core/protocol.py`) is what every game must answer: whose turn, the legal actions,
`apply`, the outcome, observations. A front end also wants things only some games have: a warning
before a losing action, why the game ended, what stayed hidden, the moments worth a story, the
motion of a throw, a hint. Those are here, apart from the game state's protocol (as TAG keeps a
game's GUI and features apart from its state), so a game thinks about them only when it has them:
its state class lists `Presentation` among its bases and overrides the hooks it
has; every other hook keeps the neutral default below. A front end asks through `presentation`,
which answers for any state, a game's that has no presentation included.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol


class Presentation:
    """The front-end hooks of a position, each with its neutral default (nothing to show)."""

    story_kinds: ClassVar[frozenset[str]] = frozenset()
    """The kinds of events an end screen's story lists as the game's key moments
    (`core.story.tell`); the game names them, since only it knows which events matter."""

    def action_warning(self, action: Any) -> str | None:
        """A plain-words warning when `action` is legal but loses the game on the spot (or is a
        blunder the rules make final), so a front end can ask the player to confirm. None when
        there is nothing to warn about."""
        return None

    def end_text(self) -> str | None:
        """Why the game ended, in plain words (None while it goes on)."""
        return None

    def story_figures(self) -> list[str]:
        """The game's figures at its end as sentences a player reads ("A single battle:
        Federation 15 points, Klingon 1."), for the end screen's story (`core.story.tell`);
        never raw counters, which are the lab's (`State.metrics`). Default: none."""
        return []

    def hidden_parts(self) -> list[dict[str, Any]]:
        """Everything that stayed hidden from some seat, for every seat and watcher to see on
        the end screen: sections `{"heading": str, "lines": [str, ...]}` in plain words. Only
        ever read after the end (`revealed`); the default: nothing was hidden."""
        return []

    def motion(self) -> list[dict[str, Any]]:
        """The continuous motion the last `apply` produced, as frames in time order for a front
        end to animate (Star Dice: dice positions while a throw runs, `{"t", ...}`). Not part of
        the state (a copy or a restored state has none); most games have none."""
        return []

    def hint(self) -> tuple[Any, str] | None:
        """A suggested action for the current player and why, in plain words, or None when the
        game has no hints. May be slow (a solver): front ends call it off their event loop."""
        return None


NEUTRAL = Presentation()
"""The presentation of a position whose game has none: every hook's neutral default."""


class _Position(Protocol):
    @property
    def is_terminal(self) -> bool: ...


def presentation(state: object) -> Presentation:
    """The front-end hooks of `state`: its own when its game implements `Presentation`,
    otherwise the neutral defaults."""
    return state if isinstance(state, Presentation) else NEUTRAL


def revealed(state: _Position) -> list[dict[str, Any]]:
    """Once the game is over, what stayed hidden (`Presentation.hidden_parts`), and the record
    and seed are public by then too; empty while the game goes on, whatever the game says."""
    return presentation(state).hidden_parts() if state.is_terminal else []
