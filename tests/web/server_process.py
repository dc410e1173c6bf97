"""A real `playtable serve` in a subprocess on a free loopback port, for tests and benchmarks.

    with start_server(tmp_path / "tables.sqlite3") as server:
        httpx2.get(server.url + "/api/games")
        server.kill()      # SIGKILL, as a crash would
        server.restart()   # same port, same database

Every wait is bounded (STARTUP_TIMEOUT); the server is always stopped on exit.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

STARTUP_TIMEOUT = 20.0
OPERATOR_TOKEN = "operator-token-of-the-tests-0123"
"""The operator token (live tables) every test server is given, in its environment."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    """One server subprocess; `url` is `http://127.0.0.1:PORT`."""

    def __init__(self, db_path: str | Path, port: int | None = None, workers: int = 1,
                 extra_args: tuple[str, ...] = (), interpreter_args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        self.db = str(db_path)
        """`--db`: an SQLite file, or a PostgreSQL URL (whose server's log goes to a new folder,
        removed when the server is done with)."""
        self.log_folder = Path(tempfile.mkdtemp(prefix="playtable-serve-")) if "://" in self.db else None
        self.db_path = self.log_folder / "postgresql" if self.log_folder else Path(db_path)
        self.port = port or free_port()
        self.workers = workers
        self.extra_args = extra_args
        self.interpreter_args = interpreter_args
        """Given to Python before `-m playtable` (web_load.py --profile: `-m cProfile -o FILE`)."""
        self.env = env or {}
        """Added to the server's environment (a node's $PLAYTABLE_NODE_SECRET)."""
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = self.db_path.with_name(self.db_path.name + f".{self.port}.log")

    def start(self) -> ServerProcess:
        command = [sys.executable, *self.interpreter_args, "-m", "playtable", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--db", self.db,
                   "--workers", str(self.workers), *self.extra_args]
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1",
                                             "PLAYTABLE_OPERATOR_TOKEN": OPERATOR_TOKEN, **self.env})
        log.close()
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}: {self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"the server did not answer within {STARTUP_TIMEOUT} s: {self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL, as a crash: no shutdown code runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """A clean stop (SIGTERM), escalating to SIGKILL after 10 s."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self) -> ServerProcess:
        """Stop if running, then start again on the same port with the same database."""
        self.stop()
        return self.start()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
        if self.log_folder is not None:
            shutil.rmtree(self.log_folder, ignore_errors=True)


def start_server(db_path: str | Path, port: int | None = None, workers: int = 1,
                 extra_args: tuple[str, ...] = (), interpreter_args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> ServerProcess:
    """A started server (see the module documentation); use it as a context manager.
    `extra_args` go to `playtable serve` (e.g. ("--rate-limit", "1000")), `interpreter_args` to
    Python before `-m playtable` (e.g. ("-m", "cProfile", "-o", "server.prof")), `env` to its
    environment."""
    return ServerProcess(db_path, port, workers, extra_args, interpreter_args, env).start()
