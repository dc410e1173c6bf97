"""Every terminal app is usable at 80x24: its first screen and a screen in mid-game
show whole log lines (wrapped, never cut off) and no size complaint; a smaller window is told
the minimum size; a redirected stderr (where the screen is drawn) gets a note on stdout."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from textual.app import App
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import RichLog, Static

from playtable.tui.frame import MIN_HEIGHT, MIN_WIDTH, note_if_screen_hidden, size_warning
from playtable.tui.menu import app_factory


def shown_lines(widget: Widget) -> list[str]:
    """The lines a log widget draws, each as wide as it is drawn."""
    if isinstance(widget, RichLog):
        return [strip.text for strip in widget.lines]
    width, height = widget.size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def check_log(app: App[Any], log_lines: list[str]) -> None:
    log = app.query_one("#log")
    inner = app.query_one("#log-text") if app.query("#log-text") else log
    width = log.scrollable_content_region.width
    drawn = shown_lines(inner)
    assert drawn and all(len(line.rstrip()) <= width for line in drawn), (width, drawn)
    flowing = " ".join(" ".join(line.split()) for line in drawn)
    for line in log_lines[-3:]:  # the newest lines are there whole, word for word
        assert " ".join(line.split()) in flowing, line


async def mid_game(app: App[Any], pilot: Any, game_id: str) -> None:
    """A few moves in, the way a person plays: the first option, or a start and a drill."""
    keys = {"troll": ["left", "right", "up", "down"] * 3, "rotator": ["enter", "1", "0"],
            "wizard": ["enter"] * 12}[game_id]
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
        if app.screen.id != "_default":  # a dialog (a warning, the end): close it
            await pilot.press("n" if "Confirm" in type(app.screen).__name__ else "escape")
            await pilot.pause()


@pytest.mark.parametrize("game_id", ["troll", "rotator", "wizard"])
def test_first_and_mid_game_screens_at_80x24(game_id: str) -> None:
    factory = app_factory(game_id)
    assert factory is not None

    async def go() -> None:
        app: App[Any] = factory(seed=4)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            status = app.query_one("#status", Static)
            assert "needs at least" not in str(status.render())
            check_log(app, list(app.log_lines))  # type: ignore[attr-defined]
            await mid_game(app, pilot, game_id)
            await pilot.pause()
            assert len(app.log_lines) > 1  # type: ignore[attr-defined]
            check_log(app, list(app.log_lines))  # type: ignore[attr-defined]
            for name in ("#status", "#board", "#log"):
                region = app.query_one(name).region
                assert region.right <= 80 and region.bottom <= 24, name

    asyncio.run(go())


def test_a_smaller_window_is_told_the_minimum() -> None:
    assert size_warning(MIN_WIDTH, MIN_HEIGHT) is None
    assert "at least 80x24" in (size_warning(70, 20) or "")
    factory = app_factory("rotator")
    assert factory is not None

    async def go() -> None:
        app: App[Any] = factory(seed=4)
        async with app.run_test(size=(70, 20)) as pilot:
            await pilot.pause()
            assert "at least 80x24" in str(app.query_one("#status", Static).render())

    asyncio.run(go())


def test_redirected_stderr_gets_a_note_on_stdout() -> None:
    out = io.StringIO()
    assert note_if_screen_hidden(io.StringIO(), out)
    assert "stderr" in out.getvalue() and out.getvalue().count("\n") == 1
