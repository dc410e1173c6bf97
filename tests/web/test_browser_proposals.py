"""A mid-game proposal of a new game survives a server restart, in a real browser under the
server's strict Content-Security-Policy: the asker's status and the other person's "Agree" /
"Keep playing" prompt are there again after the restart and a reload (a come-back-later table
may wait days for its answer), and once decided ("Keep playing") nothing is asked again after
the next restart. On SQLite and PostgreSQL, over the wire: a server killed (SIGKILL) with a
proposal open asks again after its restart, and one whose new game was agreed asks nobody; and
the store's side, `SqlProposalStore`.

Waits are Playwright locators and bounded polls of `page.evaluate` (`browser_support.poll`).
Screenshots go to $PLAYTABLE_SCREENSHOTS, else the test's temporary directory.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from tests.web.browser_support import create_table, open_connected, wait_open
from tests.web.conftest import token_of
from tests.web.server_process import ServerProcess, start_server
from tests.web.wire_client import Client, join_query

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


def _seated(server: ServerProcess, created: dict[str, Any], seat: int) -> Client:
    player = Client(server.ws_url, created["table_id"], join_query(created, seat))
    player.greet()
    return player


def _ask(server: ServerProcess, created: dict[str, Any], seat: int) -> httpx2.Response:
    """Seat `seat` asks for a new game of the balanced rules (a proposal while others play on)."""
    return httpx2.post(f"{server.url}/api/tables/{created['table_id']}/rematch", timeout=10,
                      json={"seat": seat, "token": token_of(created, seat), "variant": "balanced"})


def test_a_killed_server_keeps_an_open_proposal_and_forgets_a_decided_one(db_where: str | Path) -> None:
    with start_server(db_where) as server:
        tables = [create_table(server.url, game="wizard", players=3, seed=k) for k in (1, 2)]
        for created in tables:  # every person sits down, then the wizard asks for a new game
            for player in [_seated(server, created, seat) for seat in range(3)]:
                player.close()
            asked = _ask(server, created, 0)
            assert asked.status_code == 202 and asked.json()["waiting_for"] == [1, 2]
        agreed, still_open = tables
        for seat in (1, 2):  # the first table's heroes agree: its new game is made
            answer = _ask(server, agreed, seat)
            assert answer.status_code == (202 if seat == 1 else 200), answer.text
        assert _ask(server, still_open, 1).status_code == 202  # hero 1 agrees, hero 2 has not
        with _seated(server, still_open, 2) as hero:
            before = hero.received[0]["proposal"]
        assert before["variant"] == "balanced" and before["waiting_for"] == [2]

        server.kill()
        server.restart()
        with _seated(server, still_open, 2) as hero:
            assert hero.received[0]["proposal"] == before  # only hero 2 is still asked
        with _seated(server, agreed, 2) as hero:
            assert hero.received[0]["proposal"] is None


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
