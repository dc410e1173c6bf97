"""Saving the game being played as a record, on request, in every terminal app.

Ctrl+S writes the record (game, parameters, seed and every action so far) to the file given
with `playtable play GAME --record FILE`, else to `GAME-SEED.record.json` in the current folder
(never over an existing file: a number is added). `playtable replay FILE` steps through it.
"""

from __future__ import annotations

from pathlib import Path

from textual.binding import Binding

from playtable.core.errors import PlaytableError
from playtable.core.records import Recorder

SAVE_BINDING = Binding("ctrl+s", "save_record", "Save record")


def free_name(game_id: str, seed: int) -> Path:
    """`GAME-SEED.record.json`, or `GAME-SEED-2.record.json`, ... if that exists."""
    path = Path(f"{game_id}-{seed}.record.json")
    n = 2
    while path.exists() or path.is_symlink():
        path = Path(f"{game_id}-{seed}-{n}.record.json")
        n += 1
    return path


def save_record(recorder: Recorder | None, record_path: str | None) -> str:
    """Save and say where, in one line for the app's hint or log."""
    if recorder is None:
        return "A game played on from a saved position has no record (save the position instead)."
    path = Path(record_path) if record_path else free_name(recorder.record.game, recorder.record.seed)
    try:
        recorder.save(path)
    except (PlaytableError, OSError) as err:
        return f"Record not saved: {err}"
    return f"Record saved to {path} ({len(recorder.record.actions)} actions): playtable replay {path}"
