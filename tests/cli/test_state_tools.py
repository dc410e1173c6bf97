"""`playtable state new|legal|apply|view`: positions as JSON files, errors as status 2 and one
line, and nothing written on error (issue: position tools)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playtable.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_new_legal_apply_view_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "p.json"
    code, _, _ = run(capsys, "state", "new", "troll", "--seed", "3", "--rig", "d6=2,4", "--out", str(file))
    assert code == 0
    data = json.loads(file.read_text())
    assert data["format"] == "playtable-position" and data["game"] == "troll"
    assert len(data["deck"]) == 26 and data["troll"] == {"row": "lower", "position": 2}
    code, out, _ = run(capsys, "state", "legal", "troll", str(file))
    legal = json.loads(out)["legal"]
    assert code == 0 and legal
    code, out, _ = run(capsys, "state", "apply", "troll", str(file), legal[0])
    result = json.loads(out)
    assert code == 0 and result["events"] and "legal" in result
    assert json.loads(file.read_text()) == result["position"]
    code, out, _ = run(capsys, "state", "view", "troll", str(file), "--seat", "0")
    view = json.loads(out)
    assert code == 0 and view["deck_count"] == 26 and "deck" not in view


def test_new_prints_the_position_with_params_and_rigged_queue(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "state", "new", "troll", "--variant", "plus-one", "--param",
                       "club_from_start=true", "--rig", "d6=1,1,1,1,1")
    data = json.loads(out)
    assert code == 0 and data["params"]["extra_per_slot"] == 1 and data["carried"] == ["AC"]
    assert data["chance"]["rigged"]["d6"] == [1, 1, 1]  # two rolls were used by the setup


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["state", "new", "troll", "--param", "bricks=4"], "unknown parameter 'bricks'"),
        (["state", "new", "troll", "--param", "extra_per_slot=lots"], "whole number"),
        (["state", "new", "chess"], "unknown game"),
        (["state", "new", "troll", "--variant", "nightmare"], "unknown variant"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and out == ""
    assert len(err.strip().splitlines()) == 1


def test_illegal_action_and_malformed_file_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "p.json"
    run(capsys, "state", "new", "troll", "--out", str(file))
    before = file.read_text()
    code, _, err = run(capsys, "state", "apply", "troll", str(file), "move left", "fly")
    assert code == 2 and "not a troll action" in err and file.read_text() == before
    data = json.loads(before)
    data["deck"] = data["deck"][1:]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    code, _, err = run(capsys, "state", "legal", "troll", str(broken))
    assert code == 2 and "52 cards" in err and len(err.strip().splitlines()) == 1
    broken.write_text("{not json")
    code, _, err = run(capsys, "state", "apply", "troll", str(broken), "stomp")
    assert code == 2 and "not valid JSON" in err and broken.read_text() == "{not json"
    code, _, err = run(capsys, "state", "view", "troll", str(file), "--seat", "3")
    assert code == 2 and "no seat 3" in err
