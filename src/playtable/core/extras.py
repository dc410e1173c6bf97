"""Optional parts of the install, and the one line a command prints when it needs one.

A player's install carries only what playing needs. The lab (Parquet results, SQL queries,
plots, exact tests) is the `lab` extra, the RL environments are the `rl` extra, and the table
server's PostgreSQL store is the `server` extra; a command
that needs one checks for it before doing anything (`require`) and names the extra to install.
An import of an extra's module that no check caught is turned into the same line by the command
line's entry point (`missing_extra`), never a traceback.
"""

from __future__ import annotations

import importlib.util

from playtable.core.errors import PlaytableError

EXTRAS: dict[str, tuple[str, ...]] = {
    "lab": ("pyarrow", "duckdb", "matplotlib", "scipy", "pandas", "optuna"),
    "rl": ("numpy", "gymnasium", "pettingzoo"),
    "server": ("psycopg",),
}


class MissingExtra(PlaytableError):
    """A command needs an optional part of the install that is not there."""


def missing(extra: str) -> list[str]:
    """The modules of `extra` that cannot be imported here."""
    out = []
    for name in EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a module blocked or half-installed
            found = False
        if not found:
            out.append(name)
    return out


def require(extra: str, what: str) -> None:
    """Raise MissingExtra, naming `what` needs it and how to install it, unless `extra` is here."""
    absent = missing(extra)
    if absent:
        raise _needs(extra, what, absent)


def _needs(extra: str, what: str, absent: list[str]) -> MissingExtra:
    return MissingExtra(
        f"{what} needs the '{extra}' extra ({', '.join(absent)} not installed): "
        f"pip install 'playtable[{extra}]'"
    )


def extra_of(module: str | None) -> str | None:
    """The extra that provides `module` (or a submodule of one of its modules), or None."""
    top = (module or "").split(".")[0]
    return next((extra for extra, names in EXTRAS.items() if top in names), None)


def missing_extra(err: ImportError, what: str = "this command") -> MissingExtra | None:
    """The MissingExtra an ImportError stands for (a module of an extra that is not installed),
    or None when it is something else (a module of an installed extra that fails to import is
    a real error, not a missing extra)."""
    extra = extra_of(getattr(err, "name", None))
    if extra is None:
        return None
    absent = missing(extra)
    return _needs(extra, what, absent) if absent else None
