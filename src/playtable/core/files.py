"""Files a user names: reading them without hanging, writing them safely, and one command at a
time on a file.

Reading (`open_input`, `check_input`): every file playtable reads for a user (positions, board
files, dice maps, recordings, records) is opened here. Only a regular file is read: a FIFO
(`mkfifo`), a device node, a socket or a directory is refused with one line naming what it is,
never opened in a way that blocks (a FIFO with no writer would block `open` for ever) or has
side effects (some devices act on being opened).

Writing (`write_atomic`, `open_atomic`, `check_new_output`): the data goes to a new temporary
file in the target's own directory (a random name created with O_EXCL, so a symlink planted at
a predictable name such as `FILE.tmp` is never followed) and is renamed over the target once
complete. An existing output is refused with one line unless the command was given `--force`,
as `cp -n`-style tools and most data tools do: a long simulation's results are not lost to a
repeated command. `--force` replaces a regular file (or a symlink, which is replaced, not
followed) and nothing else: never a device such as `/dev/full`, a FIFO, a socket or a directory,
nor a symlink to one.

Names (`name_problem`): a file name longer than the system allows (255 bytes a name, 4,096 a
path on Linux) is refused in one line before any work, instead of failing half-way.

One at a time (`exclusive`): a command that reads a file and writes it back (`state apply`) or
that owns a file for a long run (`sim --out`) holds a lock beside it, so a second command on the
same file waits or is refused instead of silently losing the first one's work.

Any desktop system: the lock is `flock` where `fcntl` exists (Linux, macOS, the BSDs) and
msvcrt's byte-range lock on Windows, and nothing here needs a call Windows lacks (`pread`,
`O_NONBLOCK`, `fchmod`) at import time or when that call is missing.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from playtable.core.errors import BadParameter, PlaytableError

try:
    import fcntl
except ImportError:  # Windows: msvcrt's locks serve instead (`_try_lock`)
    fcntl = None  # type: ignore[assignment]

NAME_MAX = 255
"""The longest file name (one path component), in bytes, on Linux's usual file systems."""
PATH_MAX = 4096
"""The longest path, in bytes, including the terminating NUL."""
SHOWN_NAME = 200
"""File names longer than this are shortened in messages, so the message stays one short line
(the names refused for their length run to thousands of characters)."""


def shown(path: str | Path) -> str:
    """`path` for a message: a very long name is cut in the middle, so the line stays short."""
    text = os.fsdecode(path) if isinstance(path, bytes) else str(path)
    if len(text) <= SHOWN_NAME:
        return text
    return f"{text[:80]}...{text[-60:]} ({len(text)} characters)"


def kind_of(mode: int) -> str:
    """What a file of this `st_mode` is, for a message ('a directory', 'a FIFO (named pipe)')."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symlink"
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def name_problem(path: str | Path) -> str | None:
    """Why the system would refuse `path` as a name (too long, a NUL byte, empty), or None."""
    raw = os.fsencode(path)
    if not raw:
        return "an empty file name"
    if b"\0" in raw:
        return "a file name cannot hold a NUL character"
    if len(raw) >= PATH_MAX:
        return f"a path of {len(raw)} bytes (the system allows {PATH_MAX - 1})"
    longest = max(raw.split(b"/"), key=len)
    if len(longest) > NAME_MAX:
        return f"a file name of {len(longest)} bytes (the system allows {NAME_MAX})"
    return None


def check_name(path: str | Path, what: str = "file", error: type[PlaytableError] = BadParameter) -> None:
    """Raise `error` if `path` is a name the system would refuse (`name_problem`)."""
    problem = name_problem(path)
    if problem:
        raise error(f"{what} {shown(path)}: {problem}")


def _os_message(err: OSError) -> str:
    if err.errno == errno.ENAMETOOLONG:
        return "file name too long"
    return (err.strerror or str(err)).lower() if err.strerror else str(err)


# -- reading ----------------------------------------------------------------------------------------
def check_input(path: str | Path, what: str = "file", error: type[PlaytableError] = BadParameter) -> None:
    """Raise `error` unless `path` names a regular file that exists (a symlink to one is fine):
    a missing file, a directory, a FIFO, a device or a socket each get one line."""
    check_name(path, what, error)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise error(f"{what} {shown(path)}: cannot be read (no such file)") from None
    except OSError as err:
        raise error(f"{what} {shown(path)}: cannot be read ({_os_message(err)})") from None
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{what} {shown(path)}: {kind_of(info.st_mode)}, not a regular file")


def is_regular(path: str | Path) -> bool:
    """Whether `path` names an existing regular file; never raises (a name too long, a loop of
    symlinks or a missing directory are all 'no')."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def exists(path: str | Path) -> bool:
    """Whether anything (a symlink too, dangling or not) is at `path`; never raises."""
    try:
        os.lstat(path)
    except (OSError, ValueError):
        return False
    return True


def open_input(path: str | Path, what: str = "file", error: type[PlaytableError] = BadParameter) -> BinaryIO:
    """`path` opened for reading in binary, if it is a regular file (`check_input`). The file is
    opened without blocking and checked again once open, so a FIFO swapped in meanwhile is
    refused too, never waited on."""
    check_input(path, what, error)
    # Windows has no O_NONBLOCK, and no FIFO that a name could block on either.
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    flags = os.O_RDONLY | nonblocking | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise error(f"{what} {shown(path)}: cannot be read ({_os_message(err)})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise error(f"{what} {shown(path)}: {kind_of(mode)}, not a regular file")
        if nonblocking:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


# -- writing ----------------------------------------------------------------------------------------
def output_problem(path: str | Path) -> str | None:
    """Why `path` can never be an output, even with --force (a name too long, a directory, a
    device, a FIFO, a socket, or a symlink to one of those), or None."""
    problem = name_problem(path)
    if problem:
        return problem
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        return _os_message(err)
    if stat.S_ISREG(info.st_mode):
        return None
    if stat.S_ISLNK(info.st_mode):
        try:
            target = os.stat(path)
        except OSError:
            return None  # a dangling symlink: --force replaces the link itself
        if stat.S_ISREG(target.st_mode):
            return None
        return (f"a symlink to {kind_of(target.st_mode)}; --force replaces regular files only, "
                "so give the name of a new file")
    if stat.S_ISDIR(info.st_mode):
        return "a directory"
    return (f"{kind_of(info.st_mode)}, not a regular file; --force replaces regular files only, "
            "so give the name of a new file")


def check_new_output(path: str | Path, force: bool) -> None:
    """Refuse an output that can never be written (`output_problem`), and one that exists (or
    a symlink, dangling or not) unless `force`."""
    problem = output_problem(path)
    if problem:
        raise BadParameter(f"cannot write {shown(path)}: {problem}")
    if not force and exists(path):
        raise BadParameter(f"{shown(path)} exists; pass --force to replace it")


TEMP_TRIES = 100
"""Random temporary names tried before giving up (each one taken means a file already there)."""


def temp_beside(path: str | Path, suffix: str = ".tmp") -> tuple[int, Path]:
    """A new, exclusively created temporary file in `path`'s directory: (fd, its path). The
    temporary name starts with the target's own, shortened when that would be too long.

    Its permissions are those of any new file (0o666 less the umask: `-rw-r--r--` under the
    usual 022, not mkstemp's `-rw-------`), or, when it will replace a regular file already at
    `path`, that file's (a position the user made private stays private)."""
    target = Path(path)
    prefix = f".{target.name}."
    if len(os.fsencode(prefix)) + len(os.fsencode(suffix)) + 8 > NAME_MAX:
        prefix = ".playtable."
    folder = target.parent or Path(".")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(TEMP_TRIES):
        name = folder / f"{prefix}{secrets.token_hex(4)}{suffix}"
        try:
            fd = os.open(name, flags, 0o666)  # the kernel applies the umask
        except FileExistsError:
            continue
        with contextlib.suppress(OSError):
            info = os.lstat(target)
            if stat.S_ISREG(info.st_mode) and hasattr(os, "fchmod"):  # no fchmod on Windows
                os.fchmod(fd, stat.S_IMODE(info.st_mode) & 0o777)
        return fd, name
    raise FileExistsError(errno.EEXIST, f"no free temporary name beside {shown(target)}")


def replace_with(tmp: str | Path, path: str | Path) -> None:
    """Rename the finished temporary file `tmp` over `path`, unless something that is not a
    regular file (a device, a FIFO, a directory) took `path` meanwhile: then `tmp` is removed and
    BadParameter raised. The last check before the rename; the first is `check_new_output`."""
    problem = output_problem(path)
    if problem:
        Path(tmp).unlink(missing_ok=True)
        raise BadParameter(f"cannot write {shown(path)}: {problem}")
    os.replace(tmp, path)


@contextmanager
def open_atomic(path: str | Path, suffix: str = ".tmp") -> Iterator[BinaryIO]:
    """A binary handle on a new temporary file beside `path` (`temp_beside`); once the block
    ends without error the file is synced and renamed over `path`, otherwise removed. For
    writers that want a file object (matplotlib's savefig); `suffix` keeps a format's ending."""
    check_name(path, "cannot write")
    fd, tmp = temp_beside(path, suffix)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        replace_with(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write `data` to `path`: a temporary file beside it, synced, then renamed over it. A
    symlink at `path` itself is replaced, not followed; a device or FIFO is never replaced."""
    with open_atomic(path) as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)


# -- one command at a time on a file ----------------------------------------------------------------
def lock_path(path: str | Path) -> Path:
    """The lock file of `path`: `.NAME.lock` beside it (a hash of the name when that would be
    too long)."""
    target = Path(path)
    name = f".{target.name}.lock"
    if len(os.fsencode(name)) > NAME_MAX:
        name = f".{hashlib.sha256(os.fsencode(target.name)).hexdigest()[:32]}.lock"
    return target.with_name(name)


class FileBusy(BadParameter):
    """Another process holds the lock of a file (`exclusive`)."""


LOCKED_BYTE = 1 << 20
"""Where Windows' lock lies in a lock file: past the holder's line, which a lock there would
hide from the process that wants to name the holder (Windows' locks bar reading)."""


def _try_lock(fd: int) -> bool:
    """Lock the open lock file `fd` for this process without waiting: False when another
    process holds it. The system drops the lock when the file is closed or its process dies."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, LOCKED_BYTE, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except PermissionError:  # EACCES: another process holds it
            return False
        return True
    raise OSError(errno.ENOSYS, "this system offers no file locks to playtable")


def _holder(fd: int) -> tuple[str, str]:
    """Who holds a lock, from its file: ' (process N)' and what it is doing (or '', '')."""
    with contextlib.suppress(OSError, ValueError):
        os.lseek(fd, 0, os.SEEK_SET)
        pid, _, doing = os.read(fd, 300).decode("utf-8", "replace").strip().partition(" ")
        if pid.isdigit():
            return f" (process {pid})", doing.strip()
    return "", ""


@contextmanager
def exclusive(path: str | Path, doing: str, wait: float = 0.0) -> Iterator[None]:
    """Hold the lock of `path` for the block: a lock (`_try_lock`) on `lock_path(path)`,
    which holds the holder's process id and `doing` (what it does with the file) and is removed
    when the block ends. Another process holding it makes this wait up to `wait` seconds, then
    raise FileBusy naming the holder and what it is doing. The kernel drops the lock of a
    process that dies, so a killed command never leaves the file locked (a stale lock file is
    taken over)."""
    lock = lock_path(path)
    deadline = time.monotonic() + wait
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0)  # Windows: no newline rewriting
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        try:
            fd = os.open(lock, flags, 0o644)
        except OSError as err:
            raise BadParameter(f"cannot lock {shown(path)}: {_os_message(err)} ({shown(lock)})") from None
        try:
            locked = _try_lock(fd)
        except OSError as err:
            os.close(fd)
            raise BadParameter(f"cannot lock {shown(path)}: {_os_message(err)}") from None
        if not locked:
            holder, theirs = _holder(fd)
            os.close(fd)
            if time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            raise FileBusy(f"{shown(path)} is in use: another playtable command{holder} is "
                           f"{theirs or 'using it'}; wait for it to finish, or use another file")
        # The lock file locked must still be the one at its name: a holder that finished removes
        # it, and a process that opened it just before would then hold a lock on nothing.
        try:
            same = os.fstat(fd).st_ino == os.stat(lock, follow_symlinks=False).st_ino
        except OSError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()} {doing}\n".encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            lock.unlink()
        os.close(fd)


# -- databases --------------------------------------------------------------------------------------
SQLITE_MAGIC = b"SQLite format 3\x00"


def check_sqlite_file(path: str | Path, what: str = "database") -> bool:
    """Raise BadParameter unless `path` is an SQLite database, an empty file, or a new file in a
    directory that exists. Returns whether it exists with content. Read without blocking: a
    FIFO or device is refused, never opened."""
    check_name(path, what)
    target = Path(path)
    if not exists(target):
        parent = target.parent if str(target.parent) else Path(".")
        if not parent.is_dir():
            raise BadParameter(f"{what} {shown(path)}: directory {shown(parent)} does not exist")
        return False
    with open_input(target, what) as handle:
        head = handle.read(len(SQLITE_MAGIC))
    if not head:
        return False
    if head != SQLITE_MAGIC:
        raise BadParameter(f"{what} {shown(path)}: not an SQLite database (it starts with "
                           f"{head[:8]!r}); give a new file name or an SQLite file")
    return True
