"""Two people meet through the Open tab, each in a real browser on a different node (docs/web.md,
"Several machines"): two real `playtable serve --node` processes on one real PostgreSQL, each
person's pages served by their own node's address. Alice makes a Star Dice battle with an open
seat at node 0, which holds it; Bob's lobby at node 1 lists it under Open (node 1 asks node 0),
he sits down there (his seat is taken at node 0, his page's socket sent on to it), they play a
move each, and both pages see both moves."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from tests.pg_server import PgServer
from tests.web.browser_support import table_state, wait_connected
from tests.web.nodes import holders, node_server
from tests.web.server_process import ServerProcess
from tests.web.test_browser_people import (
    create_in_lobby,
    join_through_open_tab,
    log_heads,
    mover_of,
    person,
    play,
)

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def nodes(postgres: PgServer) -> Iterator[list[ServerProcess]]:
    db = postgres.database()
    started = [node_server(db, f"node-{i}") for i in range(2)]
    try:
        for node in started:
            node.start()
        yield started
    finally:
        for node in started:
            node.__exit__(None, None, None)


def test_two_people_on_two_nodes_meet_through_the_open_tab_and_play(nodes: list[ServerProcess],
                                                                    chromium: Any) -> None:
    at_node_0, at_node_1 = nodes
    alice = person(chromium, at_node_0.url, "Alice")
    create_in_lobby(alice, "stardice", ["me", "open"], variant="battle", seed=21)
    alice.get_by_role("link", name="Join as Federation").click()
    wait_connected(alice)
    table_id = alice.evaluate("window.playtable.tableId")
    assert holders(at_node_0.db)[table_id] == "node-0/0"

    bob = person(chromium, at_node_1.url, "Bob")
    join_through_open_tab(bob, table_id)
    assert bob.url.startswith(at_node_1.url + "/t/") and "token=" in bob.url  # his page: node 1's
    assert bob.locator(".seat-badge").inner_text() == "Bob · you play Klingon"
    alice.wait_for_function("window.playtable.players[1] === 'Bob'")  # told across the nodes
    assert holders(at_node_0.db)[table_id] == "node-0/0"  # still held where it was made

    pages, names = [alice, bob], ["Alice", "Bob"]
    played: set[int] = set()
    for _ in range(200):  # bounded: each plays one move (a battle's first turns may be one's)
        if played == {0, 1}:
            break
        mover = mover_of(pages)
        if mover is None:
            pages[0].wait_for_timeout(50)
            continue
        play(pages[mover], table_state(pages[mover])["legal"][0]["action"])
        played.add(mover)
    assert played == {0, 1}
    step = table_state(alice)["step"]
    for page in pages:
        page.wait_for_function(f"window.playtable.state.step === {step}")
        heads = log_heads(page)
        for name in names:
            assert any(re.match(rf"\d+\. {name}: ", head) for head in heads), (name, heads)
        assert not page.script_errors
    for node in nodes:  # the record, asked of either node, is the pages'
        summary = httpx2.get(f"{node.url}/api/tables/{table_id}", timeout=20, follow_redirects=True).json()
        assert summary["step"] == step and [s["player"] for s in summary["seats"]] == names
