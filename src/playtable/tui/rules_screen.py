"""The `?` screen every terminal app shows: the game's rules for players (its HOW_TO_PLAY.md, the
same text the web app's rules panel serves), then the app's own keys and what the screen's marks
mean. Esc, ? or q closes it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from playtable.core.registry import player_rules

KEY_STYLE = "bold #f0a020"


def keys_text(keys: Sequence[tuple[str, str]], width: int = 16) -> Text:
    """'Keys' and one line per (keys, what they do)."""
    text = Text("Keys\n", style="bold")
    for key, what in keys:
        text.append(f"  {key:<{width}}", style=KEY_STYLE)
        text.append(what + "\n")
    return text


class RulesScreen(ModalScreen[None]):
    """The player rules of `game_id`, the app's keys and, if given, a legend of the screen."""

    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    #rules-box { width: 100%; max-width: 100; height: 100%; max-height: 60; border: thick $accent;
                 background: $surface; padding: 0 1; }
    #rules-box Markdown { margin: 0; padding: 0; }
    #rules-keys { margin-top: 1; }
    """
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close"),
        Binding("q", "close", "Close"),
    ]

    def __init__(self, game_id: str, keys: Sequence[tuple[str, str]], legend: Text | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.rules = player_rules(game_id)
        self.keys = list(keys)
        self.legend = legend

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-box") as box:
            box.border_title = "How to play (Esc closes; arrows or PgUp/PgDn scroll)"
            yield Markdown(self.rules, id="rules-text")
            extra = keys_text(self.keys)
            if self.legend is not None:
                extra.append("\n")
                extra.append_text(self.legend)
            yield Static(extra, id="rules-keys")

    def on_mount(self) -> None:
        self.query_one("#rules-box", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss()
