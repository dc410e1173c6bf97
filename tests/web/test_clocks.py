"""Clocks at a table, two paces as on Board Game Arena (docs/web.md "Clocks"): a
real-time clock per seat for the whole game (with an increment), a come-back-later time per
move in days; a clock counts only for the seat that must act and only once its person has
arrived; a timeout brings the stand-in (named in the log, never as the person) or a forfeit
that ends the table with a result; a restart keeps a come-back-later deadline. The wall time is
replaced (`clocks.wall_time`), so no test waits for a clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import create, in_process_app, seat_query
from tests.web.hub_support import running_hub
from tests.web.test_people import greet, receive_until, register

from playtable.core.errors import BadParameter
from playtable.core.registry import get_game
from playtable.games.wizard.params import WizardParams
from playtable.web.server.hub import Hub
from playtable.web.server.store.store import SqlStore
from playtable.web.server.tables import clocks
from playtable.web.server.tables.clocks import (
    COME_BACK_LATER,
    DAY,
    REAL_TIME,
    ClockSettings,
    TableClock,
    forfeit_returns,
    settings_from_request,
)

START = 1_800_000_000.0


class FakeTime:
    """The wall time every clock reads, moved by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(clocks, "wall_time", fake)
    return fake


def real_time(seconds: float = 60.0, increment: float = 0.0) -> TableClock:
    return TableClock.new(ClockSettings(REAL_TIME, seconds, increment), [True, True])


# -- the clock itself ---------------------------------------------------------------------------

def test_only_the_seat_to_act_counts_down_and_only_once_its_person_arrived() -> None:
    clock = real_time()
    clock.update(0, 0, arrived=False, now=0.0)
    assert (clock.running, clock.waiting) == (None, 0)
    assert clock.left_at(0, 500.0) == 60.0  # nobody there: the clock waits, full
    clock.update(0, 0, arrived=True, now=500.0)  # Alice arrives
    assert (clock.running, clock.waiting) == (0, None)
    assert clock.left_at(0, 510.0) == 50.0 and clock.left_at(1, 510.0) == 60.0
    clock.update(1, 1, arrived=True, now=520.0)  # Alice moved after 20 s: Bob's clock runs
    assert clock.left == [40.0, 60.0] and clock.running == 1
    assert clock.left_at(0, 600.0) == 40.0 and clock.left_at(1, 530.0) == 50.0
    clock.update(None, 2, arrived=False, now=530.0)  # a bot's move, or the end: every clock stops
    assert clock.running is None and clock.left == [40.0, 50.0]


def test_a_real_time_move_earns_its_increment_and_an_undo_takes_it_back() -> None:
    clock = real_time(60.0, increment=5.0)
    clock.update(0, 0, arrived=True, now=0.0)
    clock.update(1, 1, arrived=True, now=10.0)
    assert clock.left[0] == 55.0
    clock.update(0, 0, arrived=True, now=12.0)  # Alice takes her move back
    assert clock.left == [50.0, 58.0] and clock.running == 0


def test_a_come_back_later_move_has_its_days_again_and_a_deadline() -> None:
    clock = TableClock.new(ClockSettings(COME_BACK_LATER, 2 * DAY), [True, False])
    clock.update(0, 0, arrived=True, now=0.0)
    assert clock.deadline() == 2 * DAY
    assert clock.left_at(1, 0.0) is None  # a bot's seat has no clock
    clock.update(0, 1, arrived=True, now=DAY)  # a move after a day: the next has two days again
    assert clock.left[0] == 2 * DAY and clock.deadline() == 3 * DAY
    assert not clock.expired(3 * DAY - 1) and clock.expired(3 * DAY)


def test_a_restart_keeps_a_come_back_later_deadline_and_does_not_charge_real_time() -> None:
    later = TableClock.new(ClockSettings(COME_BACK_LATER, DAY), [True])
    later.update(0, 0, arrived=True, now=100.0)
    quick = real_time()
    quick.update(0, 0, arrived=True, now=100.0)
    for clock in (later, quick):
        stored = TableClock.from_json(clock.to_json(), [True] * len(clock.left))
        stored.resume(now=130.0)  # the server was down for 30 s
        assert stored.left_at(0, 130.0) == (DAY - 30.0 if stored.per_move else 60.0)


def test_a_forfeit_loses_for_the_seat_s_side() -> None:
    """Two players: the other wins; solitaire: the game is lost; the wizard game (seed 003
    "Keys", "Wizard victory": the heroes win or lose together): a hero's forfeit is the heroes'."""
    assert forfeit_returns([[0], [1]], 2, 1) == [1.0, 0.0]
    assert forfeit_returns([[0]], 1, 0) == [0.0]
    wizard_sides = get_game("wizard").sides(WizardParams(players=4))
    assert forfeit_returns(wizard_sides, 4, 2) == [1.0, 0.0, 0.0, 0.0]
    assert forfeit_returns(wizard_sides, 4, 0) == [0.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("clock", [
    {"pace": "real-time", "seconds": 4}, {"pace": "real-time", "seconds": 3 * 3600 + 1},
    {"pace": "real-time", "seconds": 60, "increment": 61}, {"pace": "real-time", "increment": -1},
    {"pace": "come-back-later", "days": 0}, {"pace": "come-back-later", "days": 15},
    {"pace": "come-back-later", "days": 1.5}, {"pace": "real-time", "seconds": True},
    {"pace": "real-time", "days": 2}, {"pace": "come-back-later", "seconds": 60},
    {"pace": "blitz"}, {"pace": "real-time", "timeout": "shrug"}, {"pace": "real-time", "hack": 1},
    {"pace": "real-time", "seconds": "1e9"}, [60], "real-time", 60,
])
def test_clocks_out_of_their_bounds_are_refused(clock: Any) -> None:
    with pytest.raises(BadParameter):
        settings_from_request(clock)


def test_the_bounds_admit_their_ends() -> None:
    assert settings_from_request({"pace": "real-time", "seconds": 5}) == ClockSettings(REAL_TIME, 5.0)
    assert settings_from_request({"pace": "come-back-later", "days": 14, "timeout": "forfeit"}) == \
        ClockSettings(COME_BACK_LATER, 14 * DAY, 0.0, "forfeit")


# -- at a table ------------------------------------------------------------------------------------

def _hub() -> Hub:
    return running_hub()


def alice_at_a_troll(client: TestClient, clock: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Alice, named, and a troll table where she sits, under `clock`: her key and the table."""
    alice = register(client, "Alice")
    return alice, create(client, game="troll", seed=13, variant="plus-one", key=alice,
                         seats=[{"kind": "human", "mine": True}], clock=clock)


def test_a_bad_clock_is_refused_by_the_api(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"game": "troll", "clock": {"pace": "real-time", "seconds": 2}})
    assert answer.status_code == 400 and "'clock'" in answer.json()["error"]


def test_a_come_back_later_timeout_brings_the_stand_in_for_one_move(tmp_path: Path,
                                                                    fake_time: FakeTime) -> None:
    db = tmp_path / "t.sqlite3"
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        alice, created = alice_at_a_troll(client, {"pace": "come-back-later", "days": 2})
        table = created["table_id"]
        with client.websocket_connect(f"/ws/tables/{table}") as watcher:
            _, state = greet(watcher)
            assert state["clock"]["waiting"] == 0 and state["clock"]["left"] == [2 * DAY]
            fake_time.now += 3 * DAY  # nobody there: nothing runs out
            client.portal.call(_hub().clock_watch.keeper.check)  # type: ignore[union-attr]
            assert client.get(f"/api/tables/{table}").json()["step"] == 0
            with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as ws:
                _, mine = greet(ws)
                assert mine["clock"]["running"] == 0 and mine["clock"]["left"] == [2 * DAY]
                assert receive_until(watcher, "clock")["clock"]["running"] == 0
                fake_time.now += DAY
                listed = client.post("/api/players/me", json={"key": alice}).json()["tables"][0]
                assert listed["clock"]["left"] == [DAY]  # the lobby's "Your turn" shows it
                fake_time.now += DAY
                client.portal.call(_hub().clock_watch.keeper.check)  # type: ignore[union-attr]
                notice = receive_until(ws, "notice")
                assert notice["text"] == "Alice's clock ran out: the heuristic bot plays this move for them."
                played = receive_until(ws, "state")
                assert played["step"] == 1 and played["last_stand_in"] == "heuristic"
                assert played["your_turn"] and played["clock"]["left"] == [2 * DAY]  # her move again
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            welcome, _ = greet(ws)
            assert welcome["log"][1]["stand_in"] == "heuristic" and "stand_in" not in welcome["log"][0]
        assert client.get(f"/api/tables/{table}/replay").json()["steps"][1]["stand_in"] == "heuristic"
    store = SqlStore(db)
    try:
        row = store.load(table)
        assert row is not None and row.stand_ins.get(1) == "heuristic"
    finally:
        store.close()


def test_a_real_time_timeout_hands_the_seat_to_the_stand_in(tmp_path: Path, fake_time: FakeTime) -> None:
    with TestClient(in_process_app(tmp_path / "t.sqlite3", workers=1, rate=10_000)) as client:
        _, created = alice_at_a_troll(client, {"pace": "real-time", "seconds": 60, "increment": 2})
        with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
            _, state = greet(ws)
            fake_time.now += 10
            ws.send_json({"type": "act", "action": state["legal"][0]["action"], "step": 0})
            moved = receive_until(ws, "state")
            assert moved["clock"]["left"] == [52.0]  # 60 - 10 + 2
            fake_time.now += 53
            client.portal.call(_hub().clock_watch.keeper.check)  # type: ignore[union-attr]
            notice = receive_until(ws, "notice")
            assert notice["text"] == ("Alice's clock ran out: the heuristic bot plays every later move "
                                      "for them.")
            first = receive_until(ws, "state")
            second = receive_until(ws, "state")  # and the next, at once: she is out of time
            assert [first["last_stand_in"], second["last_stand_in"]] == ["heuristic", "heuristic"]
            assert second["clock"]["out"] == [0] and second["clock"]["left"] == [0.0]
            assert not second["your_turn"] and second["legal"] == []


def test_a_forfeit_ends_the_table_with_the_other_side_winning(tmp_path: Path, fake_time: FakeTime) -> None:
    db = tmp_path / "t.sqlite3"
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        alice = register(client, "Alice")
        created = create(client, game="wizard", seed=3, players=3, key=alice,
                         seats=[{"kind": "human", "mine": True}, {"kind": "bot", "agent": "random"},
                                {"kind": "bot", "agent": "random"}],
                         clock={"pace": "real-time", "seconds": 30, "timeout": "forfeit"})
        table = created["table_id"]
        with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as ws:
            _, state = greet(ws)
            assert state["current_player"] == 0  # the wizard hides the keys first
            fake_time.now += 31
            client.portal.call(_hub().clock_watch.keeper.check)  # type: ignore[union-attr]
            assert receive_until(ws, "notice")["text"] == "Alice's clock ran out: Alice forfeits the game."
            over = receive_until(ws, "state")
            assert over["terminal"] and not over["your_turn"]
            assert over["result"] == {"returns": [0.0, 1.0, 1.0], "forfeit": 0,
                                      "text": "Alice ran out of time and forfeits: Hero 1 and Hero 2 win."}
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["status"] == "finished" and summary["result"]["forfeit"] == 0
    store = SqlStore(db)
    try:
        row = store.load(table)
        assert row is not None and row.ended is not None and row.result is not None
        assert row.result["returns"] == [0.0, 1.0, 1.0]
    finally:
        store.close()


def test_a_restart_keeps_the_come_back_later_deadline(tmp_path: Path, fake_time: FakeTime) -> None:
    db = tmp_path / "t.sqlite3"
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        _, created = alice_at_a_troll(client, {"pace": "come-back-later", "days": 3})
        with client.websocket_connect(f"/ws/tables/{created['table_id']}?{seat_query(created)}") as ws:
            greet(ws)
    fake_time.now += DAY  # a day passes, the server restarted meanwhile
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        summary = client.get(f"/api/tables/{created['table_id']}").json()
        assert summary["clock"]["running"] == 0 and summary["clock"]["left"] == [2 * DAY]
        armed = _hub().clock_watch.keeper.armed[created["table_id"]]
        assert armed[1].deadline() == START + 3 * DAY


def test_a_table_of_the_turn_timer_s_shape_loads_as_a_per_move_clock(tmp_path: Path) -> None:
    """Tables stored before the clocks kept `stand_in_after` on each person's seat."""
    db = tmp_path / "t.sqlite3"
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        table = create(client, game="troll", seed=13)["table_id"]
    store = SqlStore(db)
    try:
        store.db.execute("UPDATE tables SET clock = NULL, seats = ? WHERE id = ?", (
            '[{"kind": "human", "name": "troll", "agent": null, "token_hash": "x", "joined": false, '
            '"stand_in_after": 30.0, "reserved": false, "player": null, "player_name": null}]', table))
        row = store.load(table)
        assert row is not None and row.clock == {"settings": {"pace": COME_BACK_LATER, "seconds": 30.0,
                                                              "increment": 0.0, "timeout": "stand-in"}}
    finally:
        store.close()
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        assert client.get(f"/api/tables/{table}").json()["clock"]["left"] == [30.0]


def test_a_forfeit_before_ones_first_move_is_not_rated(tmp_path: Path, fake_time: FakeTime) -> None:
    """The table's end reaches the ratings (docs/web.md "Ratings that cannot be farmed") with the
    forfeit's result; the loser never moved, so the game was not theirs and nobody is rated."""
    with TestClient(in_process_app(tmp_path / "t.sqlite3", workers=1, rate=10_000)) as client:
        alice, bob = register(client, "Alice"), register(client, "Bob")
        created = create(client, game="stardice", seed=5, key=alice,
                         seats=[{"kind": "human", "mine": True}, {"kind": "human"}],
                         clock={"pace": "real-time", "seconds": 30, "timeout": "forfeit"})
        table = created["table_id"]
        taken = client.post(f"/api/tables/{table}/take", json={"key": bob, "seat": 1}).json()
        bob_query = taken["join_url"].split("?", 1)[1]
        with client.websocket_connect(f"/ws/tables/{table}?{seat_query(created)}") as first, \
                client.websocket_connect(f"/ws/tables/{table}?{bob_query}") as second:
            _, state = greet(first)
            greet(second)
            loser = state["current_player"]
            fake_time.now += 31
            client.portal.call(_hub().clock_watch.keeper.check)  # type: ignore[union-attr]
            over = receive_until(first, "state")
            assert over["result"]["forfeit"] == loser and over["result"]["returns"][loser] == 0.0
        rating = client.get(f"/api/tables/{table}/rating").json()
        assert rating["settled"] and not rating["rated"], rating
        assert "did not play their own moves" in rating["why"] and rating["seats"] == []


def test_a_running_come_back_later_clock_keeps_its_table_from_the_idle_reaper(
        tmp_path: Path, fake_time: FakeTime) -> None:
    """Fourteen days a move is longer than the week after which an idle table is ended: while a
    clock runs, its deadline decides (docs/web.md "Facing a network", "Clocks")."""
    with TestClient(in_process_app(tmp_path / "t.sqlite3", workers=1, rate=10_000)) as client:
        alice = register(client, "Alice")
        waiting, running = (create(client, game="troll", seed=13, key=alice,
                                   seats=[{"kind": "human", "mine": True}],
                                   clock={"pace": "come-back-later", "days": 14}) for _ in range(2))
        with client.websocket_connect(f"/ws/tables/{running['table_id']}?{seat_query(running)}") as ws:
            greet(ws)
        hub = _hub()
        later = datetime.now(UTC) + timedelta(seconds=hub.limits.idle_seconds + 60)
        assert hub.ends.reap_idle(later) == [waiting["table_id"]]  # nobody came: idle, as before


def test_a_rematch_keeps_the_table_s_clock(client: TestClient) -> None:
    alice, created = alice_at_a_troll(client, {"pace": "real-time", "seconds": 300, "increment": 3,
                                               "timeout": "forfeit"})
    answer = client.post(f"/api/tables/{created['table_id']}/rematch", json={"seat": 0, "key": alice})
    assert answer.status_code == 200, answer.text
    clock = client.get(f"/api/tables/{answer.json()['table_id']}").json()["clock"]
    assert {k: clock[k] for k in ("pace", "seconds", "increment", "timeout", "left")} == {
        "pace": "real-time", "seconds": 300.0, "increment": 3.0, "timeout": "forfeit", "left": [300.0]}
