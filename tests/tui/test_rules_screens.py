"""The `?` screen of every terminal app shows the game's player rules, the same
HOW_TO_PLAY.md text the web app serves (one text, not two), with the app's keys."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Markdown, Static

from playtable.core.registry import player_rules
from playtable.tui.menu import app_factory
from playtable.tui.rules_screen import RulesScreen


@pytest.mark.parametrize("game_id", ["troll", "rotator", "wizard"])
def test_question_mark_shows_the_player_rules(game_id: str) -> None:
    factory = app_factory(game_id)
    assert factory is not None

    async def go() -> None:
        app: App[Any] = factory(seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, RulesScreen) and screen.game_id == game_id
            assert screen.query_one("#rules-text", Markdown).source == player_rules(game_id)
            keys = screen.query_one("#rules-keys", Static).render()
            assert "Keys" in str(keys)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, RulesScreen)

    asyncio.run(go())
