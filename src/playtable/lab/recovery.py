"""The games of a killed run are never lost: cumulative recovery, and resuming at the first
missing seed.

A `sim` or `compare` writing `FILE` journals every finished game: row groups as Parquet
fragments in `FILE.journal.fragments/`, the games since as a compressed Arrow stream in
`FILE.journal` (see `storage`; earlier versions wrote `FILE.journal.jsonl`, a JSON line a game,
which is read too). A run killed outright (power cut, `kill -9`) leaves that journal; the next
run with the same `--out`:

1. merges the journal into `FILE.recovered.parquet`, adding to whatever an earlier recovery
   saved there (a run killed twice loses nothing: the recovered file only grows);
2. takes the recovered games that belong to this very run (same game, variant, parameters,
   agents, and a seed it would play) as already played, writes them first and plays only the
   missing seeds;
3. removes `FILE.recovered.parquet` once `FILE` is complete (every one of its games is in it).

Recovered games of a different run are never mixed in nor dropped: the run refuses to start
and says so. The merge and the checks run in DuckDB over the journal's fragments, so a journal
of millions of games is recovered without holding its rows in Python.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from playtable.lab.columns import TableMaker, schema_for
from playtable.lab.runner import Arm, resolve_game
from playtable.lab.storage import (
    ROW_GROUP_ROWS,
    ResultsError,
    check_schemas,
    create_exclusive,
    file_metadata,
    fragments_folder,
    journal_path,
    read_rows,
    remove_journal,
)

SOURCE_SPAN = 1 << 40
"""A row's place in a merge: its source's number times this plus its row in the source."""
_FRAGMENT = re.compile(r"^\d{6}\.parquet$")


def recovered_path(path: str | Path) -> Path:
    target = Path(path)
    return target.with_name(target.stem + ".recovered.parquet")


def read_journal(journal: Path) -> list[dict[str, Any]]:
    """The whole rows of an earlier version's JSON-lines journal (a line cut short by the kill,
    or anything that is not a result row, ends it)."""
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


def read_tail(path: Path) -> pa.Table | None:
    """The whole batches of a journal's tail (an Arrow IPC stream; a batch cut short by the
    kill ends it), or None when not even its schema is whole."""
    try:
        with path.open("rb") as handle:
            reader = pa.ipc.open_stream(handle)
            batches = []
            try:
                for batch in reader:
                    batches.append(batch)
            except (OSError, pa.ArrowException):
                pass
            return pa.Table.from_batches(batches, schema=reader.schema)
    except (OSError, pa.ArrowException):
        return None


IPC_START = b"\xff\xff\xff\xff"
"""How an Arrow IPC stream (a journal's tail) begins; a JSON-lines journal begins otherwise."""


def journal_sources(journal: Path) -> tuple[list[str], list[pa.Table]]:
    """What a journal holds, in order: its fragment files, then its tail as a table (or the
    rows of an earlier version's JSON-lines journal as a table). The tail may repeat games of
    the last fragment (a run killed while it started a new tail); the merge drops them."""
    if journal.is_symlink():
        raise ResultsError(f"{journal} is a symlink, not a journal playtable wrote; remove it")
    folder = fragments_folder(journal)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise ResultsError(f"{folder} is not a folder of fragments playtable wrote; remove it")
    fragments = sorted(str(entry) for entry in folder.iterdir()
                       if _FRAGMENT.match(entry.name) and entry.is_file()) if folder.is_dir() else []
    tails: list[pa.Table] = []
    if journal.is_file():
        with journal.open("rb") as handle:
            start = handle.read(len(IPC_START))
        if start == IPC_START:
            table = read_tail(journal)
            if table is not None and table.num_rows:
                tails.append(table)
        else:
            rows = read_journal(journal)
            if rows:
                try:
                    tails.append(TableMaker(schema_for(rows)).table(rows))
                except (pa.ArrowException, TypeError, ValueError, KeyError) as err:
                    raise ResultsError(f"{journal} holds rows that are not game results: {err}") from None
    elif journal.exists():
        raise ResultsError(f"{journal} is not a journal playtable wrote; remove it")
    return fragments, tails


@contextmanager
def _merged(journal: Path, earlier: Path | None) -> Iterator[tuple[Any, int]]:
    """A DuckDB connection whose view `merged` holds `earlier`'s rows, then the journal's rows
    of keys (variant, seed) not seen before, in that order, and the number of distinct games
    the journal holds."""
    import duckdb

    fragments, tails = journal_sources(journal)
    check_schemas(fragments + ([str(earlier)] if earlier else []))
    con = duckdb.connect()
    try:
        parts = []
        sources = 0
        for name in ([str(earlier)] if earlier is not None else []) + fragments:
            parts.append(f"SELECT * EXCLUDE (file_row_number), {sources * SOURCE_SPAN} + file_row_number "
                         f"AS _ord, {int(sources > 0 or earlier is None)} AS _fresh "
                         f"FROM read_parquet({_text(name)}, file_row_number=true)")
            sources += 1
        for k, table in enumerate(tails):
            numbered = table.replace_schema_metadata(None).append_column(
                "_row", pa.array(range(table.num_rows), pa.int64()))
            con.register(f"tail{k}", numbered)
            parts.append(f"SELECT * EXCLUDE (_row), {sources * SOURCE_SPAN} + _row AS _ord, 1 AS _fresh "
                         f"FROM tail{k}")
            sources += 1
        if not parts:
            yield con, 0
            return
        union = " UNION ALL BY NAME ".join(f"({p})" for p in parts)
        con.execute(f"CREATE TEMP VIEW everything AS {union}")
        con.execute(
            "CREATE TEMP VIEW merged AS SELECT * EXCLUDE (_ord, _fresh) FROM everything "
            "QUALIFY row_number() OVER (PARTITION BY variant, seed ORDER BY _ord) = 1 ORDER BY _ord"
        )
        counted = con.execute("SELECT count(DISTINCT (variant, seed)) FROM everything WHERE _fresh = 1")
        yield con, int(counted.fetchall()[0][0])
    except duckdb.Error as err:
        raise ResultsError(f"{journal} cannot be read back: {str(err).splitlines()[0]}") from None
    finally:
        con.close()


def _text(value: str | Path) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def recover(path: str | Path, out: str | Path | None = None) -> int:
    """Merge the journal a killed run left beside `path` into `out` (by default `path` itself
    when no such file exists yet, else `NAME.recovered.parquet`), keeping every game `out`
    already holds, and remove the journal. Returns the number of games the journal held."""
    journal = journal_path(path)
    if journal.is_symlink():
        raise ResultsError(f"{journal} is a symlink, not a journal playtable wrote; remove it")
    if not (journal.exists() or fragments_folder(journal).exists()):
        raise ResultsError(f"no journal {journal} to recover")
    target = Path(out) if out else Path(path)
    if out is None and target.exists():
        target = recovered_path(path)
    earlier = target if target.exists() else None
    with _merged(journal, earlier) as (con, fresh):
        if fresh:
            _write(con, target, command="recovered from " + journal.name)
    remove_journal(journal)
    Path(str(path) + ".part").unlink(missing_ok=True)
    return fresh


def _write(con: Any, target: Path, command: str) -> None:
    """The view `merged` as the Parquet file `target`: written under a temporary name, synced,
    then renamed over it."""
    relation = con.sql("SELECT * FROM merged")
    fetch = getattr(relation, "to_arrow_reader", None) or relation.fetch_arrow_reader
    reader = fetch(ROW_GROUP_ROWS)
    scratch = target.with_name(target.name + ".recovering")
    if scratch.is_symlink() or scratch.exists():
        scratch.unlink()
    schema = reader.schema.with_metadata(file_metadata(command))
    try:
        with os.fdopen(create_exclusive(scratch), "wb") as handle:
            with pq.ParquetWriter(handle, schema) as writer:
                for batch in reader:
                    writer.write_table(pa.Table.from_batches([batch], schema=reader.schema)
                                       .replace_schema_metadata(schema.metadata),
                                       row_group_size=ROW_GROUP_ROWS)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(scratch, target)
    except BaseException:
        scratch.unlink(missing_ok=True)
        raise


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


def _foreign_in(con: Any, view: str, arms: Sequence[Arm], seeds: Collection[int]) -> Any:
    """`foreign_row` of the rows of a DuckDB view, reading only their distinct runs and the
    seeds outside `seeds`."""
    runs = con.execute(f"SELECT DISTINCT game, variant, params, agents, min(seed) FROM {view} GROUP BY ALL")
    for game, variant, params, agents, seed in runs.fetchall():
        row = {"game": game, "variant": variant, "params": params, "agents": agents, "seed": seed}
        if foreign_row([row], arms, [seed]) is not None:
            return row
    if isinstance(seeds, range) and seeds.step == 1:
        outside = f"seed IS NULL OR seed < {seeds.start} OR seed >= {seeds.stop}"
    else:
        con.register("wanted", pa.table({"seed": pa.array(sorted(seeds), pa.int64())}))
        outside = "seed IS NULL OR seed NOT IN (SELECT seed FROM wanted)"
    found = con.execute(f"SELECT variant, seed FROM {view} WHERE {outside} LIMIT 1").fetchall()
    return {"variant": found[0][0], "seed": found[0][1]} if found else None


def check_resumable(out: str | Path, arms: Sequence[Arm], seeds: Collection[int]) -> None:
    """Before anything is touched: refuse (ResultsError naming the file) when the journal or the
    recovered file beside `out` holds games of another run, or cannot be read."""
    journal, recovered = journal_path(out), recovered_path(out)
    if journal.is_symlink():
        raise ResultsError(f"{journal} is a symlink, not a journal playtable wrote; remove it")
    if journal.exists() or fragments_folder(journal).exists() or fragments_folder(journal).is_symlink():
        with _merged(journal, None) as (con, fresh):
            row = _foreign_in(con, "merged", arms, seeds) if fresh else None
        _refuse(journal, row)
    if recovered.exists() or recovered.is_symlink():
        import duckdb

        from playtable.lab.storage import connect

        con = connect([recovered])  # refuses a symlink to nowhere, a file that is not Parquet
        try:
            row = _foreign_in(con, "games", arms, seeds)
        except duckdb.Error as err:
            raise ResultsError(f"cannot read {recovered}: {str(err).splitlines()[0]}") from None
        finally:
            con.close()
        _refuse(recovered, row)


def interrupted_games(out: str | Path, arms: Sequence[Arm], seeds: Collection[int]) -> int:
    """How many games of this very run (arms and seeds) the result file `out` holds when it is
    the file of an earlier, interrupted run of it: some of its games and none of another run's.
    0 for a file of another run, a finished one (every game there), or one that cannot be read:
    those are the user's to keep or to replace with --force."""
    import duckdb

    from playtable.lab.storage import connect

    try:
        con = connect([Path(out)])
    except ResultsError:
        return 0
    try:
        if _foreign_in(con, "games", arms, seeds) is not None:
            return 0
        held = con.execute("SELECT count(DISTINCT (variant, seed)) FROM games").fetchone()
    except duckdb.Error:
        return 0
    finally:
        con.close()
    count = int(held[0]) if held else 0
    return count if 0 < count < len(arms) * len(seeds) else 0


def _refuse(path: Path, row: Any) -> None:
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
    _refuse(recovered, foreign_row(rows, arms, seeds))
    for row in rows:  # columns read_rows adds that a fresh row does not have
        for extra in ("filename", "extra_metrics"):
            row.pop(extra, None)
    return rows
