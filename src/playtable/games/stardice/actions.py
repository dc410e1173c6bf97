"""Star Dice actions and piece names: the four action values (`Throw`, `Call`, `Hold`,
`Touch`) with their canonical text and `parse_action_text`, which reads that text back; the
seats and their names; and the naming of pieces (`die_names` for a hand, `kind_of` and
`owner_of` for a piece id such as 'F.d20a', 'borg' or 'K.t1'). Plain values and functions with
no state: every other module of the match builds on them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from playtable.core.checks import action_text
from playtable.core.errors import IllegalAction
from playtable.games.stardice.params import StarDiceParams

SEATS = ("F", "K")
SEAT_NAMES = ("Federation", "Klingon")
BORG = "borg"
BLANK = "blank"
"""Iteration 2, objective 1: the blank d6 dropped on the table at setup (`solitaire.py`)."""


# -- actions --------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Throw:
    """A throw. `piece` is the die's name in the thrower's hand ("d20a"), "borg", or "torpedo".
    The piece starts at (x, y) on the glass frame and leaves at `speed` (table widths/s) in
    direction `heading` (degrees, 0 = +x, 90 = +y), spinning `spin` rad/s. Values are kept in
    fixed decimals (thousandths; tenths for the angles and spin) so the text is canonical."""

    mode: Literal["roll", "slide", "torpedo"]
    piece: str
    x_milli: int
    y_milli: int
    heading_deci: int
    speed_milli: int
    spin_deci: int

    @property
    def x(self) -> float:
        return self.x_milli / 1000

    @property
    def y(self) -> float:
        return self.y_milli / 1000

    @property
    def heading(self) -> float:
        return self.heading_deci / 10

    @property
    def speed(self) -> float:
        return self.speed_milli / 1000

    @property
    def spin(self) -> float:
        return self.spin_deci / 10

    def __str__(self) -> str:
        # the text is asked for many times (menus, masks, records): written once, kept
        text: str | None = self.__dict__.get("_text")
        if text is None:
            head = "torpedo" if self.mode == "torpedo" else f"{self.mode} {self.piece}"
            text = (f"{head} at {self.x_milli / 1000:.3f},{self.y_milli / 1000:.3f} "
                    f"heading {self.heading_deci / 10:.1f} speed {self.speed_milli / 1000:.3f} "
                    f"spin {self.spin_deci / 10:.1f}")
            object.__setattr__(self, "_text", text)
        return text

    @staticmethod
    def make(mode: Literal["roll", "slide", "torpedo"], piece: str, x: float, y: float,
             heading: float, speed: float, spin: float = 0.0) -> Throw:
        # Throw(...) with the fields set directly: a frozen dataclass's __init__ sets each
        # field through object.__setattr__, and the menus make hundreds of throws a turn
        throw = object.__new__(Throw)
        throw.__dict__.update(
            mode=mode, piece=piece if mode != "torpedo" else "torpedo",
            x_milli=round(x * 1000), y_milli=round(y * 1000),
            heading_deci=round((heading % 360.0) * 10) % 3600, speed_milli=round(speed * 1000),
            spin_deci=round(spin * 10))
        return throw


@dataclass(frozen=True, order=True)
class Call:
    parity: Literal["odd", "even"]

    def __str__(self) -> str:
        return f"call {self.parity}"


@dataclass(frozen=True, order=True)
class Hold:
    """Iteration 9: decline to fire the torpedo after a d6."""

    def __str__(self) -> str:
        return "hold"


@dataclass(frozen=True, order=True)
class Touch:
    """A foul: the player touched the table so that the game's state changed. Final Rules:
    a forfeit (`touch`). Iteration 2-4 (`foul_rule=discard`): the player discards a die of
    their choice from hand (`touch d6a`)."""

    die: str = ""

    def __str__(self) -> str:
        return f"touch {self.die}" if self.die else "touch"


Action = Throw | Call | Hold | Touch

_NUM = r"(-?\d+(?:\.\d+)?)"
_THROW_RE = re.compile(
    rf"^(?:(roll|slide)\s+([a-z0-9]+)|(torpedo))\s+at\s+{_NUM}\s*,\s*{_NUM}\s+heading\s+{_NUM}"
    rf"\s+speed\s+{_NUM}\s+spin\s+{_NUM}$"
)


def parse_action_text(text: str) -> Action:
    t = " ".join(action_text(text).strip().lower().split())
    if t in ("call odd", "call even"):
        return Call("odd" if t.endswith("odd") else "even")
    if t == "hold":
        return Hold()
    if t == "touch":
        return Touch()
    if t.startswith("touch ") and re.fullmatch(r"[a-z0-9]+", t[6:]):
        return Touch(t[6:])
    m = _THROW_RE.match(t)
    if not m:
        raise IllegalAction(
            f"cannot read '{text}': expected 'call odd|even', 'hold', 'touch', or a throw like "
            "'roll d20a at 0.500,-0.030 heading 90.0 speed 1.200 spin 3.0'")
    mode: Literal["roll", "slide", "torpedo"]
    if m.group(3):
        mode, piece = "torpedo", "torpedo"
    else:
        mode = "roll" if m.group(1) == "roll" else "slide"
        piece = m.group(2)
    x, y, heading, speed, spin = (float(m.group(i)) for i in range(4, 9))
    if heading < 0 or heading >= 360:
        raise IllegalAction(f"heading {heading} must be in [0, 360)")
    return Throw.make(mode, piece, x, y, heading, speed, spin)

# -- piece names -----------------------------------------------------------------------------------


def die_names(params: StarDiceParams) -> list[str]:
    """Names of one player's dice in hand order: d20a, d20b, d12a, d8a, d6a, d6b, d6c."""
    counts: dict[str, int] = {}
    out = []
    for kind in params.dice:
        n = counts.get(kind, 0)
        counts[kind] = n + 1
        out.append(f"{kind}{chr(ord('a') + n)}")
    return out


def kind_of(die_id: str) -> str:
    """'F.d20a' -> 'd20'; 'borg' -> 'borg'; 'F.t1' -> 'stone'."""
    if die_id == BORG:
        return BORG
    if die_id == BLANK:
        return "d6"
    name = die_id.split(".", 1)[1]
    if name.startswith("t"):
        return "stone"
    return name.rstrip("abcdefghijklmnopqrstuvwxyz")


def owner_of(die_id: str) -> int | None:
    if die_id in (BORG, BLANK):
        return None
    return SEATS.index(die_id.split(".", 1)[0])
