"""The games of a killed run are never lost: cumulative recovery, and resuming at the first
missing seed.

A `sim` or `compare` writing `FILE` appends every finished chunk to `FILE.journal.jsonl` (see
`storage`). A run killed outright (power cut, `kill -9`) leaves that journal; the next run with
the same `--out`:

1. merges the journal into `FILE.recovered.parquet`, adding to whatever an earlier recovery
   saved there (a run killed twice loses nothing: the recovered file only grows);
2. takes the recovered games that belong to this very run (same game, variant, parameters,
   agents, and a seed it would play) as already played, writes them first and plays only the
   missing seeds;
3. removes `FILE.recovered.parquet` once `FILE` is complete (every one of its games is in it).

Recovered games of a different run are never mixed in nor dropped: the run refuses to start
and says so.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from playtable.lab.runner import Arm, resolve_game
from playtable.lab.storage import ResultsError, ResultWriter, journal_path, read_rows


def recovered_path(path: str | Path) -> Path:
    target = Path(path)
    return target.with_name(target.stem + ".recovered.parquet")


def read_journal(journal: Path) -> list[dict[str, Any]]:
    """The whole rows of a journal (a line cut short by the kill, or anything that is not a
    result row, ends it)."""
    rows = []
    with journal.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                break
            if not (isinstance(row, dict) and isinstance(row.get("variant"), str)):
                break
            if not isinstance(row.get("seed"), int) or isinstance(row.get("seed"), bool):
                break
            rows.append(row)
    return rows


def _key(row: dict[str, Any]) -> tuple[str, int]:
    return (str(row.get("variant")), int(row.get("seed") or 0))


def recover(path: str | Path, out: str | Path | None = None) -> int:
    """Merge the journal a killed run left beside `path` into `out` (by default `path` itself
    when no such file exists yet, else `NAME.recovered.parquet`), keeping every game `out`
    already holds, and remove the journal. Returns the number of games taken from the journal."""
    journal = journal_path(path)
    if journal.is_symlink():
        raise ResultsError(f"{journal} is a symlink, not a journal playtable wrote; remove it")
    if not journal.exists():
        raise ResultsError(f"no journal {journal} to recover")
    target = Path(out) if out else Path(path)
    if out is None and target.exists():
        target = recovered_path(path)
    fresh = read_journal(journal)
    earlier = read_rows([target]) if target.exists() else []
    seen = {_key(r) for r in earlier}
    rows = earlier + [r for r in fresh if _key(r) not in seen]
    writer = ResultWriter(target, command="recovered from " + journal.name)
    writer.journal = target.with_name(target.name + ".recovering.jsonl")
    writer.journal.unlink(missing_ok=True)  # left by a recovery that was itself killed
    try:
        writer.write(rows)
        writer.close()
    except (pa.ArrowException, TypeError, ValueError) as err:
        raise ResultsError(f"{journal} holds rows that are not game results: {err}") from None
    journal.unlink()
    Path(str(path) + ".part").unlink(missing_ok=True)
    return len(fresh)


def belongs(row: dict[str, Any], arm: Arm, game_id: str) -> bool:
    return (
        row.get("game") == game_id
        and row.get("variant") == arm.label
        and row.get("params") == json.dumps(arm.params, sort_keys=True)
        and list(row.get("agents") or []) == list(arm.agents)
    )


def foreign_row(rows: Sequence[dict[str, Any]], arms: Sequence[Arm], seeds: Collection[int]) -> Any:
    """The first row that is not a game of this run (arms and seeds), else None."""
    ids = {arm.label: resolve_game(arm.game).id for arm in arms}
    by_label = {arm.label: arm for arm in arms}
    for row in rows:
        arm = by_label.get(str(row.get("variant")))
        if arm is None or not belongs(row, arm, ids[arm.label]) or row.get("seed") not in seeds:
            return row
    return None


def check_resumable(out: str | Path, arms: Sequence[Arm], seeds: Collection[int]) -> None:
    """Before anything is touched: refuse (ResultsError naming the file) when the journal or the
    recovered file beside `out` holds games of another run, or cannot be read."""
    journal, recovered = journal_path(out), recovered_path(out)
    if journal.is_symlink():
        raise ResultsError(f"{journal} is a symlink, not a journal playtable wrote; remove it")
    for path, rows in (
        (journal, read_journal(journal) if journal.exists() else []),
        (recovered, read_rows([recovered]) if recovered.exists() or recovered.is_symlink() else []),
    ):
        row = foreign_row(rows, arms, seeds)
        if row is not None:
            raise ResultsError(
                f"{path} holds games of another run (variant {row.get('variant')}, seed "
                f"{row.get('seed')}); rerun that command to finish it, or move the file away"
            )


def resume(out: str | Path, arms: Sequence[Arm], seeds: Collection[int]) -> list[dict[str, Any]]:
    """The recovered games of this run (see the module's docstring), in file order; raises
    ResultsError naming the file if it holds games of another run."""
    recovered = recovered_path(out)
    if not recovered.exists():
        return []
    rows = read_rows([recovered])
    row = foreign_row(rows, arms, seeds)
    if row is not None:
        raise ResultsError(
            f"{recovered} holds games of another run (variant {row.get('variant')}, seed "
            f"{row.get('seed')}); rerun that command to finish it, or move the file away"
        )
    for row in rows:  # columns read_rows adds that a fresh row does not have
        for extra in ("filename", "extra_metrics"):
            row.pop(extra, None)
    return rows
