"""A whole Star Dice war to the Final Rules' 50 points, shown to its end in a real browser
("a war is played to its end"; seed 002 Final Rules, "War": the first player to
exceed 50 points wins).

Both fleets are the random-thrower bot, so every throw goes through the server as in any game
(simulated, stored, streamed); the page watches the table from its start, its throws "Fast"
(chosen under "Throws": the only page at the table, it sets the pace): each battle is frozen
with its own scoring until "Next battle", the war's running totals are shown, and the last
battle ends the war on the end screen. Seed 101 is a war of three battles (about 30 s of
throws in real time, 10 s fast); a war of random throwers takes 1 to 20 battles, most seeds far
longer.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from tests.web.browser_support import create_table, new_page, table_state, wait_connected
from tests.web.server_process import ServerProcess
from tests.web.test_browser_stardice import choose_pace
from tests.web.test_browser_stardice_newcomer import RAW


@pytest.mark.long
def test_a_war_is_shown_to_its_end_at_50_points(web_server: ServerProcess, chromium: Any) -> None:
    created = create_table(web_server.url, game="stardice", seed=101,
                           seats=[{"kind": "bot", "agent": "random-thrower"}] * 2)
    page = new_page(chromium, 1280, 900)
    page.goto(web_server.url + created["watch_url"])
    wait_connected(page)
    choose_pace(page, "Fast")
    assert table_state(page)["observation"]["war_target"] == 50, "the Final Rules' war, not shortened"
    frozen: list[str] = []
    deadline = time.monotonic() + 240  # bounded: seed 101's war streams about 30 s of throws
    while time.monotonic() < deadline:
        if page.locator(".stardice-next").is_visible():
            assert page.locator(".stardice-score h3").inner_text().endswith("scoring")
            frozen.append(page.locator(".stardice-points").inner_text())
            page.locator(".stardice-next").click()
            continue
        if table_state(page)["terminal"] and page.evaluate(
                "document.querySelector('.stardice-canvas').dataset.animating === 'no'"):
            break
        page.wait_for_timeout(100)
    state = table_state(page)
    obs = state["observation"]
    assert state["terminal"] and obs["phase"] == "over"
    assert max(obs["war"]) > 50 and obs["war"][obs["winner"]] == max(obs["war"])
    assert sum(p[0] for p in obs["battle_points"]) == obs["war"][0]  # both players add their points
    assert obs["battle"] >= 2 and len(frozen) == obs["battle"] - 1, "every battle but the last was frozen"
    for shown, points in zip(frozen, obs["battle_points"], strict=False):
        assert shown.startswith(f"Federation {points[0]} · Klingon {points[1]}")
    scoring = page.locator(".stardice-score")
    assert scoring.locator("h3").inner_text() == "Final scoring"
    assert f"War: Federation {obs['war'][0]} · Klingon {obs['war'][1]} (to 50)" in scoring.inner_text()
    winner = ["Federation", "Klingon"][obs["winner"]]
    assert winner in page.locator(".end-screen").inner_text()
    assert "frozen" in (page.locator(".stardice-board").get_attribute("class") or "")
    assert page.locator(".stardice-canvas").get_attribute("data-pace") == "fast"
    assert not page.script_errors and not page.foreign_requests

    # The replay's steps speak in the same words as the table's log (no coordinates,
    # speeds or piece ids such as `K.d20b` on a page), its events worded by the game's page.
    page.goto(f"{web_server.url}/t/{created['table_id']}/replay")
    page.locator(".log-list li").first.wait_for()
    steps = page.locator(".log-list").inner_text()
    raw = RAW.search(steps)
    assert raw is None, steps[max(0, raw.start() - 80):raw.end() + 40]
    assert re.search(r"(Federation|Klingon) rolls a d\d+: it comes to rest showing \d+\.", steps), steps[:400]
    assert not page.script_errors and not page.foreign_requests
