"""`playtable serve`: the web app's table server (docs/web.md)."""

from __future__ import annotations

import dataclasses
import errno
import importlib.util
import ipaddress
import os
import re
import socket
from pathlib import Path
from urllib.parse import urlsplit

import click


def default_db() -> Path:
    """The per-user data directory, so tables survive whichever directory the server is started
    from and never land inside a source checkout: the system's own place for an application's
    data (platformdirs): `$XDG_DATA_HOME/playtable`, else `~/.local/share/playtable`, on Linux
    (where earlier versions kept it too), `~/Library/Application Support/playtable` on macOS,
    `%LOCALAPPDATA%\\playtable` on Windows."""
    from platformdirs import user_data_path  # here: the command's start-up stays light

    return user_data_path("playtable", appauthor=False) / "tables.sqlite3"


def db_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | Path | None:
    """`--db`: a `postgresql://` URL as given, else an SQLite file's path."""
    from playtable.web.server.store.database import is_postgres

    if value is None or is_postgres(value):
        return value
    if "://" in value:
        raise click.BadParameter("give an SQLite file's path or a postgresql://USER@HOST/DATABASE URL")
    return Path(value)


DB_HELP = ("The tables' database: an SQLite file, or PostgreSQL as postgresql://USER@HOST/DATABASE "
           "(the 'server' extra; docs/web.md, 'On PostgreSQL') [default: an SQLite file in the "
           "user's data folder, $XDG_DATA_HOME/playtable/tables.sqlite3 on Linux].")


def _public_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise click.BadParameter("give the address people open, like https://games.example.org")
    return value.rstrip("/")


HOST_NAME = re.compile(r"^(\*|\.?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*)$")


def _hosts(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, ...]:
    names = tuple(h.strip().lower() for h in (value or "").split(",") if h.strip())
    for name in names:
        if not HOST_NAME.match(name):
            raise click.BadParameter(f"'{name[:60]}' is not a host name (like games.example.org)")
    return names


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _port_taken(host: str, port: int) -> bool:
    """Whether another program already listens on host:port (checked before uvicorn starts, so
    a second server says so in one line instead of a traceback-like log)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            return err.errno == errno.EADDRINUSE
    return False


def operator_token_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    """`--operator-token` (or PLAYTABLE_OPERATOR_TOKEN): a chosen token checked, else a new one."""
    from playtable.web.server.live.operator import TOKEN_SHAPE, new_token

    if not value:
        return new_token()
    if not TOKEN_SHAPE.match(value):
        raise click.BadParameter("an operator token is 16 to 128 characters of A-Z, a-z, 0-9, _ "
                                 "and - (leave it out to have a new one made)")
    return value


OPERATOR_HELP = ("The operator's token, which starts, controls and closes live Star Dice tables "
                 "(16-128 URL-safe characters; give it in the environment rather than on the "
                 "command line) [default: a new one, printed at start].")


def _processes(ctx: click.Context, param: click.Parameter, value: str) -> int:
    from playtable.web.server.transport.owners import MAX_PROCESSES

    if value == "auto":
        # the cores this process may run on (Linux); elsewhere the machine's
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        return max(1, min(MAX_PROCESSES, cores or 1))
    if not value.isascii() or not value.isdecimal() or not 1 <= int(value) <= MAX_PROCESSES:
        raise click.BadParameter(f"give a number of processes from 1 to {MAX_PROCESSES}, or auto")
    return int(value)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, envvar="PLAYTABLE_HOST",
              help="Address to listen on (0.0.0.0: every network of this machine; see docs/web.md "
                   "before exposing it).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              envvar="PLAYTABLE_PORT")
@click.option("--db", callback=db_option, default=None, envvar="PLAYTABLE_DB", help=DB_HELP)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes for bots and hints.")
@click.option("--rate-limit", default=20.0, show_default=True, type=click.FloatRange(1, 100000),
              help="Messages a second each WebSocket may send (bursts of twice that).")
@click.option("--record-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where live Star Dice tables' pages record TUIO streams "
                   "[default: recordings in the user's data folder, "
                   "$XDG_DATA_HOME/playtable/recordings on Linux].")
@click.option("--public-url", callback=_public_url, default=None, envvar="PLAYTABLE_PUBLIC_URL",
              help="The address people open (behind a proxy: https://games.example.org): the base "
                   "of join and watch links, and an allowed host and origin.")
@click.option("--allowed-hosts", callback=_hosts, default=None, envvar="PLAYTABLE_ALLOWED_HOSTS",
              help="Host names the server may be reached under, comma-separated (.example.org: "
                   "and its subdomains). Loopback names and IP addresses are always allowed.")
@click.option("--forwarded-allow-ips", default=None, envvar="PLAYTABLE_FORWARDED_ALLOW_IPS",
              help="Addresses of the reverse proxy whose X-Forwarded-For/-Proto headers are "
                   "trusted (comma-separated) [default: none].")
@click.option("--max-tables", default=5000, show_default=True, type=click.IntRange(1, 1_000_000),
              help="Tables in play at once; past it new tables are refused.")
@click.option("--tables-per-minute", default=20.0, show_default=True, type=click.FloatRange(0.1, 10_000),
              help="Tables one client address may create a minute.")
@click.option("--tables-per-network", default=20, show_default=True, type=click.IntRange(1, 1_000_000),
              help="Tables one client network may keep in play at once (docs/web.md, 'Fair use').")
@click.option("--api-requests-per-minute", default=1200.0, show_default=True,
              type=click.FloatRange(1, 1_000_000),
              help="Requests to /api/ one client network may make a minute, in bursts of as many "
                   "(docs/web.md, 'Fair use'); past it: 429.")
@click.option("--ipv6-prefix", default=64, show_default=True, type=click.IntRange(32, 128),
              help="The IPv6 prefix length of one client network: every budget counts a network.")
@click.option("--idle-days", default=7.0, show_default=True, type=click.FloatRange(0.01, 3650),
              help="A table nobody plays for this many days is ended as abandoned.")
@click.option("--bot-seconds", default=30.0, show_default=True, type=click.FloatRange(1, 3600),
              help="The longest one bot move or hint may take before its worker is replaced.")
@click.option("--processes", default="1", show_default=True, callback=_processes,
              envvar="PLAYTABLE_PROCESSES",
              help="Table-owning server processes behind the one port (1 to 64, or 'auto': one a "
                   "core); each has its own --workers for bots.")
@click.option("--operator-token", callback=operator_token_option, default=None,
              envvar="PLAYTABLE_OPERATOR_TOKEN", help=OPERATOR_HELP)
@click.option("--node", "node_name", default=None, envvar="PLAYTABLE_NODE",
              help="This server's name among several machines' servers on one shared --db "
                   "(docs/web.md, 'Several machines'); needs --node-url and the nodes' shared "
                   "secret in $PLAYTABLE_NODE_SECRET [default: the only server on its database].")
@click.option("--node-url", default=None, envvar="PLAYTABLE_NODE_URL",
              help="The address the other nodes reach this one at (http://10.0.0.2:8000: the "
                   "site's private network, not the public address).")
def serve(host: str, port: int, db: str | Path | None, workers: int, rate_limit: float,
          record_dir: Path | None, public_url: str | None, allowed_hosts: tuple[str, ...],
          forwarded_allow_ips: str | None, max_tables: int, tables_per_minute: float,
          tables_per_network: int, api_requests_per_minute: float, ipv6_prefix: int,
          idle_days: float, bot_seconds: float, processes: int, operator_token: str,
          node_name: str | None, node_url: str | None) -> None:
    """Serve the web app: open the printed address in a browser."""
    import uvicorn

    from playtable.core.errors import BadParameter
    from playtable.web.server.live.operator import OPERATOR_ENV
    from playtable.web.server.store.node_registry import NodeRegistry
    from playtable.web.server.store.store import SqlStore, StoreError
    from playtable.web.server.tables.room import Limits
    from playtable.web.server.transport.nodes import Node, NodeError
    from playtable.web.server.transport.processes import ServeSettings, build_app, uvicorn_options

    if (node_name is None) != (node_url is None):
        raise BadParameter("--node and --node-url go together: a node's name and the address "
                           "the other nodes reach it at")
    if node_name is not None and importlib.util.find_spec("httpx2") is None:
        raise BadParameter("--node sends requests between nodes with httpx2, part of the 'server' "
                           "extra: pip install 'playtable[server]'")
    try:  # checked now, in one line; each worker process makes its own from the same settings
        if node_name is not None:
            Node.from_environment(node_name, node_url or "")
    except NodeError as err:
        raise BadParameter(str(err)) from None
    path = db or default_db()
    try:  # a database that cannot be used is reported now, in one line, not as a traceback
        store = SqlStore(path)
        try:
            store.verify()
            if node_name is not None:  # two live nodes of one name would share their tables
                NodeRegistry(store.db, node_name, (node_url or "").rstrip("/")).check()
        finally:
            store.close()
    except StoreError as err:  # refused input, as everywhere: one line and status 2
        raise BadParameter(str(err)) from None
    if _port_taken(host, port):
        raise click.ClickException(f"port {port} on {host} is already in use (another playtable "
                                   f"serve?); choose another with --port")
    limits = Limits(tables=max_tables, creations_per_minute=tables_per_minute,
                    idle_seconds=idle_days * 86400.0, tables_per_network=tables_per_network,
                    api_requests_per_minute=api_requests_per_minute, ipv6_prefix=ipv6_prefix)
    settings = ServeSettings(str(path), workers, rate_limit,
                             str(record_dir or default_db().parent / "recordings"), public_url,
                             list(allowed_hosts), forwarded_allow_ips, dataclasses.asdict(limits),
                             bot_seconds, node_name, node_url)
    shown = public_url or f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    click.echo(f"playtable: open {shown}/ in a browser (Ctrl+C stops the server)", err=True)
    click.echo(f"playtable: the operator page (live Star Dice tables; keep its address private): "
               f"{shown}/operator#token={operator_token}", err=True)
    os.environ[OPERATOR_ENV] = operator_token  # every worker process's app reads it (build_app)
    if not _loopback(host) and not public_url and not allowed_hosts:
        click.echo("playtable: listening beyond this machine; people reach it by IP address "
                   "(host names need --allowed-hosts; see docs/web.md, 'Running it for real')", err=True)
    if processes > 1:
        from playtable.web.server.transport.front import serve_processes

        serve_processes(host, port, processes, settings)
        return
    uvicorn.run(build_app(settings), host=host, port=port, **uvicorn_options(forwarded_allow_ips))
