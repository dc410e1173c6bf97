"""The server behind a real nginx with TLS (docs/web.md "Running it for real"): the
config nginx runs is docs/deploy/nginx-playtable.conf itself, its listen lines, upstream port and
certificate paths swapped for the test's own, so the documented config cannot rot. Through it:
a table is created over HTTPS, its socket connects over WSS, a whole troll game is played to the
end, and the finished table's summary and replay come back; plain HTTP redirects to HTTPS and
nginx stops a big body. Where the server has the deployment options (`--public-url`,
`--allowed-hosts`, `--forwarded-allow-ips`), it runs with them, and a foreign Host, a foreign
Origin and a `text/plain` body sent through nginx are refused. And docs/deploy/playtable-backup.py
copies the running server's tables mid-game: a new server started on the copy has the table.

nginx runs as this user (`daemon off`, everything under a temporary prefix, on free loopback
ports) and is stopped at the end. Skipped where nginx or openssl is missing (CI installs
Debian's nginx: .ci/run)."""

from __future__ import annotations

import functools
import os
import pwd
import random
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from tests.web.server_process import ServerProcess, free_port, start_server
from tests.web.wire_client import TIMEOUT, Client, join_query, play_to_the_end, watched_to_the_end
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "docs" / "deploy" / "nginx-playtable.conf"
BACKUP = REPO / "docs" / "deploy" / "playtable-backup.py"
NAME = "games.example.org"
OTHER_NAME = "play.example.org"  # a further name in --allowed-hosts
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                       if os.access(p, os.X_OK)), None)
OPENSSL = shutil.which("openssl")

pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install nginx)"),
    pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed"),
]


@functools.cache
def serve_help() -> str:
    return subprocess.run([sys.executable, "-m", "playtable", "serve", "--help"],
                          capture_output=True, text=True, timeout=60).stdout


def deploy_options() -> bool:
    """Whether this server has the deployment options (`playtable serve --help`)."""
    return all(option in serve_help() for option in
               ("--public-url", "--allowed-hosts", "--forwarded-allow-ips"))


def swapped(config: Path, swaps: dict[str, str], http_port: int, https_port: int, cert: Path,
            key: Path) -> str:
    """A documented nginx site with the test's ports and certificate, and `swaps` besides: each
    documented line the test swaps must still be there, else the test fails naming it."""
    text = config.read_text()
    swaps = {
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen [::]:80;": "",
        "listen 443 ssl;": f"listen 127.0.0.1:{https_port} ssl;",
        "listen [::]:443 ssl;": "",
        f"/etc/letsencrypt/live/{NAME}/fullchain.pem": str(cert),
        f"/etc/letsencrypt/live/{NAME}/privkey.pem": str(key),
        **swaps,
    }
    for old, new in swaps.items():
        assert old in text, f"{config.name} no longer has '{old}': update the test's swaps"
        text = text.replace(old, new)
    return text


def site_config(upstream: int, http_port: int, https_port: int, cert: Path, key: Path) -> str:
    """docs/deploy/nginx-playtable.conf in front of the server at port `upstream` (`swapped`)."""
    return swapped(CONFIG, {"proxy_pass http://127.0.0.1:8000;": f"proxy_pass http://127.0.0.1:{upstream};"},
                   http_port, https_port, cert, key)


def main_config(tmp: Path, site: Path) -> str:
    """nginx.conf around the site: in the foreground, every file of nginx's under `tmp`."""
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    temp_paths = "".join(f"    {kind}_temp_path {tmp / kind};\n"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"{user}daemon off;\nworker_processes 1;\npid {tmp / 'nginx.pid'};\n"
            f"error_log {tmp / 'error.log'} info;\nevents {{ worker_connections 1024; }}\n"
            f"http {{\n    access_log {tmp / 'access.log'};\n{temp_paths}    include {site};\n}}\n")


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited with {process.returncode}: {log.read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nginx did not listen within 15 s: {log.read_text()[-2000:]}")


class Proxy:
    """nginx on free loopback ports (HTTPS on `https_port`) in front of `upstream`, with a
    self-signed certificate for NAME that the clients trust."""

    def __init__(self, tmp: Path, upstream: int, https_port: int) -> None:
        assert NGINX is not None and OPENSSL is not None
        self.http_port, self.https_port = free_port(), https_port
        self.cert, key = tmp / "cert.pem", tmp / "key.pem"
        subprocess.run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", f"/CN={NAME}", "-addext", f"subjectAltName=DNS:{NAME}",
                        "-keyout", str(key), "-out", str(self.cert)],
                       check=True, capture_output=True, timeout=60)
        site = tmp / "playtable.conf"
        site.write_text(self.site_text(upstream, https_port, key))
        conf = tmp / "nginx.conf"
        conf.write_text(main_config(tmp, site))
        command = [NGINX, "-p", str(tmp), "-c", str(conf), "-e", str(tmp / "error.log")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, f"nginx -t refused the config: {checked.stderr}"
        with (tmp / "nginx.out").open("wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=out, stdin=subprocess.DEVNULL)
        try:
            wait_for_port(https_port, self.process, tmp / "error.log")
        except BaseException:
            self.stop()
            raise
        self.origin = f"https://{NAME}:{https_port}"
        self.tls = ssl.create_default_context(cafile=str(self.cert))
        self.error_log = tmp / "error.log"

    def logged(self, lines: int = 20) -> str:
        """The newest lines of nginx's error log (at `info`: every connection it ended and why),
        for a failure's message."""
        return "\n".join(self.error_log.read_text(errors="replace").splitlines()[-lines:])

    def site_text(self, upstream: int, https_port: int, key: Path) -> str:
        """The site nginx runs (tests/web/nodes.py's is the nodes' site)."""
        return site_config(upstream, self.http_port, https_port, self.cert, key)

    def stop(self) -> None:
        """nginx's fast shutdown (SIGTERM), SIGKILL after 10 s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def client(self, host: str = NAME) -> httpx2.Client:
        """An HTTPS client for https://NAME:PORT that connects to 127.0.0.1 (no DNS here): the
        TLS server name is NAME's and its certificate is checked; the Host header is `host`'s."""
        return httpx2.Client(base_url=f"https://127.0.0.1:{self.https_port}", verify=self.tls,
                            headers={"Host": f"{host}:{self.https_port}"}, timeout=TIMEOUT)

    def request(self, method: str, path: str, host: str = NAME, **options: Any) -> httpx2.Response:
        with self.client(host) as http:
            return http.request(method, path, extensions={"sni_hostname": NAME}, **options)

    def create_table(self, **body: Any) -> dict[str, Any]:
        """A new table made through the proxy, as the lobby's page makes it."""
        answer = self.request("POST", "/api/tables", json=body, headers={"Origin": self.origin})
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        return created


class ProxiedClient(Client):
    """wire_client's Client over wss://NAME:PORT through the proxy, as a page served there
    connects (its Origin the public URL's, unless `origin` says otherwise)."""

    def __init__(self, proxy: Proxy, table_id: str, query: str = "", origin: str | None = None) -> None:
        sock = socket.create_connection(("127.0.0.1", proxy.https_port), timeout=TIMEOUT)
        url = f"wss://{NAME}:{proxy.https_port}/ws/tables/{table_id}{'?' + query if query else ''}"
        try:
            opened = connect(url, sock=sock, ssl=proxy.tls, open_timeout=TIMEOUT, max_size=None,
                             origin=Origin(origin or proxy.origin))
            self.ws = opened.__enter__()
        except BaseException:
            sock.close()
            raise
        self.received: list[dict[str, Any]] = []


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Proxy]]:
    """A server as docs/web.md deploys it (with the deployment options where it has them) and
    nginx in front of it."""
    tmp = tmp_path_factory.mktemp("nginx")
    https_port = free_port()
    extra: tuple[str, ...] = ()
    if deploy_options():
        extra = ("--public-url", f"https://{NAME}:{https_port}", "--allowed-hosts", OTHER_NAME,
                 "--forwarded-allow-ips", "127.0.0.1")
    with start_server(tmp / "tables.sqlite3", extra_args=extra) as server:
        proxy = Proxy(tmp, server.port, https_port)
        try:
            yield server, proxy
        finally:
            proxy.stop()


def test_a_whole_troll_game_through_nginx(deployed: tuple[ServerProcess, Proxy]) -> None:
    server, proxy = deployed
    created = proxy.create_table(game="troll", seed=27)
    table_id, query = created["table_id"], join_query(created)
    with ProxiedClient(proxy, table_id, query) as player, ProxiedClient(proxy, table_id) as watcher:
        welcome, state = player.greet()
        assert welcome["role"] == "player" and state["your_turn"]
        assert watcher.greet()[0]["role"] == "watcher"
        state = play_to_the_end(player, state, 27)
        seen = watched_to_the_end(watcher)  # through the same proxy, the watcher saw it end too
        assert seen["step"] == state["step"] and seen["result"] == state["result"]
    summary = proxy.request("GET", f"/api/tables/{table_id}").json()
    assert summary["status"] == "finished" and summary["step"] == state["step"]
    replay = proxy.request("GET", f"/api/tables/{table_id}/replay")
    assert replay.status_code == 200
    assert len(replay.json()["steps"]) == state["step"] + 1
    assert server.alive


def test_nginx_sends_http_to_https_and_stops_big_bodies(deployed: tuple[ServerProcess, Proxy]) -> None:
    _, proxy = deployed
    plain = httpx2.get(f"http://127.0.0.1:{proxy.http_port}/t/abc?seat=0&token=T",
                      headers={"Host": NAME}, timeout=TIMEOUT, follow_redirects=False)
    assert plain.status_code == 301
    assert plain.headers["location"] == f"https://{NAME}/t/abc?seat=0&token=T"
    big = proxy.request("POST", "/api/tables", content=b"{" + b" " * (100 * 1024) + b"}",
                        headers={"Content-Type": "application/json", "Origin": proxy.origin})
    assert big.status_code == 413  # nginx's client_max_body_size, before the server sees it


def test_the_servers_checks_see_through_nginx(deployed: tuple[ServerProcess, Proxy]) -> None:
    """nginx passes the browser's Host and Origin on, so the server's own checks still hold."""
    if not deploy_options():
        pytest.skip("this server has no --public-url / --allowed-hosts / --forwarded-allow-ips yet")
    _, proxy = deployed
    assert proxy.request("GET", "/api/games").status_code == 200
    assert proxy.request("GET", "/api/games", host=OTHER_NAME).status_code == 200
    assert proxy.request("GET", "/api/games", host="evil.example").status_code == 400
    body = b'{"game": "troll"}'
    plain = proxy.request("POST", "/api/tables", content=body,
                          headers={"Content-Type": "text/plain", "Origin": proxy.origin})
    assert plain.status_code == 415
    foreign = proxy.request("POST", "/api/tables", content=body,
                            headers={"Content-Type": "application/json", "Origin": "https://evil.example"})
    assert foreign.status_code == 403
    created = proxy.request("POST", "/api/tables", content=body,
                            headers={"Content-Type": "application/json", "Origin": proxy.origin})
    assert created.status_code == 201
    with pytest.raises(InvalidStatus) as refused:
        ProxiedClient(proxy, created.json()["table_id"], origin="https://evil.example")
    assert refused.value.response.status_code == 403


def test_a_backup_taken_mid_game_restores(deployed: tuple[ServerProcess, Proxy], tmp_path: Path) -> None:
    """docs/deploy/playtable-backup.py copies the tables of the running server (its last moves
    still in the WAL), and a new server started on the copy has the table at that step."""
    server, proxy = deployed
    created = proxy.create_table(game="rotator", seed=5)
    table_id, query = created["table_id"], join_query(created)
    rng = random.Random(5)
    with ProxiedClient(proxy, table_id, query) as player:
        state = player.greet()[1]
        for _ in range(3):
            if state["terminal"]:
                break
            state = player.act(rng.choice(state["legal"])["action"], state["step"])
            assert state["type"] == "state", state
        made = subprocess.run([sys.executable, str(BACKUP), "--db", str(server.db_path),
                               "--to", str(tmp_path / "backups"), "--keep", "2"],
                              capture_output=True, text=True, timeout=60)
        assert made.returncode == 0, made.stderr
        if not state["terminal"]:  # a move after the copy is not in it
            assert player.act(rng.choice(state["legal"])["action"], state["step"])["type"] == "state"
    copy = Path(made.stdout.strip())
    assert copy.parent == tmp_path / "backups" and copy.stat().st_mode & 0o077 == 0
    with start_server(copy) as restored:
        summary = httpx2.get(f"{restored.url}/api/tables/{table_id}", timeout=TIMEOUT).json()
    assert summary["step"] == state["step"] and summary["game"] == "rotator"
