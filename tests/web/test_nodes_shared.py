"""A rate budget, a name and a rating are the same whichever node is asked (docs/web.md,
"Several machines"): three real `playtable serve --node` processes on one real PostgreSQL
behind a real nginx running docs/deploy/nginx-nodes.conf (tests/web/nodes.py), each asked
directly and through nginx, which sends a request with no table in its path to a node of its
choosing (a new one each time) and a table's to the node its id hashes to, holder or not."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from tests.pg_server import PgServer
from tests.web.nodes import NodesSite, holders, node_of
from tests.web.test_nginx import NAME, NGINX, OPENSSL
from tests.web.test_ratings import STARDICE_WON_BY_SEAT_0, bot, finished_row, person
from tests.web.wire_client import TIMEOUT

from playtable.web.server.people.people import hash_key
from playtable.web.server.store.store import PlayerRow, SqlStore
from playtable.web.server.tables.past import PER_ADDRESS_PER_MINUTE

pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install nginx)"),
    pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed"),
]

RATED_KEY = secrets.token_urlsafe(32)
THROUGH_NGINX = 6
"""How many times a question is asked through nginx: with no table in its path, nginx hashes a
new request id each time, so these reach every node but with a chance of (2/3)^6 per node."""


@pytest.fixture(scope="module")
def site(postgres: PgServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NodesSite]:
    """Three nodes on a database holding Alice's rated Star Dice game against a bot, ended."""
    db = postgres.database()
    stored = SqlStore(db)
    stored.add_player(PlayerRow("alice", "Alice", hash_key(RATED_KEY), "2026-12-06"))
    stored.create(finished_row("stardice", STARDICE_WON_BY_SEAT_0, [person("alice"), bot()], "sd-rated"))
    stored.close()
    with NodesSite(tmp_path_factory.mktemp("shared"), db, count=3,
                   extra_args=("--tables-per-minute", "1000")) as running:
        yield running


def _everywhere(site: NodesSite, method: str, path: str, **options: Any) -> list[httpx2.Response]:
    """The answers of each node asked directly, then of nginx asked THROUGH_NGINX times."""
    assert site.proxy is not None
    direct = [httpx2.request(method, node.url + path, timeout=TIMEOUT, **options) for node in site.nodes]
    return direct + [site.proxy.request(method, path, **options) for _ in range(THROUGH_NGINX)]


def test_a_name_is_the_same_whichever_node_is_asked(site: NodesSite) -> None:
    assert site.proxy is not None
    key, name = secrets.token_urlsafe(32), "Nod" + secrets.token_hex(3)
    made = site.proxy.request("POST", "/api/players", json={"key": key, "name": name},
                              headers={"Origin": site.proxy.origin})
    assert made.status_code == 201, made.text
    mine = _everywhere(site, "POST", "/api/players/me", json={"key": key})
    assert {answer.json()["player"]["name"] for answer in mine} == {name}
    taken = _everywhere(site, "POST", "/api/players", json={"key": secrets.token_urlsafe(32),
                                                            "name": name.upper()})
    assert {(answer.status_code, "taken" in answer.json()["error"]) for answer in taken} == {(409, True)}
    renamed = "Re" + secrets.token_hex(3)
    assert httpx2.post(f"{site.nodes[2].url}/api/players", json={"key": key, "name": renamed},
                      timeout=TIMEOUT).status_code == 200
    assert {answer.json()["player"]["name"] for answer in _everywhere(site, "POST", "/api/players/me",
                                                             json={"key": key})} == {renamed}


def test_a_rating_is_the_same_whichever_node_is_asked(site: NodesSite) -> None:
    seen: dict[str, Any] = {}
    for path, options in (("/api/games/stardice/bots", {}), ("/api/leaderboard?game=stardice", {}),
                          ("/api/tables/sd-rated/rating", {}),
                          ("/api/players/me/scores", {"json": {"key": RATED_KEY}})):
        answers = _everywhere(site, "POST" if options else "GET", path, **options)
        assert {answer.status_code for answer in answers} == {200}, path
        assert all(answer.json() == answers[0].json() for answer in answers), path
        seen[path] = answers[0].json()
    # rated once, not once a node
    board = {entry["name"]: entry["games"] for entry in seen["/api/leaderboard?game=stardice"]["entries"]}
    assert board["bot: random"] == 1, board
    assert seen["/api/games/stardice/bots"]["bots"]["random"]["games"] == 1
    assert seen["/api/tables/sd-rated/rating"]["settled"]


def test_a_rate_budget_spent_through_nginx_is_spent_at_every_node(site: NodesSite) -> None:
    """Replays fetched through nginx from one address spend one budget, in the store: once
    it is spent, the replay of a table held by each node, asked of each node directly and
    through nginx, is refused (of two asked, one at most got a token refilled meanwhile)."""
    assert site.proxy is not None
    db = site.nodes[0].db
    held: dict[str, str] = {}
    for seed in range(30):  # bounded: nginx sends each creation to a node of its choosing
        table_id = site.proxy.create_table(game="troll", seed=seed)["table_id"]
        held.setdefault(node_of(holders(db)[table_id]), table_id)
        if len(held) == len(site.nodes):
            break
    assert len(held) == len(site.nodes), held
    spent = list(held.values())[0]
    answers: list[int] = []
    with site.proxy.client() as http:
        while len(answers) < 2 * PER_ADDRESS_PER_MINUTE and 429 not in answers:  # bounded
            fetched = http.get(f"/api/tables/{spent}/replay", extensions={"sni_hostname": NAME})
            answers.append(fetched.status_code)
    assert answers[-1] == 429 and set(answers[:-1]) == {200}, answers
    for table_id in held.values():
        asked = [[httpx2.get(f"{node.url}/api/tables/{table_id}/replay", timeout=TIMEOUT).status_code
                  for _ in range(2)] for node in site.nodes]
        asked.append([site.proxy.request("GET", f"/api/tables/{table_id}/replay").status_code
                      for _ in range(2)])
        assert all(429 in pair and set(pair) <= {200, 429} for pair in asked), (table_id, asked)
