"""Dispatch: the legal actions of the pending decision, performing an action, and the step
runner that carries the game forward between decisions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playtable.core.errors import IllegalAction
from playtable.games.wizard import hero_turn, setup, wizard_turn
from playtable.games.wizard.actions import Act
from playtable.games.wizard.position import WizardPosition

LEGAL: dict[str, Callable[[WizardPosition], list[Act]]] = {
    **setup.LEGAL, **wizard_turn.LEGAL, **hero_turn.LEGAL,
}
PERFORM: dict[str, Callable[[WizardPosition, Act], None]] = {
    **setup.PERFORM, **wizard_turn.PERFORM, **hero_turn.PERFORM,
}
STEPS: dict[str, Callable[[WizardPosition, dict[str, Any]], None]] = {
    **setup.STEPS, **wizard_turn.STEPS, **hero_turn.STEPS,
}


def legal(st: WizardPosition) -> list[Any]:
    if st.is_terminal or not st.decision:
        return []
    return list(LEGAL[st.decision["kind"]](st))


def perform(st: WizardPosition, action: Act) -> None:
    kind = st.decision["kind"]
    if kind not in PERFORM:
        raise IllegalAction(f"no decision '{kind}' is pending")
    PERFORM[kind](st, action)
    run(st)


def run(st: WizardPosition) -> None:
    """Run automatic steps until a seat must decide or the game ends."""
    guard = 0
    while not st.winner and not st.decision:
        if not st.steps:
            raise RuntimeError("wizard: no decision and no step pending")
        step = st.steps.pop(0)
        STEPS[step["do"]](st, step)
        guard += 1
        if guard > 100_000:
            raise RuntimeError("wizard: the step runner does not stop")
