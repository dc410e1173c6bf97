"""Optional parts of the install, and the one line a command prints when it needs one.

A player's install carries only what playing needs. The lab (Parquet results, SQL queries,
plots, exact tests) is the `lab` extra and the RL environments are the `rl` extra; a command
that needs one checks for it before doing anything and names the extra to install.
"""

from __future__ import annotations

import importlib.util

from playtable.core.errors import PlaytableError

EXTRAS: dict[str, tuple[str, ...]] = {
    "lab": ("pyarrow", "duckdb", "matplotlib", "scipy", "pandas", "optuna"),
    "rl": ("numpy", "gymnasium", "pettingzoo"),
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
        raise MissingExtra(
            f"{what} needs the '{extra}' extra ({', '.join(absent)} not installed): "
            f"pip install 'playtable[{extra}]'"
        )
