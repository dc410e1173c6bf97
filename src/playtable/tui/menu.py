"""`playtable play` without a game: a menu of the registered games.

Convention: a game is playable in the terminal when the module `playtable.tui.<game_id>` exists
and has `make_app(seed: int | None = None) -> textual.app.App`. The menu is its own small app; it
exits with the chosen game's id, `run_menu` runs that game's app, and comes back to the menu
when the game is quit.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from playtable.core.registry import game_ids, get_game


@dataclass(frozen=True)
class MenuEntry:
    game_id: str
    name: str
    make_app: Callable[..., App[Any]] | None
    note: str  # why it cannot be played here, if it cannot


def app_factory(game_id: str) -> Callable[..., App[Any]] | None:
    """The game's `make_app`, or None if it has no terminal app yet."""
    module_name = f"playtable.tui.{game_id}"
    try:
        if importlib.util.find_spec(module_name) is None:
            return None
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    factory = getattr(module, "make_app", None)
    return factory if callable(factory) else None


def menu_entries() -> list[MenuEntry]:
    entries = []
    for game_id in game_ids():
        try:
            name = str(get_game(game_id).name)
        except Exception as err:  # a game being written may not import yet: list it, say why
            entries.append(MenuEntry(game_id, game_id, None, f"cannot be loaded ({err})"))
            continue
        factory = app_factory(game_id)
        note = "" if factory else "not yet playable in the terminal"
        entries.append(MenuEntry(game_id, name, factory, note))
    return entries


class MenuApp(App[str | None]):
    """Lists the games; Enter or a click on a playable one exits with its id."""

    TITLE = "playtable"
    CSS = """
    Screen { align: center middle; }
    #menu-title { width: 64; max-width: 100%; text-align: center; margin-bottom: 1; }
    #games { width: 64; max-width: 100%; height: auto; border: round $accent; }
    """
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("escape", "quit", "Quit", show=False)]

    def __init__(self) -> None:
        super().__init__()
        self.entries = menu_entries()

    def compose(self) -> ComposeResult:
        title = Text("playtable", style="bold")
        title.append("\nChoose a game: arrow keys and Enter, or click.", style="")
        yield Static(title, id="menu-title")
        options = []
        for entry in self.entries:
            line = Text.assemble((entry.name, "bold" if entry.make_app else "dim"))
            if entry.note:
                line.append(f"  — {entry.note}", style="dim italic")
            options.append(Option(line, id=entry.game_id, disabled=entry.make_app is None))
        yield OptionList(*options, id="games")
        yield Footer()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        self.exit(message.option.id)


def run_menu() -> None:
    """Show the menu; play the chosen game; back to the menu until the player quits it."""
    while True:
        chosen = MenuApp().run()
        if not chosen:
            return
        factory = app_factory(chosen)
        if factory is None:
            return
        factory().run()
