"""Star Dice's table menu in a real browser ("named variants of the seed's
iterations ... are playable from the table menu"): from a battle against a bot the player opens
the menu, reads the variants with their descriptions, starts the seventh iteration's Borg 2
variant and throws in it; then starts Objective 1 and is playing the solitaire (one seat, the
blank d6 on the table, round 1 to beat 10) and throws there too. The battle it left mid-game
then says so.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

from tests.web.browser_support import click_action, create_table, new_page, table_state, wait_connected
from tests.web.server_process import ServerProcess
from tests.web.test_browser_stardice import _drag_throw

from playtable.core.registry import get_game


def _choose(page: Any, variant: str) -> str:
    """Open the table menu, pick `variant`, start it; the new table's id once connected to it."""
    old = page.url
    page.locator(".stardice-menu-button").click()
    button = page.locator(f'.stardice-variant[data-variant="{variant}"]')
    assert get_game("stardice").variant_descriptions[variant] in button.inner_text()
    button.click()
    page.locator(".stardice-start").click()
    page.wait_for_url(lambda url: url != old and "/t/" in url)
    wait_connected(page)
    return str(page.url.split("/t/")[1].split("?")[0])


def _throw_once(page: Any, rng: random.Random) -> dict[str, Any]:
    """Play until this seat has thrown one die of its own (a Borg roll or a call first if that
    is its turn); the state after that throw."""
    for _ in range(100):  # bounded: a call, a Borg roll and a few re-throws at most
        state = table_state(page)
        if not state["your_turn"] or page.evaluate("window.playtable.pending"):
            page.wait_for_timeout(50)
            continue
        calls = [e["action"] for e in state["legal"] if e["action"].startswith("call ")]
        if calls:
            click_action(page, calls[0])
            continue
        head = page.locator(".stardice-piece.selected").get_attribute("data-head") or ""
        _drag_throw(page, rng)
        page.wait_for_function(f"window.playtable.state.step > {state['step']}")
        if head != "roll borg":
            return table_state(page)
    raise AssertionError("no throw of the player's own die")


def test_variants_are_started_from_the_table_menu(web_server: ServerProcess, chromium: Any,
                                                  tmp_path: Path) -> None:
    created = create_table(web_server.url, game="stardice", variant="battle", seed=12,
                           seats=[{"kind": "human"}, {"kind": "bot", "agent": "random-thrower"}])
    page = new_page(chromium, 1280, 900)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    rng = random.Random(3)
    full = page.get_by_role("button", name="Full screen")  # the table alone, full screen
    full.click()
    page.wait_for_function("document.fullscreenElement?.classList.contains('stardice-board')")
    full.click()
    page.wait_for_function("document.fullscreenElement === null")

    borg2 = _choose(page, "iteration7_borg2")
    summary = page.evaluate("window.playtable.table")
    assert summary["id"] == borg2 and summary["variant"] == "iteration7_borg2"
    assert list(summary["params"]["borg_faces"]) == [2, 4, 8, 16, 32, 64]
    # The title names the variant as players read it; its id stays in the summary.
    assert get_game("stardice").variant_titles["iteration7_borg2"] in page.locator("h1").inner_text()
    state = _throw_once(page, rng)
    assert any(pc["id"].startswith("F.") for pc in state["observation"]["table"]) or \
        state["observation"]["eliminated"], "the player's die was thrown in the new variant"

    solo = _choose(page, "objective1")
    summary = page.evaluate("window.playtable.table")
    assert summary["id"] == solo and summary["variant"] == "objective1" and len(summary["seats"]) == 1
    state = table_state(page)
    obs = state["observation"]
    assert obs["mode"] == "objective1" and obs["round"] == 1 and obs["target"] == 10
    assert [pc["id"] for pc in obs["table"]] == ["blank"] and state["your_turn"]
    assert page.locator(".board-status").inner_text().startswith("Round 1 · beat 10")
    state = _throw_once(page, rng)
    assert len(state["observation"]["hands"][0]) == 5 or state["observation"]["eliminated"]

    # The battle was left mid-game: its page says so and offers nothing to play.
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    assert page.locator(".turn-indicator").inner_text() == "Left unfinished"
    assert page.locator(".waiting").inner_text().startswith("Left unfinished: the players moved")
    assert not table_state(page)["legal"]
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    page.screenshot(path=str(shots / "stardice-left-unfinished.png"))
    assert not page.script_errors and not page.foreign_requests
