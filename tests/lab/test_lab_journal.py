"""The crash journal at a cost near the result's, and the result schema's version.

A run writing FILE journals its games as Parquet fragments (each row group again) plus a tail
of the games since, a compressed Arrow stream; a killed run loses no finished game whatever
step it was killed at, and a journal of an earlier version (JSON lines) is still recovered."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from playtable.lab import storage
from playtable.lab.chunks import ChunkSpec, encode
from playtable.lab.recovery import check_resumable, recover
from playtable.lab.runner import Arm, run_tasks
from playtable.lab.storage import (
    ResultsError,
    ResultWriter,
    file_info,
    fragments_folder,
    journal_path,
    legacy_journal_path,
    query,
    read_rows,
)

TOY = "tests.lab.lab_toygame:GAME"


def _arm(label: str = "default") -> Arm:
    from tests.lab.lab_toygame import ToyParams

    return Arm.build(TOY, ToyParams(), ["random"], label=label)


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return run_tasks([(_arm(), s) for s in range(40)])


def _key(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["seed"], r["win"], r["length"], r["events"]) for r in rows]


def _killed(path: Path, rows: list[dict[str, Any]], batch: int = 4) -> ResultWriter:
    writer = ResultWriter(path)
    for i in range(0, len(rows), batch):
        writer.write(rows[i:i + batch])
    return writer  # never closed: the process "dies" here


def test_a_killed_run_keeps_fragments_and_a_short_tail(
    tmp_path: Path, rows: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage, "ROW_GROUP_ROWS", 10)
    out = tmp_path / "r.parquet"
    _killed(out, rows[:27])
    fragments = sorted(p.name for p in fragments_folder(journal_path(out)).iterdir())
    assert fragments == ["000000.parquet", "000001.parquet"]  # 20 games, a row group each
    tail = storage.journal_file(out)
    assert pq.read_metadata(fragments_folder(tail) / "000001.parquet").num_rows == 10
    assert recover(out) == 27
    back = read_rows([out])
    assert _key(back) == _key(rows[:27])
    assert not tail.exists() and not fragments_folder(tail).exists()


def test_killed_between_a_fragment_and_its_new_tail(
    tmp_path: Path, rows: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fragment is in place but the old tail, which repeats its games, is still there: each
    game is recovered once, in order."""
    monkeypatch.setattr(storage, "ROW_GROUP_ROWS", 10)
    out = tmp_path / "r.parquet"
    _killed(out, rows[:12])
    monkeypatch.setattr(storage, "ROW_GROUP_ROWS", 1000)
    other = tmp_path / "whole.parquet"
    _killed(other, rows[:12])  # a tail holding all 12, as the old tail did before the swap
    storage.journal_file(out).write_bytes(storage.journal_file(other).read_bytes())
    assert recover(out) == 12
    assert _key(read_rows([out])) == _key(rows[:12])


def test_a_batch_cut_short_by_the_kill_is_the_only_loss(tmp_path: Path, rows: list[dict[str, Any]]) -> None:
    out = tmp_path / "r.parquet"
    _killed(out, rows[:12])
    tail = storage.journal_file(out)
    tail.write_bytes(tail.read_bytes()[:-5])
    assert recover(out) == 8
    assert _key(read_rows([out])) == _key(rows[:8])


def test_workers_journal_bytes_are_appended_as_they_are(tmp_path: Path, rows: list[dict[str, Any]]) -> None:
    out = tmp_path / "r.parquet"
    writer = ResultWriter(out)
    spec = ChunkSpec(table=True, journal=True)
    for i in range(0, 20, 5):
        chunk = encode(rows[i:i + 5], spec)
        assert chunk.ipc and not chunk.journal
        writer.write_chunk(chunk)
    writer.write(rows[20:23])  # rows (a resumed run's) and chunks mix in order
    assert recover(out) == 23
    assert _key(read_rows([out])) == _key(rows[:23])


def test_the_journal_costs_about_what_the_result_does(tmp_path: Path, rows: list[dict[str, Any]]) -> None:
    out = tmp_path / "r.parquet"
    _killed(out, rows * 5, batch=50)  # 200 games (seeds repeat: sizes only)
    journal = storage.journal_file(out).stat().st_size
    as_json = sum(len(json.dumps(r, default=str)) + 1 for r in rows * 5)
    assert journal < as_json / 4


def test_an_earlier_versions_json_journal_is_recovered(tmp_path: Path, rows: list[dict[str, Any]]) -> None:
    out = tmp_path / "r.parquet"
    legacy = legacy_journal_path(out)
    legacy.write_text("".join(json.dumps(r, default=str) + "\n" for r in rows[:6]) + '{"cut short')
    assert journal_path(out) == legacy
    check_resumable(out, [_arm()], range(0, 40))
    with pytest.raises(ResultsError, match="another run"):
        check_resumable(out, [_arm("other")], range(0, 40))
    assert recover(out) == 6
    assert _key(read_rows([out])) == _key(rows[:6]) and not legacy.exists()


def test_a_journal_of_another_run_is_refused(tmp_path: Path, rows: list[dict[str, Any]],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage, "ROW_GROUP_ROWS", 10)
    out = tmp_path / "r.parquet"
    _killed(out, rows[:25])
    check_resumable(out, [_arm()], range(0, 40))
    with pytest.raises(ResultsError, match="seed 20"):
        check_resumable(out, [_arm()], range(0, 20))
    with pytest.raises(ResultsError, match="another run"):
        check_resumable(out, [_arm("other")], range(0, 40))


def test_garbage_in_the_fragments_folder_is_refused_in_one_line(tmp_path: Path,
                                                                rows: list[dict[str, Any]]) -> None:
    out = tmp_path / "r.parquet"
    _killed(out, rows[:5])
    folder = fragments_folder(storage.journal_file(out))
    folder.mkdir()
    (folder / "000000.parquet").write_bytes(b"\x00garbage")
    with pytest.raises(ResultsError) as err:
        recover(out)
    assert len(str(err.value).splitlines()) == 1
    assert storage.journal_file(out).exists()  # nothing was removed


# -- the schema version ------------------------------------------------------------------------------
def test_files_carry_their_schema_version(tmp_path: Path, rows: list[dict[str, Any]]) -> None:
    out = tmp_path / "r.parquet"
    with ResultWriter(out) as writer:
        writer.write(rows[:3])
    assert file_info(out)["schema"] == str(storage.SCHEMA_VERSION)
    assert pq.read_metadata(out).metadata[b"playtable.schema"] == str(storage.SCHEMA_VERSION).encode()


def _with_metadata(source: Path, target: Path, metadata: dict[str, str] | None) -> Path:
    table = pq.read_table(source)
    pq.write_table(table.replace_schema_metadata(metadata), target)
    return target


@pytest.mark.parametrize("version", ["99", "2.0", "next"])
def test_a_newer_or_unknown_schema_is_refused_in_one_line(tmp_path: Path, rows: list[dict[str, Any]],
                                                         version: str) -> None:
    out = tmp_path / "r.parquet"
    with ResultWriter(out) as writer:
        writer.write(rows[:3])
    newer = _with_metadata(out, tmp_path / "newer.parquet", {"playtable.schema": version})
    for read in (lambda: read_rows([newer]), lambda: query("SELECT 1 FROM games", [newer]),
                 lambda: file_info(newer), lambda: read_rows([out, newer])):
        with pytest.raises(ResultsError) as err:
            read()
        message = str(err.value)
        assert len(message.splitlines()) == 1 and "newer.parquet" in message and "schema" in message
    if version == "99":
        assert "upgrade playtable" in message


def test_files_without_a_version_still_read(tmp_path: Path, rows: list[dict[str, Any]]) -> None:
    out = tmp_path / "r.parquet"
    with ResultWriter(out) as writer:
        writer.write(rows[:3])
    older = _with_metadata(out, tmp_path / "older.parquet", None)
    assert len(read_rows([older])) == 3 and file_info(older)["schema"] == "1"


def test_row_groups_stay_whole_across_fragments(tmp_path: Path, rows: list[dict[str, Any]],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches that straddle a row group's end: the file still has groups of ROW_GROUP_ROWS."""
    monkeypatch.setattr(storage, "ROW_GROUP_ROWS", 10)
    out = tmp_path / "r.parquet"
    with ResultWriter(out) as writer:
        for i in range(0, 27, 7):
            writer.write(rows[i:min(i + 7, 27)])
    meta = pq.read_metadata(out)
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [10, 10, 7]
    assert _key(read_rows([out])) == _key(rows[:27])
    assert not storage.journal_file(out).exists() and not fragments_folder(storage.journal_file(out)).exists()


def test_a_name_too_long_for_the_journal_is_refused_before_any_game(tmp_path: Path) -> None:
    """`FILE.journal.fragments/000000.parquet.part` is the longest name a run writes beside FILE:
    an --out the system holds but whose journal it would not is refused at once, not after the
    first row group (65,536 games)."""
    out = tmp_path / ("r" * 230 + ".parquet")  # 238 bytes: the file itself is fine
    with pytest.raises(ResultsError, match="too long|bytes"):
        ResultWriter(out)
