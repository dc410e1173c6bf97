"""A real PostgreSQL server for the tests: Debian's PostgreSQL 15 (`initdb` and `pg_ctl` from
/usr/lib/postgresql/15/bin, else another version there, or $PLAYTABLE_PG_BIN) in a scratch
folder, on a free loopback port, trusted from this machine only, with a fresh database for each
test (`database`).

PostgreSQL refuses to run as root: as root the server runs as the `postgres` user (`runuser`),
in a folder that user owns. Durability is off (`fsync=off`): the tests check what the store
writes and reads, not the disk. Where PostgreSQL, psycopg or a user to run it as is missing,
`skip_reason` says which and the tests that need it skip.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path


def _bin() -> Path:
    """$PLAYTABLE_PG_BIN, else Debian's PostgreSQL 15, else its newest other version."""
    if "PLAYTABLE_PG_BIN" in os.environ:
        return Path(os.environ["PLAYTABLE_PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name.zfill(4))
    fifteen = Path("/usr/lib/postgresql/15/bin")
    return fifteen if fifteen.is_dir() or not found else found[-1]


BIN = _bin()
START_TIMEOUT = 30


def skip_reason() -> str | None:
    if not (BIN / "pg_ctl").is_file() or not (BIN / "initdb").is_file():
        return f"PostgreSQL is not installed at {BIN} (apt-get install postgresql)"
    if importlib.util.find_spec("psycopg") is None:
        return "psycopg is not installed (pip install 'playtable[server]')"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root without runuser to start PostgreSQL as 'postgres'"
    return None


class PgServer:
    """One PostgreSQL server; `url(name)` reaches its database `name`."""

    def __init__(self) -> None:
        from tests.web.server_process import free_port

        self.folder = Path(tempfile.mkdtemp(prefix="playtable-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.names = itertools.count()
        self.durable = False
        """fsync on, as a site's server (a benchmark's); the tests' is off."""
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)

    def _run(self, *command: str) -> None:
        done = subprocess.run([*self.as_user, *command], capture_output=True, text=True,
                              timeout=START_TIMEOUT, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {done.stdout[-1500:]} {done.stderr[-1500:]}")

    def start(self) -> PgServer:
        self._run(str(BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--encoding=UTF8", "--locale=C", "--no-sync")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c full_page_writes=off"
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "server.log"), "-w", "-t", str(START_TIMEOUT), "start")
        return self

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def database(self) -> str:
        """A new empty database's URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self.names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def has_tables(self, url: str) -> bool:
        """Whether the database at `url` holds the store's tables."""
        import psycopg

        with psycopg.connect(url) as db:
            found = db.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'actions'")
            return bool(found.fetchone()[0])  # type: ignore[index]

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except (RuntimeError, subprocess.TimeoutExpired):
                time.sleep(0.5)
        shutil.rmtree(self.folder, ignore_errors=True)

    def log(self) -> str:
        try:
            return (self.folder / "server.log").read_text(errors="replace")[-2000:]
        except OSError:
            return ""
