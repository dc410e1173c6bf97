"""The wizard terminal app driven through Textual's test pilot: hot-seat games to the end, the
curtain that hides each seat's secrets, bots, and the `play wizard` command's seat options."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from click.testing import CliRunner
from textual.widgets import Input, OptionList, Static

from playtable.cli import cli
from playtable.cli.wizard import parse_seats
from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params
from playtable.games.wizard.game import GAME
from playtable.games.wizard.params import WizardParams
from playtable.tui.confirm_screen import ConfirmScreen
from playtable.tui.wizard import Curtain, WizardApp, from_names, named, render_board


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


def plain(widget: Static) -> str:
    content: Any = widget.content
    return content.plain if hasattr(content, "plain") else str(content)


def params(players: int = 3, **kw: Any) -> WizardParams:
    p: WizardParams = resolve_params(WizardParams, GAME.variants, None,
                                     [f"players={players}"] + [f"{k}={v}" for k, v in kw.items()])
    return p


async def drive(app: WizardApp, pilot: Any, limit: int = 3000) -> dict[str, int]:
    """Play the highlighted (first) option until the end, lifting curtains; check on every
    screen that only the seat to act is shown, and never the wizard's hand to a hero."""
    seen = {"curtains": 0, "moves": 0}
    for _ in range(limit):
        if app.state.is_terminal:
            break
        if isinstance(app.screen, Curtain):
            assert app.viewer is None
            assert "hidden" in plain(app.query_one("#board", Static))
            assert "your hand" not in plain(app.query_one("#info", Static))
            seen["curtains"] += 1
            await pilot.press("enter")
            continue
        assert app.viewer == app.state.current_player
        info = plain(app.query_one("#info", Static))
        if app.viewer != 0:
            assert "your hand" not in info
            obs = app.state.observation(app.viewer)
            assert plain(app.query_one("#board", Static)) == render_board(obs).plain
        await pilot.press("enter")
        seen["moves"] += 1
    return seen


def test_hot_seat_game_to_the_end_with_curtains() -> None:
    async def go() -> None:
        app = WizardApp(params(3, max_rounds=2), seed=4)
        async with app.run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            seen = await drive(app, pilot)
            await pilot.pause()
            assert app.state.is_terminal
            assert "Game over" in plain(app.query_one("#status", Static))
            assert seen["curtains"] >= 4  # wizard -> hero 1 -> hero 2 -> wizard ...
    run(go)


def test_heroes_against_the_bot_wizard_to_the_end() -> None:
    async def go() -> None:
        app = WizardApp(params(4, max_rounds=5), seed=8, seats={0: "heuristic"})
        async with app.run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            await drive(app, pilot)
            assert app.state.is_terminal
            assert any("wizard" in line.lower() for line in app.log_lines)
    run(go)


def test_one_human_needs_no_curtain() -> None:
    async def go() -> None:
        app = WizardApp(params(3, max_rounds=4), seed=2, seats={0: "heuristic", 2: "random"})
        async with app.run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            seen = await drive(app, pilot)
            assert seen["curtains"] == 0 and app.state.is_terminal
    run(go)


def test_the_wizard_sees_his_hand_and_tokens_the_heroes_do_not() -> None:
    async def go() -> None:
        app = WizardApp(params(3), seed=5)
        async with app.run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, Curtain)
            await pilot.press("enter")
            # the wizard's setup: entrance, three keys, opening draw
            assert app.viewer == 0
            while app.state.decision.get("kind") != "main" or isinstance(app.screen, Curtain):
                await pilot.press("enter")  # lifts a curtain or plays the first option
            assert app.viewer == 0 and "your hand" in plain(app.query_one("#info", Static))
            assert "K" in plain(app.query_one("#board", Static))  # he sees his keys
            app.play("end")
            await pilot.pause()
            assert isinstance(app.screen, Curtain) and app.viewer is None
            await pilot.press("enter")
            assert app.viewer == 1
            assert "your hand" not in plain(app.query_one("#info", Static))
    run(go)


def test_seat_options() -> None:
    assert parse_seats(("wizard=bot", "hero2=random"), 3) == {0: "heuristic", 2: "random"}
    for bad in ("hero3=bot", "elf=bot", "wizard", "wizard=robot"):
        with pytest.raises(BadParameter):
            parse_seats((bad,), 3)


def test_play_wizard_command_rejects_bad_seats() -> None:
    from playtable.cli import main

    with pytest.raises(SystemExit) as done:
        main(["play", "wizard", "--players", "4", "--seat", "hero4=bot"])
    assert done.value.code == 2
    result = CliRunner().invoke(cli, ["play", "wizard", "--help"])
    assert result.exit_code == 0 and "--seat" in result.output


def test_typed_actions_and_bad_text() -> None:
    async def go() -> None:
        app = WizardApp(params(3), seed=9, seats={1: "heuristic", 2: "heuristic"})
        async with app.run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            assert app.viewer == 0 and app.state.decision["kind"] == "entrance"
            await pilot.click("#typed")
            await pilot.press(*"fly away", "enter")
            assert app.state.decision["kind"] == "entrance"  # nothing changed
            assert "Not possible" in app.log_lines[-1]
            await pilot.press(*"entrance W", "enter")
            assert app.state.entrance == "W"
    run(go)


def test_menu_offers_the_wizard_game() -> None:
    from playtable.tui.menu import app_factory

    factory = app_factory("wizard")
    assert factory is not None
    app = factory(seed=3)
    assert isinstance(app, WizardApp) and app.humans == [1]


SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def screen_words(app: WizardApp) -> str:
    parts = [plain(app.query_one(f"#{name}", Static)) for name in ("status", "board", "info", "log-text")]
    options = app.query_one("#actions", OptionList)
    parts += [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    parts.append(app.query_one("#typed", Input).placeholder)
    return "\n".join(parts)


def test_no_snake_case_id_on_any_screen_over_a_whole_game() -> None:
    """Cards, items and rooms by name, on every screen of a game to its end."""

    async def go() -> None:
        app = WizardApp(params(3), seed=6, seats={0: "heuristic", 2: "heuristic"})
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for _ in range(400):
                words = screen_words(app)
                assert not SNAKE.findall(words), SNAKE.findall(words)
                if app.state.is_terminal:
                    break
                await pilot.press("enter")
            assert app.state.is_terminal
            assert "Combat on" in "\n".join(app.log_lines)  # the fights were told in words
            assert not SNAKE.findall(screen_words(app))
            assert "your hand" not in plain(app.query_one("#info", Static))  # hero 1 is human

    run(go)


def test_q_quits_after_typing_an_action() -> None:
    """The typed line hands the keys back to the list once an action is played."""

    async def go() -> None:
        app = WizardApp(params(3), seed=9, seats={1: "heuristic", 2: "heuristic"})
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "e.g. entrance" in app.query_one("#typed", Input).placeholder
            await pilot.click("#typed")
            await pilot.press(*"entrance W", "enter")
            await pilot.pause()
            assert app.state.entrance == "W"
            assert isinstance(app.focused, OptionList)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)  # a game in progress: asks first
            await pilot.press("y")
            await pilot.pause()
        assert not app.is_running

    run(go)


def test_typed_names_work_like_ids() -> None:
    names = {"health_potion": "Health Potion", "long_sword": "Long Sword"}
    assert named("give long_sword hero2", names) == "give Long Sword hero 2"
    assert from_names("give long sword hero 2", names) == "give long_sword hero2"
    assert from_names("use Health Potion", names) == "use health_potion"


def test_seats_are_named_by_their_titles() -> None:
    async def go() -> None:
        app = WizardApp(params(3, max_rounds=2), seed=4, seats={0: "heuristic", 2: "random"})
        async with app.run_test(size=(150, 50)) as pilot:
            await pilot.pause()
            # the game's titles (GAME.seat_titles), as the web pages say them: never "hero 1"
            assert "Hero 1: human" in app.log_lines[0] and "the wizard: heuristic" in app.log_lines[0]
            assert plain(app.query_one("#status", Static)).startswith(f"Round {app.state.round} - Hero 1: ")
    run(go)
