"""The Rotator terminal app: the board as the player sees it (rotated so gravity points down the
screen), ages of touched spaces with a legend, boost spaces left, hints from the solver, undo,
and win and loss screens.

Keys: arrows move the cursor over the squares you may start from, Enter/Space starts there;
0-3 drill that many spaces; h hint; u undo; n new board; q quit.
"""

from __future__ import annotations

import random
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from playtable.core.errors import IllegalAction, PlaytableError
from playtable.core.protocol import State
from playtable.core.registry import get_game
from playtable.games.rotator.board import cell_name, parse_cell
from playtable.games.rotator.render import LEGEND, BoardView
from playtable.tui.result_screen import ResultScreen

STYLES = {
    "land": "rgb(150,100,60)",
    "node": "bold magenta on rgb(150,100,60)",
    "rubble": "rgb(110,110,110)",
    "air": "rgb(70,70,90)",
    "player": "bold white on blue",
}
AGE_STYLES = ("bold yellow", "bold rgb(255,150,0)", "bold red")


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
    #status { height: 1; background: $primary-background; }
    #main { height: 1fr; }
    #board { width: auto; height: auto; padding: 0 1; }
    #side { width: 1fr; min-width: 30; }
    #legend { height: auto; border: round $secondary; padding: 0 1; }
    #hint { height: auto; color: $warning; padding: 0 1; }
    #log { height: 1fr; border: round $secondary; padding: 0 1; }
    """
    BINDINGS = [
        Binding("left", "cursor(-1)", "Prev square", show=False),
        Binding("up", "cursor(-1)", "Prev square", show=False),
        Binding("right", "cursor(1)", "Next square", show=False),
        Binding("down", "cursor(1)", "Next square", show=False),
        Binding("enter", "start", "Start here"),
        Binding("space", "start", "Start here", show=False),
        *[Binding(str(k), f"drill({k})", f"Drill {k}", show=k == 0) for k in range(4)],
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("n", "new_game", "New board"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, params: Any = None, seed: int | None = None) -> None:
        super().__init__()
        self.game = get_game("rotator")
        self.params = params if params is not None else self.game.default_params()
        self.seed = seed if seed is not None else random.randrange(1_000_000)
        self.state: State = self.game.new_state(self.params, self.seed)
        self.history: list[State] = []
        self.cursor: int | None = None
        self.hint_text = ""
        self.log_lines: list[str] = []

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            yield Static(id="board")
            with Vertical(id="side"):
                yield Static(self._legend(), id="legend")
                yield Static(id="hint")
                yield Static(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self._reset_cursor()
        self.refresh_view()

    def _legend(self) -> Text:
        text = Text("Legend\n", style="bold")
        for glyph, meaning in LEGEND:
            text.append(glyph, style=self._glyph_style(glyph))
            text.append(f"  {meaning}\n")
        text.append("  ", style="on green")
        text.append("  a square you may start from\n")
        text.append("Keys: arrows + Enter start, 0-3 drill,\nh hint, u undo, n new, q quit",
                    style="dim")
        return text

    @staticmethod
    def _glyph_style(glyph: str) -> str:
        for kind, style in STYLES.items():
            from playtable.games.rotator.render import GLYPHS

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
        view = BoardView(self.observation())
        text = Text()
        for row in view.screen():
            for i in row:
                cell = view.cell(i)
                style = STYLES.get(cell.kind, "")
                if cell.age is not None and cell.kind in ("mark", "node_mark"):
                    style = AGE_STYLES[cell.age]
                if cell.choice:
                    style = f"{style} on green" if "on " not in style else style
                if i == self.cursor and view.phase == "start":
                    style = "bold black on bright_white"
                text.append(cell.glyph, style=style)
            text.append("\n")
        return text

    def refresh_view(self) -> None:
        obs = self.observation()
        where = obs["player"] or "above the board"
        phase = {"start": "pick a square to start from (arrows, Enter)",
                 "drill": "drill 0-3 spaces", "won": "won", "lost": "lost"}[obs["phase"]]
        status = (f" Turn {obs['turn']}  down = board-{obs['down']}  you: {where}  "
                  f"boost spaces left: {obs['boosts_left']}  - {phase}")
        self.query_one("#status", Static).update(status)
        self.query_one("#board", Static).update(self.board_text())
        self.query_one("#hint", Static).update(self.hint_text)
        self.query_one("#log", Static).update("\n".join(self.log_lines[-14:]))

    # -- moves ------------------------------------------------------------------------------
    def play(self, text: str) -> None:
        try:
            action = self.state.parse_action(text)
            before = self.state.clone()
            events = self.state.apply(action)
        except IllegalAction as err:
            self.hint_text = str(err)
            self.refresh_view()
            return
        self.history.append(before)
        self.hint_text = ""
        self.log_lines.extend(e.text for e in events)
        self._reset_cursor()
        self.refresh_view()
        if self.state.is_terminal:
            won = self.state.returns()[0] > 0
            self.push_screen(EndScreen(won, events[-1].text if events else ""))

    def action_cursor(self, step: int) -> None:
        choices = self.choices()
        if not choices:
            return
        i = choices.index(self.cursor) if self.cursor in choices else 0
        self.cursor = choices[(i + step) % len(choices)]
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
        from playtable.games.rotator.solver import solve_state

        if self.state.is_terminal:
            return
        solution = solve_state(self.state)
        if not solution.winnable or not solution.actions:
            self.hint_text = "hint: no win is possible from here -- undo (u)"
        else:
            first = solution.actions[0]
            self.hint_text = (f"hint: {first}  (a win on turn {solution.turns} with "
                              f"{solution.boosts} boost space(s))")
            if first.startswith("start "):
                self.cursor = parse_cell(first.split()[1])
        self.refresh_view()

    def action_undo(self) -> None:
        if not self.history:
            self.hint_text = "nothing to undo"
        else:
            self.state = self.history.pop()
            self.hint_text = "undone"
            self.log_lines.append("(undo)")
            self._reset_cursor()
        self.refresh_view()

    def action_new_game(self) -> None:
        self.seed = random.randrange(1_000_000)
        try:
            self.state = self.game.new_state(self.params, self.seed)
        except PlaytableError as err:
            self.hint_text = str(err)
        self.history.clear()
        what = f"board {self.params.board}, restarted" if self.params.board else (
            f"new board (seed {self.seed})")
        self.log_lines = [what]
        self.hint_text = ""
        self._reset_cursor()
        self.refresh_view()


def make_app(seed: int | None = None) -> RotatorApp:
    """The menu's entry point (see playtable.tui.menu)."""
    return RotatorApp(None, seed)


def run_rotator(params: Any, seed: int | None) -> None:
    RotatorApp(params, seed).run()
