"""Rotator: parameters, actions and the game state (the protocol face of `engine`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from playtable.core import checks
from playtable.core.chance import Chance
from playtable.core.errors import BadParameter, BadPosition, IllegalAction
from playtable.core.presentation import Presentation
from playtable.core.protocol import TERMINAL, Event, State, params_as_dict
from playtable.core.words import plural
from playtable.games.rotator.board import (
    BOARD_TEXT_MAX,
    SAMPLE_NAMES,
    Board,
    board_problems,
    cell_name,
    parse_board,
    parse_cell,
)
from playtable.games.rotator.engine import (
    DIRECTION_NAMES,
    DRILL,
    LOST,
    PHASE_NAMES,
    START,
    WON,
    Core,
    Engine,
    Log,
    describe_cells,
    down_of,
    sorted_cells,
)

Level = Literal["any", "easy", "medium", "hard"]


@dataclass(frozen=True)
class RotatorParams:
    """Rotator's rules and setup. Defaults are the seed's rules (RULES.md)."""

    # Remote bounds (`core.params`): a web client names a shipped board or sends its text,
    # never a path; the numbers are the tuner's dials and the limits the tests use. A board of a
    # given level is found among up to `game.LEVEL_ATTEMPTS` generated boards, each solved:
    # 6-8 s at level=hard with these dials at their dearest, 11-15 s to give up when they rule
    # the level out (benchmarks/remote_bounds.py, on the shared 2-core machine, under load).
    board: str = field(default="", metadata={
        "doc": "a board: a sample name (easy, medium, hard), a board file, or the board's text "
               "itself (with its line breaks); empty = generate one from the seed",
        "names_file": True, "shipped": SAMPLE_NAMES, "max_len": BOARD_TEXT_MAX})
    level: Level = field(default="any", metadata={
        "doc": "when generating: any legal board, or a winnable one of this difficulty"})
    placement: Literal["node", "territory"] = field(default="node", metadata={
        "doc": "reading of the node placement rule (RULES.md I1): 'node' = the node is off "
               "the edge; 'territory' = its whole diamond keeps a buffer row from the edge"})
    # The two numbers the seed fixes for the auger ("only 10 Boost Spaces", "no more than 3
    # spaces at any one time") are the design's dials: the tuner searches them (lab/space.py).
    # The generator's level is left out of the default space: a level that no board reaches
    # under the other dials fails the game rather than the parameters' check (RULES.md I1);
    # `--param-space level=easy,medium,hard` adds it by hand.
    boost_total: int = field(default=10, metadata={"doc": "boost spaces for the whole game",
                                                   "space": (0, 20), "range": (0, 20)})
    max_drill: int = field(default=3, metadata={
        "doc": "most spaces drilled in one turn (one standard + boosts)", "space": (1, 5),
        "range": (1, 5)})
    turn_limit: int = field(default=200, metadata={
        "doc": "the game is lost when this many turns pass without a win (0 = no limit)",
        "range": (0, 1000)})
    allow_trivial: bool = field(default=False, metadata={
        "doc": "let the generator keep boards won by their first move (RULES.md I1)"})

    def validate(self) -> None:
        if self.boost_total < 0:
            raise BadParameter("boost_total must be 0 or more")
        if self.max_drill < 1:
            raise BadParameter("max_drill must be 1 or more")
        if self.turn_limit < 0:
            raise BadParameter("turn_limit must be 0 or more")
        if self.placement == "territory" and not self.allow_trivial and not self.board:
            # RULES.md I1: under this reading every legal board has an all-air column
            raise BadParameter("placement=territory makes every board trivial (RULES.md I1): "
                               "set allow_trivial=true, or use the variant territory-buffer")


@dataclass(frozen=True)
class Start:
    """Pick the square to move from (the first move, or after capturing a node)."""

    cell: int

    def __str__(self) -> str:
        return f"start {cell_name(self.cell)}"


@dataclass(frozen=True)
class Drill:
    """Drill `spaces` spaces this turn (0 skips drilling; more than 1 uses boost spaces)."""

    spaces: int

    def __str__(self) -> str:
        return f"drill {self.spaces}"


Action = Start | Drill


def parse_action_text(text: str) -> Action:
    """`start C1` (or just `C1`), `drill 2` (or `d2`, `2`)."""
    words = checks.action_text(text).strip().lower().split()
    try:
        if len(words) == 2 and words[0] == "start":
            return Start(parse_cell(words[1]))
        if len(words) == 2 and words[0] == "drill" and words[1].isdigit():
            return Drill(int(words[1]))
        if len(words) == 1 and words[0].isdigit():
            return Drill(int(words[0]))
        if len(words) == 1 and words[0].startswith("d") and words[0][1:].isdigit():
            return Drill(int(words[0][1:]))
        if len(words) == 1:
            return Start(parse_cell(words[0]))
    except ValueError as err:
        raise IllegalAction(str(err)) from None
    raise IllegalAction(f"'{text}' is not a Rotator action (try 'start C1' or 'drill 2')")


_EVENT_TEXT = {
    "start": lambda d: f"turn {d['turn']}: you start from {cell_name(d['cell'])}",
    "fall": lambda d: f"you fall to {cell_name(d['to'])} through {describe_cells(d['cells'])}",
    "collapse": lambda d: f"collapse: {describe_cells(d['cells'])} turn to solid rock",
    "drill": lambda d: (
        f"you drill {describe_cells(d['cells'])}"
        + (f", spending {plural(d['boost'], 'boost space')} ({d['boosts_left']} left)"
           if d["boost"] else "")
    ),
    "capture": lambda d: (
        f"you capture the control node at {cell_name(d['node'])}; its territory opens"
        " -- next move from any of its spaces"
    ),
    "rotate": lambda d: f"the board rotates: turn {d['turn']}, down is now board-{d['down']}",
    "win": lambda d: f"you reach the far end at {cell_name(d['cell'])} on turn {d['turn']}: you win",
    "loss": lambda d: (
        f"{cell_name(d['cell'])} collapses with you inside: you lose"
        if d["reason"] == "collapse"
        else f"turn {d['turn']} is past the turn limit: you lose"
    ),
}


def _event(kind: str, data: dict[str, Any]) -> Event:
    return Event(kind, _EVENT_TEXT[kind](data), data)


HINT_MAX_STATES = 100_000
"""A hint's search stops here (a few seconds at worst) and gives no hint: from a lost position
the solver must otherwise exhaust every line before it can say so."""


class RotatorState(Presentation, State):
    """A Rotator position: the board, the engine's Core tuple, and the rules."""

    game_id: ClassVar[str] = "rotator"

    def __init__(self, params: RotatorParams, board: Board, core: Core | None = None,
                 chance: Chance | None = None, reason: str = "") -> None:
        self.params = params
        self.board = board
        self.engine = Engine(board, params.boost_total, params.max_drill, params.turn_limit)
        self.core = core if core is not None else self.engine.initial()
        self.chance = chance if chance is not None else Chance(0)
        self.reason = reason

    # -- protocol ---------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 1

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal else 0

    @property
    def is_terminal(self) -> bool:
        return self.core.phase in (WON, LOST)

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self.core.phase]

    @property
    def down(self) -> str:
        return DIRECTION_NAMES[down_of(self.core.turn)]

    def legal_actions(self) -> list[Any]:
        s = self.core
        if s.phase == START:
            return [Start(c) for c in sorted_cells(s.choices)]
        if s.phase == DRILL:
            return [Drill(k) for k in range(self.engine.drill_run(s) + 1)]
        return []

    def parse_action(self, text: str) -> Any:
        return parse_action_text(text)

    def require_legal(self, action: Any) -> None:
        s = self.core
        if s.phase in (WON, LOST):
            raise IllegalAction(f"the game is over; '{action}' cannot be played")
        if isinstance(action, Start):
            if s.phase != START:
                raise IllegalAction(f"'{action}': pick a start square only on the first move "
                                    "or after capturing a node; now drill 0-3")
            if not isinstance(action.cell, int) or not 0 <= action.cell < 200 or not (
                s.choices >> action.cell
            ) & 1:
                where = "the top row" if s.turn == 1 else "the captured node's territory"
                raise IllegalAction(f"'{action}': the start square must be on {where}")
            return
        if isinstance(action, Drill):
            if s.phase != DRILL:
                raise IllegalAction(f"'{action}': first pick a start square ('start C1')")
            run = self.engine.drill_run(s)
            if not isinstance(action.spaces, int) or not 0 <= action.spaces <= run:
                raise IllegalAction(
                    f"'{action}': you can drill 0 to {run} here (solid ground, the edge, a "
                    f"node, max {self.params.max_drill} a turn, {plural(s.boosts, 'boost space')} "
                    "left)")
            return
        raise IllegalAction(f"{action!r} is not a Rotator action")

    def apply(self, action: Any) -> list[Event]:
        self.require_legal(action)
        log = Log()
        if isinstance(action, Start):
            self.core = Core._make(self.engine.start(self.core, action.cell, log))
        else:
            self.core = Core._make(self.engine.drill(self.core, action.spaces, log))
        events = [_event(kind, data) for kind, data in log.items]
        for e in events:
            if e.kind == "loss":
                self.reason = str(e.data["reason"])
            elif e.kind == "win":
                self.reason = "far end reached"
        return events

    def action_warning(self, action: Any) -> str | None:
        """RULES.md "Warnings": a legal move after which the next turn's Fall lands you in a space
        that collapses in its Collapse step (seed "Making A Move", Step 2: "If you are within a
        space that collapses, the game ends"), or that passes the turn limit (I5). Rotator hides
        nothing and draws no chance, so trying the move on a copy tells exactly."""
        if self.is_terminal or action not in self.legal_actions():
            return None
        after = self.clone()
        loss = [e for e in after.apply(action) if e.kind == "loss"]
        if not loss:
            return None
        data = loss[0].data
        if data["reason"] == "collapse":
            return (f"'{action}' loses: after the board turns you land on {cell_name(data['cell'])},"
                    " which collapses at once (it was touched three turns ago).")
        return (f"'{action}' loses: turn {data['turn'] - 1} is the last one the turn limit"
                f" ({self.params.turn_limit}) allows.")

    def returns(self) -> list[float]:
        return [1.0 if self.core.phase == WON else 0.0]

    story_kinds = frozenset({"capture", "win", "loss"})
    """The end screen's key moments (RULES.md, "Front ends"); Rotator hides nothing to reveal."""

    def metrics(self) -> dict[str, float | int | str | bool]:
        s = self.core
        return {
            "won": s.phase == WON,
            "turns": s.turn,
            "boosts_used": self.params.boost_total - s.boosts,
            "row": (s.pos // self.board.cols + 1) if s.pos >= 0 else 0,
            "end": self.reason,
        }

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything: Rotator has no hidden information."""
        s = self.core
        return {
            "board": self.board.rows_text(),
            "solid": [cell_name(c) for c in sorted_cells(s.solid)],
            "ages": {
                **{cell_name(c): 0 for c in sorted_cells(s.cur)},
                **{cell_name(c): 1 for c in sorted_cells(s.m1)},
                **{cell_name(c): 2 for c in sorted_cells(s.m2)},
            },
            "player": cell_name(s.pos) if s.pos >= 0 else None,
            "turn": s.turn,
            "down": self.down,
            "boosts_left": s.boosts,
            "phase": self.phase,
            "choices": [cell_name(c) for c in sorted_cells(s.choices)],
            "reason": self.reason,
        }

    def public_observation(self) -> dict[str, Any]:
        """A spectator sees everything the player sees: Rotator has no hidden information."""
        return self.observation(0)

    def can_take_back(self, before: State) -> bool:
        """Any move may be taken back while the game goes on: Rotator draws nothing from
        chance and hides nothing (RULES.md, "Undo", an interpretation)."""
        return not self.is_terminal

    def story_figures(self) -> list[str]:
        """The end screen's figures in words: turns, boosts, and how far down the rock."""
        s = self.core
        used = self.params.boost_total - s.boosts
        row = f"; the driller ended on row {s.pos // self.board.cols + 1}" if s.pos >= 0 else ""
        boosts = f"{used} boost{'' if used == 1 else 's'}"
        return [f"{s.turn} turn{'' if s.turn == 1 else 's'} and {boosts} used{row}."]

    def end_text(self) -> str | None:
        if not self.is_terminal:
            return None
        s = self.core
        if s.phase == WON:
            return f"You reached the far end of the rock on turn {s.turn}: you win."
        if self.reason == "turn limit":
            return f"The turn limit of {self.params.turn_limit} turns passed without reaching the far end."
        where = cell_name(s.pos) if s.pos >= 0 else "your space"
        return f"{where} collapsed with you inside: you lose."

    def hint(self) -> tuple[Any, str] | None:
        """The first move of the solver's best line (fewest turns, then fewest boost spaces)."""
        from playtable.games.rotator.solver import solve_state

        if self.is_terminal:
            return None
        solution = solve_state(self, HINT_MAX_STATES)
        if not (solution.winnable and solution.actions):
            return None
        first = solution.actions[0]
        action = self.parse_action(first)
        # Why (a hint that only lit a button taught nothing): what this move does, told
        # by the very events it makes, and the win it leads to.
        done = [e.text for e in self.clone().apply(action) if e.kind not in ("start", "collapse")]
        return action, (
            f"{first}: {'; '.join(done) or 'nothing moves'}. Why: it is the first move of the best "
            f"line from here, which wins on turn {solution.turns}, spending "
            f"{plural(solution.boosts, 'boost space')} ({plural(len(solution.actions), 'move')} to go).")

    def determinize(self, seat: int, rng: Chance) -> RotatorState:
        return self.clone()

    def clone(self) -> RotatorState:
        return RotatorState(self.params, self.board, self.core, self.chance.clone(), self.reason)

    def to_json(self) -> dict[str, Any]:
        s = self.core
        return {
            "params": params_as_dict(self.params),
            "chance": self.chance.to_json(),
            "board": self.board.rows_text(),
            "solid": self.solid_rows(),
            "ages": self.age_rows(),
            "player": cell_name(s.pos) if s.pos >= 0 else None,
            "turn": s.turn,
            "boosts_left": s.boosts,
            "phase": self.phase,
            "choices": [cell_name(c) for c in sorted_cells(s.choices)],
            "reason": self.reason,
        }

    # -- JSON helpers -----------------------------------------------------------------------
    def solid_rows(self) -> list[str]:
        cols = self.board.cols
        return [
            "".join("#" if self.core.solid >> (r * cols + c) & 1 else "." for c in range(cols))
            for r in range(self.board.rows)
        ]

    def age_rows(self) -> list[str]:
        """Per cell: '-' untouched, '0' touched this turn, '1' last turn, '2' two turns ago."""
        s = self.core
        cols = self.board.cols
        out = []
        for r in range(self.board.rows):
            row = []
            for c in range(cols):
                i = r * cols + c
                row.append("0" if s.cur >> i & 1 else "1" if s.m1 >> i & 1 else
                           "2" if s.m2 >> i & 1 else "-")
            out.append("".join(row))
        return out


def _rows_mask(rows: Any, what: str, allowed: str, cols: int, nrows: int) -> dict[str, int]:
    if not isinstance(rows, list) or len(rows) != nrows or not all(
        isinstance(r, str) and len(r) == cols for r in rows
    ):
        raise BadPosition(f"'{what}' must be a list of {nrows} strings of {cols} characters")
    masks: dict[str, int] = {}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch not in allowed:
                raise BadPosition(f"'{what}' row {r + 1}: unexpected character {ch!r}")
            masks[ch] = masks.get(ch, 0) | 1 << (r * cols + c)
    return masks


def state_from_json(params: RotatorParams, data: dict[str, Any], chance: Chance) -> RotatorState:
    board_rows = data.get("board")
    if not isinstance(board_rows, list) or not all(isinstance(r, str) for r in board_rows):
        raise BadPosition("'board' must be a list of row strings")
    board = parse_board("\n".join(board_rows))
    problems = board_problems(board, params.placement)
    if problems:
        raise BadPosition(f"illegal board: {problems[0]}")
    n = board.rows
    solid = _rows_mask(data.get("solid"), "solid", "#.", board.cols, n).get("#", 0)
    ages = _rows_mask(data.get("ages"), "ages", "-012", board.cols, n)
    cur, m1, m2 = ages.get("0", 0), ages.get("1", 0), ages.get("2", 0)
    if solid & (cur | m1 | m2):
        raise BadPosition("a touched space cannot be solid (touched spaces are open)")
    phase_name = data.get("phase")
    if phase_name not in PHASE_NAMES:
        raise BadPosition(f"'phase' must be one of {', '.join(PHASE_NAMES)}")
    phase = PHASE_NAMES.index(phase_name)
    last_turn = params.turn_limit + 1 if params.turn_limit else None
    turn = checks.whole(data.get("turn"), "turn", 1, last_turn)
    boosts = checks.whole(data.get("boosts_left"), "boosts_left", 0, params.boost_total)
    if last_turn is not None and turn == last_turn and phase != LOST:
        raise BadPosition(f"turn {turn} is past the turn limit: the game must be lost")
    player = data.get("player")
    try:
        pos = -1 if player is None else parse_cell(str(player))
        choices_list = data.get("choices", [])
        if not isinstance(choices_list, list):
            raise BadPosition("'choices' must be a list of cell names")
        choices = 0
        for name in choices_list:
            choices |= 1 << parse_cell(str(name))
    except ValueError as err:
        raise BadPosition(str(err)) from None
    if pos < 0 and not (phase == START and turn == 1):
        raise BadPosition("'player' is missing: only the first move starts off the board")
    if pos >= 0 and solid >> pos & 1 and phase != LOST:
        raise BadPosition(f"the player at {cell_name(pos)} is inside solid rock")
    if phase == START and not choices:
        raise BadPosition("a 'start' phase needs 'choices'")
    core = Core(solid, cur, m1, m2, pos, turn, boosts, phase, choices if phase == START else 0)
    _check_player(board, core)
    reason = checks.text(data.get("reason", ""), "reason")
    return RotatorState(params, board, core, chance, reason)


def _check_player(board: Board, s: Core) -> None:
    """Where the player may stand in each phase (RULES.md rules 6-12): before the first move
    nowhere, picking from the top row; after a capture on the node, picking from its
    territory, all of it open; when drilling, on a touched open space resting on solid
    ground or the map's edge (Step 1, Fall, always ends there); after a win on the far row."""
    geo = Engine(board).geo
    touched = s.cur | s.m1 | s.m2
    if s.phase == START and s.turn == 1:
        if s.pos >= 0:
            raise BadPosition("before the first move the player is not on the board: 'player' "
                              "must be null")
        if s.choices != geo.top:
            raise BadPosition("the first move starts from any square of the top row: 'choices' "
                              "must be row 1")
        return
    if s.phase == START:
        if s.pos not in geo.nodes:
            raise BadPosition(f"a 'start' phase after turn 1 follows a capture: the player at "
                              f"{cell_name(s.pos)} must be on a control node")
        if s.choices != geo.territory[s.pos]:
            raise BadPosition(f"'choices' must be the territory of the captured node "
                              f"{cell_name(s.pos)}")
        if s.solid & s.choices:
            raise BadPosition("a captured node's territory is open: no choice may be solid")
    if s.phase in (START, DRILL, WON) and not touched >> s.pos & 1:
        raise BadPosition(f"the player at {cell_name(s.pos)} must stand on a touched space "
                          "(every space the player enters is marked)")
    if s.phase == DRILL:
        below = geo.nxt[down_of(s.turn)][s.pos]
        if below >= 0 and not s.solid >> below & 1:
            raise BadPosition(f"the player at {cell_name(s.pos)} stands over open space at "
                              f"{cell_name(below)}: the fall would have gone on")
    if s.phase == WON and not geo.far >> s.pos & 1:
        raise BadPosition(f"a won game ends on the far row, not at {cell_name(s.pos)}")
