"""People without accounts, open seats, "Yours" and "Your turn" (docs/web.md
"People"): every new route, message and field, with its bounds: bad names and keys, a taken or
reserved seat, floods from one address. The clocks that wait for their person, and the
stand-in a timeout brings, are tested in test_clocks.py."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import create, in_process_app, seat_query, token_of

from playtable.web.server.store.schema import opened, table_names
from playtable.web.server.tables.room import Limits


def new_key() -> str:
    """A key as the lobby makes one: 32 random bytes, unpadded base64url (43 characters)."""
    return secrets.token_urlsafe(32)


def register(client: TestClient, name: str, key: str | None = None) -> str:
    key = key or new_key()
    answer = client.post("/api/players", json={"name": name, "key": key})
    assert answer.status_code in (200, 201), answer.text
    return key


def greet(ws: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    welcome, state = ws.receive_json(), ws.receive_json()
    assert welcome["type"] == "welcome" and state["type"] == "state"
    return welcome, state


def receive_until(ws: Any, kind: str, limit: int = 50) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message in {limit}")


BATTLE = {"game": "stardice", "variant": "battle", "seed": 5}


# -- names and keys --------------------------------------------------------------------------------

@pytest.fixture
def client(db_where: str | Path) -> Iterator[TestClient]:
    """The app over a new database of each engine: people, names and seats are kept in it."""
    with TestClient(in_process_app(db_where, workers=1, rate=10_000)) as test_client:
        yield test_client


def test_a_name_makes_a_player_and_the_same_key_renames_it(client: TestClient, db_where: str | Path) -> None:
    key = new_key()
    first = client.post("/api/players", json={"name": "  Alice   Liddell ", "key": key})
    assert first.status_code == 201
    assert first.json()["player"]["name"] == "Alice Liddell"  # trimmed, inner spaces collapsed
    again = client.post("/api/players", json={"name": "Alicia", "key": key})
    assert again.status_code == 200 and again.json()["player"]["name"] == "Alicia"
    assert client.post("/api/players/me", json={"key": key}).json()["player"]["name"] == "Alicia"
    # A name is one person's (docs/web.md "Names"): another key cannot take it.
    assert client.post("/api/players", json={"name": "Alicia", "key": new_key()}).status_code == 409
    # The database keeps the key's hash, never the key.
    db = opened(db_where)
    try:
        dump = "\n".join(str(row) for table in table_names() for row in db.execute(f"SELECT * FROM {table}"))
        assert key not in dump
        assert ("Alicia" in dump) and len(db.execute("SELECT key_hash FROM players").fetchone()[0]) == 64
    finally:
        db.close()


@pytest.mark.parametrize("name", ["", "   ", "x" * 31, "Al\nice", "Al\tice", "Bob\x00", "\u200b",
                                  "Eve\u202e", 42, None, ["Alice"]])
def test_bad_names_are_refused(client: TestClient, name: Any) -> None:
    answer = client.post("/api/players", json={"name": name, "key": new_key()})
    assert answer.status_code == 400 and "'name'" in answer.json()["error"]


def test_a_name_of_thirty_characters_and_any_script_is_fine(client: TestClient) -> None:
    for name in ("x" * 30, "Zoë", "山田太郎", "Ünal O'Brien-Smith"):
        assert client.post("/api/players", json={"name": name, "key": new_key()}).status_code == 201


# Fixed texts, not new_key(): pytest-xdist's workers must collect the same test ids.
@pytest.mark.parametrize("key", ["", "short", "k" * 43 + "x", "k" * 42 + "=", "k" * 42 + "/",
                                 "é" * 43, 12345, None, {"key": "x"}])
def test_bad_keys_are_refused_everywhere(client: TestClient, key: Any) -> None:
    answer = client.post("/api/players", json={"name": "Alice", "key": key})
    assert answer.status_code == 400 and "'key'" in answer.json()["error"]
    assert client.post("/api/players/me", json={"key": key}).status_code == 400
    created = create(client, game="troll")
    assert client.post(f"/api/tables/{created['table_id']}/take", json={"key": key}).status_code == 400


def test_unknown_fields_and_unknown_keys(client: TestClient) -> None:
    assert client.post("/api/players", json={"name": "A", "key": new_key(), "admin": True}).status_code == 400
    assert client.post("/api/players", json=["A"]).status_code == 400
    unknown = client.post("/api/players/me", json={"key": new_key()})
    assert unknown.status_code == 403 and "name" in unknown.json()["error"]
    assert client.post("/api/players/me", json={"key": new_key(), "x": 1}).status_code == 400


def test_names_are_limited_per_address(tmp_path: Path) -> None:
    with TestClient(in_process_app(tmp_path / "t.sqlite3", limits=Limits(players_per_minute=4))) as client:
        codes = [client.post("/api/players", json={"name": f"P{i}", "key": new_key()}).status_code
                 for i in range(6)]
    assert codes == [201] * 4 + [429] * 2


# -- open seats ------------------------------------------------------------------------------------

def test_anyone_takes_a_free_seat_and_its_first_link_stops_working(client: TestClient) -> None:
    alice, bob = register(client, "Alice"), register(client, "Bob")
    created = create(client, **BATTLE, key=alice,
                     seats=[{"kind": "human", "mine": True}, {"kind": "human"}])
    table = created["table_id"]
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["status"] == "open"
    assert [s["player"] for s in summary["seats"]] == ["Alice", None]
    assert [s["free"] for s in summary["seats"]] == [False, True]
    assert [t["id"] for t in client.get("/api/tables?status=open").json()["tables"]] == [table]

    taken = client.post(f"/api/tables/{table}/take", json={"key": bob})
    assert taken.status_code == 200, taken.text
    answer = taken.json()
    assert answer["seat"] == 1 and answer["name"] == created["seats"][1]["name"]
    assert answer["join_url"].startswith(f"/t/{table}?seat=1&token=")
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["seats"][1]["player"] == "Bob" and summary["status"] == "running"
    assert client.get("/api/tables?status=open").json()["tables"] == []

    with client.websocket_connect(f"/ws/tables/{table}?{answer['join_url'].split('?')[1]}") as ws:
        welcome, _ = greet(ws)
        assert welcome["role"] == "player" and welcome["seat"] == 1
        assert welcome["players"] == ["Alice", "Bob"]
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as ws:
        assert ws.receive_json()["code"] == "forbidden"  # the seat's first link, never used
        assert ws.receive_json()["role"] == "watcher"


def test_a_taken_a_joined_a_reserved_and_a_bot_seat_cannot_be_taken(client: TestClient) -> None:
    alice, bob, carol = register(client, "Alice"), register(client, "Bob"), register(client, "Carol")
    created = create(client, game="wizard", players=3, key=alice, seed=4,
                     seats=[{"kind": "human", "mine": True}, {"kind": "human", "reserved": True},
                            {"kind": "human"}])
    table = created["table_id"]
    url = f"/api/tables/{table}/take"
    mine = client.post(url, json={"key": bob, "seat": 0})
    assert mine.status_code == 409 and mine.json()["error"] == "the wizard is taken"
    reserved = client.post(url, json={"key": bob, "seat": 1})
    assert reserved.status_code == 403
    assert reserved.json()["error"].startswith("Hero 1 is kept for someone invited")
    assert client.post(url, json={"key": bob, "seat": 2}).status_code == 200
    again = client.post(url, json={"key": carol, "seat": 2})
    assert again.status_code == 409 and "taken" in again.json()["error"]
    assert client.post(url, json={"key": carol}).status_code == 409  # no free seat left
    for seat in (-1, 3, "0", True, 1.0):
        assert client.post(url, json={"key": carol, "seat": seat}).status_code == 400, seat
    assert client.post(url, json={"key": new_key()}).status_code == 403  # nobody's key
    assert client.post("/api/tables/nope/take", json={"key": carol}).status_code == 404
    # The invited person's link still opens the reserved seat, and joining it is final.
    with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as ws:
        assert greet(ws)[0]["role"] == "player"
    assert client.post(url, json={"key": carol, "seat": 1}).status_code == 409

    bots = create(client, game="troll", seats=[{"kind": "bot", "agent": "random"}])
    take_bot = client.post(f"/api/tables/{bots['table_id']}/take", json={"key": carol, "seat": 0})
    assert take_bot.status_code == 409
    joined = create(client, game="troll", seed=2)  # someone opened its link: not free any more
    with client.websocket_connect(f"/ws/tables/{joined['table_id']}?{seat_query(joined)}") as ws:
        greet(ws)
    assert client.post(f"/api/tables/{joined['table_id']}/take", json={"key": carol}).status_code == 409


def test_only_tables_with_a_seat_anyone_may_take_are_open(client: TestClient) -> None:
    alice = register(client, "Alice")
    invited = create(client, **BATTLE, key=alice,
                     seats=[{"kind": "human", "mine": True}, {"kind": "human", "reserved": True}])
    summary = client.get(f"/api/tables/{invited['table_id']}").json()
    assert summary["status"] == "running" and summary["seats"][1]["reserved"]
    assert client.get("/api/tables?status=open").json()["tables"] == []


def test_a_seat_marked_mine_needs_a_known_key(client: TestClient) -> None:
    mine = {"game": "troll", "seats": [{"kind": "human", "mine": True}]}
    assert client.post("/api/tables", json=mine).status_code == 400
    assert client.post("/api/tables", json={**mine, "key": new_key()}).status_code == 403
    assert client.post("/api/tables", json={**mine, "key": "bad"}).status_code == 400
    bad_seat = {"game": "troll", "seats": [{"kind": "human", "mine": "yes"}]}
    assert client.post("/api/tables", json=bad_seat).status_code == 400
    odd = {"game": "troll", "seats": [{"kind": "human", "owner": "me"}]}
    assert client.post("/api/tables", json=odd).status_code == 400
    assert client.get("/api/tables").json()["tables"] == []


def test_taking_seats_is_limited_per_address(tmp_path: Path) -> None:
    limits = Limits(creations_per_minute=100, takes_per_minute=3)
    with TestClient(in_process_app(tmp_path / "t.sqlite3", limits=limits)) as client:
        key = register(client, "Mallory")
        tables = [create(client, game="troll")["table_id"] for _ in range(5)]
        codes = [client.post(f"/api/tables/{t}/take", json={"key": key}).status_code for t in tables]
        assert codes == [200] * 3 + [429] * 2
        assert sum(client.get(f"/api/tables/{t}").json()["status"] == "open" for t in tables) == 2


# -- whose page it is: the hello message -----------------------------------------------------------

def test_a_join_link_opened_by_a_named_player_makes_the_seat_theirs(client: TestClient) -> None:
    bob = register(client, "Bob")
    created = create(client, **BATTLE)
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}") as watcher, \
            client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, 1)}") as ws:
        greet(watcher)
        greet(ws)
        ws.send_json({"type": "hello", "key": bob})
        seats = receive_until(watcher, "seats")
        assert seats["players"] == [None, "Bob"] and seats["seats"][1]["player"] == "Bob"
        ws.send_json({"type": "chat", "text": "hi"})
        assert receive_until(watcher, "chat")["name"] == "Bob"
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["player"] == "Bob"


def test_a_seated_page_with_a_key_the_server_forgot_stays_seated(client: TestClient) -> None:
    """A page whose player the server does not know (a new database) is told `unknown_player`,
    not `forbidden`: its token still holds the seat, and it can name itself again."""
    created = create(client, game="troll", seed=3)
    key = new_key()
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        greet(ws)
        ws.send_json({"type": "hello", "key": key})
        assert ws.receive_json()["code"] == "unknown_player"
        register(client, "Zoë", key)
        ws.send_json({"type": "hello", "key": key})
        seats = receive_until(ws, "seats")
        assert seats["players"] == ["Zoë"]
        ws.send_json({"type": "act", "action": "move left", "step": 0})
        reply = ws.receive_json()
        assert reply["type"] == "state" or reply["code"] == "illegal"  # a player, not a watcher


def test_a_player_key_opens_their_own_seat_without_a_token(client: TestClient) -> None:
    alice, bob = register(client, "Alice"), register(client, "Bob")
    created = create(client, **BATTLE, key=alice, seats=[{"kind": "human", "mine": True}, {"kind": "human"}])
    table = created["table_id"]
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        welcome, _ = greet(ws)
        assert welcome["role"] == "watcher"
        ws.send_json({"type": "hello", "key": alice, "seat": 0})
        welcome, state = greet(ws)
        assert welcome["role"] == "player" and welcome["seat"] == 0
        assert state["legal"] or state["current_player"] != 0
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        greet(ws)
        ws.send_json({"type": "hello", "key": bob, "seat": 0})  # not Bob's seat
        refusal = ws.receive_json()
        assert refusal["code"] == "forbidden" and "not yours" in refusal["message"]
        ws.send_json({"type": "hello", "key": new_key(), "seat": 0})
        assert ws.receive_json()["code"] == "unknown_player"
        for bad in ({"type": "hello"}, {"type": "hello", "key": "short"},
                    {"type": "hello", "key": alice, "seat": "0"},
                    {"type": "hello", "key": alice, "seat": -1}):
            ws.send_json(bad)
            assert ws.receive_json()["code"] == "bad_message", bad
        ws.send_json({"type": "act", "action": "call", "step": 0})
        assert ws.receive_json()["code"] == "forbidden"  # still a watcher


def test_the_rematch_takes_a_player_key_and_keeps_everyone_seated(client: TestClient) -> None:
    alice = register(client, "Alice")
    created = create(client, game="rotator", variant="easy", seed=2, key=alice,
                     seats=[{"kind": "human", "mine": True}])
    table = created["table_id"]
    assert client.post(f"/api/tables/{table}/rematch", json={"seat": 0, "key": new_key()}).status_code == 403
    answer = client.post(f"/api/tables/{table}/rematch", json={"seat": 0, "key": alice})
    assert answer.status_code == 200, answer.text
    rematch = answer.json()["table_id"]
    summary = client.get(f"/api/tables/{rematch}").json()
    assert summary["seats"][0]["player"] == "Alice" and summary["seats"][0]["reserved"]
    assert summary["status"] == "running"  # kept for Alice, never offered to strangers
    with client.websocket_connect(f"/ws/tables/{rematch}?{seat_query(created)}") as ws:
        assert greet(ws)[0]["role"] == "player"  # the same token goes on working


# -- "Yours" and "Your turn" -----------------------------------------------------------------------

def test_yours_lists_every_table_a_player_sits_at_rematches_included(client: TestClient) -> None:
    alice, bob = register(client, "Alice"), register(client, "Bob")
    solo = create(client, game="rotator", variant="easy", seed=2, key=alice,
                  seats=[{"kind": "human", "mine": True}])
    battle = create(client, **BATTLE, key=alice, seats=[{"kind": "human", "mine": True}, {"kind": "human"}])
    create(client, game="troll", key=bob, seats=[{"kind": "human", "mine": True}])  # Bob's alone
    rematch = client.post(f"/api/tables/{solo['table_id']}/rematch",
                          json={"seat": 0, "token": token_of(solo)}).json()["table_id"]
    client.post(f"/api/tables/{battle['table_id']}/take", json={"key": bob})

    mine = client.post("/api/players/me", json={"key": alice}).json()
    assert mine["player"]["name"] == "Alice"
    ids = [t["id"] for t in mine["tables"]]
    assert set(ids) == {solo["table_id"], battle["table_id"], rematch}
    assert ids.index(rematch) < ids.index(solo["table_id"])  # in play first: the old one is over
    by_id = {t["id"]: t for t in mine["tables"]}
    assert by_id[battle["table_id"]]["your_seats"] == [0]
    assert by_id[solo["table_id"]]["status"] == "finished"  # left unfinished for the rematch
    assert by_id[rematch]["your_turn"] and rematch in mine["your_turn"]
    assert solo["table_id"] not in mine["your_turn"]
    bobs = client.post("/api/players/me", json={"key": bob}).json()
    assert battle["table_id"] in [t["id"] for t in bobs["tables"]]
    assert solo["table_id"] not in [t["id"] for t in bobs["tables"]]


def test_your_turn_follows_the_game(client: TestClient) -> None:
    alice, bob = register(client, "Alice"), register(client, "Bob")
    created = create(client, **BATTLE, key=alice, seats=[{"kind": "human", "mine": True}, {"kind": "human"}])
    table = created["table_id"]
    client.post(f"/api/tables/{table}/take", json={"key": bob})

    def turns() -> tuple[bool, bool]:
        a = client.post("/api/players/me", json={"key": alice}).json()["your_turn"]
        b = client.post("/api/players/me", json={"key": bob}).json()["your_turn"]
        return table in a, table in b

    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        _, state = greet(ws)
        mover = state["current_player"]
        assert turns() == (mover == 0, mover == 1)


def test_a_new_name_shows_on_the_seats_of_tables_in_play(client: TestClient) -> None:
    alice = register(client, "Alice")
    created = create(client, game="troll", key=alice, seats=[{"kind": "human", "mine": True}])
    register(client, "Alicia", alice)
    assert client.get(f"/api/tables/{created['table_id']}").json()["seats"][0]["player"] == "Alicia"


