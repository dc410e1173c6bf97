"""Tutorials ("Tutorials"): each shipped script played with the real engine on its fixed
deal, the bots choosing as the server's do, so a change of the engine, a deal or a bot that
breaks a script fails here; and the route that makes a tutorial's table, bounded like the others
(only a shipped name; an address's tables a minute).

The scripts follow the seeds: the troll's is the "visual walkthrough" of seed 000 §5.2 (a game
shown step by step), Rotator's the Hypothetical Sequence of seed 004 frame by frame, Star Dice's
the first battle of seed 002's Final Rules, the wizard game's the first round of seed 003's Final
Rules from each side.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from playtable.core.protocol import Event, State
from playtable.core.registry import get_game
from playtable.web.server.bots.bots import bot_move, bot_seed, new_position
from playtable.web.server.tables.table_request import row_from_request
from playtable.web.server.tables.tutorials import Tutorial, shipped

NAMES = sorted(shipped())
FREE_PLAY = "random"
"""Who plays the person's moves in a tutorial's free part (the rest of a Star Dice battle)."""


def _start(tutorial: Tutorial) -> tuple[State, list[str | None]]:
    """The tutorial table's first position, made as the server makes it (the same request
    checks, the worker's job), and each seat's bot (None: the person)."""
    row, _tokens, _mine = row_from_request(tutorial.request(None))
    made = new_position(row.game, row.params, row.seed)
    assert "error" not in made, made
    state = get_game(row.game).state_from_json(made["position"])
    state.setup_events = [Event.from_json(e) for e in made["setup_events"]]
    return state, [seat.agent if seat.kind == "bot" else None for seat in row.seats]


def play_through(tutorial: Tutorial) -> tuple[State, list[tuple[int, str, list[Event]]]]:
    """Play the script: the person's expected actions (a pattern's `example`) in order, the bots'
    moves in between as the server asks for them (`bots.bot_move` with `bots.bot_seed`). Each
    played action: (seat, text, events)."""
    state, bots = _start(tutorial)
    expected = [step for step in tutorial.steps if "expect" in step or "match" in step or step.get("free")]
    played: list[tuple[int, str, list[Event]]] = []
    # On until the person's turn comes again after the last scripted action: the page shows the
    # last step then, and it may talk about what the bots did meanwhile.
    while not state.is_terminal and (expected or bots[state.current_player] is not None):
        seat = state.current_player
        agent = bots[seat]
        if agent is not None:
            seed = bot_seed(tutorial.table["seed"], len(played))
            text = bot_move(tutorial.game, agent, state.to_json(), seed)
        else:
            assert seat == tutorial.seat
            if expected[0].get("free"):  # the person plays as they like: a bot stands in
                seed = bot_seed(tutorial.table["seed"] + 1, len(played))
                text = bot_move(tutorial.game, FREE_PLAY, state.to_json(), seed)
                action = state.parse_action(text)
                played.append((seat, str(action), list(state.apply(action))))
                continue
            step = expected.pop(0)
            text = step.get("expect") or step["example"]
            if "match" in step:
                assert re.search(step["match"], text), (step["match"], text)
            legal = [str(a) for a in state.legal_actions()]
            assert "expect" not in step or text in legal, \
                f"{tutorial.name}: {text!r} is not legal now: {legal[:12]}"
        action = state.parse_action(text)
        events = list(state.apply(action))
        played.append((seat, str(action), events))
    if expected and expected[0].get("free"):
        expected.pop(0)
    assert not expected, f"{tutorial.name}: the game ended with {len(expected)} scripted action(s) left"
    return state, played


def _kinds(played: list[tuple[int, str, list[Event]]]) -> list[str]:
    return [e.kind for _, _, events in played for e in events]


@pytest.mark.parametrize("name", NAMES)
def test_every_scripted_action_is_legal_in_order_on_the_fixed_deal(name: str) -> None:
    tutorial = shipped()[name]
    assert tutorial.steps and tutorial.game in {"troll", "rotator", "stardice", "wizard"}
    for step in tutorial.steps:
        assert set(step) <= {"say", "at", "use", "expect", "match", "example", "free", "hint", "task"}, step
        assert all(isinstance(sel, str) and sel for sel in step.get("use", [])), step
        assert step["say"].strip(), step
        assert not ("expect" in step and "match" in step)
        assert ("match" in step) == ("example" in step)
    play_through(tutorial)


def test_the_troll_walkthrough_shows_every_phase_and_wins() -> None:
    """Seed 000 §5.2's walkthrough of "steps in a simulated game": the awakening, the troll's
    two actions, the flight, a brick fleeing to the bank and its card set aside, a stomp, a card
    used, and the end; played on the tutorial variant (two more bricks a stack, §4.1), it wins."""
    state, played = play_through(shipped()["troll-walkthrough"])
    kinds = set(_kinds(played))
    assert {"awakened", "moved", "fled_step", "picked_up", "fled", "stomped", "used", "thrown",
            "won"} <= kinds
    assert state.is_terminal and state.returns() == [1.0]


def test_the_rotator_tutorial_is_the_hypothetical_sequence_then_a_capture_and_a_win() -> None:
    """Seed 004, Hypothetical Sequence, frame by frame on a legal board: a fall through a large
    air pocket; a one-space drill with solid ground beyond (no fall); rotate and fall; drilling
    skipped with nowhere to fall; a drill with one boost space; a fall back through the old path
    and the first turn's marks collapsing into rock. Then a node captured, a move started from
    its diamond, and a win."""
    state, played = play_through(shipped()["rotator-sequence"])
    first = [[(e.kind, e.data) for e in events] for _, _, events in played[:4]]
    fall = first[0][1][1]["cells"]
    assert first[0][0][0] == "start" and first[0][1][0] == "fall" and len(fall) >= 4
    assert [k for k, _ in first[1]] == ["drill", "rotate", "fall"]
    assert first[1][0][1]["boost"] == 0 and first[1][2][1]["cells"]
    assert [k for k, _ in first[2]] == ["rotate"]
    assert [k for k, _ in first[3]] == ["drill", "rotate", "fall", "collapse"]
    assert first[3][0][1]["boost"] == 1 and len(first[3][0][1]["cells"]) == 2
    crossed = set(first[3][2][1]["cells"]) & set(fall)
    assert crossed, "the fourth turn's fall goes back through the first turn's path"
    assert set(fall) <= set(first[3][3][1]["cells"]), "the first turn's marks, air included, collapse"
    captured = next(i for i, (_, _, events) in enumerate(played) if any(e.kind == "capture" for e in events))
    assert played[captured + 1][1].startswith("start "), "the next move starts from the node's diamond"
    assert state.is_terminal and state.returns() == [1.0]


# -- the route -------------------------------------------------------------------------------------


def test_each_tutorial_table_is_its_scripts_fixed_table(client: TestClient) -> None:
    """One client for every shipped tutorial (a server start costs seconds): listed with its
    words, and made with the script's game, variant and bots, the person's seat kept for them."""
    answer = client.get("/api/tutorials")
    assert answer.status_code == 200
    listed = {t["name"]: t for t in answer.json()["tutorials"]}
    assert sorted(listed) == NAMES
    assert all(t["title"] and t["summary"] and t["button"] for t in listed.values())
    for name in NAMES:
        tutorial = shipped()[name]
        answer = client.post("/api/tutorials", json={"name": name})
        assert answer.status_code == 201, answer.text
        made = answer.json()
        assert made["seat"] == tutorial.seat and made["tutorial"] == name
        assert made["join_url"].endswith(f"&tutorial={name}")
        assert f"?seat={tutorial.seat}&token=" in made["join_url"]
        summary = client.get(f"/api/tables/{made['table_id']}").json()
        assert summary["game"] == tutorial.game and summary["variant"] == tutorial.table.get("variant")
        seats = summary["seats"]
        assert seats[tutorial.seat]["kind"] == "human" and seats[tutorial.seat]["reserved"]
        assert not seats[tutorial.seat]["free"], "a tutorial's seat is never offered under Open"
        assert [s["agent"] for s in seats if s["kind"] == "bot"] == \
            [s["agent"] for s in tutorial.table["seats"] if s["kind"] == "bot"]


BAD_BODIES: list[Any] = [
    {"name": "no-such-tutorial"}, {"name": "../tutorials/troll-walkthrough"}, {"name": 3}, {},
    {"name": "troll-walkthrough", "seed": 4}, {"name": "troll-walkthrough", "game": "rotator"},
    {"name": "troll-walkthrough", "key": "not a key"}, ["troll-walkthrough"],
]


def test_only_a_shipped_tutorial_by_name_is_made_and_counts_like_any_table(tmp_path: Any) -> None:
    """Nothing but a shipped name (and a well-formed player key) is read: no seed, game or
    path; each refusal is one sentence and makes nothing. A tutorial's table counts against
    the address's tables a minute like any other (429 past it)."""
    from tests.web.conftest import in_process_app

    from playtable.web.server.tables.room import Limits

    app = in_process_app(tmp_path / "t.sqlite3", limits=Limits(creations_per_minute=3))
    with TestClient(app) as client:
        for body in BAD_BODIES:
            answer = client.post("/api/tutorials", json=body)
            assert answer.status_code == 400, (body, answer.text)
            assert answer.json()["error"]
        # the guard's checks hold here as on every POST: JSON only, this server's pages only
        plain = client.post("/api/tutorials", content=b'{"name": "troll-walkthrough"}',
                            headers={"content-type": "text/plain"})
        foreign = client.post("/api/tutorials", json={"name": NAMES[0]}, headers={"origin": "https://evil.example"})
        assert (plain.status_code, foreign.status_code) == (415, 403)
        assert client.get("/api/tables").json()["tables"] == []
        codes = [client.post("/api/tutorials", json={"name": NAMES[0]}).status_code for _ in range(5)]
    assert codes == [201, 201, 201, 429, 429]


def test_a_tutorial_is_never_your_turn_and_its_person_may_leave_it(tmp_path: Any) -> None:
    """A tutorial's bots wait for nobody: its table is marked as a tutorial, never counted under
    "Your turn"; its person (the seat's link or their name's key, nobody else) may leave it,
    which ends it unrated as a tutorial and takes it out of "Yours". A real table cannot be
    left that way. The mark outlives a restart."""
    from tests.web.conftest import create, in_process_app, token_of
    from tests.web.test_people import greet, receive_until, register

    db = tmp_path / "t.sqlite3"
    with TestClient(in_process_app(db, workers=1)) as client:
        key = register(client, "Ann")
        made = client.post("/api/tutorials", json={"name": "troll-walkthrough", "key": key}).json()
        table, query = made["table_id"], made["join_url"].split("?", 1)[1]
        with client.websocket_connect(f"/ws/tables/{table}?{query}") as ws:
            _, state = greet(ws)
            assert state["your_turn"], "the troll's first move is the person's"
            ws.send_json({"type": "hello", "key": key})
            receive_until(ws, "seats")
        mine = client.post("/api/players/me", json={"key": key}).json()
        assert [t["tutorial"] for t in mine["tables"]] == ["troll-walkthrough"]
        assert mine["your_turn"] == [] and not mine["tables"][0]["your_turn"]

        real = create(client, game="troll", seed=3)
        path = f"/api/tables/{table}/leave"
        for body, code in (({"key": register(client, "Bob")}, 403), ({"token": "not-the-token"}, 403),
                           ({}, 400), ({"key": key, "seat": 0}, 400), ({"key": 7}, 400), (["key"], 400)):
            answer = client.post(path, json=body)
            assert answer.status_code == code and answer.json()["error"], (body, answer.text)
        refused = client.post(f"/api/tables/{real['table_id']}/leave", json={"token": token_of(real)})
        assert refused.status_code == 409
        assert client.get(f"/api/tables/{real['table_id']}").json()["status"] != "finished"

        answer = client.post(path, json={"key": key})
        assert answer.status_code == 200 and answer.json()["status"] == "finished"
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["result"]["text"] == "The tutorial was left before its game's end."
        assert client.get(f"/api/tables/{table}/rating").json()["why"] == "it was a tutorial"
        assert client.post("/api/players/me", json={"key": key}).json()["tables"] == []
        assert client.post(path, json={"key": key}).status_code == 200  # leaving twice changes nothing
    with TestClient(in_process_app(db, workers=1)) as client:
        assert client.get(f"/api/tables/{table}").json()["tutorial"] == "troll-walkthrough"
