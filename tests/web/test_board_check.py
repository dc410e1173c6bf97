"""The Rotator board editor's check route (seed 004 "Getting Started": a player
chooses where the ten Control Nodes go): legal, illegal and unwinnable boards, every bound of
the request, and the check made in the public worker, never on the event loop."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.conftest import in_process_app

from playtable.games.rotator.board import BOARD_TEXT_MAX, SAMPLES_DIR
from playtable.web.server.bots import bots
from playtable.web.server.tables.board_routes import CHECKS_PER_MINUTE, check_board

CHECK = "/api/rotator/boards/check"
MEDIUM = (SAMPLES_DIR / "medium.txt").read_text(encoding="utf-8")
NODES_ONLY = [line.split()[1].replace("#", ".") for line in MEDIUM.splitlines()
              if line.strip() and not line.startswith(";") and line.split()[0].isdigit()]
"""The same board written with its nodes only (docs/boards-rotator.md, "Shortcut")."""


def board_text(rows: list[str]) -> str:
    return "\n".join(rows) + "\n"


def moved(rows: list[str], row: int, col: int, to_row: int, to_col: int) -> list[str]:
    grid = [list(line) for line in rows]
    assert grid[row][col] == "@"
    grid[row][col], grid[to_row][to_col] = ".", "@"
    return ["".join(line) for line in grid]


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server for the tests of answers and bounds (each app starts its worker processes)."""
    db = tmp_path_factory.mktemp("boards") / "tables.sqlite3"
    with TestClient(in_process_app(db, workers=1)) as client:
        yield client


def check(client: TestClient, text: str, **params: Any) -> dict[str, Any]:
    answer = client.post(CHECK, json={"board": text, **({"params": params} if params else {})})
    assert answer.status_code == 200, answer.text
    verdict: dict[str, Any] = answer.json()
    return verdict


def test_a_legal_board_is_winnable_and_rated(checker: TestClient) -> None:
    # The shipped sample 'medium' is rated medium (samples.py): the solver wins on turn 9.
    verdict = check(checker, MEDIUM)
    assert verdict["legal"] and verdict["problems"] == []
    assert verdict["winnable"] and verdict["complete"]
    assert (verdict["turns"], verdict["level"]) == (9, "medium")
    assert verdict["moves"][0].startswith("start ")
    assert "winnable: medium" in verdict["summary"]
    # The nodes-only shortcut of docs/boards-rotator.md is the same board, land drawn in.
    same = check(checker, board_text(NODES_ONLY))
    assert same["board"] == verdict["board"] and same["turns"] == 9
    assert len(same["nodes"]) == 10 and "B2" in same["nodes"]


def test_an_illegal_board_names_every_rule_it_breaks(checker: TestClient) -> None:
    # B2 moved onto the top row (an edge space), and H4 moved to H7, whose diamond overlaps
    # H9's (seed: "Nodes CANNOT overlap each other or be placed on edge spaces").
    rows = moved(moved(NODES_ONLY, 1, 1, 0, 1), 3, 7, 6, 7)
    verdict = check(checker, board_text(rows))
    assert not verdict["legal"] and "winnable" not in verdict
    assert any(p.startswith("edge: node B1") for p in verdict["problems"])
    assert any(p.startswith("overlap: the territories of nodes H7 and H9") for p in verdict["problems"])
    # The one sentence names the first rule broken and counts the rest (a phone shows only it).
    assert verdict["summary"].startswith("Not a legal board: node B1 is on an edge space")
    assert "(and 1 more rule broken)" in verdict["summary"]
    # Only nine nodes: the count rule (seed: "five on each half").
    nine = check(checker, board_text(NODES_ONLY[:1] + ["." * 10] + NODES_ONLY[2:]))
    assert nine["problems"][0].startswith("node count:")
    # Not a board at all: the text format's own message.
    short = check(checker, "@@@\n")
    assert not short["legal"] and "row needs 10 cells" in short["problems"][0]


def test_a_legal_board_that_cannot_be_won_in_the_turns_allowed(checker: TestClient) -> None:
    # The same board wins on turn 9 at best; with a turn limit of 5 no line wins.
    verdict = check(checker, MEDIUM, turn_limit=5)
    assert verdict["legal"] and verdict["complete"] and not verdict["winnable"]
    assert verdict["level"] is None and "cannot be won within 5 turns" in verdict["summary"]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"board": "x" * (BOARD_TEXT_MAX + 1)}, 413, "at most 4096"),
    ({"board": 12}, 400, "board's text"),
    ({"board": MEDIUM, "seed": 3}, 400, "request body must be"),
    ({"board": MEDIUM, "params": {"board": "easy"}}, 400, "may set only placement and turn_limit"),
    ({"board": MEDIUM, "params": {"boost_total": 20}}, 400, "may set only"),  # the dearest dial
    ({"board": MEDIUM, "params": {"turn_limit": 5000}}, 400, "turn_limit"),
    ({"board": MEDIUM, "params": {"placement": "anywhere"}}, 400, "placement"),
    ([MEDIUM], 400, "request body must be"),
])
def test_every_field_is_bounded(checker: TestClient, body: Any, status: int, words: str) -> None:
    answer = checker.post(CHECK, json=body)
    assert answer.status_code == status and words in answer.json()["error"]


def test_a_board_names_no_file_on_the_host(checker: TestClient, tmp_path: Path) -> None:
    # Without a line break a Rotator board parameter names a sample or a file; here the text is
    # always read as a board, never opened.
    secret = tmp_path / "secret.txt"
    secret.write_text(MEDIUM, encoding="utf-8")
    verdict = check(checker, str(secret))
    assert not verdict["legal"] and "unexpected character" in verdict["problems"][0]


def test_each_address_checks_a_bounded_number_a_minute(client: TestClient) -> None:
    # The bucket holds a minute's checks and refills as time passes, so a burst of twice as
    # many meets a refusal (an answer kept from the first check costs nothing but still counts).
    burst = 2 * int(CHECKS_PER_MINUTE)
    codes = [client.post(CHECK, json={"board": MEDIUM}).status_code for _ in range(burst)]
    refused = codes.index(429)
    assert refused >= CHECKS_PER_MINUTE and set(codes[:refused]) == {200}
    assert "wait a minute" in client.post(CHECK, json={"board": MEDIUM}).json()["error"]


def test_the_check_runs_in_the_public_worker_under_its_time_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs: list[tuple[float, Any]] = []
    original = bots.Pool.run

    async def recording(self: bots.Pool, job: Any, *args: Any) -> Any:
        jobs.append((self.seconds, job))
        return await original(self, job, *args)

    monkeypatch.setattr(bots.Pool, "run", recording)
    # A public pool whose time limit no check can meet, and bots' workers with another limit.
    monkeypatch.setattr(bots, "REPLAY_SECONDS", 0.001)
    with TestClient(in_process_app(tmp_path / "t.sqlite3", bot_seconds=7.0)) as client:
        answer = client.post(CHECK, json={"board": MEDIUM})
        # The check past the pool's time has its worker killed and gets 503, not a hung request.
        assert answer.status_code == 503 and "in time" in answer.json()["error"]
    assert jobs == [(0.001, check_board)]  # the public pool (not the bots' 7 s one)


def test_the_samples_to_start_from(checker: TestClient) -> None:
    # Seed 004: "you can choose from one of the example boards provided".
    samples = checker.get("/api/rotator/boards/samples").json()["samples"]
    assert [s["name"] for s in samples] == ["easy", "medium", "hard"]
    assert samples[1]["nodes"] == check(checker, MEDIUM)["nodes"]
    assert all(len(s["nodes"]) == 10 for s in samples)


def test_the_editor_page_is_served(checker: TestClient) -> None:
    page = checker.get("/rotator/editor")
    assert page.status_code == 200 and "/static/js/editor.js" in page.text
