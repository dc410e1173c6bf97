"""For positions: `state new/apply --out` refuse an existing file without
--force (as sim, compare and report do), and a symlink planted at the old temporary name
`FILE.tmp` is never written through."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cli.cli_runner import run_captured


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code, _, err = run_captured(capsys, *args)
    return code, err


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


def _session_file(tmp_path: Path) -> Path:
    """A short recorded TUIO session (the scripted one of tests/tableinput)."""
    import base64
    import json

    from tests.tableinput.tuio_script import session

    rec = tmp_path / "s.jsonl"
    rec.write_text("".join(json.dumps({"t": t, "from": "127.0.0.1:9",
                                       "data": base64.b64encode(d).decode()}) + "\n"
                           for t, d in session()))
    return rec


def test_tuio_picture_and_record_need_force_and_never_follow_a_planted_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.tableinput.tuio_script import DICE_MAP

    rec = _session_file(tmp_path)
    png = tmp_path / "live.png"
    png.write_text("mine")
    tuio = ("stardice", "tuio", "--dice", DICE_MAP, "--replay", str(rec), "--json")
    code, err = _run(capsys, *tuio, "--picture", str(png))
    assert code == 2 and "--force" in err and len(err.strip().splitlines()) == 1
    assert png.read_text() == "mine"
    victim = tmp_path / "victim.txt"
    victim.write_text("never overwrite me")
    (tmp_path / "live.png.tmp.png").symlink_to(victim)  # the old predictable temporary name
    code, err = _run(capsys, *tuio, "--picture", str(png), "--force")
    assert code == 0, err
    assert png.read_bytes()[:4] == b"\x89PNG" and victim.read_text() == "never overwrite me"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".live.png.")]
    # --record: refused before a socket is opened; a replay records nothing, so it is not checked
    out = tmp_path / "out.jsonl"
    out.write_text("mine")
    code, err = _run(capsys, "stardice", "tuio", "--dice", DICE_MAP, "--port", "0",
                     "--duration", "0.1", "--record", str(out))
    assert code == 2 and "--force" in err and "listening" not in err and out.read_text() == "mine"
    code, err = _run(capsys, "stardice", "tuio", "--dice", DICE_MAP, "--port", "0",
                     "--duration", "0.1", "--record", str(out), "--force")
    assert code == 0, err
    assert out.read_text() == ""  # replaced by the (empty) new recording


def test_a_recording_is_never_written_through_a_symlink(tmp_path: Path) -> None:
    from tests.tableinput.tuio_script import DICE_MAP

    from playtable.core.errors import BadParameter
    from playtable.tableinput.dicemap import load_dice_map
    from playtable.tableinput.listener import TuioListener
    from playtable.tableinput.tracking import TuioTable

    victim = tmp_path / "victim.txt"
    victim.write_text("never overwrite me")
    link = tmp_path / "rec.jsonl"
    link.symlink_to(victim)
    with pytest.raises(BadParameter, match="--force"):
        TuioListener(TuioTable(load_dice_map(DICE_MAP)), "127.0.0.1", 0, link)
    listener = TuioListener(TuioTable(load_dice_map(DICE_MAP)), "127.0.0.1", 0, link, replace=True)
    listener.close()
    assert victim.read_text() == "never overwrite me" and not link.is_symlink()


def test_tournament_plot_needs_force_and_never_follows_a_planted_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plot = tmp_path / "r.png"
    plot.write_text("mine")
    args = ("tournament", "troll", "--agent", "random", "--agent", "heuristic", "-n", "2",
            "--bootstrap", "5", "--json", "--plot", str(plot))
    code, err = _run(capsys, *args)
    assert code == 2 and "--force" in err and len(err.strip().splitlines()) == 1
    assert plot.read_text() == "mine"
    victim = tmp_path / "victim.txt"
    victim.write_text("never overwrite me")
    (tmp_path / "r.png.tmp").symlink_to(victim)
    code, err = _run(capsys, *args, "--force")
    assert code == 0, err
    assert plot.read_bytes()[:4] == b"\x89PNG" and victim.read_text() == "never overwrite me"
