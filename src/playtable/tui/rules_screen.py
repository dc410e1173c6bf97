"""The `?` screen every terminal app shows: the game's rules for players (its HOW_TO_PLAY.md, the
same text the web app's rules panel serves), then the app's own keys and what the screen's marks
mean. Esc, ? or q closes it."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from playtable.core.registry import player_rules

KEY_STYLE = "bold #f0a020"


LINE_WIDTH = 92
"""The rules box is at most 100 columns (border and padding inside): a key's words are folded to
fit it, each folded line under the words, not under the keys."""


def keys_text(keys: Sequence[tuple[str, str]], width: int = 16) -> Text:
    """'Keys' and one line per (keys, what they do), the keys' column as wide as the widest."""
    text = Text()
    text.append("Keys\n", style="bold")  # the heading alone: what follows keeps its own styles
    width = max([width, *(len(key) + 1 for key, _ in keys)])
    for key, what in keys:
        text.append(f"  {key:<{width}}", style=KEY_STYLE)
        text.append(textwrap.fill(what, LINE_WIDTH - width - 2, subsequent_indent=" " * (width + 2)) + "\n")
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

    def __init__(self, game_id: str, keys: Sequence[tuple[str, str]], legend: Text | None = None,
                 rules: str | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.rules = rules if rules is not None else player_rules(game_id)  # the game's, or this game's
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
