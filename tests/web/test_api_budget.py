"""One network cannot hold the event loop with API requests (docs/web.md, "Fair use";
`transport/api_budget.py`): each network may make `api_requests_per_minute` requests to /api/ a
minute, in bursts of as many, then gets 429 with Retry-After before any route runs; an IPv6 /64
is one network, another network is not held up, and pages and static files are not counted."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest
from starlette.testclient import TestClient
from tests.cli.cli_runner import run
from tests.web.conftest import in_process_app
from tests.web.server_process import start_server
from tests.web.test_fair_networks import NEIGHBOUR, FromAddress, one_home

from playtable.web.server.store.rate_limits import FORGET_PAST, Budgets
from playtable.web.server.tables.room import Limits

pytestmark = pytest.mark.timeout(120)
BUDGET = 6


def test_a_network_past_its_api_budget_is_refused_and_its_neighbour_is_not(tmp_path: Path) -> None:
    app = FromAddress(in_process_app(tmp_path / "t.sqlite3", limits=Limits(api_requests_per_minute=BUDGET)))
    with TestClient(app) as client:
        # every address of one /64 spends the one budget: one address each request
        answers = [client.get("/api/games", headers=one_home(n)) for n in range(1, BUDGET + 1)]
        assert [a.status_code for a in answers] == [200] * BUDGET
        refused = client.get("/api/tables", headers=one_home(BUDGET + 1))
        assert refused.status_code == 429, refused.text
        assert refused.headers["retry-after"] == "10" and "too many requests" in refused.json()["error"]
        assert refused.headers["content-security-policy"] and refused.headers["cache-control"] == "no-store"
        assert refused.headers["connection"] == "close"  # as the front door refuses: a body is not read on
        # the page and its files are not counted; another network has its own budget
        assert client.get("/", headers=one_home(1)).status_code == 200
        assert client.get("/static/js/lobby.js", headers=one_home(1)).status_code == 200
        assert client.get("/api/games", headers=NEIGHBOUR).status_code == 200
        assert client.post("/api/tables", headers=one_home(2), json={"game": "troll"}).status_code == 429


def test_a_served_network_flooding_the_lobby_is_answered_429_and_others_play_on(tmp_path: Path) -> None:
    """`playtable serve --api-requests-per-minute 30` behind a proxy that forwards each client's
    address: one network asking for the lobby back to back has its 30, then 429 at once; a
    stranger's own requests are answered."""
    extra = ("--api-requests-per-minute", "30", "--forwarded-allow-ips", "127.0.0.1")
    with start_server(tmp_path / "t.sqlite3", extra_args=extra) as server, \
            httpx2.Client(base_url=server.url, timeout=20) as http:
        flood = {"x-forwarded-for": "203.0.113.7"}
        codes = [http.get("/api/tables", headers=flood).status_code for _ in range(40)]
        assert codes[:30] == [200] * 30 and set(codes[30:]) == {429}, codes
        stranger = {"x-forwarded-for": "198.51.100.1"}
        made = http.post("/api/tables", headers=stranger,
                         json={"game": "troll", "seats": [{"kind": "human"}]})
        assert made.status_code == 201, made.text
        assert http.get("/api/tables", headers=stranger).status_code == 200


def test_serve_refuses_a_budget_out_of_its_bounds(tmp_path: Path) -> None:
    refused = run("serve", "--db", str(tmp_path / "t.sqlite3"), "--port", "0",
                  "--api-requests-per-minute", "0")
    assert refused.code == 2 and refused.one_error_line(), refused
    assert "--api-requests-per-minute" in refused.err and "Traceback" not in refused.err


def test_many_busy_networks_do_not_make_every_request_look_through_every_bucket() -> None:
    """The buckets of networks seen once are forgotten once full again, so memory stays bounded;
    while more than FORGET_PAST networks are all still refilling, the look for full buckets is
    made each time they have doubled, not at every request (an API request checks one)."""
    now = [0.0]
    budgets = Budgets(clock=lambda: now[0])
    busy = FORGET_PAST + 500
    for k in range(busy):  # every one of them spends a token: none is full again for a while
        assert budgets.allow("api", f"10.{k >> 16}.{(k >> 8) & 255}.{k & 255}", 60.0)
    assert len(budgets.buckets) == busy and budgets.sweeps == 1  # one look, nothing full to forget
    for _ in range(1000):  # a thousand more requests from those networks: no look at all
        budgets.allow("api", "10.0.0.1", 60.0)
    assert budgets.sweeps == 1
    now[0] += 60.0  # a minute later every bucket is full again
    for k in range(2 * busy):  # new networks: the next look, once the buckets have doubled,
        budgets.allow("api", f"11.{k >> 16}.{(k >> 8) & 255}.{k & 255}", 60.0)  # forgets the full
        if budgets.sweeps == 2:
            break
    assert budgets.sweeps == 2 and busy + k + 1 == 2 * (FORGET_PAST + 1) + 1  # past twice the first
    # the minute-old networks' full buckets forgotten, the new ones (still refilling) kept
    assert len(budgets.buckets) == k + 1 and all(key.startswith("11.") for _, key in budgets.buckets)
