"""Star Dice says why (seed 002, Final Rules, "Calculate your score"), in chromium under the
server's real Content-Security-Policy, on a desktop window (1280x800) and a phone (390x844): a
finished war of three battles (random throwers, seed 101) opened at its table. The end screen
names the winner first with the winner's points first, as the banner over the table does, and
shows the last battle's lettered scoring in view; on the table each scored shape is filled in
the colour of the fleet that scores it (grey: nobody) and tagged with its letter, whose it is
and both fleets' sums; the log words each scored shape as the scoring does, and the Borg die's
roll in plain words.
"""

from __future__ import annotations

import time
from typing import Any

import httpx2
import pytest
from tests.web.browser_support import WAIT_MS, create_table, new_page
from tests.web.server_process import ServerProcess

BOX = "(el) => el.getBoundingClientRect().toJSON()"
FLEETS = ("Federation", "Klingon")
FLEET_COLOURS = ("#f4f1e8", "#d3222a")  # stardice_dice.js FLEET_STYLE bodies
NOBODY = "#8d939e"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@pytest.fixture(scope="module")
def finished_war(web_server: ServerProcess) -> dict[str, Any]:
    created = create_table(web_server.url, game="stardice", seed=101,
                           seats=[{"kind": "bot", "agent": "random-thrower"}] * 2)
    deadline = time.monotonic() + 180  # bounded: three battles of random throws
    while time.monotonic() < deadline:
        url = f"{web_server.url}/api/tables/{created['table_id']}"
        table = httpx2.get(url, timeout=WAIT_MS / 1000).json()
        if table["status"] == "finished":
            return created
        time.sleep(0.5)
    raise AssertionError("the bots' war did not finish")


def _shape_key(objects: list[str]) -> str:
    return ",".join(sorted(objects))


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_table_and_the_end_screen_say_who_scored_what_and_why(
        web_server: ServerProcess, chromium: Any, finished_war: dict[str, Any], width: int,
        height: int) -> None:
    page = new_page(chromium, width, height, touch=width < 700, strict_csp=True)
    page.goto(web_server.url + finished_war["watch_url"])
    end = page.locator(".end-screen")
    end.wait_for()
    obs = page.evaluate("window.playtable.state.observation")
    war, w = obs["war"], obs["winner"]
    assert w in (0, 1)
    # The banner over the table and the end screen: one winner, the winner's points first.
    said = f"{war[w]} to {war[1 - w]}"
    reason = page.locator(".end-screen .end-reason").first.inner_text()
    assert reason.startswith(f"{FLEETS[w]} wins the war, {said}"), reason
    assert said in page.locator(".stardice-prompt").inner_text()
    # The last battle's scoring, lettered, on the end screen and in view.
    score = obs["last_score"]
    shapes = [s for s in score["shapes"] if s["kind"] != "single"]
    summary = end.locator(".stardice-end-scoring")
    heading = summary.locator("h3")
    points = score["points"]
    assert heading.inner_text() == f"Final scoring: Federation {points[0]} · Klingon {points[1]}"
    box = heading.evaluate(BOX)
    if width >= 700:  # over the board: in the window, never behind the dialog
        assert box["top"] >= 0 and box["bottom"] <= height, "the final scoring is in view with the end screen"
    else:  # a phone's end screen comes under the board: the scoring in its first screenful
        assert box["bottom"] - end.evaluate(BOX)["top"] <= height / 2
    rows = summary.locator("li").all_inner_texts()
    assert len(rows) == len(shapes) and shapes, rows
    for letter, row, shape in zip(LETTERS, rows, shapes, strict=False):
        owner = shape["owner"]
        assert row.startswith(f"{letter} ("), row
        if owner is None:
            assert "nobody scores" in row, row
        else:
            assert f"{shape['totals'][owner]} to {shape['totals'][1 - owner]}" in row, row
    # On the table: each scored formation in its fleet's colour, each shape tagged.
    end.locator("button", has_text="Look at the board").click()
    page.wait_for_timeout(300)  # a few animation frames drawn
    drawn = {s["key"]: s["colour"] for s in page.evaluate("window.stardiceShapes")}
    for shape in shapes:
        if shape["kind"] == "formation":
            owner = shape["owner"]
            want = FLEET_COLOURS[owner] if owner in (0, 1) else NOBODY
            assert drawn[_shape_key(shape["objects"])] == want, shape
    labels = page.evaluate("window.stardiceLabels.labels")
    tags = [label["text"] for label in labels if label["kind"] == "tag"]
    for letter, shape in zip(LETTERS, shapes, strict=False):
        owner = shape["owner"]
        tag = next((t for t in tags if t.startswith(f"{letter}: ")), None)
        assert tag is not None, (letter, tags)
        if owner in (0, 1):
            assert tag.startswith(f"{letter}: {FLEETS[owner]} ") and \
                tag.endswith(f"{shape['totals'][owner]} to {shape['totals'][1 - owner]}"), tag
        else:
            assert "nobody" in tag, tag
    # The log agrees with the scoring and speaks plainly of the Borg die.
    log = page.locator(".log-list").inner_text()
    assert f"Battle {obs['battle']} is over" in log
    last = log[log.rindex(f"Battle {obs['battle']} is over"):]
    for letter in LETTERS[:len(shapes)]:
        assert f"{letter} (" in last, last[:400]
    assert "pips (" not in log and "its face has" in log
    assert not page.script_errors and not page.foreign_requests
    page.context.close()
