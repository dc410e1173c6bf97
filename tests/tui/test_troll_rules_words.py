"""The troll terminal app speaks of the game being played, at 100x32: the rules pane and the `?`
screen show this game's stacks (the Learning bridge's 5, 4, 3, 3, 4, 5, not the standard
3, 2, 1, 1, 2, 3: seed 000 §4.1, §6.1), the log says the rules in words (never
`extra_per_slot=2`), and the menu's list of rules and the keys fold their long lines under their
own text instead of back to the left edge."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from textual.widgets import Markdown, OptionList, Static

from playtable.core.registry import get_game
from playtable.tui.menu import MenuApp, VariantScreen
from playtable.tui.troll import make_app
from playtable.tui.troll_rules import rules_in_words
from playtable.tui.troll_screens import HelpScreen

SIZE = (100, 32)
LEARNING_STACKS = "5, 4, 3, 3, 4, 5 in each row"
STANDARD_STACKS = "3, 2, 1, 1, 2, 3 in each row"


def test_the_rules_pane_the_help_and_the_log_speak_of_the_learning_bridge() -> None:
    async def go() -> None:
        app = make_app(seed=7, variant="tutorial")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            pane = app.query_one("#reference-text", Markdown).source
            assert LEARNING_STACKS in pane and STANDARD_STACKS not in pane
            assert "The other 4 cards are the **deck of awakening**" in pane  # 52 - 2 x 24
            first = app.log_lines[0]
            assert first.startswith("New game, seed 7: Learning bridge. Two more bricks in every slot")
            assert LEARNING_STACKS in first and "=" not in first and "extra_per_slot" not in first
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            help_rules = app.screen.query_one("#rules-text", Markdown).source
            assert LEARNING_STACKS in help_rules
            keys: Any = app.screen.query_one("#rules-keys", Static).content
            listed = keys.plain.split("\n\n")[0].splitlines()[1:]  # the keys, before the legend
            assert len(listed) >= 10 and all(len(line) <= 92 for line in listed), max(listed, key=len)

    asyncio.run(go())


def test_the_standard_rules_are_said_as_they_are_and_other_changes_in_words() -> None:
    game = get_game("troll")
    assert rules_in_words(game.default_params()) == ""
    changed = rules_in_words(dataclasses.replace(game.default_params(), extra_per_slot=2,
                                                 club_from_start=True))
    assert changed.startswith("changed rules: bricks added to every slot: 2; "
                              "the troll starts holding THE CLUB: yes")
    assert changed.endswith(f"The stacks: {LEARNING_STACKS}") and "_" not in changed

    async def go() -> None:
        app = make_app(seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert STANDARD_STACKS in app.query_one("#reference-text", Markdown).source
            assert app.log_lines[0] == "New game, seed 3."

    asyncio.run(go())


def test_the_list_of_rules_folds_each_description_under_its_title() -> None:
    async def go() -> None:
        app = MenuApp()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.push_screen(VariantScreen("troll", "Angry Troll versus Magic Bridge"))
            await pilot.pause()
            variants = app.screen.query_one("#variants", OptionList)
            width = variants.content_region.width
            for i in range(variants.option_count):
                prompt: Any = variants.get_option_at_index(i).prompt
                title, *described = prompt.plain.splitlines()
                # each line fits the box as it is (none is folded again, back to the left edge)
                assert all(len(line) <= width and line.startswith("    ") for line in described), \
                    (width, described)

    asyncio.run(go())
