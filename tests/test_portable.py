"""Any desktop system: playtable imports and starts where the POSIX-only parts of the standard
library are missing (Windows has no fcntl, termios, pwd, resource...), files are read, written
and locked with the calls every system has, and the tables live in the system's own data
folder, which on Linux is where earlier versions kept them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from playtable.cli.serve import default_db
from playtable.core import files
from playtable.core.errors import BadParameter
from playtable.core.files import FileBusy, exclusive, open_input, write_atomic

ROOT = Path(__file__).resolve().parents[1]

# A child process in which the POSIX-only modules (and uvloop, which pyproject.toml does not
# install on Windows) cannot be imported, as on Windows.
WITHOUT_POSIX = textwrap.dedent("""
    import sys

    MISSING = {"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "syslog", "uvloop"}

    class Missing:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in MISSING:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    for name in MISSING:
        sys.modules.pop(name, None)
    sys.meta_path.insert(0, Missing())
""")

IMPORT_EVERYTHING = WITHOUT_POSIX + textwrap.dedent("""
    import importlib, pkgutil, playtable

    failed = []
    for module in pkgutil.walk_packages(playtable.__path__, "playtable."):
        if module.name.rsplit(".", 1)[-1] == "__main__":  # runs the command
            continue
        try:
            importlib.import_module(module.name)
        except Exception as error:
            failed.append(f"{module.name}: {type(error).__name__}: {error}")
    print("\\n".join(failed))
""")

HELP = WITHOUT_POSIX + textwrap.dedent("""
    from playtable.cli import main

    main(["--help"])
""")


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=240)


def test_every_module_imports_without_the_posix_only_modules() -> None:
    done = _run(IMPORT_EVERYTHING)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"modules that need a POSIX-only module:\n{done.stdout}"


def test_the_command_starts_without_the_posix_only_modules() -> None:
    done = _run(HELP)
    assert done.returncode == 0, done.stderr
    assert "Usage: " in done.stdout and "serve" in done.stdout


def test_files_are_read_written_and_locked_without_posix_only_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows' os has no pread, pwrite, fchmod or O_NONBLOCK (nor set_blocking before 3.12)."""
    for name in ("pread", "pwrite", "fchmod", "O_NONBLOCK", "set_blocking"):
        monkeypatch.delattr(os, name, raising=False)
    position = tmp_path / "pos.json"
    position.write_text("old")
    write_atomic(position, "new")
    with open_input(position) as handle:
        assert handle.read() == b"new"
    with exclusive(position, "applying actions to it"):
        # flock's locks belong to an open file, so a second opening in this process is refused
        # as another process's would be, naming the holder from the lock file.
        busy = rf"process {os.getpid()}\) is applying actions to it"
        with pytest.raises(FileBusy, match=busy), exclusive(position, "testing"):
            pass
    with exclusive(position, "testing again"):
        pass


def test_a_system_without_any_file_lock_gets_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "fcntl", None)
    monkeypatch.setattr(sys, "platform", "plan9")
    refused = pytest.raises(BadParameter, match="cannot lock .*no file locks")
    with refused, exclusive(tmp_path / "f", "testing"):
        pass


def test_the_tables_stay_where_earlier_versions_kept_them_on_linux(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the XDG data folder is Linux's")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db() == tmp_path / "data" / "playtable" / "tables.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db() == tmp_path / ".local" / "share" / "playtable" / "tables.sqlite3"
