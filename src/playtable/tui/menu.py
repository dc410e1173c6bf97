"""`playtable play` without a game: a menu of the registered games.

Convention: a game is playable in the terminal when the module `playtable.tui.<game_id>` exists
and has `make_app(seed: int | None = None, variant: str | None = None) -> textual.app.App`. The
menu is its own small app: choosing a game shows its rules variants as the game groups them, the
lobby's New-table form's order (a first game's group marked ★, the standard rules, the other
groups under their titles, the rest, each with its one line), and
the menu exits with (game id, variant); `run_menu` runs that game's app, and comes back to the
menu when the game is quit.
"""

from __future__ import annotations

import importlib
import importlib.util
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from playtable.core.protocol import Game
from playtable.core.registry import game_ids, get_game
from playtable.tui.frame import note_if_screen_hidden

STANDARD = "__standard__"
Choice = tuple[str, str | None]  # (game id, variant or None for the standard rules)


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


DESCRIPTION_WIDTH = 68
"""The variant box is 76 columns: a description's lines are folded to fit inside it with its
indent, so a long one hangs under its first line instead of running back to the left edge."""


def hanging(description: str) -> str:
    """A variant's description on the lines under its title, every line indented."""
    lines = textwrap.wrap(description, DESCRIPTION_WIDTH - 4)
    return "".join(f"\n    {line}" for line in lines)


def _variant_line(game: Game[Any, Any], name: str, first: bool) -> Option:
    """One named variant: the player's title, the id (dim, what the command line takes), a first
    game's mark, and its one line folded under it."""
    title = game.variant_titles.get(name, name)
    if first:
        line = Text.assemble(("★ ", "bold yellow"), (title, "bold"), (f"  {name}", "dim"),
                             ("  good for a first game", "yellow"))
    else:
        line = Text.assemble(title, (f"  {name}", "dim"))
    if game.variant_descriptions.get(name):
        line.append(hanging(game.variant_descriptions[name]), style="dim")
    return Option(line, id=name)


def _heading(title: str, note: str) -> Option:
    """A group's title and its line: not a choice, so it cannot be highlighted."""
    line = Text(title, style="bold underline")
    if note:
        line.append(hanging(note), style="dim")
    return Option(line, disabled=True)


def variant_options(game_id: str) -> list[Option]:
    """The rules to choose from, as the game groups them (`Game.variant_groups`, as the lobby's
    New-table form does): a group for a first game, the standard rules (`standard_title`), the
    other groups under their titles, then the rest."""
    game = get_game(game_id)
    groups = list(game.variant_groups)
    grouped = {name for group in groups for name in group.names}
    options = [_variant_line(game, name, True) for group in groups if group.first
               for name in group.names if name in game.variants]
    standard = Text(game.standard_title, style="bold")
    standard.append(hanging(game.standard_line()), style="dim")
    options.append(Option(standard, id=STANDARD))
    for group in groups:
        names = [name for name in group.names if name in game.variants]
        if not group.first and names:
            options += [_heading(group.title, group.note), *(_variant_line(game, n, False) for n in names)]
    # a variant whose preset changes nothing ('final') is the standard rules, not listed twice
    rest = [name for name, preset in game.variants.items() if preset and name not in grouped]
    if rest:
        options += [_heading("Other variants" if groups else "Variants", ""),
                    *(_variant_line(game, name, False) for name in rest)]
    return options


class VariantScreen(ModalScreen[str | None]):
    """Which rules to play the chosen game with; Esc goes back to the games."""

    DEFAULT_CSS = """
    VariantScreen { align: center middle; }
    #variant-box { width: 76; max-width: 100%; height: auto; max-height: 100%; border: round $accent;
                   background: $surface; }
    #variants { height: auto; max-height: 20; border: none; }
    """
    BINDINGS = [Binding("escape", "back", "Back to the games")]

    def __init__(self, game_id: str, name: str) -> None:
        super().__init__()
        self.game_id, self.name_text = game_id, name

    def compose(self) -> ComposeResult:
        with Vertical(id="variant-box"):
            yield Static(Text.assemble((self.name_text, "bold"), "\nWhich rules? Enter plays, "
                                       "Esc goes back."), id="variant-title")
            yield OptionList(*variant_options(self.game_id), id="variants")

    def on_mount(self) -> None:
        variants = self.query_one("#variants", OptionList)
        variants.highlighted = 0
        variants.focus()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.dismiss(message.option.id)

    def action_back(self) -> None:
        self.dismiss(None)


class MenuApp(App[Choice | None]):
    """Lists the games; Enter or a click on a playable one asks for the rules variant, then
    exits with (game id, variant)."""

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
        title.append("\nChoose a game: arrow keys and Enter, or click. New here? Each game's "
                     "easiest rules are marked ★, and ? in a game shows how to play.", style="")
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
        game_id = str(message.option.id)
        entry = next(e for e in self.entries if e.game_id == game_id)

        def chosen(variant: str | None) -> None:
            if variant is not None:
                self.exit((game_id, None if variant == STANDARD else variant))

        self.push_screen(VariantScreen(game_id, entry.name), chosen)


def run_menu() -> None:
    """Show the menu; play the chosen game; back to the menu until the player quits it."""
    note_if_screen_hidden()
    while True:
        chosen = MenuApp().run()
        if not chosen:
            return
        game_id, variant = chosen
        factory = app_factory(game_id)
        if factory is None:
            return
        factory(variant=variant).run()
