"""`playtable play wizard`: The Wizard's Labyrinth in the terminal (Textual), hot-seat and bots.

The app knows the game only through the protocol: `observation(seat)`, `legal_actions()`,
`apply(...)` and the events' plain words. Each seat is a human or a bot. When the turn passes
from one human seat to another, a curtain hides the board ("hand over to Hero 2") until the next
player presses Enter, so no seat sees another's secrets (the wizard's hand and tokens, a hero's
committed move). The log shows only events, which are public.

Cards, items and rooms are shown by name (the observation's `names`), never by id.

Keys: Enter (or a click) chooses the highlighted option; Tab moves to a line where an action can
be typed (names or ids both work), Enter plays it and goes back to the list, Esc goes back
without playing; h gives a hint (the heuristic bot's move and why, in the log); ? shows the
rules; q quits (asking first during a game).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.errors import IllegalAction
from playtable.core.params import resolve_params
from playtable.core.presentation import presentation
from playtable.core.protocol import Agent, Event
from playtable.core.records import Recorder
from playtable.core.registry import get_game
from playtable.tui.confirm_screen import quit_or_ask
from playtable.tui.frame import note_if_screen_hidden, size_warning
from playtable.tui.recording import SAVE_BINDING, save_record
from playtable.tui.rules_screen import RulesScreen

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
KEYS = [
    ("↑ ↓, Enter", "choose an option from the list (a click works too)"),
    ("Tab", "type an action instead (e.g. move N); Enter plays it, Esc goes back to the list"),
    ("h", "hint: what the heuristic bot would do here, and why"),
    ("? / q", "these rules / quit (asks during a game)"),
]
_WORD = re.compile(r"[a-z][a-z0-9_]*")


def named(text: str, names: Mapping[str, str]) -> str:
    """`use health_potion hero2` -> `use Health Potion hero 2`: ids become the names players
    read (words not in `names` stay as they are)."""
    text = re.sub(r"\bhero(\d)\b", r"hero \1", text)
    return _WORD.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def from_names(text: str, names: Mapping[str, str]) -> str:
    """Typed text back to the canonical action: names (any case) become ids, `hero 2` `hero2`."""
    out = text.strip()
    for ident, name in sorted(names.items(), key=lambda kv: -len(kv[1])):
        out = re.sub(rf"\b{re.escape(name)}\b", ident, out, flags=re.IGNORECASE)
    return re.sub(r"\bhero (\d)\b", r"hero\1", out)


def tile_code(name: str) -> str:
    """A room's name in the 5 characters a board square has: short names whole, else the
    first letters of its words (`Ransacked Study` -> `RanSt`); the legend under the board gives
    every visible room's whole name."""
    if len(name) <= 5:
        return name
    parts = name.split()
    if len(parts) == 1:
        return name[:5]
    return (parts[0][:3] + parts[1][:2])[:5]


def seat_name(seat: int) -> str:
    """Seat `seat` as the game titles it ("the wizard", "Hero 2"): the words the web pages use."""
    return get_game("wizard").seat_title("wizard" if seat == 0 else f"hero{seat}")


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
    names: Mapping[str, str] = obs.get("names", {})
    rooms: dict[str, str] = {}
    out = Text()
    out.append("    " + "".join(f"{chr(97 + c):^8}" for c in range(size)) + "\n", style="bold")
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
                name = names.get(str(cell.get("tile", "")), str(cell.get("tile", "")))
                rooms[tile_code(name)] = (f"{name} (cards {cell.get('draw', 0):+d}, "
                                          f"wheel {cell.get('mana', 0):+d})")
                label = f"{tile_code(name):<5}" + ("K" if cell.get("key") else " ")
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
    if rooms:
        out.append("Rooms: ", style="bold")
        out.append("; ".join(f"{code} {what}" for code, what in sorted(rooms.items())) + "\n",
                   style="green")
    out.append("? face down  K key  ¹-⁵ monster level  ● hidden token  T trap  x blank  "
               "$ dropped loot  digits: heroes  reversed: the tower's entrance\n", style="dim")
    return out


def render_info(obs: Mapping[str, Any], hand_owner: str = "your") -> Text:
    """The wheel, the wizard's cards (to the wizard as `your hand`; `hand_owner` names them when
    they are revealed to someone else at the end), keys and door, and each hero."""
    names: Mapping[str, str] = obs.get("names", {})

    def listed(ids: list[str]) -> str:
        return ", ".join(names.get(i, i) for i in ids)

    out = Text()
    w = obs["wizard"]
    out.append("Wizard  ", style="bold magenta")
    out.append(f"mana wheel {w['wheel']}/{w['wheel_max']}  mana left {w['mana_left']}  "
               f"cards in hand {w['hand_size']}  deck {w['deck_size']}\n")
    if "hand" in w:
        label = "your hand" if hand_owner == "your" else f"{hand_owner} hand"
        out.append(f"  {label}: " + (listed(w["hand"]) or "no cards") + "\n", style="magenta")
    if w.get("opening"):
        out.append("  opening draw: " + listed(w["opening"]) + "\n", style="magenta")
    keys = f"keys found {obs['keys_found']} of {obs['keys_needed']} needed"
    door = "the tower door is OPEN" if obs["door_open"] else "the tower door is shut"
    out.append(f"{keys}; {door}{'; RAGE!' if obs['rage'] else ''}\n")
    words = {"frozen": "frozen: skips this turn", "stuck": "stuck on tokens: fights, cannot move",
             "ready": "move chosen"}
    for h in obs["heroes"]:
        style = "bold" if h["seat"] == obs["seat"] else ""
        if not h["alive"]:
            out.append(f"Hero {h['seat']}  dead\n", style="dim")
            continue
        flags = [words[f] for f in ("frozen", "stuck") if h[f]] + ([words["ready"]] if h["committed"] else [])
        out.append(f"Hero {h['seat']}  {h['hp']:>2} hp  at {h['square']}  keys {h['keys']}  "
                   f"fights +{h['combat_bonus']}  traps +{h['save_bonus']}"
                   f"{'  (' + '; '.join(flags) + ')' if flags else ''}\n", style=style)
        gear = []
        if h["equipped"]:
            gear.append("uses " + listed(h["equipped"]))
        if h["hand"]:
            gear.append("carries (" + listed(h["hand"]) + ")")
        if gear:
            out.append("   " + "; ".join(gear) + "\n", style="dim")
    if obs.get("my_move"):
        out.append(f"Your chosen move: {obs['my_move']}\n", style="yellow")
    d = obs.get("decision") or {}
    if d.get("kind") == "keep":
        out.append("Loot drawn: " + listed(d["cards"]) + "\n", style="yellow")
    return out


class Curtain(ModalScreen[None]):
    """Covers the screen while the keyboard passes to the next human seat."""

    DEFAULT_CSS = """
    Curtain { align: center middle; background: $background; }
    #curtain-box { width: 60; height: auto; border: thick $accent; padding: 1 2; }
    """
    BINDINGS = [Binding("enter", "ready", "I am ready"), Binding("q", "app.ask_quit", "Quit")]

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
    #status { height: auto; max-height: 3; background: $primary-background; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 46; scrollbar-size-vertical: 1; }
    #board { height: auto; }
    #info { height: auto; padding: 0 1; }
    #right { width: 1fr; min-width: 24; }
    #actions { height: 1fr; max-height: 16; border: round $accent; }
    #typed { height: 3; }
    #log { height: 1fr; border: round $secondary; padding: 0 1; scrollbar-size-vertical: 1; }
    """
    BINDINGS = [
        Binding("question_mark", "rules", "Rules"),
        Binding("h", "hint", "Hint"),
        Binding("q", "ask_quit", "Quit"),
        Binding("escape", "to_list", "Back to the list", show=False),
        SAVE_BINDING,
    ]
    AUTO_FOCUS = "#actions"

    def __init__(self, params: Any = None, seed: int | None = None,
                 seats: Mapping[int, str] | None = None, record_path: str | None = None) -> None:
        """`seats` maps seat numbers to 'human' or a bot name ('heuristic', 'random'); seats
        left out are human."""
        super().__init__()
        self.game = get_game("wizard")
        self.params = params if params is not None else self.game.default_params()
        self.seed = seed if seed is not None else random.randrange(1_000_000)
        self.state: Any = self.game.new_state(self.params, self.seed)
        self.record_path = record_path
        self.recorder = Recorder(self.game.id, self.params, self.seed)
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
        self.played = 0  # actions the humans have played: q asks first once there is one
        self.log_styled: list[Text] = []

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="board")
                yield Static(id="info")
            with Vertical(id="right"):
                yield OptionList(id="actions")
                yield Input(placeholder="or type an action", id="typed")
                with VerticalScroll(id="log"):
                    yield Static(id="log-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#actions", OptionList).border_title = "Your options"
        self.query_one("#log", VerticalScroll).border_title = "What happened"
        self.query_one("#left", VerticalScroll).styles.width = max(46, 6 + 8 * int(self.state.size))
        seats = ", ".join(f"{seat_name(s)}: {k}" for s, k in self.seat_kinds.items())
        self.log_event(Event("new_game", f"New game, seed {self.seed} ({seats}).", {}))
        self.advance()

    # -- flow ------------------------------------------------------------------------------
    def log_event(self, event: Event) -> None:
        self.log_lines.append(event.text)
        style = {"combat": "bold", "death": "bold red", "game_over": "bold yellow",
                 "key_found": "yellow", "rage": "bold red"}.get(event.kind, "")
        self.log_styled.append(Text(event.text, style=style))
        del self.log_styled[:-300]
        if self.is_running:  # wrapped at the panel's width, never cut off; newest at the bottom
            self.query_one("#log-text", Static).update(Text("\n").join(self.log_styled))
            self.query_one("#log", VerticalScroll).scroll_end(animate=False)

    def advance(self) -> None:
        """Let bots play until a human must act or the game ends, then show that seat."""
        steps = 0
        while not self.state.is_terminal and self.state.current_player in self.agents:
            seat = self.state.current_player
            action = self.agents[seat].choose(self.state, self.rng)
            applied = self.state.apply(action)
            self.recorder.add(action)
            for e in applied:
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
        typed = self.query_one("#typed", Input)
        actions.clear_options()
        small = size_warning(self.size.width, self.size.height)
        if st.is_terminal:
            obs = st.observation(0)
            owner = "your" if self.humans == [0] else "the wizard's"
            status.update(small or Text(f"Game over after {st.round} rounds: "
                                        f"{self._winner_text()}  (q quits)", style="bold yellow"))
            board.update(render_board(obs))
            info.update(render_info(obs, owner))
            typed.disabled = True
            actions.focus()
            return
        if self.viewer is None:
            status.update(small or Text(f"Round {st.round}: {seat_name(st.current_player)} is next.",
                                        style="bold"))
            board.update(Text("(hidden while the keyboard changes hands)", style="dim"))
            info.update("")
            return
        obs = st.observation(self.viewer)
        names: Mapping[str, str] = obs.get("names", {})
        kind = obs["decision"].get("kind", "")
        line = Text(f"Round {st.round} - {seat_name(self.viewer)}: ", style="bold")
        line.append(PROMPTS.get(kind, kind))
        if kind == "place" and "tokens" in obs["decision"]:
            line.append(f"  (left: {', '.join(obs['decision']['tokens'])})")
        if kind == "retreat":
            line.append(f"  ({seat_name(int(obs['decision']['hero']))})")
        status.update(Text(small, style="bold red") if small else line)
        board.update(render_board(obs))
        info.update(render_info(obs))
        legal = [str(a) for a in st.legal_actions()]
        actions.add_options([Option(named(t, names), id=t) for t in legal])
        actions.highlighted = 0
        typed.placeholder = f"type an action, e.g. {named(legal[0], names)}" if legal else ""

    def on_resize(self) -> None:
        if self.is_running and self.query("#status"):
            self.refresh_view()

    def _winner_text(self) -> str:
        return {"wizard": "the wizard wins!", "heroes": "the heroes win!",
                "draw": "a draw (the round limit)."}.get(self.state.winner, "")

    def play(self, text: str) -> bool:
        if self.state.is_terminal or self.viewer != self.state.current_player:
            return False
        names = self.state.observation(self.viewer).get("names", {})
        try:
            action = self.state.parse_action(from_names(text, names))
            events = self.state.apply(action)
        except IllegalAction as err:
            self.log_event(Event("illegal", f"Not possible: {named(str(err), names)}", {}))
            return False
        self.recorder.add(action)
        self.played += 1
        for e in events:
            self.log_event(e)
        self.advance()
        return True

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        if message.option.id:
            self.play(str(message.option.id))

    def on_input_submitted(self, message: Input.Submitted) -> None:
        """A typed action; once played, the keys go back to the list (so q, ? work again);
        a refused one stays in the line to be corrected."""
        text = message.value.strip()
        message.input.value = ""
        if text and self.play(text):
            self.action_to_list()

    def action_to_list(self) -> None:
        self.query_one("#actions", OptionList).focus()

    def action_save_record(self) -> None:
        """Ctrl+S: the record holds every seat's secret choices: it is for after the game."""
        self.log_event(Event("record", save_record(self.recorder, self.record_path), {}))

    def action_hint(self) -> None:
        """h: the game's hint for the seat on screen, in the log, its option highlighted."""
        st = self.state
        if st.is_terminal or self.viewer != st.current_player:
            return
        found = presentation(st).hint()
        if found is None:
            return
        action, text = found
        names = st.observation(self.viewer).get("names", {})
        self.log_event(Event("hint", f"Hint: {named(text, names)}", {}))
        actions = self.query_one("#actions", OptionList)
        for i in range(actions.option_count):
            if actions.get_option_at_index(i).id == str(action):
                actions.highlighted = i

    def action_rules(self) -> None:
        self.push_screen(RulesScreen("wizard", KEYS))

    def action_ask_quit(self) -> None:
        """q: quit, asking first while a game is in progress."""
        quit_or_ask(self, not self.state.is_terminal and bool(self.played))


def run_wizard(params: Any, seed: int | None, seats: Mapping[int, str],
               record_path: str | None = None) -> None:
    note_if_screen_hidden()
    WizardApp(params, seed, seats, record_path).run()


def make_app(seed: int | None = None, variant: str | None = None) -> WizardApp:
    """The menu's entry (`playtable play`): 3 players, you are hero 1, the wizard and hero 2
    are bots; the final rules or a named variant. `playtable play wizard` chooses players and
    seats."""
    game = get_game("wizard")
    params = resolve_params(game.params_type, game.variants, variant, ["players=3"])
    return WizardApp(params, seed, seats={0: "heuristic", 2: "heuristic"})
