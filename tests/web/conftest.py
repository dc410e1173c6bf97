"""Fixtures for the table server's tests: an in-process app (Starlette's TestClient) over a
fresh SQLite file, a real PostgreSQL server (`postgres`) and a database of either engine
(`db_where`, for the store's tests), and helpers to create tables and read a connection's
greeting."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.pg_server import PgServer, skip_reason
from tests.web.server_process import ServerProcess, start_server

from playtable.web.server.app import create_app
from playtable.web.server.transport.guard import Policy

TEST_HOST = Policy.of(["testserver"])
"""Starlette's TestClient reaches the app as http://testserver (ws://testserver for sockets)."""


def in_process_app(db: str | Path, **options: Any) -> Any:
    """The app as `create_app` makes it, reachable under TestClient's host name."""
    return create_app(db, policy=TEST_HOST, **options)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PgServer]:
    """A real PostgreSQL server for this test process (skips where PostgreSQL is absent)."""
    reason = skip_reason()
    if reason is not None:
        pytest.skip(reason)
    server = PgServer()
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | Path]:
    """A new database of each engine: an SQLite file's path, or a PostgreSQL database's URL
    (which the test must have used: its tables are then in PostgreSQL, not in a file)."""
    if request.param == "sqlite":
        yield tmp_path / "tables.sqlite3"
        return
    server: PgServer = request.getfixturevalue("postgres")
    url = server.database()
    yield url
    assert server.has_tables(url), "the test never wrote to PostgreSQL"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # A high message rate: these tests send messages back to back on purpose.
    with TestClient(in_process_app(tmp_path / "tables.sqlite3", workers=1, rate=10_000)) as test_client:
        yield test_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def seat_query(created: dict[str, Any], seat: int = 0) -> str:
    """`seat=0&token=...` from a created table's join link."""
    return str(created["seats"][seat]["join_url"]).split("?", 1)[1]


def token_of(created: dict[str, Any], seat: int = 0) -> str:
    return seat_query(created, seat).split("token=", 1)[1]


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real `playtable serve` process shared by one test module (the browser tests)."""
    with start_server(tmp_path_factory.mktemp("web") / "tables.sqlite3") as running:
        yield running


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Headless Debian chromium for one test module (skips if Playwright or chromium is missing)."""
    from tests.web.browser_support import browser

    with browser() as instance:
        yield instance
