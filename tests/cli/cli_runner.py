"""Run the `playtable` command in-process as a user would, through `playtable.cli.main` (the
entry point that turns bad input into one line and exit status 2), capturing its output."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from pathlib import Path

import pytest

from playtable.cli import main


@dataclass
class Outcome:
    code: int
    out: str
    err: str

    def one_error_line(self) -> bool:
        """The error contract: exit 2 and exactly one line on stderr, starting 'error: '."""
        lines = self.err.splitlines()
        return self.code == 2 and len(lines) == 1 and lines[0].startswith("error: ")


def run(*argv: str) -> Outcome:
    """`playtable ARGV...`: any exception other than SystemExit escapes (a traceback is a bug)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(argv))
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    return Outcome(code, out.getvalue(), err.getvalue())


def run_captured(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`playtable ARGV...` under pytest's capsys (which also catches what Rich's consoles print):
    the exit status, stdout and stderr."""
    try:
        main(list(argv))
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes, to show that a refused command touched none."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}
