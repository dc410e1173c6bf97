"""The Rotator terminal app, driven through Textual's test pilot."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from textual.widgets import Static

from playtable.games.rotator.render import BoardView
from playtable.games.rotator.rules import RotatorParams
from playtable.tui.confirm_screen import ConfirmScreen
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
            lines = board.strip("\n").splitlines()
            assert len(lines) == 21  # the column letters, then rows 1-20
            assert lines[0].split() == list("ABCDEFGHIJ")
            assert lines[1].split()[0] == "1" and lines[-1].split()[0] == "20"
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
                lines = board.strip("\n").splitlines()
                assert len(lines) == 12  # row numbers in two lines (tens, units), then A-J
                assert [line.split()[0] for line in lines[2:]] == list("ABCDEFGHIJ")
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
                if isinstance(app.screen, ConfirmScreen):  # the move that loses asks first
                    await pilot.press("y")
                    await pilot.pause()
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


def test_cursor_moves_the_way_of_the_arrow_on_a_rotated_board() -> None:
    """After a capture on turn 2 the board is turned; each arrow moves the cursor that
    way on the screen (seed "Making A Move": the next move starts from any space of the node)."""

    async def body() -> None:
        app = RotatorApp(RotatorParams(), 0)
        async with app.run_test(size=(100, 30)) as pilot:
            for text in ("start E1", "drill 3"):  # drill 3 captures a node: pick a start again
                app.play(text)
            await pilot.pause()
            obs = app.state.observation(0)
            assert obs["turn"] == 2 and obs["phase"] == "start"

            def where() -> tuple[int, int]:
                grid = BoardView(app.state.observation(0)).screen()
                return next((r, c) for r, row in enumerate(grid) for c, i in enumerate(row)
                            if i == app.cursor)

            for key, (dr, dc) in (("down", (1, 0)), ("up", (-1, 0)), ("right", (0, 1)),
                                  ("left", (0, -1)), ("up", (-1, 0))):
                before = where()
                await pilot.press(key)
                after = where()
                assert (after[0] - before[0]) * dr + (after[1] - before[1]) * dc > 0, key

    run(body)


def test_a_losing_move_asks_first_and_no_keeps_the_position() -> None:
    """RULES.md "Warnings before a losing move": drill 0 here lands in a collapsing space."""

    async def body() -> None:
        app = RotatorApp(RotatorParams(), 0)
        async with app.run_test(size=(100, 30)) as pilot:
            for text in ("start G1", "drill 3", "drill 0"):
                app.play(text)
            await pilot.pause()
            before = app.state.to_json()
            await pilot.press("0")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen) and "collapses" in app.screen.question
            await pilot.press("n")
            await pilot.pause()
            assert app.state.to_json() == before and "not played" in plain(app.query_one("#hint", Static))
            await pilot.press("0")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            assert app.state.is_terminal and isinstance(app.screen, EndScreen)

    run(body)


def test_footer_offers_only_the_phase_s_keys_and_q_asks_during_a_game() -> None:
    async def body() -> None:
        app = RotatorApp(RotatorParams(), SEED)
        async with app.run_test(size=(80, 24)) as pilot:
            assert app.check_action("start", ()) and not app.check_action("drill", (0,))
            await pilot.press("2")  # a drill key before the start says what to do
            assert "start square" in plain(app.query_one("#hint", Static))
            await pilot.press("q")  # nothing played yet: quits at once
            await pilot.pause()
        assert not app.is_running
        app = RotatorApp(RotatorParams(), SEED)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            assert app.check_action("drill", (0,)) and not app.check_action("start", ())
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("n")
            await pilot.pause()
            assert app.is_running
            await pilot.press("q", "y")
            await pilot.pause()
        assert not app.is_running

    run(body)
