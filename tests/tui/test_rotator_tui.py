"""The Rotator terminal app, driven through Textual's test pilot."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from textual.widgets import Static

from playtable.games.rotator.rules import RotatorParams
from playtable.tui.rotator import EndScreen, RotatorApp, make_app


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


def plain(widget: Static) -> str:
    content = widget.content
    return content.plain if hasattr(content, "plain") else str(content)


SEED = 8  # a board won on turn 5


def test_win_by_following_the_hints() -> None:
    """Press h, then the key the hint names, until the win screen shows."""

    async def body() -> None:
        app = RotatorApp(RotatorParams(), SEED)
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(60):
                if app.state.is_terminal:
                    break
                await pilot.press("h")
                hint = plain(app.query_one("#hint", Static))
                assert hint.startswith("hint: "), hint
                action = hint.split("  ")[0].removeprefix("hint: ")
                if action.startswith("start "):
                    await pilot.press("enter")  # the hint put the cursor on the square
                else:
                    await pilot.press(action.split()[1])
                await pilot.pause()
            assert app.state.is_terminal and app.state.returns() == [1.0]
            assert isinstance(app.screen, EndScreen) and app.screen.won
            await pilot.press("escape")
            assert "won" in plain(app.query_one("#status", Static))

    run(body)


def test_rotated_view_status_and_legend() -> None:
    """The board is drawn rotated (20 rows tall on turn 1, 10 on turn 2), with a legend."""

    async def body() -> None:
        app = RotatorApp(RotatorParams(), SEED)
        async with app.run_test(size=(120, 40)) as pilot:
            board = plain(app.query_one("#board", Static))
            assert len(board.strip("\n").splitlines()) == 20
            assert "◉" not in board
            legend = plain(app.query_one("#legend", Static))
            assert "collapses next turn" in legend and "control node" in legend
            status = plain(app.query_one("#status", Static))
            assert "Turn 1" in status and "boost spaces left: 10" in status
            await pilot.press("enter")
            await pilot.press("0")
            await pilot.pause()
            if app.state.observation(0)["phase"] == "drill":
                board = plain(app.query_one("#board", Static))
                assert len(board.strip("\n").splitlines()) == 10
                assert "◉" in board
                assert "Turn 2" in plain(app.query_one("#status", Static))

    run(body)


def test_cursor_picks_the_start_square_and_undo_restores() -> None:
    """Arrows move over the top row; Enter starts there; u undoes the move."""

    async def body() -> None:
        app = RotatorApp(RotatorParams(), SEED)
        async with app.run_test(size=(120, 40)) as pilot:
            first = app.cursor
            await pilot.press("right")
            assert app.cursor != first
            chosen = app.cursor
            await pilot.press("enter")
            assert app.state.observation(0)["turn"] == 1
            assert app.state.observation(0)["phase"] in ("drill", "won", "lost")
            assert len(app.history) == 1
            if isinstance(app.screen, EndScreen):
                await pilot.press("escape")
            await pilot.press("u")
            assert app.state.observation(0)["phase"] == "start"
            assert app.history == []
            assert chosen is not None

    run(body)


def test_illegal_drill_is_refused_with_a_message() -> None:
    """Drilling before picking a start square changes nothing and says why."""

    async def body() -> None:
        app = RotatorApp(RotatorParams(), SEED)
        async with app.run_test(size=(120, 40)) as pilot:
            before = app.state.to_json()
            await pilot.press("2")
            assert app.state.to_json() == before
            assert "start square" in plain(app.query_one("#hint", Static))

    run(body)


def test_loss_screen_then_undo() -> None:
    """Sitting still until your own square collapses shows the loss screen; u undoes."""

    async def body() -> None:
        app = RotatorApp(RotatorParams(), SEED)
        async with app.run_test(size=(120, 40)) as pilot:
            # start from the square under the cursor, then never drill
            await pilot.press("enter")
            for _ in range(6):
                if app.state.is_terminal:
                    break
                await pilot.press("0")
            await pilot.pause()
            assert app.state.is_terminal and app.state.returns() == [0.0]
            assert isinstance(app.screen, EndScreen) and not app.screen.won
            await pilot.press("u")
            assert not app.state.is_terminal and not isinstance(app.screen, EndScreen)

    run(body)


def test_menu_entry_point() -> None:
    """The games menu finds `make_app`."""
    app = make_app(3)
    assert isinstance(app, RotatorApp) and app.seed == 3
