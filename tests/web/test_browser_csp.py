"""Every page under the server's real Content-Security-Policy: the lobby, each game's
table page, a move played there, and the replay viewer load and run with nothing refused.

The other browser tests open pages with the CSP bypassed, because Playwright's
`wait_for_function` compiles its condition inside the page (an eval the policy forbids); here
waits are Playwright locators and bounded polls of `page.evaluate`, which the policy allows.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.browser_support import create_table, new_page, poll
from tests.web.server_process import ServerProcess

TABLES = [
    {"game": "troll", "seed": 3},
    {"game": "rotator", "variant": "easy", "seed": 2},
    {"game": "stardice", "variant": "battle", "seed": 4,
     "seats": [{"kind": "human"}, {"kind": "bot", "agent": "random"}]},
    {"game": "wizard", "players": 3, "seed": 5,
     "seats": [{"kind": "human"}, {"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}]},
]


def test_the_lobby_runs_under_the_policy(web_server: ServerProcess, chromium: Any) -> None:
    page = new_page(chromium, strict_csp=True)
    answer = page.goto(web_server.url + "/")
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    page.get_by_role("button", name="New table").first.wait_for()
    page.get_by_role("button", name="New table").first.click()
    page.locator("form").first.wait_for()
    assert not page.script_errors and not page.foreign_requests


@pytest.mark.parametrize("body", TABLES, ids=[t["game"] for t in TABLES])
def test_each_table_page_plays_and_replays_under_the_policy(web_server: ServerProcess, chromium: Any,
                                                             body: dict[str, Any]) -> None:
    seats = body.pop("seats", None)
    created = create_table(web_server.url, **body, **({"seats": seats} if seats else {}))
    page = new_page(chromium, strict_csp=True)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    poll(page, "window.playtable && window.playtable.state && window.playtable.state.your_turn")
    step = page.evaluate("window.playtable.state.step")
    action = page.evaluate("window.playtable.state.legal[0].action")
    page.evaluate("(a) => window.playtable.connection.send({type: 'act', action: a, "
                  "step: window.playtable.state.step})", action)
    poll(page, f"window.playtable.state.step > {step}")
    page.goto(web_server.url + f"/t/{created['table_id']}/replay")
    page.locator("body").wait_for()
    page.wait_for_load_state("networkidle")
    assert not page.script_errors and not page.foreign_requests
