"""What every terminal app shares about the window: the smallest size it is made for (80x24, the
classic terminal) and the line that says so when the window is smaller."""

from __future__ import annotations

MIN_WIDTH, MIN_HEIGHT = 80, 24


def size_warning(width: int, height: int) -> str | None:
    """A one-line note when the window is smaller than the apps need, else None."""
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        return None
    return (f"This window is {width}x{height}; playtable needs at least {MIN_WIDTH}x{MIN_HEIGHT}: "
            "please enlarge it.")
