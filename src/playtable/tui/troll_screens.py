"""The troll app's pop-up screens: the end of a game, and the rules with every key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.binding import Binding

from playtable.tui import troll_view as view
from playtable.tui import troll_words as words
from playtable.tui.result_screen import ResultScreen
from playtable.tui.rules_screen import RulesScreen

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
    ("n / ? / q", "new game / these rules / quit (asks first during a game)"),
]


class EndScreen(ResultScreen):
    """The result, why, and the score; the board stays visible behind it."""

    BINDINGS = [
        Binding("n", "app_action('new_game')", "New game"),
        Binding("escape", "close", "Look at the bridge"),
        Binding("q", "quit_app", "Quit"),
    ]

    def __init__(self, obs: Mapping[str, Any], end_text: str, tip: str = "") -> None:
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
        if tip:
            body.append(f"\n\n{tip}", style="italic")
        super().__init__(Text(title, style=style), body, [("New game (n)", "new_game", "primary"),
                                                           ("Bridge (Esc)", "close", "default"),
                                                           ("Quit (q)", "quit_app", "error")])


class HelpScreen(RulesScreen):
    """The player rules (HOW_TO_PLAY.md, the text the web app shows too), every key, and what
    the marks on the bridge mean."""

    def __init__(self, rules: str | None = None) -> None:
        super().__init__("troll", KEYS, legend(), rules)


def legend() -> Text:
    text = Text()
    text.append("On the bridge: ", style="bold")
    text.append("▒▒▒", style=view.BACK)
    text.append(" a face-down brick, ")
    text.append(" 7♥ ", style=f"{view.RED_ON_LIGHT} {view.AWAKE_BG}")
    text.append(" an awake brick (the arrow shows where it will flee), ")
    text.append(" 7♥ ", style=f"italic {view.BACK}")
    text.append(" a dormant brick you have seen; the number on top is the stack's height, "
                "~~~ an empty slot, the double frame is the troll. The suits beside a row are "
                "the colour of the cards that awaken its bricks.")
    return text
