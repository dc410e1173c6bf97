"""`playtable play wizard`: The Wizard's Labyrinth in the terminal (Textual), hot-seat and bots.

The app knows the game only through the protocol: `observation(seat)`, `legal_actions()`,
`apply(...)` and the events' plain words. Each seat is a human or a bot. When the turn passes
from one human seat to another, a curtain hides the board ("hand over to hero 2") until the next
player presses Enter, so no seat sees another's secrets (the wizard's hand and tokens, a hero's
committed move). The log shows only events, which are public.

Keys: Enter (or a click) chooses the highlighted option; Tab moves between the list and a line
where an action can be typed (`place m3 c4`); q quits (from the list).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.errors import IllegalAction
from playtable.core.protocol import Agent, Event
from playtable.core.registry import get_game

PROMPTS = {
    "tower": "choose the tower's square",
    "entrance": "choose the side the tower's entrance faces",
    "key": "hide a key tile (the heroes have their eyes closed)",
    "opening": "send a card of your opening draw back into the deck",
    "start": "choose the corner where the heroes enter",
    "rage": "your rage: remove a tile",
    "main": "play a card or end your turn",
    "place": "place a token",
    "spell": "choose the spell's target",
    "send": "blow a hero to a neighbouring tile",
    "discard": "discard a card",
    "commit": "choose your move (hidden from the others until all have chosen)",
    "boost": "play a combat bonus or fight",
    "retreat": "choose where the losing hero retreats",
    "keep": "keep one of the two loot cards",
}
TOKEN_GLYPH = {"m1": "¹", "m2": "²", "m3": "³", "m4": "⁴", "m5": "⁵", "trap": "T", "blank": "x"}


def seat_name(seat: int) -> str:
    return "the wizard" if seat == 0 else f"hero {seat}"


def render_board(obs: Mapping[str, Any]) -> Text:
    """The grid as text: each tile 7 wide and 2 high. Line 1: the room (? face down, K a key
    known to this seat); line 2: heroes (digits) and tokens (● face down, or, when
    known: ¹-⁵ monsters, T traps, x blanks)."""
    size = int(obs["size"])
    cells = {c["square"]: c for c in obs["cells"]}
    heroes: dict[str, list[int]] = {}
    for h in obs["heroes"]:
        if h["alive"]:
            heroes.setdefault(h["square"], []).append(int(h["seat"]))
    out = Text()
    out.append("    " + "".join(f"{chr(97 + c):^8}" for c in range(size)) + "\n", style="bold")
    out.append("    (tiles: ? face down, K key; below: heroes 1-4, tokens ● face down, "
               "¹-⁵ monster level, T trap, x blank, $ dropped loot)\n", style="dim")
    for r in range(size):
        top = Text(f"{r + 1:>3} ")
        bottom = Text("    ")
        for c in range(size):
            sq = f"{chr(97 + c)}{r + 1}"
            cell = cells[sq]
            if cell["removed"]:
                top.append(" ░░░░░░ ", style="dim")
                bottom.append(" ░░░░░░ ", style="dim")
                continue
            if cell.get("tower"):
                label, style = "TOWER ", "bold magenta"
            elif cell["flipped"]:
                name = str(cell.get("tile", "")).replace("_", " ")[:5]
                label = f"{name:<5}" + ("K" if cell.get("key") else " ")
                style = "green" if not cell.get("key") else "bold yellow"
            else:
                label, style = ("  ?  K" if cell.get("key") else "  ?   "), "cyan"
            if sq == obs["entrance_square"]:
                style += " reverse"
            top.append(f"[{label}]", style=style)
            line = "".join(str(s) for s in heroes.get(sq, []))
            tokens = Text()
            for t in cell["tokens"]:
                if "kind" in t:
                    glyph = TOKEN_GLYPH[t["kind"]]
                    tokens.append(glyph, style="bold red" if t["up"] else "red")
                else:
                    tokens.append("●", style="red")
            if cell.get("items") or cell.get("keys"):
                tokens.append("$", style="yellow")
            bottom.append(" ")
            bottom.append(f"{line:<3}", style="bold white on blue" if line else "")
            room = 3 - len(tokens.plain)
            bottom.append_text(tokens[:3] if room < 0 else tokens)
            bottom.append(" " * max(room, 0) + " ")
        out.append_text(top)
        out.append("\n")
        out.append_text(bottom)
        out.append("\n")
    return out


def render_info(obs: Mapping[str, Any]) -> Text:
    out = Text()
    w = obs["wizard"]
    out.append("Wizard  ", style="bold magenta")
    out.append(f"wheel {w['wheel']}/{w['wheel_max']}  mana left {w['mana_left']}  "
               f"hand {w['hand_size']}  deck {w['deck_size']}\n")
    if "hand" in w:
        out.append("  your hand: " + ", ".join(w["hand"]) + "\n", style="magenta")
    if w.get("opening"):
        out.append("  opening draw: " + ", ".join(w["opening"]) + "\n", style="magenta")
    keys = f"keys found {obs['keys_found']}, needed {obs['keys_needed']}"
    door = "the tower door is OPEN" if obs["door_open"] else "the tower door is shut"
    out.append(f"{keys}; {door}{'; RAGE!' if obs['rage'] else ''}\n")
    for h in obs["heroes"]:
        style = "bold" if h["seat"] == obs["seat"] else ""
        if not h["alive"]:
            out.append(f"Hero {h['seat']}  dead\n", style="dim")
            continue
        flags = [f for f in ("frozen", "stuck") if h[f]] + (["ready"] if h["committed"] else [])
        out.append(f"Hero {h['seat']}  {h['hp']:>2} hp  at {h['square']}  keys {h['keys']}  "
                   f"combat +{h['combat_bonus']} traps +{h['save_bonus']}"
                   f"{'  (' + ', '.join(flags) + ')' if flags else ''}\n", style=style)
        gear = h["equipped"] + [f"({c})" for c in h["hand"]]
        if gear:
            out.append("   " + ", ".join(gear) + "\n", style="dim")
    if obs.get("my_move"):
        out.append(f"Your chosen move: {obs['my_move']}\n", style="yellow")
    d = obs.get("decision") or {}
    if d.get("kind") == "keep":
        out.append("Loot drawn: " + ", ".join(d["cards"]) + "\n", style="yellow")
    return out


class Curtain(ModalScreen[None]):
    """Covers the screen while the keyboard passes to the next human seat."""

    DEFAULT_CSS = """
    Curtain { align: center middle; background: $background; }
    #curtain-box { width: 60; height: auto; border: thick $accent; padding: 1 2; }
    """
    BINDINGS = [Binding("enter", "ready", "I am ready"), Binding("q", "app.quit", "Quit")]

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        text = Text()
        text.append(f"Hand over to {seat_name(self.seat)}.\n\n", style="bold")
        text.append("Everyone else look away. Press Enter when only "
                    f"{seat_name(self.seat)} is watching.")
        yield Static(text, id="curtain-box")

    def action_ready(self) -> None:
        self.dismiss()


class WizardApp(App[None]):
    TITLE = "The Wizard's Labyrinth"
    CSS = """
    Screen { layout: vertical; }
    #status { height: 2; background: $primary-background; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: auto; min-width: 50; }
    #board { height: auto; }
    #info { height: auto; padding: 0 1; }
    #right { width: 1fr; min-width: 30; }
    #actions { height: 1fr; max-height: 16; border: round $accent; }
    #typed { height: 3; }
    #log { height: 1fr; border: round $secondary; }
    """
    BINDINGS = [Binding("q", "quit", "Quit")]
    AUTO_FOCUS = "#actions"

    def __init__(self, params: Any = None, seed: int | None = None,
                 seats: Mapping[int, str] | None = None) -> None:
        """`seats` maps seat numbers to 'human' or a bot name ('heuristic', 'random'); seats
        left out are human."""
        super().__init__()
        self.game = get_game("wizard")
        self.params = params if params is not None else self.game.default_params()
        self.seed = seed if seed is not None else random.randrange(1_000_000)
        self.state: Any = self.game.new_state(self.params, self.seed)
        n = self.state.num_players
        self.seat_kinds = {s: (seats or {}).get(s, "human") for s in range(n)}
        self.agents: dict[int, Agent] = {
            s: make_agent(self.game, kind) for s, kind in self.seat_kinds.items() if kind != "human"
        }
        self.humans = [s for s, kind in self.seat_kinds.items() if kind == "human"]
        self.rng = Chance(self.seed + 17)
        self.viewer: int | None = None
        self.log_lines: list[str] = []
        self.curtain_up = False

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="board")
                yield Static(id="info")
            with Vertical(id="right"):
                yield OptionList(id="actions")
                yield Input(placeholder="or type an action, e.g. place m3 c4", id="typed")
                yield RichLog(id="log", wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#actions", OptionList).border_title = "Your options"
        self.query_one("#log", RichLog).border_title = "What happened"
        seats = ", ".join(f"{seat_name(s)}: {k}" for s, k in self.seat_kinds.items())
        self.log_event(Event("new_game", f"New game, seed {self.seed} ({seats}).", {}))
        self.advance()

    # -- flow ------------------------------------------------------------------------------
    def log_event(self, event: Event) -> None:
        self.log_lines.append(event.text)
        style = {"combat": "bold", "death": "bold red", "game_over": "bold yellow",
                 "key_found": "yellow", "rage": "bold red"}.get(event.kind, "")
        self.query_one("#log", RichLog).write(Text(event.text, style=style))

    def advance(self) -> None:
        """Let bots play until a human must act or the game ends, then show that seat."""
        steps = 0
        while not self.state.is_terminal and self.state.current_player in self.agents:
            seat = self.state.current_player
            action = self.agents[seat].choose(self.state, self.rng)
            for e in self.state.apply(action):
                self.log_event(e)
            steps += 1
            if steps > 100_000:
                raise RuntimeError("bots do not finish")
        if self.state.is_terminal:
            self.viewer = 0 if self.humans else None
            self.refresh_view()
            return
        seat = self.state.current_player
        if seat != self.viewer and len(self.humans) > 1:
            self.viewer = None
            self.refresh_view()  # nothing secret on screen behind the curtain
            self.curtain_up = True
            self.push_screen(Curtain(seat), lambda _: self._reveal(seat))
            return
        self.viewer = seat
        self.refresh_view()

    def _reveal(self, seat: int) -> None:
        self.curtain_up = False
        self.viewer = seat
        self.refresh_view()
        self.query_one("#actions", OptionList).focus()

    def refresh_view(self) -> None:
        st = self.state
        status = self.query_one("#status", Static)
        board = self.query_one("#board", Static)
        info = self.query_one("#info", Static)
        actions = self.query_one("#actions", OptionList)
        actions.clear_options()
        if st.is_terminal:
            obs = st.observation(0)
            status.update(Text(f"Game over after {st.round} rounds: "
                               f"{self._winner_text()}  (q quits)", style="bold yellow"))
            board.update(render_board(obs))
            info.update(render_info(obs))
            return
        if self.viewer is None:
            status.update(Text(f"Round {st.round}: {seat_name(st.current_player)} is next.",
                               style="bold"))
            board.update(Text("(hidden while the keyboard changes hands)", style="dim"))
            info.update("")
            return
        obs = st.observation(self.viewer)
        kind = obs["decision"].get("kind", "")
        line = Text(f"Round {st.round} - {seat_name(self.viewer)}: ", style="bold")
        line.append(PROMPTS.get(kind, kind))
        if kind == "place" and "tokens" in obs["decision"]:
            line.append(f"  (left: {', '.join(obs['decision']['tokens'])})")
        if kind == "retreat":
            line.append(f"  (hero {obs['decision']['hero']})")
        status.update(line)
        board.update(render_board(obs))
        info.update(render_info(obs))
        actions.add_options([Option(str(a), id=str(a)) for a in st.legal_actions()])
        actions.highlighted = 0

    def _winner_text(self) -> str:
        return {"wizard": "the wizard wins!", "heroes": "the heroes win!",
                "draw": "a draw (the round limit)."}.get(self.state.winner, "")

    def play(self, text: str) -> bool:
        if self.state.is_terminal or self.viewer != self.state.current_player:
            return False
        try:
            events = self.state.apply(self.state.parse_action(text))
        except IllegalAction as err:
            self.log_event(Event("illegal", f"Not possible: {err}", {}))
            return False
        for e in events:
            self.log_event(e)
        self.advance()
        return True

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        if message.option.id:
            self.play(str(message.option.id))

    def on_input_submitted(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        message.input.value = ""
        if text:
            self.play(text)


def run_wizard(params: Any, seed: int | None, seats: Mapping[int, str]) -> None:
    WizardApp(params, seed, seats).run()


def make_app(seed: int | None = None) -> WizardApp:
    """The menu's entry (`playtable play`): 3 players, you are hero 1, the wizard and hero 2
    are bots. `playtable play wizard` chooses players and seats."""
    game = get_game("wizard")
    params = game.params_type(players=3)
    return WizardApp(params, seed, seats={0: "heuristic", 2: "heuristic"})
