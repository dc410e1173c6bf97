"""A second `playtable serve` on a busy port (found item 6: it printed "open
http://127.0.0.1:8000/" and then a traceback-like line): it says in one line that the port is
taken and how to choose another, and prints no address to open."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.cli.cli_runner import run


def test_a_busy_port_is_named_with_the_way_out(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as other:  # the first server
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        second = run("serve", "--port", str(port), "--db", str(tmp_path / "tables.sqlite3"))
    # One line, and a failure status (1: the command was right, the machine's state is not).
    assert second.code == 1 and second.err.count("\n") == 1 and second.err.startswith("error: "), second
    assert f"port {port} on 127.0.0.1 is already in use" in second.err and "--port" in second.err
    assert "open http" not in second.err + second.out and "Traceback" not in second.err
