"""Stepping through a record in the terminal (`playtable replay FILE`): any game's record, or a
game kept by `sim --keep-records` in a result file.

The screen shows the game, seed and step, the action just taken and by whom, its events, and
the position as the chosen seat saw it (or as a spectator sees it, the default), with the log of
every event so far beside it. Keys: → / l / Space next, ← / h back, Home / g start, End / G end,
q quit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.pretty import Pretty
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static

from playtable.core.presentation import presentation
from playtable.core.protocol import State
from playtable.core.records import Record, Step


def view_of(state: State, seat: int | None) -> dict[str, Any]:
    """What the replay shows of a position: seat `seat`'s observation, else the spectator's."""
    if seat is not None:
        return state.observation(seat)
    try:
        return state.public_observation()
    except NotImplementedError:  # a game that does not say what a spectator sees
        return {"note": "this game shows no spectator view; pass --seat to see a seat's view"}


def game_over(state: State) -> str:
    """The line a finished game's last step shows: why it ended, or its returns."""
    return f"game over: {presentation(state).end_text() or 'returns ' + str(state.returns())}"


def step_heading(record: Record, step: Step, total: int, seat_names: Sequence[str]) -> str:
    who = seat_names[step.seat] if step.seat is not None and 0 <= step.seat < len(seat_names) else None
    head = f"{record.game} · seed {record.seed} · step {step.index} of {total}"
    if step.action is None:
        return f"{head}\nthe start of the game"
    return f"{head}\n{who + ': ' if who else ''}{step.action}"


def step_text(record: Record, step: Step, total: int, seat_names: Sequence[str], seat: int | None) -> str:
    """One step as plain text (the printed form of `playtable replay --print`)."""
    lines = [step_heading(record, step, total, seat_names)]
    lines += [f"  {e.text}" for e in step.events]
    if step.state.is_terminal:
        lines.append(f"  {game_over(step.state)}")
    lines.append(json.dumps(view_of(step.state, seat), ensure_ascii=False, sort_keys=True))
    return "\n".join(lines)


class ReplayApp(App[None]):
    """The replay viewer."""

    CSS = """
    #heading { height: auto; padding: 0 1; background: $boost; }
    #events { height: auto; padding: 0 1; }
    #body { height: 1fr; }
    #view { width: 2fr; }
    #log { width: 1fr; border-left: solid $primary; padding: 0 1; }
    """
    # priority: the scrolling panes would otherwise take the arrows, Home and End.
    BINDINGS = [
        Binding("right,l,space,n", "step(1)", "Next", priority=True),
        Binding("left,h,p", "step(-1)", "Back", priority=True),
        Binding("home,g", "jump(0)", "Start", priority=True),
        Binding("end,G", "jump(-1)", "End", priority=True),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self, record: Record, steps: Sequence[Step], seat_names: Sequence[str], seat: int | None = None
    ) -> None:
        super().__init__()
        self.record = record
        self.steps = list(steps)
        self.seat_names = list(seat_names)
        self.seat = seat
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Static(id="heading")
        yield Static(id="events")
        with Horizontal(id="body"):
            with VerticalScroll(id="view"):
                yield Static(id="position")
            with VerticalScroll(id="log"):
                yield Static(id="history")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"replay: {self.record.game}"
        self.show()

    def show(self) -> None:
        step = self.steps[self.index]
        total = len(self.steps) - 1
        self.query_one("#heading", Static).update(
            Text(step_heading(self.record, step, total, self.seat_names), style="bold")
        )
        events = [e.text for e in step.events]
        if step.state.is_terminal:
            events.append(game_over(step.state))
        self.query_one("#events", Static).update("\n".join(events) or "(no events)")
        self.query_one("#position", Static).update(Pretty(view_of(step.state, self.seat)))
        history = [f"{s.index}. {s.action}" for s in self.steps[1 : self.index + 1]]
        self.query_one("#history", Static).update("\n".join(history[-200:]) or "(no actions yet)")

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.steps) - 1, self.index + delta))
        self.show()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.steps) - 1
        self.show()
