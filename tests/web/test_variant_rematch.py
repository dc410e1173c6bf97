"""A rematch in another named variant, over the wire (docs/web.md "rematch": Star
Dice's iterations playable from the table menu): the seats it plans (`seating.py`), the tokens
carried over, the message every connection gets, and bad requests that change nothing."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient
from tests.web.conftest import create, seat_query, token_of
from tests.web.test_table_socket import greet

from playtable.core.params import resolve_params
from playtable.core.protocol import params_as_dict
from playtable.core.registry import get_game
from playtable.web.server.tables.seating import plan_seats


def _two_people(client: TestClient) -> dict[str, Any]:
    return create(client, game="stardice", variant="battle", seed=4)


def test_seat_plans() -> None:
    assert plan_seats(2, 2, 1).new_from_old == [0, 1]  # same count: nobody moves
    assert plan_seats(2, 1, 1).new_from_old == [1]  # solitaire: the one who asked plays it
    assert plan_seats(2, 1, 1).old_to_new(2) == [None, 0]
    assert plan_seats(1, 2, 0).new_from_old == [0, None]  # an added seat is a bot


def test_a_variant_rematch_moves_both_players_and_watchers(client: TestClient) -> None:
    created = _two_people(client)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 0)}") as fed, \
            client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as kli, \
            client.websocket_connect(f"/ws/tables/{table}") as watcher:
        for ws in (fed, kli, watcher):
            greet(ws)
        # Mid-game with both people seated, one asking is a proposal ...
        proposal = client.post(f"/api/tables/{table}/rematch",
                               json={"seat": 1, "token": token_of(created, 1), "variant": "iteration4"})
        assert proposal.status_code == 202 and proposal.json()["waiting_for"] == [0], proposal.text
        for ws in (fed, kli, watcher):
            assert ws.receive_json() == {"type": "rematch_proposed", "seat": 1, "name": "Klingon",
                                         "variant": "iteration4", "waiting_for": [0],
                                         "variant_title": "Version 4: highest die times shapes"}
        assert client.get(f"/api/tables/{table}").json()["rematch"] is None
        # ... that starts the new game once the other agrees to the same
        answer = client.post(f"/api/tables/{table}/rematch",
                             json={"seat": 0, "token": token_of(created, 0), "variant": "iteration4"})
        assert answer.status_code == 200, answer.text
        new = answer.json()["table_id"]
        assert answer.json()["seat"] == 0
        for ws in (fed, kli, watcher):
            assert ws.receive_json() == {"type": "rematch", "table_id": new, "seats": [0, 1]}
    summary = client.get(f"/api/tables/{new}").json()
    game = get_game("stardice")
    assert summary["variant"] == "iteration4" and summary["rematch_of"] == table
    assert summary["params"] == params_as_dict(resolve_params(game.params_type, game.variants, "iteration4"))
    for seat in (0, 1):
        with client.websocket_connect(f"/ws/tables/{new}?seat={seat}&token={token_of(created, seat)}") as ws:
            welcome, state = greet(ws)
            assert welcome["role"] == "player" and welcome["seat"] == seat
    # asked again (another variant, the other seat): the same new table, the first request won
    again = client.post(f"/api/tables/{table}/rematch",
                        json={"seat": 0, "token": token_of(created, 0), "variant": "objective1"})
    assert again.json() == {"table_id": new, "seat": 0}


def test_solitaire_seats_the_asker_and_back_adds_a_bot(client: TestClient) -> None:
    created = _two_people(client)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 0)}") as fed:
        greet(fed)
        asked = client.post(f"/api/tables/{table}/rematch",
                            json={"seat": 1, "token": token_of(created, 1), "variant": "objective1"})
        assert asked.status_code == 202  # Federation's player sat down: they must agree
        assert fed.receive_json()["type"] == "rematch_proposed"
        answer = client.post(f"/api/tables/{table}/rematch",
                             json={"seat": 0, "token": token_of(created, 0), "variant": "objective1"})
        solo = answer.json()["table_id"]
        assert answer.json()["seat"] is None  # Klingon's player asked first: theirs is the one seat
        assert fed.receive_json() == {"type": "rematch", "table_id": solo, "seats": [None, 0]}
    summary = client.get(f"/api/tables/{solo}").json()
    assert summary["variant"] == "objective1" and len(summary["seats"]) == 1
    with client.websocket_connect(f"/ws/tables/{solo}?seat=0&token={token_of(created, 1)}") as ws:
        welcome, state = greet(ws)
        assert welcome["role"] == "player" and state["your_turn"]
        assert state["observation"]["mode"] == "objective1"
    with client.websocket_connect(f"/ws/tables/{solo}?seat=0&token={token_of(created, 0)}") as ws:
        assert ws.receive_json()["code"] == "forbidden"  # Federation's player was left out: watches
    back = client.post(f"/api/tables/{solo}/rematch",
                       json={"seat": 0, "token": token_of(created, 1), "variant": "battle"}).json()
    seats = client.get(f"/api/tables/{back['table_id']}").json()["seats"]
    assert back["seat"] == 0 and [s["kind"] for s in seats] == ["human", "bot"]
    assert seats[1]["agent"] == "random"  # no token exists for the added seat: the stand-in bot


def test_bad_variant_requests_change_nothing(client: TestClient) -> None:
    created = _two_people(client)
    table = created["table_id"]
    token = token_of(created, 0)
    for body, status in [({"seat": 0, "token": token, "variant": "nope"}, 400),
                         ({"seat": 0, "token": token, "variant": None}, 400),
                         ({"seat": 0, "token": token, "variant": 3}, 400),
                         ({"seat": 0, "token": "wrong", "variant": "battle"}, 403),
                         ({"seat": 5, "token": token, "variant": "battle"}, 403)]:
        answer = client.post(f"/api/tables/{table}/rematch", json=body)
        assert answer.status_code == status and "error" in answer.json(), body
    assert client.get(f"/api/tables/{table}").json()["rematch"] is None
    assert len(client.get("/api/tables").json()["tables"]) == 1


def test_a_table_left_unfinished_is_over_for_everyone(client: TestClient) -> None:
    """The old table of a mid-game variant switch is not "running" for ever: the lobby lists it
    as finished with why, and nobody (a seat, a bot, a turn timer) plays it on."""
    created = _two_people(client)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 0)}") as ws:
        _, state = greet(ws)
        assert state["your_turn"] and state["legal"]
        first = state["legal"][0]["action"]
        client.post(f"/api/tables/{table}/rematch",
                    json={"seat": 0, "token": token_of(created, 0), "variant": "iteration4"})
        assert ws.receive_json()["type"] == "rematch"
        ws.send_json({"type": "act", "action": first, "step": 0})
        reply = ws.receive_json()
        assert reply["code"] == "illegal" and "moved to a new table" in reply["message"]
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["status"] == "finished" and summary["step"] == 0
    assert summary["result"]["text"].startswith("Left unfinished")
    assert "seed" not in summary  # the game did not end: its hidden future stays hidden
    running = {t["id"] for t in client.get("/api/tables?status=running").json()["tables"]}
    finished = {t["id"] for t in client.get("/api/tables?status=finished").json()["tables"]}
    assert table in finished and table not in running
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 0)}") as ws:
        _, state = greet(ws)
        assert not state["your_turn"] and state["legal"] == [] and not state["can_undo"]


def test_an_open_proposal_is_told_on_connect_until_someone_keeps_playing(client: TestClient) -> None:
    """A come-back-later table: Bob closed his page while Alice's proposal was open. His page
    opened again finds it in the welcome (the Agree / Keep playing prompt comes back); his "Keep
    playing" ends it for everyone, so Alice's page stops waiting, and later welcomes carry none."""
    created = _two_people(client)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 0)}") as fed:
        greet(fed)
        with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as kli:
            welcome, _ = greet(kli)
            assert welcome["proposal"] is None
        asked = client.post(f"/api/tables/{table}/rematch",
                            json={"seat": 0, "token": token_of(created, 0), "variant": "iteration4"})
        assert asked.status_code == 202
        told = {"seat": 0, "name": "Federation", "variant": "iteration4", "waiting_for": [1],
                "variant_title": "Version 4: highest die times shapes"}
        assert asked.json()["proposal"] == told
        assert fed.receive_json() == {"type": "rematch_proposed", **told}
        with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as kli:
            welcome, _ = greet(kli)
            assert welcome["proposal"] == told
            kli.send_json({"type": "keep_playing"})
            declined = {"type": "rematch_declined", "seat": 1, "name": "Klingon"}
            assert kli.receive_json() == declined
            assert fed.receive_json() == declined
        with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 0)}") as again:
            welcome, _ = greet(again)
            assert welcome["proposal"] is None
        with client.websocket_connect(f"/ws/tables/{table}") as watcher:
            watcher.send_json({"type": "keep_playing"})  # a watcher has no say
            greet(watcher)
            assert watcher.receive_json()["code"] == "forbidden"
    # declined, the proposal is gone: Klingon asking for the same is a new proposal, not a rematch
    answer = client.post(f"/api/tables/{table}/rematch",
                         json={"seat": 1, "token": token_of(created, 1), "variant": "iteration4"})
    assert answer.status_code == 202 and answer.json()["waiting_for"] == [0]


def test_seats_are_titled_as_players_read_them(client: TestClient) -> None:
    """The wizard game's seats are `wizard`, `hero1`... for the lab; a page reads "the wizard",
    "Hero 1" (`Game.seat_titles`) in the welcome and in every seat of a summary."""
    created = create(client, game="wizard", players=3, seed=2)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created, 1)}") as ws:
        welcome, _ = greet(ws)
    assert welcome["seat_names"] == ["wizard", "hero1", "hero2"]
    assert welcome["seat_titles"] == ["the wizard", "Hero 1", "Hero 2"]
    assert [s["title"] for s in welcome["table"]["seats"]] == ["the wizard", "Hero 1", "Hero 2"]
