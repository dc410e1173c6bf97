"""`playtable play troll`: Angry Troll versus Magic Bridge in the terminal (Textual).

The app knows the game only through the protocol: `GAME.new_state`, `state.observation(0)`,
`state.legal_actions()`, `state.apply(...)` and the events' plain words. Keys: arrows move the
troll; s stomps; p, u (or c/t/h/k for one item of several), l start an action that an arrow (or, to
lay far away in the draft rules, a slot number) finishes; w waits; Esc cancels; n deals a new
game; ? shows the rules; q quits. The list of legal actions can also be clicked, or focused with
Tab and chosen with Enter.
"""

from __future__ import annotations

import random
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Markdown, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from playtable.core.errors import IllegalAction
from playtable.core.params import params_from_dict, resolve_params
from playtable.core.presentation import presentation
from playtable.core.protocol import Event, State
from playtable.core.records import Recorder
from playtable.core.registry import get_game
from playtable.tui import troll_view as view
from playtable.tui import troll_words as words
from playtable.tui.confirm_screen import ConfirmScreen, quit_or_ask
from playtable.tui.frame import note_if_screen_hidden, size_warning
from playtable.tui.recording import SAVE_BINDING, save_record
from playtable.tui.troll_rules import bridge_rules, rules_in_words
from playtable.tui.troll_screens import EndScreen, HelpScreen
from playtable.tui.troll_words import EVENT_STYLE, GROUPS, NOTHING_TO, PROMPTS


class BridgeView(Static, can_focus=True):
    """The bridge and the lines under it. Focusable so that the arrow keys reach the app."""


class TrollApp(App[None]):
    TITLE = "Angry Troll versus Magic Bridge"
    AUTO_FOCUS = "#board"
    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; max-height: 2; background: $primary-background; color: $text; }
    #main { height: 1fr; }
    #left { width: 57; }
    #board { height: auto; padding: 0 0; }
    #board:focus { background: $boost; }
    #hint { height: auto; max-height: 2; color: $warning; padding: 0 1; }
    #log { height: 1fr; border: round $secondary; min-height: 4; scrollbar-size-vertical: 1; }
    #right { width: 1fr; min-width: 22; }
    #actions { height: auto; max-height: 14; border: round $accent; padding: 0 0; }
    #reference { height: 1fr; border: round $secondary; scrollbar-size-vertical: 1; }
    #reference-text { padding: 0 1; margin: 0; }
    """
    BINDINGS = [
        Binding("left", "direction('left')", "Move", show=False),
        Binding("right", "direction('right')", "Move", show=False),
        Binding("up", "direction('up')", "Move", show=False),
        Binding("down", "direction('down')", "Move", show=False),
        Binding("s", "verb('stomp')", "Stomp", show=False),
        Binding("p", "verb('pick')", "Pick up", show=False),
        Binding("u", "verb('use')", "Use", show=False),
        Binding("c", "verb('club')", "Club", show=False),
        Binding("t", "verb('throw')", "Throw", show=False),
        Binding("h", "verb('shovel')", "Shovel", show=False),
        Binding("k", "verb('wake')", "Wake", show=False),
        Binding("l", "verb('lay')", "Lay down", show=False),
        Binding("w", "verb('wait')", "Wait", show=False),
        *[Binding(str(n), f"digit({n})", "Slot", show=False) for n in range(1, 7)],
        Binding("escape", "cancel", "Cancel"),
        Binding("n", "new_game", "New game"),
        Binding("question_mark", "help", "Rules"),
        Binding("q", "ask_quit", "Quit"),
        SAVE_BINDING,
    ]

    def __init__(self, params: Any = None, seed: int | None = None, state: State | None = None,
                 record_path: str | None = None) -> None:
        """A new game with `params` (the seed's rules if None) and `seed` (random if None), or,
        given `state`, that position played on (its own parameters; `seed` is only shown)."""
        super().__init__()
        self.game = get_game("troll")
        self.seed = seed if seed is not None else random.randrange(1_000_000)
        self.from_position = state is not None
        if state is not None:
            self.params = params_from_dict(self.game.params_type, state.to_json()["params"])
            self.state: State = state
        else:
            self.params = params if params is not None else self.game.default_params()
            self.state = self.game.new_state(self.params, self.seed)
        self.pending: str | None = None
        self.pending_column: int | None = None
        self.hint_message = ""
        self.log_lines: list[str] = []
        self.last_end_text = ""
        self.actions_played = 0
        self.record_path = record_path
        self.recorder: Recorder | None = None

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BridgeView(id="board")
                yield Static(id="hint")
                yield RichLog(id="log", wrap=True, min_width=20)
            with Vertical(id="right"):
                yield OptionList(id="actions")
                with VerticalScroll(id="reference"):
                    yield Markdown(bridge_rules(self.params), id="reference-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#log", RichLog).border_title = "What happened"
        self.query_one("#actions", OptionList).border_title = "Your options"
        self.query_one("#reference", VerticalScroll).border_title = "How to play (? with keys)"
        self._start()

    def _start(self) -> None:
        self.query_one("#log", RichLog).clear()
        self.log_lines = []
        self.actions_played = 0
        # a record is game + parameters + seed + actions: a game from a saved position has none
        self.recorder = None if self.from_position else Recorder(self.game.id, self.params, self.seed)
        start = "A saved position" if self.from_position else f"New game, seed {self.seed}"
        rules = rules_in_words(self.params)  # in words, never `extra_per_slot=2`
        self.log_event(Event("new_game", f"{start}{': ' + rules if rules else ''}.", {}))
        if not self.from_position and self.params == self.game.default_params():
            self.log_event(Event("note", "These are the designer's standard rules, the hardest. New "
                                 "here? Choose 'tutorial' or 'plus-one' in the menu (playtable play), "
                                 "or run playtable play troll --variant tutorial. ? shows the rules.", {}))
        for event in () if self.from_position else self.state.setup_events:
            self.log_event(event)
        self.hint_message = "Your turn: two actions. Arrow keys move; the list on the right shows the rest."
        self.refresh_view()

    # -- drawing ----------------------------------------------------------------------------
    @property
    def obs(self) -> dict[str, Any]:
        return self.state.observation(0)

    def legal_texts(self) -> list[str]:
        return [str(a) for a in self.state.legal_actions()]

    def refresh_view(self) -> None:
        obs = self.obs
        origin = "saved position" if self.from_position else f"seed {self.seed}"
        small = size_warning(self.size.width, self.size.height)
        self.query_one("#status", Static).update(
            Text(small, style="bold red") if small else view.status_text(obs, origin))
        board = view.render_bridge(obs)
        board.append("\n")
        board.append_text(view.info_text(obs))
        self.query_one("#board", BridgeView).update(board)
        self.query_one("#hint", Static).update(view.colour_cards(self.hint_message))
        legal = self.legal_texts()
        actions = self.query_one("#actions", OptionList)
        actions.clear_options()
        actions.add_options([Option(words.action_line(obs, t, legal), id=t) for t in legal])
        if self.state.is_terminal:
            actions.add_option(Option(Text("n   start a new game", style="bold"), id="__new__"))

    def log_event(self, event: Event) -> None:
        if event.kind == "turn":
            text = Text(f"── {event.text.rstrip('.')} ──", style="bold")
        else:
            text = view.colour_cards(event.text, EVENT_STYLE.get(event.kind, ""))
        if event.kind in ("won", "lost"):
            self.last_end_text = event.text
        self.log_lines.append(text.plain)
        self.query_one("#log", RichLog).write(text)

    def hint(self, message: str, bad: bool = False) -> None:
        self.hint_message = message
        self.query_one("#hint", Static).update(view.colour_cards(message))
        if bad:
            self.bell()

    # -- playing ----------------------------------------------------------------------------
    def play(self, text: str, confirmed: bool = False) -> bool:
        """Apply the legal action whose canonical text is `text`; False (nothing changes) if
        it is not legal now, or if the game warns about it (`action_warning`: it loses on the
        spot or risks the troll) and the player has not confirmed it yet: then a dialog asks, and
        a yes plays it."""
        legal = {str(a): a for a in self.state.legal_actions()}
        if text not in legal:
            self.hint(f"'{text}' is not possible now.", bad=True)
            return False
        warning = None if confirmed else presentation(self.state).action_warning(legal[text])
        if warning:
            self.pending, self.pending_column = None, None

            def answered(yes: bool | None) -> None:
                if yes:
                    self.play(text, confirmed=True)
                else:
                    self.hint(f"Not played: {text}. Choose another action.")

            self.push_screen(ConfirmScreen(f"Really {text}?", warning), answered)
            return False
        self.pending, self.pending_column = None, None
        try:
            events = list(self.state.apply(legal[text]))
        except IllegalAction as err:  # the game disagrees with its own legal list: say so
            self.hint(str(err), bad=True)
            return False
        self.actions_played += 1
        if self.recorder is not None:
            self.recorder.add(text)
        for event in events:
            self.log_event(event)
        if self.state.is_terminal:
            self.hint_message = "The game is over. n: new game, q: quit."
        else:
            self.hint_message = self._summary(events)
        self.refresh_view()
        if self.state.is_terminal:
            self.show_end()
        return True

    def _summary(self, events: list[Event]) -> str:
        """The hint after an action: how many actions are left, or, when a new turn began,
        what fled and what awoke (the log has the whole story)."""
        turns = [i for i, e in enumerate(events) if e.kind == "turn"]
        if not turns:
            left = self.obs["actions_left"]
            return f"{left} action{'s' if left > 1 else ''} left this turn."
        fled = [e.text for e in events[:turns[-1]] if e.kind in ("fled", "fell")]
        woke = [e.text for e in events[turns[-1] + 1:]
                if e.kind in ("awakened", "flew_away", "no_brick", "no_awakening")]
        return " ".join([*fled, f"{events[turns[-1]].text.rstrip('.')}:", *woke, "Two actions."])

    def candidates(self, group: str) -> list[str]:
        verbs = GROUPS[group]
        return [t for t in self.legal_texts() if words.split_action(t)[0] in verbs]

    def _direction_of(self, text: str) -> str | None:
        verb, direction, slot = words.split_action(text)
        if verb == "lay" and slot is not None:
            return view.direction_to(view.slot_of(self.obs["troll"]), slot)
        return direction or None

    def _game_over(self) -> bool:
        if self.state.is_terminal:
            self.hint("The game is over. n: new game, q: quit.", bad=True)
            return True
        return False

    def action_verb(self, verb: str) -> None:
        if self._game_over():
            return
        self.pending, self.pending_column = None, None
        if verb in ("stomp", "wait"):
            if verb in self.legal_texts():
                self.play(verb)
            else:
                self.hint(NOTHING_TO[verb], bad=True)
            return
        found = self.candidates(verb)
        if not found:
            self.hint(NOTHING_TO.get(verb, f"You can't {verb} now."), bad=True)
            return
        self.pending = verb
        ways = sorted({self._direction_of(t) or "" for t in found} - {""}, key=list(view.ARROW).index)
        keys = " ".join(view.ARROW[w] for w in ways)
        extra = " or a slot number 1-6" if any(self._direction_of(t) is None for t in found) else ""
        self.hint(f"{PROMPTS[verb]} Press {keys}{extra} (Esc cancels).")

    def action_direction(self, direction: str) -> None:
        if self._game_over():
            return
        if self.pending == "lay" and self.pending_column is not None:
            if direction in ("up", "down"):
                row = "upper" if direction == "up" else "lower"
                self.play(f"lay {row} {self.pending_column}")
            else:
                self.hint("Press ↑ for the upper row or ↓ for the lower row.", bad=True)
            return
        if self.pending:
            matches = [t for t in self.candidates(self.pending) if self._direction_of(t) == direction]
            if len(matches) == 1:
                self.play(matches[0])
            elif not matches:
                self.hint(f"Not {direction}. {PROMPTS[self.pending]} (Esc cancels)", bad=True)
            else:
                keys = " or ".join(f"{words.VERB_KEY[words.split_action(t)[0]]} to "
                                   f"{words.split_action(t)[0]}" for t in matches)
                self.hint(f"Two cards can go {direction}: press {keys}.")
            return
        text = f"move {direction}"
        if text in self.legal_texts():
            self.play(text)
        else:
            self.hint(self._why_not_move(direction), bad=True)

    def _why_not_move(self, direction: str) -> str:
        obs = self.obs
        troll = view.slot_of(obs["troll"])
        target = view.neighbour(troll, direction)
        if target is None:
            return f"The troll can't step {direction}: that is off the bridge."
        if view.stack_at(obs, target)["height"] == 0:
            return f"No brick at {target[0]} {target[1]}: the troll must stand on a brick."
        if target in [view.slot_of(v) for v in obs.get("visited", [])]:
            return f"The troll already stood on {target[0]} {target[1]} this turn."
        return f"The troll can't move {direction} now."

    def action_digit(self, number: int) -> None:
        if self._game_over():
            return
        if self.pending != "lay":
            self.hint("Slot numbers are for laying a brick down far away (l, then 1-6).", bad=True)
            return
        matches = [t for t in self.candidates("lay") if t.endswith(f" {number}")]
        if len(matches) == 1:
            self.play(matches[0])
        elif matches:
            self.pending_column = number
            self.hint(f"Lay it at upper {number} (↑) or lower {number} (↓)?")
        else:
            self.hint(f"You can't lay the brick in column {number}.", bad=True)

    def action_cancel(self) -> None:
        if self.pending:
            self.pending, self.pending_column = None, None
            self.hint("Cancelled.")
        else:
            self.query_one("#board", BridgeView).focus()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        chosen = message.option.id
        if chosen == "__new__":
            self.action_new_game()
        elif chosen:
            self.play(chosen)
        self.query_one("#board", BridgeView).focus()  # so the arrow keys move the troll again

    # -- the end, new games, help -----------------------------------------------------------
    def show_end(self) -> None:
        tip = ""
        if self.obs.get("outcome") == "loss" and self.params == self.game.default_params():
            tip = ("The standard rules are the designer's hardest (the best bots win few of them). "
                   "For a gentler bridge choose 'tutorial' or 'plus-one' in the menu, or run "
                   "playtable play troll --variant tutorial.")
        self.push_screen(EndScreen(self.obs, self.last_end_text, tip))

    def action_new_game(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.randrange(1_000_000)
        self.from_position = False
        self.state = self.game.new_state(self.params, self.seed)
        self.pending, self.pending_column = None, None
        self._start()

    def action_save_record(self) -> None:
        self.hint(save_record(self.recorder, self.record_path))

    def on_resize(self) -> None:
        if self.query("#status"):
            self.refresh_view()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(bridge_rules(self.params)))

    def action_ask_quit(self) -> None:
        """q: quit, asking first while a game is in progress."""
        quit_or_ask(self, not self.state.is_terminal and bool(self.actions_played))


def make_app(seed: int | None = None, variant: str | None = None) -> TrollApp:
    """The menu's way in: the standard rules or a named variant, a given or random seed."""
    game = get_game("troll")
    return TrollApp(resolve_params(game.params_type, game.variants, variant) if variant else None, seed)


def run_troll(params: Any, seed: int | None, state: State | None = None,
              record_path: str | None = None) -> None:
    """`playtable play troll`: play until the player quits (from `state` if given); Ctrl+S
    saves the game's record (to `record_path` if given)."""
    note_if_screen_hidden()
    TrollApp(params, seed, state=state, record_path=record_path).run()
