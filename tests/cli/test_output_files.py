"""Issue 12 item 6 for positions: `state new/apply --out` refuse an existing file without
--force (as sim, compare and report do), and a symlink planted at the old temporary name
`FILE.tmp` is never written through."""

from __future__ import annotations

from pathlib import Path

import pytest

from playtable.cli import main


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    return code, capsys.readouterr().err


def test_state_outputs_need_force_to_replace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.json"
    out.write_text("mine")
    code, err = _run(capsys, "state", "new", "troll", "--seed", "2", "--out", str(out))
    assert code == 2 and "--force" in err and len(err.strip().splitlines()) == 1 and out.read_text() == "mine"
    assert _run(capsys, "state", "new", "troll", "--seed", "2", "--out", str(out), "--force")[0] == 0
    other = tmp_path / "q.json"
    other.write_text("mine")
    code, err = _run(capsys, "state", "apply", "troll", str(out), "stomp", "--out", str(other))
    assert code == 2 and other.read_text() == "mine"
    # applying in place (no --out) is what `apply` is for: no --force needed
    assert _run(capsys, "state", "apply", "troll", str(out), "stomp")[0] in (0, 2)


def test_a_planted_tmp_symlink_is_never_followed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("never overwrite me")
    (tmp_path / "p.json.tmp").symlink_to(victim)
    code, err = _run(capsys, "state", "new", "troll", "--seed", "2", "--out", str(tmp_path / "p.json"))
    assert code == 0, err
    assert victim.read_text() == "never overwrite me" and '"game"' in (tmp_path / "p.json").read_text()


def test_stardice_battle_refuses_existing_outputs_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "b.json"
    record.write_text("mine")
    code, err = _run(capsys, "stardice", "battle", "--seed", "1", "--quiet", "--record", str(record))
    assert code == 2 and "--force" in err and record.read_text() == "mine"
    code, err = _run(
        capsys, "stardice", "battle", "--seed", "1", "--quiet", "--record", str(record), "--force"
    )
    assert code == 0, err
    assert '"playtable-record"' in record.read_text()
