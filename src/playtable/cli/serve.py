"""`playtable serve`: the web app's table server (docs/web.md)."""

from __future__ import annotations

import os
from pathlib import Path

import click


def default_db() -> Path:
    """The per-user data directory (XDG), so tables survive whichever directory the server is
    started from and never land inside a source checkout."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "playtable" / "tables.sqlite3"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite file of the tables [default: $XDG_DATA_HOME/playtable/tables.sqlite3].")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes for bots and hints.")
@click.option("--rate-limit", default=20.0, show_default=True, type=click.FloatRange(1, 100000),
              help="Messages a second each WebSocket may send (bursts of twice that).")
@click.option("--record-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where live Star Dice tables' pages record TUIO streams "
                   "[default: $XDG_DATA_HOME/playtable/recordings].")
def serve(host: str, port: int, db: Path | None, workers: int, rate_limit: float,
          record_dir: Path | None) -> None:
    """Serve the web app: open the printed address in a browser."""
    import uvicorn

    from playtable.web.server.app import create_app

    app = create_app(db or default_db(), workers, rate_limit,
                     record_dir=record_dir or default_db().parent / "recordings")
    click.echo(f"playtable: open http://{host}:{port}/ in a browser (Ctrl+C stops the server)", err=True)
    # 1 MiB is the transport's hard limit; the app answers frames over 16 KiB with an error.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 20, ws="websockets-sansio")
