"""The routes and messages a table gained for tutorials, proposals and a playtest's counts,
attacked as a stranger would: leaving a tutorial (`POST /api/tables/{id}/leave`), declining a
mid-game proposal (`keep_playing`), and asking for hints (`seat_assists`). Each refusal is one
sentence and changes nothing; a flood costs what the per-connection rate allows and no more.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import create, in_process_app, seat_query, token_of
from tests.web.hub_support import running_hub

from playtable.web.server.store.rate_limits import BURST, STRIKES_BEFORE_CLOSE


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    """The app at the default message rate, as a stranger meets it."""
    with TestClient(in_process_app(tmp_path / "tables.sqlite3", workers=1)) as client:
        yield client


def _tutorial(client: TestClient) -> tuple[str, str]:
    made = client.post("/api/tutorials", json={"name": "troll-walkthrough"})
    assert made.status_code == 201, made.text
    return made.json()["table_id"], made.json()["join_url"].split("token=", 1)[1].split("&", 1)[0]


def _until(ws: Any, kind: str, limit: int = 60) -> list[dict[str, Any]]:
    """The messages up to and with the first of `kind`."""
    seen = []
    for _ in range(limit):
        seen.append(ws.receive_json())
        if seen[-1]["type"] == kind or seen[-1].get("code") == kind:
            return seen
    raise AssertionError(f"no {kind!r} in {limit} messages: {[m['type'] for m in seen]}")


def _drained(ws: Any) -> list[dict[str, Any]]:
    """Every message this connection gets up to now: a bad message's answer comes after
    everything its earlier messages caused."""
    ws.send_json({"type": "bogus"})
    return _until(ws, "bad_message")[:-1]


# -- leaving a tutorial ------------------------------------------------------------------------

BAD_BODIES: list[tuple[bytes, dict[str, str]]] = [
    (b"", {}), (b"[]", {}), (b'"token"', {}), (b"{", {}), (b"\xff\xfe", {}), (b"{}", {}),
    (b'{"token": 3}', {}), (b'{"key": null}', {}), (b'{"token": "' + b"t" * 101 + b'"}', {}),
    (b'{"seat": 0}', {}), (b'{"token": "x", "admin": true}', {}),
]


def test_a_tutorial_is_left_only_by_its_own_person_and_only_a_tutorial(client: TestClient) -> None:
    mine, my_token = _tutorial(client)
    other, other_token = _tutorial(client)
    real = create(client, game="troll")
    leave = f"/api/tables/{mine}/leave"
    refusals = [
        client.post(f"/api/tables/{other}/leave", json={"token": my_token}),  # another table's seat
        client.post(leave, json={"token": other_token}),
        client.post(leave, json={"token": "made-up"}),  # a watcher: no seat's proof
        client.post(leave, json={"token": ""}),
        client.post(leave, json={"key": "k" * 40}),  # a key nobody sits here with
        client.post(leave, json={"key": ""}),
    ]
    assert [r.status_code for r in refusals] == [403] * 6, [r.text for r in refusals]
    for body, headers in BAD_BODIES:
        answer = client.post(leave, content=body, headers={"content-type": "application/json", **headers})
        assert answer.status_code == 400 and list(answer.json()) == ["error"], (body, answer.text)
        assert len(answer.json()["error"]) < 200
    plain = client.post(leave, content=b'{"token": "' + my_token.encode() + b'"}',
                        headers={"content-type": "text/plain"})
    assert plain.status_code == 415
    assert client.post("/api/tables/no-such-table/leave", json={"token": my_token}).status_code == 404
    assert client.post(f"/api/tables/{'x' * 5000}/leave", json={"token": my_token}).status_code == 404
    assert client.get(leave).status_code == 405
    # a real table's own seat: 409, its game goes on
    answer = client.post(f"/api/tables/{real['table_id']}/leave", json={"token": token_of(real)})
    assert answer.status_code == 409 and "only a tutorial" in answer.json()["error"]
    assert client.get(f"/api/tables/{real['table_id']}").json()["status"] != "finished"
    # nothing above ended either tutorial
    assert {client.get(f"/api/tables/{t}").json()["status"] for t in (mine, other)} == {"running"}

    first = client.post(leave, json={"token": my_token})
    assert first.status_code == 200 and first.json() == {"table_id": mine, "status": "finished"}
    ended = client.get(f"/api/tables/{mine}").json()
    for _ in range(3):  # repeated: the same answer, the table left as it ended
        again = client.post(leave, json={"token": my_token})
        assert again.status_code == 200 and again.json()["status"] == "finished"
    assert client.get(f"/api/tables/{mine}").json() == ended
    assert client.get(f"/api/tables/{other}").json()["status"] == "running"


# -- declining a proposal ----------------------------------------------------------------------

def _ask(client: TestClient, created: dict[str, Any], seat: int) -> Any:
    return client.post(f"/api/tables/{created['table_id']}/rematch",
                       json={"seat": seat, "token": token_of(created, seat)})


def test_keep_playing_is_answered_only_by_those_the_proposal_asks(client: TestClient) -> None:
    created = create(client, game="wizard", players=3, seed=4)
    url = f"/ws/tables/{created['table_id']}"
    with client.websocket_connect(f"{url}?{seat_query(created, 0)}") as wizard, \
            client.websocket_connect(f"{url}?{seat_query(created, 1)}") as hero, \
            client.websocket_connect(url) as watcher:
        for ws in (wizard, hero, watcher):
            _until(ws, "state")
        hero.send_json({"type": "keep_playing"})  # nothing open: nothing happens, nobody is told
        assert _drained(hero) == [] and _drained(wizard) == []

        assert _ask(client, created, 0).json()["waiting_for"] == [1]
        for ws in (wizard, hero, watcher):
            assert _until(ws, "rematch_proposed")[-1]["waiting_for"] == [1]
        watcher.send_json({"type": "keep_playing"})
        assert _until(watcher, "forbidden")[-1]["code"] == "forbidden"

        # the third seat's person sits down after the proposal: it does not ask them
        with client.websocket_connect(f"{url}?{seat_query(created, 2)}") as late:
            welcome = _until(late, "welcome")[-1]
            assert welcome["proposal"]["waiting_for"] == [1]
            late.send_json({"type": "keep_playing"})
            refused = [m for m in _drained(late) if m["type"] == "error"]
            assert [m["code"] for m in refused] == ["not_asked"]
            assert "does not wait for you" in refused[0]["message"]
        assert all(m["type"] != "rematch_declined" for m in _drained(wizard))
        with client.websocket_connect(url) as look:  # still open, as it was
            assert _until(look, "welcome")[-1]["proposal"]["waiting_for"] == [1]

        hero.send_json({"type": "keep_playing"})
        for _ in range(3):  # repeated: nothing more
            hero.send_json({"type": "keep_playing"})
        for ws in (wizard, hero, watcher):
            told = [m for m in _drained(ws) if m["type"] == "rematch_declined"]
            assert [(m["seat"], m["name"]) for m in told] == [(1, "Hero 1")], told
    with client.websocket_connect(url) as look:
        assert _until(look, "welcome")[-1]["proposal"] is None
    assert _ask(client, created, 0).status_code == 202  # asking again works


def test_a_flood_of_keep_playing_is_cut_off_and_declines_once(strict: TestClient) -> None:
    created = create(strict, game="stardice", variant="battle", seed=3)
    url = f"/ws/tables/{created['table_id']}"
    with strict.websocket_connect(f"{url}?{seat_query(created, 0)}") as asker, \
            strict.websocket_connect(f"{url}?{seat_query(created, 1)}") as asked:
        for ws in (asker, asked):
            _until(ws, "state")
        assert _ask(strict, created, 0).status_code == 202
        _until(asked, "rematch_proposed")
        flood = int(BURST) + STRIKES_BEFORE_CLOSE + 40
        for _ in range(flood):
            asked.send_json({"type": "keep_playing"})
        got: list[dict[str, Any]] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(flood + 10):
                got.append(asked.receive_json())
        assert closed.value.code == 1008
        # One error a dropped message but the one that closes (STRIKES_BEFORE_CLOSE in a row).
        # The bucket's first BURST messages pass; the flood's later ones may pass too on a slow
        # machine (a token refills every 1/RATE s while the server works through the flood),
        # and each passing one starts the strikes again, so the count of errors is a range.
        limited = [m for m in got if m.get("code") == "rate_limited"]
        assert STRIKES_BEFORE_CLOSE - 1 <= len(limited) <= flood - int(BURST) - 1
        assert [m["type"] for m in got].count("rematch_declined") == 1
        told = [m for m in _drained(asker) if m["type"] == "rematch_declined"]
        assert len(told) == 1


# -- hints and their count ---------------------------------------------------------------------

def _assists(db: Path, table_id: str) -> list[tuple[int, int, int]]:
    with sqlite3.connect(db) as conn:
        return [tuple(row) for row in conn.execute(
            "SELECT seat, hints, undos FROM seat_assists WHERE table_id = ?", (table_id,))]


def test_a_flood_of_hints_costs_one_job_and_one_count_a_position(strict: TestClient, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    workers = running_hub().workers
    jobs: list[str] = []
    real_hint = workers.hint

    async def counted(game_id: str, position: dict[str, Any], network: str = "") -> Any:
        jobs.append(game_id)
        return await real_hint(game_id, position, network)

    monkeypatch.setattr(workers, "hint", counted)
    created = create(strict, game="wizard", seed=2)
    table = created["table_id"]
    with strict.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as ws, \
            strict.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as again, \
            strict.websocket_connect(f"/ws/tables/{table}") as watcher:
        state = _until(ws, "state")[-1]
        _until(again, "state")
        _until(watcher, "state")
        watcher.send_json({"type": "hint", "step": state["step"]})
        assert _until(watcher, "forbidden")[-1]["code"] == "forbidden"
        asked = int(BURST) // 2  # within the burst: every one is answered
        for _ in range(asked):
            ws.send_json({"type": "hint", "step": state["step"]})
        hints = [m for m in _drained(ws) if m["type"] == "hint"]
        assert len(hints) == asked and len({(h["action"], h["text"]) for h in hints}) == 1
        again.send_json({"type": "hint", "step": state["step"]})  # another page of the same seat
        assert _until(again, "hint")[-1]["action"] == hints[0]["action"]
        assert jobs == ["wizard"]
        assert _assists(tmp_path / "tables.sqlite3", table) == [(0, 1, 0)]

        flood = int(BURST) + STRIKES_BEFORE_CLOSE + 20  # past the limits: cut off
        for _ in range(flood):
            ws.send_json({"type": "hint", "step": state["step"]})
        with pytest.raises(WebSocketDisconnect):
            for _ in range(flood + 10):
                ws.receive_json()
    assert jobs == ["wizard"]
    assert _assists(tmp_path / "tables.sqlite3", table) == [(0, 1, 0)]
