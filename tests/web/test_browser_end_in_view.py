"""When a game ends on a page, its end screen comes into view, in chromium under the server's
real Content-Security-Policy on a phone (390x844), where Star Dice's end screen sits under the
board below the fold: a battle watched to its end; and the troll's and Rotator's tutorial deals
played to their end by their person (without the guide), whose end screens must come into view
too (Rotator's keeping its driller in view must not take the page away from it). Screenshots
go to $PLAYTABLE_SCREENSHOTS, else the test's temporary directory.

Waits are bounded polls of `page.evaluate` (`browser_support.poll`), which the policy allows.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx2
import pytest
from tests.web.browser_support import create_table, new_page, play_script, poll
from tests.web.server_process import ServerProcess

from playtable.web.server.tables.tutorials import shipped

PHONE = (390, 844)
IN_VIEW = """(() => {
  const panel = document.querySelector('.end-screen');
  if (!panel) return false;
  const title = panel.querySelector('h2').getBoundingClientRect();
  const seen = document.elementFromPoint(title.left + 4, (title.top + title.bottom) / 2);
  return title.top >= 0 && title.bottom <= window.innerHeight && Boolean(seen && panel.contains(seen));
})()"""
"""The end screen's title is inside the window, and nothing pinned over it covers it."""


def _shot(page: Any, tmp_path: Path, name: str) -> None:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"end-in-view-{name}.png"))


def _ended_in_view(page: Any) -> None:
    poll(page, "window.playtable.state.terminal", seconds=120)
    page.locator(".end-screen").wait_for()
    poll(page, IN_VIEW)


def test_a_star_dice_battle_watched_on_a_phone_ends_with_its_end_screen_in_view(
        web_server: ServerProcess, chromium: Any, tmp_path: Path) -> None:
    created = create_table(web_server.url, game="stardice", variant="battle", seed=21,
                           seats=[{"kind": "bot", "agent": "random-thrower"}] * 2)
    page = new_page(chromium, *PHONE, touch=True, strict_csp=True)
    page.goto(web_server.url + created["watch_url"])
    poll(page, "window.playtable && window.playtable.state && window.playtable.connection.isOpen")
    assert not page.evaluate("window.playtable.state.terminal"), "the page saw the battle being played"
    _ended_in_view(page)
    _shot(page, tmp_path, "stardice-phone")
    assert not page.script_errors and not page.foreign_requests


@pytest.mark.parametrize(("game", "tutorial"), [("troll", "troll-walkthrough"),
                                                ("rotator", "rotator-sequence")])
def test_a_tutorial_played_to_its_end_on_a_phone_shows_its_end_screen(
        web_server: ServerProcess, chromium: Any, tmp_path: Path, game: str, tutorial: str) -> None:
    """The tutorial's table (its fixed deal, whose scripted moves win) without its guide, whose
    bubbles follow the script's steps, not moves sent as these are."""
    made = httpx2.post(web_server.url + "/api/tutorials", json={"name": tutorial}, timeout=10).json()
    page = new_page(chromium, *PHONE, touch=True, strict_csp=True)
    page.goto(web_server.url + made["join_url"].split("&tutorial=", 1)[0])
    play_script(page, [step["expect"] for step in shipped()[tutorial].steps if "expect" in step])
    _ended_in_view(page)
    _shot(page, tmp_path, f"{tutorial}-phone")
    assert not page.script_errors and not page.foreign_requests
