"""The troll app's pop-up screens: the end of a game, and the rules with every key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from playtable.tui import troll_view as view
from playtable.tui import troll_words as words
from playtable.tui.result_screen import ResultScreen

KEYS = [
    ("← → ↑ ↓", "move the troll one step"),
    ("s", "stomp the awake brick under the troll"),
    ("p + arrow", "pick up an awake brick next to the troll"),
    ("u + arrow", "use the card you carry (club, throw, shovel)"),
    ("c t h k + arrow", "club / throw / shovel / wake, when you carry two cards"),
    ("l + arrow", "lay a carried dormant brick next to the troll (draft rules: l + 1-6)"),
    ("w", "wait (only when nothing else can be done)"),
    ("Esc", "cancel a half-typed action; leave the list"),
    ("Tab, Enter", "choose from the list of options; a click works too"),
    ("n / ? / q", "new game / this help / quit"),
]


class EndScreen(ResultScreen):
    """The result, why, and the score; the board stays visible behind it."""

    BINDINGS = [
        Binding("n", "app_action('new_game')", "New game"),
        Binding("escape", "close", "Look at the bridge"),
        Binding("q", "quit_app", "Quit"),
    ]

    def __init__(self, obs: Mapping[str, Any], end_text: str) -> None:
        self.obs = dict(obs)
        self.end_text = end_text
        title, style = words.end_title(self.obs)
        reason = end_text.split(" Score:")[0] or words.END_REASONS.get(str(self.obs.get("end_reason")), "")
        score = int(self.obs["score"])
        body = Text()
        body.append_text(view.colour_cards(reason))
        body.append("\n\nScore: ", style="")
        body.append(str(score), style="bold")
        body.append(f" card{'s' if score != 1 else ''} left in the deck of awakening "
                    "(lower is better; 0 means you played through it all).\n", style="")
        body.append(f"Turns played: {self.obs['turn']}.", style="dim")
        super().__init__(Text(title, style=style), body, [("New game (n)", "new_game", "primary"),
                                                           ("Bridge (Esc)", "close", "default"),
                                                           ("Quit (q)", "quit_app", "error")])


class HelpScreen(ModalScreen[None]):
    """The quick reference in full, with every key."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help-box { width: 90%; max-width: 100; height: 90%; border: thick $accent;
                background: $surface; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close"),
        Binding("q", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        text = Text()
        text.append("Angry Troll versus Magic Bridge — the rules in ten lines\n\n", style="bold")
        for i, line in enumerate(words.QUICK_REFERENCE, 1):
            text.append(f"{i:>2}. ", style="bold")
            text.append_text(view.colour_cards(line))
            text.append("\n")
        text.append("\nKeys\n", style="bold")
        for keys, what in KEYS:
            text.append(f"  {keys:<16}", style="bold #f0a020")
            text.append(what + "\n")
        text.append("\nOn the bridge: ", style="bold")
        text.append("▒▒▒", style=view.BACK)
        text.append(" a face-down brick, ")
        text.append(" 7♥ ", style=f"{view.RED_ON_LIGHT} {view.AWAKE_BG}")
        text.append(" an awake brick (the arrow shows where it will flee), ")
        text.append(" 7♥ ", style=f"italic {view.BACK}")
        text.append(" a dormant brick you have seen; the number on top is the stack's height, "
                    "~~~ an empty slot, the double frame is the troll. The suits beside a row are "
                    "the colour of the cards that awaken its bricks. Esc closes this.")
        with VerticalScroll(id="help-box"):
            yield Static(text)

    def action_close(self) -> None:
        self.dismiss()
