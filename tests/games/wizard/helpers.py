"""Shared helpers for the wizard tests: quick setups, direct position edits, random playouts."""

from __future__ import annotations

from typing import Any

from playtable.core.chance import Chance
from playtable.core.params import resolve_params
from playtable.games.wizard import board
from playtable.games.wizard.game import GAME
from playtable.games.wizard.params import WizardParams
from playtable.games.wizard.position import Token
from playtable.games.wizard.state import WizardState


def params(players: int = 3, variant: str | None = None, **kw: Any) -> WizardParams:
    p: WizardParams = resolve_params(WizardParams, GAME.variants, variant,
                                     [f"players={players}"] + [f"{k}={v}" for k, v in kw.items()])
    return p


def sq(text: str, size: int = 5) -> tuple[int, int]:
    return board.parse_square(text, size)


def ready(players: int = 3, seed: int = 1, keys: tuple[str, ...] = ("e5", "a5", "e1"),
          start: str = "NW", variant: str | None = None, **kw: Any) -> WizardState:
    """A game after setup, at the wizard's first 'main' decision (entrance S, first tower)."""
    st = GAME.new_state(params(players, variant, **kw), seed)
    if st.decision["kind"] == "tower":
        st.apply_text(str(st.legal_actions()[0]))
    st.apply_text("entrance S")
    for k in keys:
        st.apply_text(f"key {k}")
    while st.decision["kind"] == "opening":
        st.apply(st.legal_actions()[0])
    st.apply_text(f"start {start}")
    while st.decision.get("kind") == "discard":
        st.apply(st.legal_actions()[0])
    assert st.decision["kind"] == "main", st.decision
    return st


def put(st: WizardState, square: str, *kinds: str, up: bool = False) -> None:
    st.cells[board.parse_square(square, st.size)].tokens.extend(Token(k, up, 99) for k in kinds)
    st.tokens_placed += len(kinds)


def to_heroes(st: WizardState) -> None:
    """End the wizard's turn (he plays nothing)."""
    st.apply_text("end")


def move_all(st: WizardState, *moves: str) -> None:
    """Commit one move per hero that must commit, in order."""
    for m in moves:
        assert st.decision["kind"] == "commit", st.decision
        st.apply_text(m)


def rig(st: WizardState, *d20: int) -> None:
    st.chance.rigged.setdefault("d20", []).extend(d20)


def random_game(players: int, seed: int, variant: str | None = None,
                max_actions: int = 4000) -> tuple[WizardState, list[str]]:
    st = GAME.new_state(params(players, variant), seed)
    rng = Chance(seed * 7 + 3)
    actions: list[str] = []
    while not st.is_terminal and len(actions) < max_actions:
        a = rng.choice(st.legal_actions())
        st.apply(a)
        actions.append(str(a))
    return st, actions


def walk(st: WizardState, seed: int, limit: int = 4000):  # type: ignore[no-untyped-def]
    """Yield every state along a random playout (the same object, advanced)."""
    rng = Chance(seed)
    n = 0
    while not st.is_terminal and n < limit:
        yield st
        st.apply(rng.choice(st.legal_actions()))
        n += 1
    yield st


def card_totals(st: WizardState) -> tuple[int, int]:
    wiz = len(st.hand) + len(st.deck) + len(st.discard) + len(st.out) + len(st.offered)
    loot = len(st.loot_deck) + len(st.loot_discard) + sum(len(h.items) for h in st.heroes)
    loot += sum(len(c.items) for c in st.cells.values())
    if st.decision.get("kind") == "keep":
        loot += len(st.decision["cards"])
    return wiz, loot
