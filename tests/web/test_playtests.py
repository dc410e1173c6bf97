"""Playtests with people (docs/lab.md "Playtests with people"): a designer's playtest,
testers seated at tables of variants assigned in paired, balanced blocks, the questionnaire after
the game, every parameter and answer bounded, and the export in the sim schema that the lab's
report reads beside bot rows."""

from __future__ import annotations

import random
import re
import secrets
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from tests.web.conftest import in_process_app
from tests.web.lockstep import play_in_step

from playtable.agents import PERSON
from playtable.cli import cli
from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.lab.columns import schema_for
from playtable.lab.people import people_schema, person_row
from playtable.lab.report_people import people_section
from playtable.lab.runner import Arm, play_game
from playtable.web.server.playtests.playtest_spec import (
    DEFAULT_QUESTIONS,
    MAX_GAMES,
    MAX_TEXT_ANSWER,
    PlaytestSpec,
    Question,
    check_answers,
    check_spec,
    parse_question,
    schedule,
)
from playtable.web.server.playtests.playtests import PlaytestStore

ROTATOR = ("rotator", ["easy", "medium"])


def new_key() -> str:
    return secrets.token_urlsafe(32)


def spec(**changes: Any) -> PlaytestSpec:
    values: dict[str, Any] = {"game": "rotator", "variants": ["easy", "medium"], "games": 6,
                              "first_seed": 10, "seats": None, "questions": list(DEFAULT_QUESTIONS)}
    values.update(changes)
    return check_spec(values["game"], values["variants"], values["games"], values["first_seed"],
                      values["seats"], values["questions"], values.get("title", ""))


# -- the schedule: random, paired, balanced --------------------------------------------------------

def test_the_schedule_pairs_every_deal_across_variants_and_stays_balanced() -> None:
    the_spec = spec(game="troll", variants=["default", "easier-ends", "plus-one"], games=300, first_seed=7)
    orders = set()
    for trial in range(5):
        slots = schedule(the_spec, random.Random(trial))
        assert len(slots) == 300
        by_seed: dict[int, list[str]] = {}
        for variant, seed in slots:
            by_seed.setdefault(seed, []).append(variant)
        # paired: every deal is played once under each variant (the same seeds under each)
        assert sorted(by_seed) == list(range(7, 107))
        assert all(sorted(v) == sorted(the_spec.variants) for v in by_seed.values())
        # balanced: after any number of slots taken in order, counts differ by at most one
        counts: Counter[str] = Counter()
        for taken, (variant, _) in enumerate(slots, 1):
            counts[variant] += 1
            if taken % 3 == 0:
                assert len(set(counts.values())) == 1
            assert max(counts.values()) - min(counts.values(), default=0) <= 1
        orders.add(tuple(v for v, _ in slots[:30]))
        # random: which variant comes first in a block is not fixed
        firsts = Counter(slots[3 * k][0] for k in range(100))
        assert len(firsts) == 3 and min(firsts.values()) > 15
    assert len(orders) == 5


# -- bounds on every parameter ----------------------------------------------------------------------

@pytest.mark.parametrize(("changes", "says"), [
    ({"game": "chess"}, "unknown game"),
    ({"game": 3}, "unknown game"),
    ({"variants": []}, "1 to 4 different variants"),
    ({"variants": ["easy", "easy"]}, "1 to 4 different variants"),
    ({"variants": ["easy", "medium", "hard", "no-limit", "default"]}, "1 to 4"),
    ({"variants": ["../../etc/passwd"]}, "no variant"),
    ({"games": 0}, "the number of games"),
    ({"games": 7}, "multiple of the number of variants"),
    ({"games": MAX_GAMES + 2}, "the number of games"),
    ({"games": True}, "the number of games"),
    ({"first_seed": -1}, "first seed"),
    ({"first_seed": 2**63}, "first seed"),
    ({"seats": ["person", "random"]}, r"has 1 seat\(s\)"),
    ({"seats": ["random"]}, "at least one person"),
    ({"game": "stardice", "variants": ["battle"], "seats": ["person"]}, r"has 2 seat\(s\)"),
    ({"game": "stardice", "variants": ["battle"], "seats": ["person", "nobody"]}, "nobody"),
    ({"game": "stardice", "variants": ["battle", "objective1"], "games": 2}, "different numbers of seats"),
    ({"game": "troll", "variants": ["default"], "games": 2} | {"questions": []}, "1 to 8 questions"),
    ({"questions": [Question("fun", "scale", "Fun?")] * 9}, "1 to 8 questions"),
    ({"questions": [Question("Fun", "scale", "Fun?")]}, "question id"),
    ({"questions": [Question("fun", "stars", "Fun?")]}, "scale or text"),
    ({"questions": [Question("fun", "scale", "")]}, "prompt"),
    ({"questions": [Question("fun", "scale", "x" * 201)]}, "prompt"),
    ({"questions": [Question("fun", "scale", "Fun?\nReally?")]}, "prompt"),
    ({"questions": [Question("fun", "scale", "Fun?", "l" * 41)]}, "low label"),
    ({"questions": [Question("a", "text", "A?"), Question("a", "text", "B?")]}, "same id"),
    ({"title": "t" * 101}, "title"),
])
def test_every_setting_is_bounded(changes: dict[str, Any], says: str) -> None:
    with pytest.raises(BadParameter, match=says):
        spec(**changes)


def test_bots_are_bounded_like_a_strangers() -> None:
    with pytest.raises(BadParameter):
        spec(game="stardice", variants=["battle"], games=2, seats=["person", "search:samples=100000000"])
    ok = spec(game="stardice", variants=["battle"], games=2, seats=["person", "random-thrower"])
    assert ok.table_request("battle", 3)["seats"] == [{"kind": "human", "reserved": True, "mine": True},
                                                      {"kind": "bot", "agent": "random-thrower"}]
    # no bot at all: every seat a person, the first the creating tester's, the others kept
    people = spec(game="stardice", variants=["battle"], games=2)
    assert people.seats == ("person", "person") and people.bots == ()
    assert people.table_request("battle", 3)["seats"] == [{"kind": "human", "reserved": True, "mine": True},
                                                          {"kind": "human", "reserved": True}]


def test_questions_parse_from_the_command_line() -> None:
    assert parse_question("fun:scale:Was it fun?:dull:great") == Question("fun", "scale", "Was it fun?",
                                                                          "dull", "great")
    assert parse_question("why:text:Why?") == Question("why", "text", "Why?")
    for bad in ("fun:scale", "fun:text:Why?:a:b", "fun:stars:Why?"):
        with pytest.raises(BadParameter):
            parse_question(bad)


# -- answers -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("answers", [
    [], "fun=5", {"fun": 0}, {"fun": 6}, {"fun": 2.5}, {"fun": True}, {"fun": "5"},
    {"confused": 3}, {"confused": "x" * (MAX_TEXT_ANSWER + 1)}, {"confused": "bell\x07"},
    {"colour": "blue"},
])
def test_bad_answers_are_refused(answers: Any) -> None:
    from playtable.web.server.playtests.playtest_spec import BadAnswers

    with pytest.raises(BadAnswers):
        check_answers(DEFAULT_QUESTIONS, answers)


def test_answers_are_kept_whole_with_skipped_ones_empty() -> None:
    got = check_answers(DEFAULT_QUESTIONS, {"fun": 4, "confused": " the drill\nand the boost ", "long": None})
    assert got == {"fun": 4, "hard": None, "long": None, "confused": "the drill\nand the boost"}


# -- a person's row is a sim row -----------------------------------------------------------------------

def test_a_replayed_record_gives_the_row_sim_gives() -> None:
    game = get_game("rotator")
    params = resolve_params(game.params_type, game.variants, "easy")
    arm = Arm.build("rotator", params, ["random"], label="easy")
    arm = Arm(arm.game, arm.params, arm.agents, arm.label, keep_records=True)
    bot = play_game(arm, 4)
    person = person_row("rotator", arm.params, 4, bot["actions"], ["random"], "easy")
    bot.pop("actions")
    assert person == bot
    labelled = person_row("rotator", arm.params, 4, person_actions(arm, 4), [PERSON], "easy")
    assert labelled["agents"] == [PERSON] and labelled["completed"]


def person_actions(arm: Arm, seed: int) -> list[str]:
    row = play_game(Arm(arm.game, arm.params, arm.agents, arm.label, keep_records=True), seed)
    return list(row["actions"])


# -- the whole flow through the app -----------------------------------------------------------------------

def play_out(client: TestClient, path: str, rng: random.Random) -> None:
    """Play the table at `path` (a join path) to its end with random legal moves, as a page would."""
    play_together(client, [path], rng)


def chat(client: TestClient, path: str, lines: list[str]) -> None:
    """Send the chat `lines` from the seat at the join `path`, each answered (its echo or an error)
    before the next."""
    table_id, query = path.split("/t/", 1)[1].split("?", 1)
    query = "&".join(p for p in query.split("&") if not p.startswith("playtest="))
    with client.websocket_connect(f"/ws/tables/{table_id}?{query}") as ws:
        for line in lines:
            ws.send_json({"type": "chat", "text": line})
            for _ in range(50):  # bounded: the greeting's messages come first
                if ws.receive_json()["type"] in ("chat", "error"):
                    break


def play_together(client: TestClient, paths: list[str], rng: random.Random) -> None:
    """The people at the join `paths` of one table play it to its end with random legal moves, as
    their pages would; bots in the other seats move by themselves."""
    with ExitStack() as stack:
        sockets = []
        for path in paths:
            table_id, query = path.split("/t/", 1)[1].split("?", 1)
            query = "&".join(p for p in query.split("&") if not p.startswith("playtest="))
            sockets.append(stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}?{query}")))
        end = play_in_step([(ws.receive_json, ws.send_json) for ws in sockets],
                           lambda _, state: rng.choice(state["legal"])["action"])
        assert end["terminal"]


@pytest.fixture
def playtest(db_where: str | Path) -> tuple[str | Path, str]:
    db = db_where
    store = PlaytestStore(db)
    playtest_id = store.create(spec(games=4), random.Random(1))
    store.close()
    return db, playtest_id


def register(client: TestClient, name: str) -> str:
    key = new_key()
    assert client.post("/api/players", json={"name": name, "key": key}).status_code == 201
    return key


def test_three_testers_play_answer_and_export(playtest: tuple[str | Path, str], tmp_path: Path) -> None:
    db, pid = playtest
    rng = random.Random(5)
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        info = client.get(f"/api/playtests/{pid}").json()
        assert info["games"] == 4 and info["game"] == "rotator" and "variants" not in info
        assert [q["id"] for q in info["questions"]] == ["fun", "hard", "long", "confused"]
        keys = [register(client, name) for name in ("Ann", "Bo", "Cy")]
        seen_tables = []
        for n, key in enumerate(keys):
            assert client.post(f"/api/playtests/{pid}/me", json={"key": key}).json()["last"] is None
            seated = client.post(f"/api/playtests/{pid}/play", json={"key": key})
            assert seated.status_code == 201, seated.text
            path = seated.json()["path"]
            # again before the game is over: the same table, not a second one
            again = client.post(f"/api/playtests/{pid}/play", json={"key": key}).json()
            assert again["resumed"] and again["table_id"] == seated.json()["table_id"]
            early = client.post(f"/api/playtests/{pid}/answers",
                                json={"key": key, "table_id": again["table_id"], "answers": {}})
            assert early.status_code == 409
            # tester n says n lines; a line the server refuses (two lines in one) is not counted
            chat(client, path, [f"line {k}" for k in range(n)] + ["two\nlines"])
            play_out(client, path, rng)
            me = client.post(f"/api/playtests/{pid}/me", json={"key": key}).json()
            assert me["last"]["over"] and not me["last"]["answered"]
            # no new game before the questions are answered
            assert client.post(f"/api/playtests/{pid}/play", json={"key": key}).status_code == 409
            # someone else cannot answer for this table
            other = keys[(n + 1) % 3]
            stolen = client.post(f"/api/playtests/{pid}/answers", json={
                "key": other, "table_id": me["last"]["table_id"], "answers": {"fun": 1}})
            assert stolen.status_code == 403
            bad = client.post(f"/api/playtests/{pid}/answers",
                              json={"key": key, "table_id": me["last"]["table_id"], "answers": {"fun": 9}})
            assert bad.status_code == 400
            answered = client.post(f"/api/playtests/{pid}/answers", json={
                "key": key, "table_id": me["last"]["table_id"],
                "answers": {"fun": n + 2, "hard": 3, "confused": f"tester {n}"}})
            assert answered.status_code == 200, answered.text
            twice = client.post(f"/api/playtests/{pid}/answers", json={
                "key": key, "table_id": me["last"]["table_id"], "answers": {"fun": 1}})
            assert twice.status_code == 409
            seen_tables.append(me["last"]["table_id"])
        # Ann plays slot 0 (deal 10); her next game is never deal 10 again: slot 3, deal 11
        second = client.post(f"/api/playtests/{pid}/play", json={"key": keys[0]})
        assert second.status_code == 201
        table = client.get(f"/api/tables/{second.json()['table_id']}").json()
        # Bo already played deal 10's other variant and Cy took deal 11's first slot: none left for Bo
        assert client.post(f"/api/playtests/{pid}/play", json={"key": keys[1]}).status_code == 409
        assert table["game"] == "rotator"
    out = tmp_path / "people.parquet"
    result = CliRunner().invoke(cli, ["playtest-online", "export", pid, "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 games written" in result.output and "1 not finished" in result.output
    file = pq.read_table(out)
    rows = file.to_pylist()
    slots = schedule(spec(games=4), random.Random(1))
    assert [(r["variant"], r["seed"]) for r in rows] == slots[:3]
    assert [r["testers"] for r in rows] == [["Ann"], ["Bo"], ["Cy"]]
    assert [r["q_fun"] for r in rows] == [[2], [3], [4]] and [r["q_long"] for r in rows] == [[None]] * 3
    assert all(r["agents"] == [PERSON] and r["completed"] for r in rows)
    # the sim schema exactly, then the testers and the answers, seat by seat
    sim_schema = schema_for([{**r, "metrics": {k[2:]: v for k, v in r.items() if k.startswith("m_")}}
                             for r in rows[:1]])
    assert file.schema.remove_metadata().names[:len(sim_schema)] == sim_schema.names
    assert list(file.schema.remove_metadata())[:len(sim_schema)] == list(sim_schema)
    assert file.schema.names[len(sim_schema):] == ["testers", "suspect", "minutes", "decision_seconds",
                                                   "hints", "undos", "stand_in_moves", "chats",
                                                   "q_fun", "q_hard", "q_long", "q_confused"]
    # each game's time and each tester's help, from the times the server stored
    assert all(r["minutes"] is not None and r["minutes"] >= 0 for r in rows)
    assert all(r["decision_seconds"][0] is not None for r in rows)
    assert [(r["hints"], r["undos"], r["stand_in_moves"]) for r in rows] == [([0], [0], [0])] * 3
    assert [r["chats"] for r in rows] == [[0], [1], [2]]
    assert pq.read_metadata(out).metadata[b"playtable.schema"] == b"2"
    anonymous = tmp_path / "anon.parquet"
    CliRunner().invoke(cli, ["playtest-online", "export", pid, "--db", str(db), "--out", str(anonymous),
                             "--anonymous"])
    assert pq.read_table(anonymous).column("testers").to_pylist() == [[f"tester-{k}"] for k in (1, 2, 3)]


def test_the_export_schema_is_the_labs_own(tmp_path: Path) -> None:
    troll = get_game("troll")
    rows = [play_game(Arm.build("troll", troll.default_params(), ["random"]), seed) for seed in range(3)]
    schema = people_schema(rows, [("fun", "scale"), ("why", "text")])
    sim = schema_for(rows)
    assert list(schema)[:len(sim)] == list(sim)
    assert [(f.name, str(f.type)) for f in list(schema)[len(sim):]] == [
        ("testers", "list<item: string>"), ("suspect", "string"), ("minutes", "double"),
        ("decision_seconds", "list<item: double>"), ("hints", "list<item: int64>"),
        ("undos", "list<item: int64>"), ("stand_in_moves", "list<item: int64>"),
        ("chats", "list<item: int64>"),
        ("q_fun", "list<item: int64>"), ("q_why", "list<item: string>")]


# -- hostile testers -------------------------------------------------------------------------------------

def test_the_api_refuses_what_it_does_not_know(playtest: tuple[str | Path, str]) -> None:
    db, pid = playtest
    with TestClient(in_process_app(db, workers=1)) as client:
        assert client.get("/api/playtests/nope").status_code == 404
        assert client.get("/api/playtests/" + "x" * 200).status_code == 404
        assert client.get(f"/api/playtests/{pid[:-1]}A").status_code == 404
        assert client.post(f"/api/playtests/{pid}/play", json={"key": new_key()}).status_code == 403
        assert client.post(f"/api/playtests/{pid}/play", json={"key": "short"}).status_code == 400
        extra = {"key": new_key(), "variant": "easy"}
        assert client.post(f"/api/playtests/{pid}/play", json=extra).status_code == 400
        assert client.post(f"/api/playtests/{pid}/play", json=[1]).status_code == 400
        key = register(client, "Dee")
        assert client.post(f"/api/playtests/{pid}/answers", json={
            "key": key, "table_id": "nope", "answers": {}}).status_code == 403
        assert client.post(f"/api/playtests/{pid}/answers", json={
            "key": key, "table_id": ["x"], "answers": {}}).status_code == 403
        assert client.get(f"/p/{pid}").status_code == 200


def test_a_slot_whose_table_was_abandoned_goes_back_to_the_schedule(playtest: tuple[str | Path, str]) -> None:
    from datetime import UTC, datetime, timedelta

    from tests.web.test_hostile import _hub

    db, pid = playtest
    with TestClient(in_process_app(db, workers=1)) as client:
        key = register(client, "Eve")
        first = client.post(f"/api/playtests/{pid}/play", json={"key": key}).json()
        hub = _hub(client)
        # nobody plays it: the server ends it as abandoned (docs/web.md, idle tables)
        assert hub.ends.reap_idle(datetime.now(UTC) + timedelta(seconds=hub.limits.idle_seconds + 60)) \
            == [first["table_id"]]
        assert client.post(f"/api/playtests/{pid}/me", json={"key": key}).json()["last"] is None
        again = client.post(f"/api/playtests/{pid}/play", json={"key": key})
        assert again.status_code == 201 and again.json()["table_id"] != first["table_id"]
        slots = PlaytestStore(db).slots(pid)
        # the abandoned deal's slot is free again (slot 0), Eve plays slot 0 again on a new table
        assert [(s.slot, s.table_id) for s in slots if s.table_id] == [(0, again.json()["table_id"])]


def test_a_person_plays_against_the_playtests_bots(tmp_path: Path, db_where: str | Path) -> None:
    """A game of two seats: the person at seat 0, the playtest's bot at seat 1, on the deal and
    variant of the slot; the person's key holds the seat."""
    db = db_where
    store = PlaytestStore(db)
    pid = store.create(spec(game="stardice", variants=["battle"], games=2, first_seed=40,
                            seats=["person", "random-thrower"]), random.Random(2))
    store.close()
    with TestClient(in_process_app(db, workers=1)) as client:
        key = register(client, "Gus")
        seated = client.post(f"/api/playtests/{pid}/play", json={"key": key}).json()
        table = client.get(f"/api/tables/{seated['table_id']}").json()
        assert table["game"] == "stardice" and table["variant"] == "battle"
        assert [s["kind"] for s in table["seats"]] == ["human", "bot"]
        assert table["seats"][1]["agent"] == "random-thrower" and table["seats"][0]["player"] == "Gus"
    result = CliRunner().invoke(cli, ["playtest-online", "export", pid, "--db", str(db),
                                      "--out", str(tmp_path / "none.parquet")])
    # the command line's main turns this into one line and status 2
    assert isinstance(result.exception, BadParameter) and "no finished game yet" in str(result.exception), \
        (result.exception, result.output)


def test_testers_share_a_table_with_bots_in_some_seats_and_each_answers(tmp_path: Path,
                                                                        db_where: str | Path) -> None:
    """The wizard game with a bot as the wizard and three testers as the heroes: the first tester
    opens the slot's table, the next two sit down at it before a new slot is opened (its person
    seats are kept for them, never offered to strangers), each answers about the game, and the
    export holds the game once with its testers and answers seat by seat."""
    db = db_where
    store = PlaytestStore(db)
    pid = store.create(spec(game="wizard", variants=["default"], games=2, first_seed=40,
                            seats=["heuristic", PERSON, PERSON, PERSON]), random.Random(2))
    store.close()
    rng = random.Random(4)
    with TestClient(in_process_app(db, workers=1, rate=10_000)) as client:
        assert client.get(f"/api/playtests/{pid}").json()["people"] == 3
        keys = [register(client, name) for name in ("Ann", "Bo", "Cy", "Di")]
        first = client.post(f"/api/playtests/{pid}/play", json={"key": keys[0]}).json()
        assert first["seat"] == 1
        waiting = client.post(f"/api/playtests/{pid}/me", json={"key": keys[0]}).json()["last"]
        assert waiting == {"table_id": first["table_id"], "seat": 1, "over": False, "answered": False,
                           "waiting_for": 2}
        # the kept seats are not in the Open list, and a stranger cannot take one
        listed = client.get("/api/tables").json()
        assert all(t["id"] != first["table_id"] for t in listed.get("open", []))
        stranger = register(client, "Zed")
        taken = client.post(f"/api/tables/{first['table_id']}/take", json={"key": stranger, "seat": 2})
        assert taken.status_code == 403
        joined = [client.post(f"/api/playtests/{pid}/play", json={"key": k}) for k in keys[1:3]]
        assert [j.status_code for j in joined] == [201, 201]
        assert [j.json()["table_id"] for j in joined] == [first["table_id"]] * 2
        assert [j.json()["seat"] for j in joined] == [2, 3]
        table = client.get(f"/api/tables/{first['table_id']}").json()
        assert [s.get("player") for s in table["seats"][1:]] == ["Ann", "Bo", "Cy"]
        assert table["seats"][0]["agent"] == "heuristic"
        full = client.post(f"/api/playtests/{pid}/me", json={"key": keys[0]}).json()["last"]
        assert full["waiting_for"] == 0
        # the table is full: the fourth tester opens the next slot (the next deal) at its first person seat
        fourth = client.post(f"/api/playtests/{pid}/play", json={"key": keys[3]}).json()
        assert fourth["table_id"] != first["table_id"] and fourth["seat"] == 1
        taken_slots = [(s.seed, s.table_id) for s in PlaytestStore(db).slots(pid)]
        assert taken_slots == [(40, first["table_id"]), (41, fourth["table_id"])]
        play_together(client, [first["path"]] + [j.json()["path"] for j in joined], rng)
        for n, key in enumerate(keys[:3]):
            me = client.post(f"/api/playtests/{pid}/me", json={"key": key}).json()
            assert me["last"]["over"] and not me["last"]["answered"]
            answered = client.post(f"/api/playtests/{pid}/answers", json={
                "key": key, "table_id": first["table_id"],
                "answers": {"fun": n + 2, "confused": f"seat {n + 1}"}})
            assert answered.status_code == 200, answered.text
            if n < 2:  # the game counts as answered once each of its testers has answered
                assert client.get(f"/api/playtests/{pid}").json()["answered"] == 0
        assert client.get(f"/api/playtests/{pid}").json()["answered"] == 1
    out = tmp_path / "people.parquet"
    result = CliRunner().invoke(cli, ["playtest-online", "export", pid, "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 game written" in result.output and "1 not finished" in result.output
    (row,) = pq.read_table(out).to_pylist()
    assert row["agents"] == ["heuristic", PERSON, PERSON, PERSON] and row["completed"]
    assert row["testers"] == [None, "Ann", "Bo", "Cy"]
    assert row["q_fun"] == [None, 2, 3, 4] and row["q_confused"] == [None, "seat 1", "seat 2", "seat 3"]
    # the report counts the game once and each tester's answer once
    section = people_section([out])
    line = re.search(r"<tr><td>default</td><td>people</td>(.*?)</tr>", section)
    assert line and re.findall(r"<td>(.*?)</td>", line.group(1))[:2] == ["1", "3"]
    assert "3.00 [" in section and "(n=3)" in section and "“seat 2”" in section
    # the people's result is the heroes' (seats 1-3), not the bot wizard's at seat 0
    assert "the seats the people held, for people and bots alike: default: heroes" in section


def test_a_database_of_one_tester_a_slot_keeps_its_testers(tmp_path: Path) -> None:
    """Playtests stored before testers could share a table (the tester and the answers in the
    slot's row, the bots after seat 0 in the settings) open with nothing lost."""
    import json
    import sqlite3

    db = tmp_path / "tables.sqlite3"
    old = sqlite3.connect(db)
    old.executescript("""
        CREATE TABLE playtests (id TEXT PRIMARY KEY, spec TEXT NOT NULL, created TEXT NOT NULL);
        CREATE TABLE playtest_slots (playtest_id TEXT NOT NULL, slot INTEGER NOT NULL, variant TEXT NOT NULL,
            seed INTEGER NOT NULL, table_id TEXT, player_id TEXT, assigned TEXT, answers TEXT, answered TEXT,
            PRIMARY KEY (playtest_id, slot));
        CREATE INDEX playtest_slots_by_player ON playtest_slots(playtest_id, player_id);""")
    settings = spec(game="stardice", variants=["battle"], games=2, seats=[PERSON, "random"]).to_json()
    settings["bots"] = ["random"]
    del settings["seats"]
    old.execute("INSERT INTO playtests VALUES ('abcdefghijkl', ?, 'then')", (json.dumps(settings),))
    old.execute("INSERT INTO playtest_slots VALUES ('abcdefghijkl', 0, 'battle', 10, 'T1', 'P1', 'then', "
                "'{\"fun\": 4}', 'later')")
    old.execute("INSERT INTO playtest_slots (playtest_id, slot, variant, seed) "
                "VALUES ('abcdefghijkl', 1, 'battle', 11)")
    old.commit()
    old.close()
    store = PlaytestStore(db)
    assert store.spec("abcdefghijkl").seats == (PERSON, "random")  # type: ignore[union-attr]
    (tester,) = store.testers("abcdefghijkl")
    assert (tester.slot, tester.seat, tester.player_id, tester.table_id, tester.answers) == (0, 0, "P1", "T1",
                                                                                           {"fun": 4})
    assert store.counts("abcdefghijkl") == (2, 1, 1)
    store.close()
    assert PlaytestStore(db).testers("abcdefghijkl")[0].answered == "later"  # moved once, kept


def test_a_playtest_id_never_begins_with_a_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The designer types the id as a command's argument: one beginning with '-' would be read as
    an option ("No such option '-a'"), so such a draw is drawn again."""
    draws = iter(["-aBcDeFgHiJk", "_aBcDeFgHiJk"])
    monkeypatch.setattr("playtable.web.server.playtests.playtest_spec.secrets.token_urlsafe",
                        lambda n: next(draws))
    store = PlaytestStore(tmp_path / "tables.sqlite3")
    try:
        pid = store.create(spec(), random.Random(1))
    finally:
        store.close()
    assert pid == "_aBcDeFgHiJk"
    db = str(tmp_path / "tables.sqlite3")
    result = CliRunner().invoke(cli, ["playtest-online", "status", pid, "--db", db])
    assert result.exit_code == 0 and pid in result.output, (result.exception, result.output)
