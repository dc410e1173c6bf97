"""The Rotator terminal app: the board as the player sees it (rotated so gravity points down the
screen) with its row and column labels turning with it, ages of touched spaces with a legend,
boost spaces left, hints from the solver, undo, a warning before a move that loses, and win and
loss screens.

Keys: the arrows move the cursor on the screen to the next square you may start from that way,
Enter/Space starts there; 0-3 drill that many spaces; h hint; u undo; n new board; ? rules;
q quit (asks during a game).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from playtable.core.errors import IllegalAction, PlaytableError
from playtable.core.params import resolve_params
from playtable.core.presentation import presentation
from playtable.core.protocol import State
from playtable.core.records import Recorder
from playtable.core.registry import get_game
from playtable.core.words import plural
from playtable.games.rotator import GLYPHS, LEGEND, BoardView, cell_name, parse_cell
from playtable.tui.confirm_screen import ConfirmScreen, quit_or_ask
from playtable.tui.frame import note_if_screen_hidden, size_warning
from playtable.tui.recording import SAVE_BINDING, save_record
from playtable.tui.result_screen import ResultScreen
from playtable.tui.rules_screen import RulesScreen

STYLES = {
    "land": "rgb(150,100,60)",
    "node": "bold magenta on rgb(150,100,60)",
    "rubble": "rgb(110,110,110)",
    "air": "rgb(70,70,90)",
    "player": "bold white on blue",
}
AGE_STYLES = ("bold yellow", "bold rgb(255,150,0)", "bold red")
CHOICE = "▽▽"  # the seed marks the starting space "with a triangle, its point facing down"
CHOICE_STYLE = "bold black on green"
CURSOR_STYLE = "bold black on bright_white"
KEYS = [
    ("← → ↑ ↓", "move the cursor over the squares you may start from"),
    ("Enter, Space", "start from the square under the cursor"),
    ("0 1 2 3", "drill that many spaces (0 skips; 2 and 3 spend boost spaces)"),
    ("h", "hint: the solver's next move and how the win goes"),
    ("u", "undo a move (any number of times)"),
    ("n / ? / q", "new board / these rules / quit (asks during a game)"),
]


class EndScreen(ResultScreen):
    """Won or lost, and why; the board stays visible behind it."""

    BINDINGS = [
        Binding("u", "app_action('undo')", "Undo"),
        Binding("n", "app_action('new_game')", "New board"),
        Binding("escape", "close", "Look at the board"),
        Binding("q", "quit_app", "Quit"),
    ]

    def __init__(self, won: bool, text: str) -> None:
        title = Text("You win!" if won else "You lose", style="bold green" if won else "bold red")
        super().__init__(title, text, [("Undo (u)", "undo", "default"),
                                       ("New board (n)", "new_game", "primary"),
                                       ("Quit (q)", "quit_app", "error")])
        self.won = won
        self.text = text


class RotatorApp(App[None]):
    TITLE = "Rotator"
    CSS = """
    #status { height: auto; background: $primary-background; }
    #main { height: 1fr; }
    #board { width: auto; height: auto; padding: 0 1; }
    #side { width: 1fr; min-width: 30; }
    #legend { height: auto; border: round $secondary; padding: 0 0 0 1; }
    #hint { height: auto; color: $warning; padding: 0 1; }
    #log { height: 1fr; border: round $secondary; padding: 0 1; scrollbar-size-vertical: 1; }
    """
    BINDINGS = [
        *[Binding(key, f"cursor('{key}')", "Move cursor", show=False)
          for key in ("left", "right", "up", "down")],
        Binding("enter", "start", "Start here"),
        Binding("space", "start", "Start here", show=False),
        *[Binding(str(k), f"drill({k})", "Drill 0-3" if k == 0 else f"Drill {k}", show=k == 0)
          for k in range(4)],
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("n", "new_game", "New board"),
        Binding("question_mark", "rules", "Rules"),
        Binding("q", "ask_quit", "Quit"),
        SAVE_BINDING,
    ]

    def __init__(self, params: Any = None, seed: int | None = None, record_path: str | None = None) -> None:
        super().__init__()
        self.game = get_game("rotator")
        self.params = params if params is not None else self.game.default_params()
        self.seed = seed if seed is not None else random.randrange(1_000_000)
        self.state: State = self.game.new_state(self.params, self.seed)
        self.record_path = record_path
        self.recorder = Recorder(self.game.id, self.params, self.seed)
        self.history: list[State] = []
        self.cursor: int | None = None
        self.hint_text = ""
        self.log_lines: list[str] = []
        self.ready = False  # mounted: the widgets exist

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            yield Static(id="board")
            with Vertical(id="side"):
                yield Static(self._legend(), id="legend")
                yield Static(id="hint")
                with VerticalScroll(id="log"):
                    yield Static(id="log-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#legend", Static).border_title = "Legend (? rules)"
        self.query_one("#log", VerticalScroll).border_title = "What happened"
        self._reset_cursor()
        self.ready = True
        self.refresh_view()

    def on_resize(self) -> None:
        if self.ready:
            self.refresh_view()

    def _legend(self) -> Text:
        text = Text()
        for glyph, meaning in LEGEND:
            text.append(glyph, style=self._glyph_style(glyph))
            text.append(f" {meaning}\n")
        text.append(CHOICE, style=f"{CHOICE_STYLE}")
        text.append(" you may start here\n")
        text.append(CHOICE, style=CURSOR_STYLE)
        text.append(" the cursor (arrows, Enter)")
        return text

    @staticmethod
    def _glyph_style(glyph: str) -> str:
        for kind, style in STYLES.items():
            if GLYPHS[kind] == glyph:
                return style
        for marks in (("▼ ", "◀─", "▲═"), ("↓ ", "←─", "↑═")):
            if glyph in marks:
                return AGE_STYLES[marks.index(glyph)]
        return ""

    # -- view -------------------------------------------------------------------------------
    def observation(self) -> dict[str, Any]:
        return self.state.observation(0)

    def choices(self) -> list[int]:
        """Start squares in screen order (top to bottom, left to right)."""
        view = BoardView(self.observation())
        order = [i for row in view.screen() for i in row]
        return sorted(view.choices, key=order.index)

    def _reset_cursor(self) -> None:
        choices = self.choices()
        self.cursor = choices[len(choices) // 2] if choices else None

    def board_text(self) -> Text:
        """The rotated board with its labels: each screen row and column is one board row (a
        number) or one board column (a letter), as the log names squares."""
        view = BoardView(self.observation())
        grid = view.screen()
        heads = [f"{_label(col, view.cols):>2}" for col in zip(*grid, strict=True)]
        text = Text(style="bold")
        if any(h[0] != " " for h in heads):  # two-digit row numbers: tens above units
            text.append("   " + "".join(f" {h[0]}" for h in heads) + "\n")
        text.append("   " + "".join(f" {h[1]}" for h in heads) + "\n")
        for row in grid:
            label = _label(row, view.cols)
            text.append(f"{label:>2} ", style="bold")
            for i in row:
                cell = view.cell(i)
                style = STYLES.get(cell.kind, "")
                if cell.age is not None and cell.kind in ("mark", "node_mark"):
                    style = AGE_STYLES[cell.age]
                glyph = cell.glyph
                if cell.choice and view.phase == "start":
                    glyph, style = CHOICE, CURSOR_STYLE if i == self.cursor else CHOICE_STYLE
                text.append(glyph, style=style)
            text.append(f" {label}\n", style="bold")
        return text

    def refresh_view(self) -> None:
        obs = self.observation()
        where = obs["player"] or "above row 1"
        phase = {"start": "pick a start square",
                 "drill": "drill 0-3 spaces (keys 0-3)", "won": "won", "lost": "lost"}[obs["phase"]]
        status = (f" Turn {obs['turn']} · you: {where} · boost spaces left: {obs['boosts_left']}"
                  f" · {phase}")
        small = size_warning(self.size.width, self.size.height)
        self.query_one("#status", Static).update(Text(small, style="bold red") if small else status)
        self.query_one("#board", Static).update(self.board_text())
        self.query_one("#hint", Static).update(self.hint_text)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers only what the phase allows: starting in the start phase, drilling
        in the drill phase."""
        phase = self.observation()["phase"]
        if action == "start":
            return phase == "start"
        if action == "drill":
            return phase == "drill"
        return True

    # -- moves ------------------------------------------------------------------------------
    def play(self, text: str, confirmed: bool = False) -> None:
        """Play `text`; a move the game warns about (`action_warning`: it loses on the spot) is
        played only after the player says yes in a dialog."""
        try:
            action = self.state.parse_action(text)
            self.state.require_legal(action)
        except IllegalAction as err:
            self.hint_text = str(err)
            self.refresh_view()
            return
        warning = None if confirmed else presentation(self.state).action_warning(action)
        if warning:
            def answered(yes: bool | None) -> None:
                if yes:
                    self.play(text, confirmed=True)
                else:
                    self.hint_text = f"not played: {text}"
                    self.refresh_view()

            self.push_screen(ConfirmScreen(f"Really {text}?", warning + " (u undoes it.)"), answered)
            return
        before = self.state.clone()
        events = self.state.apply(action)
        self.history.append(before)
        self.recorder.add(action)
        self.hint_text = ""
        for event in events:
            self.add_log(event.text)
        self._reset_cursor()
        self.refresh_view()
        if self.state.is_terminal:
            won = self.state.returns()[0] > 0
            self.push_screen(EndScreen(won, events[-1].text if events else ""))

    def add_log(self, line: str) -> None:
        """A line at the end of the log, wrapped at the panel's width (never cut off)."""
        self.log_lines.append(line)
        self.query_one("#log-text", Static).update("\n".join(self.log_lines[-200:]))
        self.query_one("#log", VerticalScroll).scroll_end(animate=False)

    def action_cursor(self, direction: str) -> None:
        """Move the cursor on the screen: to the nearest square you may start from in the
        arrow's direction (the nearest along that way first, then the closest across)."""
        if self.observation()["phase"] != "start":
            self.hint_text = "the cursor is for picking a start square; now drill 0-3"
            self.refresh_view()
            return
        view = BoardView(self.observation())
        where = {i: (r, c) for r, row in enumerate(view.screen()) for c, i in enumerate(row)}
        if self.cursor not in where:
            self._reset_cursor()
        if self.cursor is None:
            return
        row, col = where[self.cursor]
        dr, dc = {"left": (0, -1), "right": (0, 1), "up": (-1, 0), "down": (1, 0)}[direction]
        best: tuple[int, int] | None = None
        for i in view.choices:
            r, c = where[i]
            along = (r - row) * dr + (c - col) * dc
            if along <= 0:
                continue
            across = abs((r - row) * dc) + abs((c - col) * dr)
            if best is None or (along + 2 * across, across) < best:
                best, self.cursor = (along + 2 * across, across), i
        self.refresh_view()

    def on_key(self, event: events.Key) -> None:
        """Keys of the other phase (the footer hides them) say what to do instead."""
        phase = self.observation()["phase"]
        if phase == "start" and event.key in ("0", "1", "2", "3"):
            self.hint_text = "first pick a start square: arrows, then Enter"
        elif phase == "drill" and event.key in ("enter", "space"):
            self.hint_text = "there is no square to pick now: drill 0-3"
        else:
            return
        self.refresh_view()

    def action_start(self) -> None:
        if self.cursor is None or self.observation()["phase"] != "start":
            self.hint_text = "there is no square to pick now: drill 0-3"
            self.refresh_view()
            return
        self.play(f"start {cell_name(self.cursor)}")

    def action_drill(self, spaces: int) -> None:
        self.play(f"drill {spaces}")

    def action_hint(self) -> None:
        from playtable.games.rotator import solve_state

        if self.state.is_terminal:
            return
        solution = solve_state(self.state)
        if not solution.winnable or not solution.actions:
            self.hint_text = "hint: no win is possible from here -- undo (u)"
        else:
            first = solution.actions[0]
            left = plural(self.observation()["boosts_left"], "boost space")
            spend = f"spending {solution.boosts} of your {left}" if solution.boosts else \
                "spending no boost space"
            self.hint_text = f"hint: {first}  (a win on turn {solution.turns}, {spend})"
            if first.startswith("start "):
                self.cursor = parse_cell(first.split()[1])
        self.refresh_view()

    def action_save_record(self) -> None:
        self.hint_text = save_record(self.recorder, self.record_path)
        self.refresh_view()

    def action_undo(self) -> None:
        if not self.history:
            self.hint_text = "nothing to undo"
        else:
            self.state = self.history.pop()
            self.recorder.undo()
            self.hint_text = "undone"
            self.add_log("(undo)")
            self._reset_cursor()
        self.refresh_view()

    def action_new_game(self) -> None:
        self.seed = random.randrange(1_000_000)
        try:
            self.state = self.game.new_state(self.params, self.seed)
        except PlaytableError as err:
            self.hint_text = str(err)
        self.history.clear()
        self.recorder = Recorder(self.game.id, self.params, self.seed)
        what = f"board {self.params.board}, restarted" if self.params.board else (
            f"new board (seed {self.seed})")
        self.log_lines = []
        self.add_log(what)
        self.hint_text = ""
        self._reset_cursor()
        self.refresh_view()

    def action_rules(self) -> None:
        self.push_screen(RulesScreen("rotator", KEYS, self._legend()))

    def action_ask_quit(self) -> None:
        """q: quit, asking first while a game is in progress."""
        quit_or_ask(self, not self.state.is_terminal and bool(self.history))


def _label(cells: Sequence[int], cols: int) -> str:
    """The name of a screen row or column of the rotated board: the board row's number (1-20)
    when its cells share one, else the board column's letter (A-J)."""
    rows = {i // cols for i in cells}
    return str(rows.pop() + 1) if len(rows) == 1 else cell_name(cells[0])[0]


def make_app(seed: int | None = None, variant: str | None = None) -> RotatorApp:
    """The menu's entry point (see playtable.tui.menu): the standard rules or a named variant."""
    game = get_game("rotator")
    return RotatorApp(resolve_params(game.params_type, game.variants, variant) if variant else None, seed)


def run_rotator(params: Any, seed: int | None, record_path: str | None = None) -> None:
    note_if_screen_hidden()
    RotatorApp(params, seed, record_path).run()
