"""The end-of-game panel every terminal app shows: a title, why, and buttons that hand an action
back to the app (new game, undo, ...), with the board left visible behind it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ResultScreen(ModalScreen[None]):
    """Subclasses set BINDINGS (`app('new_game')`, `close`, `quit_app`) and call __init__ with
    the title, the body and the buttons as (label, action, variant); an action other than
    `close` and `quit_app` is run on the app."""

    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    #end-box { width: 60; max-width: 95%; height: auto; border: thick $accent;
               background: $surface; padding: 1 2; }
    #end-title { text-align: center; width: 100%; }
    #end-buttons { height: auto; align: center middle; margin-top: 1; }
    #end-buttons Button { margin: 0 1; min-width: 10; }
    """

    def __init__(self, title: Text, body: Text | str, buttons: Sequence[tuple[str, str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.buttons = list(buttons)

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box"):
            yield Static(self.title_text, id="end-title")
            yield Static(self.body, id="end-body")
            with Horizontal(id="end-buttons"):
                for label, action, variant in self.buttons:
                    yield Button(label, id=action, variant=variant)  # type: ignore[arg-type]

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        action = event.button.id or "close"
        await self.run_action(action if action in ("close", "quit_app") else f"app_action('{action}')")

    async def action_app_action(self, name: str) -> None:
        self.dismiss()
        await self.app.run_action(name)

    def action_close(self) -> None:
        self.dismiss()

    def action_quit_app(self) -> None:
        self.app.exit()
