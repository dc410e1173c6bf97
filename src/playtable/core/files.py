"""Writing output files safely: never through a planted symlink, never half-written, and never
over an existing file unless the user said `--force`.

Every file playtable writes for a user (positions, result files, reports, pictures, records)
goes through `write_atomic` or `check_new_output`: the data goes to a new temporary file in the
target's own directory (a random name created with O_EXCL, so a symlink planted at a
predictable name such as `FILE.tmp` is never followed) and is renamed over the target once
complete. An existing output is refused with one line unless the command was given `--force`,
as `cp -n`-style tools and most data tools do: a long simulation's results are not lost to a
repeated command.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from playtable.core.errors import BadParameter


def check_new_output(path: str | Path, force: bool) -> None:
    """Refuse an output that exists (or a symlink, dangling or not) unless `force`."""
    target = Path(path)
    if not force and (target.exists() or target.is_symlink()):
        raise BadParameter(f"{target} exists; pass --force to replace it")


def temp_beside(path: str | Path, suffix: str = ".tmp") -> tuple[int, Path]:
    """A new, exclusively created temporary file in `path`'s directory: (fd, its path)."""
    target = Path(path)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent or Path("."))
    return fd, Path(name)


@contextmanager
def open_atomic(path: str | Path, suffix: str = ".tmp") -> Iterator[BinaryIO]:
    """A binary handle on a new temporary file beside `path` (`temp_beside`); once the block
    ends without error the file is synced and renamed over `path`, otherwise removed. For
    writers that want a file object (matplotlib's savefig); `suffix` keeps a format's ending."""
    fd, tmp = temp_beside(path, suffix)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write `data` to `path`: a temporary file beside it, synced, then renamed over it. A
    symlink at `path` itself is replaced, not followed."""
    with open_atomic(path) as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)
