"""The lobby names seats as the game titles them ("the wizard", "Hero 1"), never by their ids
(`wizard`, `hero1`: what the lab, the records and the command line call them), in a real
browser under the server's strict Content-Security-Policy, on a desktop window and a phone: the
New-table form's seat rows, the links a new table gives, the "Yours" list and the Open tab's
Join buttons.

Waits are Playwright locators and bounded polls of `page.evaluate` (the strict policy forbids
the eval `wait_for_function` needs: tests/web/test_browser_csp.py).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.web.browser_support import new_page
from tests.web.server_process import ServerProcess

SCREENS = {"desktop": (1280, 800, False), "phone": (390, 844, True)}
SEAT_IDS = re.compile(r"\b(wizard|hero\d)\b")
"""A seat id as it would leak into words: "the wizard" is a title, a bare "wizard" an id."""


def _named(chromium: Any, url: str, screen: str, name: str) -> Any:
    """A person in a browser of their own, named in the lobby."""
    width, height, touch = SCREENS[screen]
    page = new_page(chromium, width, height, touch=touch, strict_csp=True)
    page.goto(url + "/")
    page.locator("#player-name").fill(name)
    page.locator(".player-form button[type=submit]").click()
    page.locator(".player .note", has_text=f"Others see you as {name}").wait_for()
    return page


def _ids_in(text: str) -> list[str]:
    return SEAT_IDS.findall(text.replace("the wizard", "").replace("The wizard", ""))


@pytest.mark.parametrize("screen", SCREENS)
def test_the_lobby_lists_seats_by_their_titles(web_server: ServerProcess, chromium: Any, screen: str) -> None:
    # each screen's people have names of their own: a name is its first browser's on this server
    dana = _named(chromium, web_server.url, screen, f"Dana {screen}")
    dana.locator('[data-game="wizard"] button', has_text="New table").click()
    form = dana.locator("form.create-form")
    assert form.locator(".seat-name").all_inner_texts() == ["the wizard", "Hero 1", "Hero 2", "Hero 3"]
    for i, value in enumerate(["me", "open", "invite", "bot:random"]):
        form.locator(f'select[name="seat-{i}"]').select_option(value)
    form.get_by_role("button", name="Create the table").click()

    links = dana.locator(".created-links")
    links.wait_for()
    join = links.get_by_role("link", name="Join as the wizard").get_attribute("href")
    assert links.get_by_role("link", name="Join as Hero 1").is_visible()
    assert "Hero 2 (kept for whoever has this link)" in links.inner_text()
    assert "Hero 3: bot (random)" in links.inner_text()
    assert not _ids_in(links.inner_text())
    table_id = join.split("/t/")[1].split("?")[0]

    dana.locator('.tabs [data-status="mine"]').click()
    mine = dana.locator(f'.table-list tr[data-table="{table_id}"]')
    mine.wait_for()
    seats = mine.locator(".seat-list li").all_inner_texts()
    assert seats == [f"The wizard: Dana {screen}", "Hero 1: open seat", "Hero 2: invited",
                     "Hero 3: bot (random)"]

    phil = _named(chromium, web_server.url, screen, f"Phil {screen}")
    phil.locator('.tabs [data-status="open"]').click()
    row = phil.locator(f'.table-list tr[data-table="{table_id}"]')
    row.wait_for()
    assert row.get_by_role("button", name="Join as Hero 1").is_visible()
    assert not _ids_in(row.inner_text())
    assert not dana.script_errors and not phil.script_errors
    assert not dana.foreign_requests and not phil.foreign_requests
