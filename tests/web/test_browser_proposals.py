"""A mid-game proposal of a new game survives a server restart, in a real browser under the
server's strict Content-Security-Policy: the asker's status and the other person's "Agree" /
"Keep playing" prompt are there again after the restart and a reload (a come-back-later table
may wait days for its answer), and once decided ("Keep playing") nothing is asked again after
the next restart. The store's side, on SQLite and PostgreSQL: `SqlProposalStore`.

Waits are Playwright locators and bounded polls of `page.evaluate` (`browser_support.poll`).
Screenshots go to $PLAYTABLE_SCREENSHOTS, else the test's temporary directory.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import create_table, open_connected, wait_open
from tests.web.server_process import ServerProcess, start_server

from playtable.web.server.store.schema import opened
from playtable.web.server.tables.proposals import SqlProposalStore

DESKTOP = (1280, 800)
PHONE = (390, 844)


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[ServerProcess]:
    with start_server(tmp_path / "tables.sqlite3") as running:
        yield running


def _stored(server: ServerProcess) -> int:
    with sqlite3.connect(server.db_path) as db:
        return int(db.execute("SELECT COUNT(*) FROM proposals").fetchone()[0])


def test_an_open_proposal_is_asked_again_after_a_restart_and_a_decided_one_is_not(
        restartable: ServerProcess, chromium: Any, tmp_path: Path) -> None:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    created = create_table(restartable.url, game="stardice", variant="battle", seed=12)
    alice = open_connected(chromium, restartable.url + created["seats"][0]["join_url"], DESKTOP)
    bob = open_connected(chromium, restartable.url + created["seats"][1]["join_url"], PHONE)
    status, prompt = alice.locator(".proposal-status"), bob.locator(".proposal-status")
    alice.locator(".stardice-menu-button").click()
    alice.locator('.stardice-variant[data-variant="iteration4"]').click()
    alice.locator(".stardice-start").click()
    prompt.get_by_role("button", name="Agree").wait_for()
    assert _stored(restartable) == 1

    restartable.restart()
    for page in (alice, bob):
        page.reload()
        wait_open(page)
    status.get_by_text("waiting for Klingon to agree").wait_for()
    prompt.get_by_role("button", name="Keep playing").wait_for()
    assert prompt.inner_text().startswith("Federation asks to leave this game for a new game of Version 4")
    bob.screenshot(path=str(shots / "proposal-after-restart-phone.png"))
    prompt.get_by_role("button", name="Keep playing").click()
    status.get_by_text("Klingon wants to keep playing: the game goes on.").wait_for()
    assert _stored(restartable) == 0

    restartable.restart()
    for page in (alice, bob):
        page.reload()
        wait_open(page)
    assert alice.evaluate("window.playtable.state.step") >= 0
    assert status.is_hidden() and prompt.is_hidden()
    assert not alice.script_errors and not bob.script_errors


def test_the_store_keeps_each_seats_last_ask_in_order_until_cleared(db_where: str | Path) -> None:
    db = opened(db_where)
    try:
        store = SqlProposalStore(db)
        store.ask("t1", 0, "iteration4", 1)
        store.ask("t1", 1, None, 2)
        store.ask("t2", 2, "battle", 1)
        store.ask("t1", 0, "battle", 3)  # the same seat asks again: its row is replaced
        assert store.every() == {"t1": [(1, None), (0, "battle")], "t2": [(2, "battle")]}
        store.clear("t1")
        assert store.every() == {"t2": [(2, "battle")]}
    finally:
        db.close()
