"""A site of several nodes as docs/web.md "Several machines" runs it: real `playtable serve --node`
processes on one PostgreSQL database behind a real nginx running docs/deploy/nginx-nodes.conf
(tests/web/nodes.py). Through nginx: the pages and the lobby from whichever node, the nodes'
internal routes refused, a dead node skipped, a table that outlives a kill -9 of every node
played to its end; and the database's backup with pg_dump, restored with pg_restore into a new
database that a new server serves the tables from (docs/deploy/, "Backups of PostgreSQL")."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from tests.pg_server import BIN, PgServer
from tests.web.nodes import NodesProxy, NodesSite
from tests.web.server_process import start_server
from tests.web.test_nginx import NGINX, OPENSSL, ProxiedClient
from tests.web.wire_client import TIMEOUT, join_query, play_to_the_end

BACKUP_UNIT = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "playtable-pg-backup.service"

pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install nginx)"),
    pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed"),
]


@pytest.fixture(scope="module")
def site(postgres: PgServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NodesSite]:
    with NodesSite(tmp_path_factory.mktemp("nodes"), postgres.database(), count=2) as running:
        yield running


def proxy_of(site: NodesSite) -> NodesProxy:
    assert site.proxy is not None
    return site.proxy


def test_pages_and_the_lobby_through_nginx_and_a_dead_node_skipped(site: NodesSite) -> None:
    proxy = proxy_of(site)
    for path in ("/", "/api/games", "/api/tables"):
        assert proxy.request("GET", path).status_code == 200, path
    internal = proxy.request("GET", "/_node/peers")
    assert internal.status_code == 404 and "html" in internal.headers["content-type"]  # nginx's own
    site.kill(1)
    try:  # every request reaches the live node, whichever its key hashed to
        answers = [proxy.request("GET", "/api/games").status_code for _ in range(8)]
        answers += [proxy.request("GET", f"/api/tables/key{i}").status_code for i in range(8)]
        assert all(code in (200, 404) for code in answers), answers
        assert answers[:8] == [200] * 8
    finally:
        site.restart(1)


def test_a_table_outlives_every_node_killed_and_is_played_through_nginx(site: NodesSite, postgres: PgServer,
                                                                       tmp_path: Path) -> None:
    proxy = proxy_of(site)
    created = proxy.create_table(game="troll", seed=44)
    table_id, query = created["table_id"], join_query(created)
    for index in range(len(site.nodes)):  # a crash of every machine: the store keeps the table
        site.kill(index)
    for index in range(len(site.nodes)):
        site.restart(index)
    with ProxiedClient(proxy, table_id, query) as player:
        state = play_to_the_end(player, player.greet()[1], 44)
    summary = proxy.request("GET", f"/api/tables/{table_id}").json()
    assert summary["status"] == "finished" and summary["step"] == state["step"]
    restored = restore_a_dump(postgres, site.nodes[0].db, tmp_path)
    with start_server(restored) as server:
        again = httpx2.get(f"{server.url}/api/tables/{table_id}", timeout=TIMEOUT)
    assert again.status_code == 200 and again.json()["step"] == state["step"]


def restore_a_dump(postgres: PgServer, url: str, tmp_path: Path) -> str:
    """The site's backup as docs/deploy/playtable-pg-backup.service takes it (its very command,
    the backups' folder swapped for the test's), restored as docs/web.md says: `pg_restore`
    into a new database; its URL."""
    unit = BACKUP_UNIT.read_text()
    command = next(line for line in unit.splitlines() if line.startswith("ExecStart=/bin/sh -c '"))
    script = command.removeprefix("ExecStart=/bin/sh -c '").removesuffix("'").replace("%%", "%")
    assert "/var/lib/playtable-backups" in script, "update test_nodes.py's swap"
    script = script.replace("/var/lib/playtable-backups", str(tmp_path))
    subprocess.run(["/bin/sh", "-c", script], check=True, capture_output=True, timeout=120,
                   env={**os.environ, "PLAYTABLE_DB": url, "PATH": f"{BIN}:{os.environ['PATH']}"})
    dumps = sorted(tmp_path.glob("tables-*.dump"))
    assert len(dumps) == 1
    dump = dumps[0]
    target = postgres.database()
    subprocess.run([str(BIN / "pg_restore"), "--no-owner", "--exit-on-error", "--dbname", target, str(dump)],
                   check=True, capture_output=True, timeout=120)
    return target
