"""The end screen: what was hidden is revealed to every seat and watcher only once the
game is over (`State.revealed`, `end` in the state message, the replay's last step), the game's
story is told from its log (core/story.py), the wizard game's vote for the most evil player
(seed 003, 8 Nov "Preparation"; web/server/tables/votes.py) and undo where each game's rules allow it
(rotator RULES.md "Front ends"; wizard RULES.md section 7; stardice RULES.md "Front ends")."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from tests.web.conftest import create, seat_query

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.params import params_from_dict
from playtable.core.presentation import revealed as revealed_parts
from playtable.core.registry import get_game
from playtable.core.story import tell
from playtable.games.troll.cards import card_pretty
from playtable.web.server.store.schema import opened
from playtable.web.server.store.store import SeatRow, TableRow
from playtable.web.server.tables.tables import Connection, Table
from playtable.web.server.tables.votes import SqlVoteStore, Votes


def _greet(ws: WebSocketTestSession) -> dict[str, Any]:
    welcome, state = ws.receive_json(), ws.receive_json()
    assert welcome["type"] == "welcome" and state["type"] == "state"
    return dict(state)


def _next(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    for _ in range(5000):  # bounded: a Star Dice throw streams its frames first
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


Log = list[tuple[int | None, str | None, list[Any]]]


def _finished(game_id: str, seed: int, **params: Any) -> tuple[Any, Log]:
    game = get_game(game_id)
    state = game.new_state(params_from_dict(game.params_type, params), seed)
    log: Log = [(None, None, list(state.setup_events))]
    agent, rng = make_agent(game, "random"), Chance(seed)
    while not state.is_terminal:
        seat, action = state.current_player, agent.choose(state, rng)
        assert revealed_parts(state) == [] and tell(state, log) == {}  # nothing before the end
        log.append((seat, str(action), list(state.apply(action))))
    return state, log


def test_the_wizard_reveals_hand_keys_tokens_and_tiles_at_the_end() -> None:
    state, log = _finished("wizard", 3, players=3, max_rounds=3)
    revealed = {s["heading"]: s["lines"] for s in revealed_parts(state)}
    headings = {"The wizard's hand", "Keys never found", "Face-down tokens", "Tiles never turned up"}
    assert headings <= set(revealed)
    hidden_keys = [sq for sq, c in state.cells.items() if c.key and not c.flipped and not c.removed]
    assert len(revealed["Keys never found"]) == max(1, len(hidden_keys))
    down = [t for c in state.cells.values() if not c.removed for t in c.tokens if not t.up]
    assert sum(line.count(",") + 1 for line in revealed["Face-down tokens"]) == len(down) or not down
    # Names, never the content's instance ids ("goblin.3").
    assert not any("." in word for lines in revealed.values() for line in lines for word in line.split()
                   if word[:1].islower() and word[-1:].isdigit())
    story = tell(state, log)
    assert story["seats"][0]["actions"] == sum(1 for seat, action, _ in log if seat == 0 and action)
    assert story["moments"][-1]["kind"] == "game_over"


def test_the_troll_reveals_the_bricks_never_seen_and_the_deck() -> None:
    state, log = _finished("troll", 8)
    revealed = {s["heading"]: s["lines"] for s in revealed_parts(state)}
    unseen = [c for stack in state.stacks for c in stack if c not in state.seen]
    text = " ".join(revealed["Bricks never turned up"] + revealed["The deck of awakening, top first"])
    for card in unseen + state.deck:
        assert card_pretty(card) in text
    assert tell(state, log)["moments"][-1]["kind"] in ("won", "lost")


def _play_out(client: TestClient, created: dict[str, Any], seats: int,
              rng: random.Random) -> list[dict[str, Any]]:
    """Every seat plays random legal moves until the end; each seat's final state message."""
    table = created["table_id"]
    sockets = [client.websocket_connect(f"/ws/tables/{table}?{seat_query(created, s)}") for s in range(seats)]
    conns = [ws.__enter__() for ws in sockets]
    states = [_greet(ws) for ws in conns]
    try:
        while not states[0]["terminal"]:
            for st in states:
                assert "end" not in st  # nothing revealed before the end
            mover = states[0]["current_player"]
            mine = states[mover]
            conns[mover].send_json({"type": "act", "action": rng.choice(mine["legal"])["action"],
                                    "step": mine["step"]})
            states = [_next(ws, "state") for ws in conns]
        return states
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_every_seat_and_watcher_get_the_end_and_the_wizard_vote(client: TestClient) -> None:
    created = create(client, game="wizard", seed=21, players=3, params={"max_rounds": 1})
    table = created["table_id"]
    finals = _play_out(client, created, 3, random.Random(4))
    assert all(f["terminal"] and f["end"] == finals[0]["end"] for f in finals)
    assert finals[0]["end"]["revealed"][0]["heading"] == "The wizard's hand"
    with client.websocket_connect(f"/ws/tables/{table}") as watcher:
        assert _greet(watcher)["end"] == finals[0]["end"]
        vote = watcher.receive_json()
        assert vote["type"] == "vote" and vote["voters"] == [0, 1, 2] and not vote["can_vote"]
    urls = [f"/ws/tables/{table}?{seat_query(created, s)}" for s in range(3)]
    with client.websocket_connect(urls[0]) as wizard, client.websocket_connect(urls[1]) as hero1, \
            client.websocket_connect(urls[2]) as hero2:
        for ws in (wizard, hero1, hero2):
            _greet(ws)
            assert ws.receive_json()["can_vote"]
        wizard.send_json({"type": "vote", "seat": 0})  # not for yourself (the seed's rule)
        assert wizard.receive_json()["code"] == "no_vote"
        wizard.send_json({"type": "vote", "seat": 9})
        assert wizard.receive_json()["code"] == "no_vote"
        wizard.send_json({"type": "vote", "seat": True})
        assert wizard.receive_json()["code"] == "bad_message"
        wizard.send_json({"type": "vote", "seat": 2})
        told = [_next(ws, "vote") for ws in (wizard, hero1, hero2)]
        assert all(t["voted"] == [0] and t["tally"] is None for t in told)  # hidden until all voted
        assert told[0]["mine"] == 2 and told[1]["mine"] is None
        wizard.send_json({"type": "vote", "seat": 1})
        assert wizard.receive_json()["code"] == "no_vote"  # once each
        hero1.send_json({"type": "vote", "seat": 2})
        for ws in (wizard, hero1, hero2):
            _next(ws, "vote")
        hero2.send_json({"type": "vote", "seat": 1})
        done = [_next(ws, "vote") for ws in (wizard, hero1, hero2)]
        assert done[0]["tally"] == {"2": 2, "1": 1} and done[0]["most_evil"] == 2
        # The most evil player is the wizard at the rematch; the old wizard takes their seat.
        token = urls[0].split("token=")[1]
        answer = client.post(f"/api/tables/{table}/rematch", json={"seat": 0, "token": token})
        assert answer.status_code == 200, answer.text
        assert answer.json()["seat"] == 2
        assert _next(hero2, "rematch")["seats"] == [2, 1, 0]
    with client.websocket_connect(urls[1]) as again:  # a reload shows the stored tally
        _greet(again)
        assert again.receive_json()["most_evil"] == 2


def _table(game_id: str, seed: int, actions: list[tuple[int | None, str]], seats: int,
           **params: Any) -> Table:
    game = get_game(game_id)
    start = game.new_state(params_from_dict(game.params_type, params), seed)
    row = TableRow(id=f"t{seed}", game=game_id, variant=None, params=params, seed=seed,
                   seats=[SeatRow("human", f"s{i}", joined=True) for i in range(seats)],
                   created="2026-01-01T00:00:00", actions=list(actions))
    return Table(row, start)


def test_the_vote_opens_only_at_the_end_for_seated_people_and_a_tie_names_nobody(
        db_where: str | Path) -> None:
    state, log = _finished("wizard", 5, players=4, max_rounds=1)
    actions = [(seat, action) for seat, action, _ in log[1:] if action is not None]
    votes = Votes(SqlVoteStore(opened(db_where)))
    running = _table("wizard", 5, actions[:-1], 4, players=4, max_rounds=1)
    seat1 = Connection(1)
    votes.cast(running, seat1, 2)
    assert seat1.outbox.pop()["code"] == "no_vote"  # not before the end
    table = _table("wizard", 5, actions, 4, players=4, max_rounds=1)
    table.row.seats[3] = SeatRow("bot", "hero3", agent="random")  # bots do not vote
    watcher, bot = Connection(None), Connection(3)
    for conn in (watcher, bot):
        votes.cast(table, conn, 1)
        assert conn.outbox.pop()["code"] == "no_vote"
    for voter, choice in ((0, 1), (1, 2)):
        conn = Connection(voter)
        table.connections.add(conn)
        votes.cast(table, conn, choice)
    assert votes.most_evil(table) is None  # seat 2 has not voted yet
    votes.cast(table, Connection(2), 3)  # a bot's seat may be voted for
    assert votes.view(table, None)["tally"] == {1: 1, 2: 1, 3: 1}
    assert votes.most_evil(table) is None and votes.rematch_plan(table) is None  # a tie


@pytest.mark.parametrize(("game", "params"), [("wizard", {"players": 3}), ("stardice", {})])
def test_no_undo_where_a_move_reveals_or_others_play(client: TestClient, game: str,
                                                     params: dict[str, Any]) -> None:
    created = create(client, game=game, seed=7, **params)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        state = _greet(ws)
        for _ in range(3):
            if not state["your_turn"]:
                break
            ws.send_json({"type": "act", "action": state["legal"][0]["action"], "step": state["step"]})
            state = _next(ws, "state")
            assert not state["can_undo"]
            ws.send_json({"type": "undo", "step": state["step"]})
            assert _next(ws, "error")["code"] in ("no_undo", "stale")


def test_rotator_takes_back_every_move_then_reveals_nothing_but_tells_its_story(client: TestClient) -> None:
    created = create(client, game="rotator", seed=12)
    with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
        state = _greet(ws)
        first = state["observation"]
        for _ in range(3):
            ws.send_json({"type": "act", "action": state["legal"][0]["action"], "step": state["step"]})
            state = _next(ws, "state")
        while state["step"] > 0:  # back to the start, one move at a time
            assert state["can_undo"]
            ws.send_json({"type": "undo", "step": state["step"]})
            state = _next(ws, "state")
        assert state["observation"] == first and not state["can_undo"]
        rng = random.Random(1)
        while not state["terminal"]:
            assert "end" not in state
            action = rng.choice(state["legal"])["action"]
            ws.send_json({"type": "act", "action": action, "step": state["step"]})
            state = _next(ws, "state")
        assert state["end"]["revealed"] == []
        assert state["end"]["story"]["seats"][0]["actions"] == state["step"]
        assert not state["can_undo"]
        replay = client.get(f"/api/tables/{created['table_id']}/replay").json()["steps"]
        assert replay[-1]["end"] == state["end"] and all("end" not in s for s in replay[:-1])


def test_the_rage_says_how_many_tiles_and_the_result_is_nobodys_moment() -> None:
    """8 Nov "Rage of the wizard!": "a number of tiles equal to the number of players"; and the
    game's result is told as a moment of nobody's (wizard RULES.md section 8, item 22)."""
    rage = []
    for seed in range(3, 40):  # bounded: random games reach the rage within a few seeds
        state, log = _finished("wizard", seed, players=3)
        rage = [e for _, _, events in log for e in events if e.kind == "rage"]
        if rage:
            break
    assert rage and "tears 3 tiles" in rage[0].text and rage[0].data["tiles"] == 3
    short, log = _finished("wizard", 3, players=3, max_rounds=1)
    assert short.end_text() == "1 round passed with no winner: the game is a draw."
    moments = tell(short, log)["moments"]
    assert moments[-1]["kind"] == "game_over" and moments[-1]["seat"] is None
