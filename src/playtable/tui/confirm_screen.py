"""A yes/no question the terminal apps ask before something that cannot be taken back: an action
the game warns about (`Presentation.action_warning`: it loses on the spot, or risks it) and quitting a
game in progress. y answers yes; n or Esc answers no; Enter presses the focused button, which
is No to begin with, so a stray key never loses a game."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    """Dismisses with True (go ahead) or False (keep playing)."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    #confirm-box { width: 64; max-width: 95%; height: auto; border: thick $warning;
                   background: $surface; padding: 1 2; }
    #confirm-buttons { height: auto; align: center middle; margin-top: 1; }
    #confirm-buttons Button { margin: 0 1; min-width: 10; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, title: str, question: str, yes: str = "Do it (y)", no: str = "Go back (n)") -> None:
        super().__init__()
        self.title_text = title
        self.question = question
        self.yes, self.no = yes, no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text(self.title_text, style="bold"), id="confirm-title")
            yield Static(self.question, id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button(self.no, id="no", variant="primary")
                yield Button(self.yes, id="yes", variant="error")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def quit_or_ask(app: App[Any], in_progress: bool) -> None:
    """q in a game: quit at once when nothing would be lost (the game is over or no move was
    made), else ask first."""
    if not in_progress:
        app.exit()
        return

    def answered(yes: bool | None) -> None:
        if yes:
            app.exit()

    app.push_screen(ConfirmScreen("Quit this game?", "The game in progress will be lost.",
                                  yes="Quit (y)", no="Keep playing (n)"), answered)
