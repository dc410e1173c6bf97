"""The playtest lab: simulation, comparison, tuning, tournaments and the seeds' questions.

The notebook API (`lab/api.py`) is reachable from here, `playtable.lab.sim(...)` and so on,
each returning a pandas DataFrame. It loads on first use, so that worker processes importing
`playtable.lab.runner` never pay for pandas.
"""

from __future__ import annotations

from typing import Any

API = ("sim", "compare", "tune", "tournament", "playtest", "flat_row")
__all__ = list(API)


def __getattr__(name: str) -> Any:
    if name in API:
        from playtable.lab import api

        return getattr(api, name)
    raise AttributeError(f"module 'playtable.lab' has no attribute '{name}'")
