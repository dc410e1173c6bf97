"""What every terminal app shares about the window: the smallest size it is made for (80x24, the
classic terminal), the line that says so when the window is smaller, and the note printed when
the screen would go to a redirected stderr."""

from __future__ import annotations

import sys
from typing import IO

MIN_WIDTH, MIN_HEIGHT = 80, 24


def size_warning(width: int, height: int) -> str | None:
    """A one-line note when the window is smaller than the apps need, else None."""
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        return None
    return (f"This window is {width}x{height}; playtable needs at least {MIN_WIDTH}x{MIN_HEIGHT}: "
            "please enlarge it.")


def note_if_screen_hidden(err: IO[str] | None = None, out: IO[str] | None = None) -> bool:
    """The apps draw on stderr (Textual's terminal driver writes there), so `2>file` leaves a
    blank screen: say so in one line on stdout. True if the note was printed."""
    err = err if err is not None else sys.__stderr__
    out = out if out is not None else sys.stdout
    if err is not None and not err.isatty():
        print("playtable: the game is drawn on stderr, which is not a terminal here "
              "(redirected?); run it without redirecting stderr to see the screen.", file=out)
        return True
    return False
