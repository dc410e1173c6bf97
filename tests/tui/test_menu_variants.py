"""The terminal menu's rules list is the game's (`Game.variant_groups`, `standard_title`), in
the order the lobby's New-table form shows them, so the terminal and the web offer a newcomer
the same first game."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import OptionList

from playtable.core.registry import get_game
from playtable.tui.menu import STANDARD, MenuApp, VariantScreen, variant_options
from playtable.web.server.tables.api import game_entry


def web_form_order(game_id: str) -> list[str]:
    """The New-table form's choices (new_table.js `variantSelect`), the standard rules as ''."""
    entry = game_entry(game_id)
    known = {v["name"] for v in entry["variants"]}
    groups = entry["variant_groups"]
    grouped = {n for g in groups for n in g["names"]}
    first = [n for g in groups if g["first"] for n in g["names"] if n in known]
    later = [n for g in groups if not g["first"] for n in g["names"] if n in known]
    rest = [v["name"] for v in entry["variants"] if not v["standard"] and v["name"] not in grouped]
    return [*first, "", *later, *rest]


def choices(game_id: str) -> list[str]:
    return ["" if o.id == STANDARD else str(o.id) for o in variant_options(game_id) if not o.disabled]


def test_the_terminal_offers_the_rules_in_the_lobbys_order() -> None:
    for game_id in ("troll", "rotator", "wizard"):
        assert choices(game_id) == web_form_order(game_id), game_id
    assert choices("rotator")[:2] == ["easy", ""]
    assert choices("troll")[:3] == ["plus-one", "tutorial", ""]


def test_the_standard_rules_and_the_groups_are_titled_by_the_game() -> None:
    options = variant_options("rotator")
    standard = next(o for o in options if o.id == STANDARD)
    prompt: Any = standard.prompt
    assert prompt.plain.splitlines()[0] == get_game("rotator").standard_title
    headings = [str(o.prompt).splitlines()[0] for o in options if o.disabled]
    assert headings == ["Boards by difficulty", "Other variants"]
    troll_standard: Any = next(o for o in variant_options("troll") if o.id == STANDARD).prompt
    assert troll_standard.plain.startswith("Standard rules (hardest)")


def test_a_heading_is_passed_over_when_choosing() -> None:
    async def go() -> None:
        app = MenuApp()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            app.push_screen(VariantScreen("rotator", "Rotator"), lambda v: app.exit(("rotator", v)))
            await pilot.pause()
            variants = app.screen.query_one("#variants", OptionList)
            assert variants.get_option_at_index(0).id == "easy"
            await pilot.press("down", "down", "enter")  # past the standard rules and the heading
            await pilot.pause()
        assert app.return_value == ("rotator", "medium")

    asyncio.run(go())
