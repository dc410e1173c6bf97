"""One test per example of the issue: nothing a user types hangs the
program, and every kind of bad input ends with one line and exit status 2, writing nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli.cli_runner import run, snapshot

from playtable.core.chance import Chance
from playtable.core.errors import BadParameter
from playtable.core.params import resolve_params
from playtable.core.registry import get_game
from playtable.games.rotator.board import SAMPLES_DIR


def new_position(tmp_path: Path, game: str, *options: str) -> Path:
    path = tmp_path / f"{game}.json"
    assert run("state", "new", game, *options, "--out", str(path)).code == 0
    return path


def refused(tmp_path: Path, *argv: str) -> str:
    before = snapshot(tmp_path)
    result = run(*argv)
    assert result.one_error_line(), (result.code, result.err)
    assert snapshot(tmp_path) == before
    return result.err


# -- item 1: hangs ----------------------------------------------------------------------------------
def test_a_speed_limit_no_throw_can_meet_is_refused(tmp_path: Path) -> None:
    """The issue's hang: `--param max_speed=0.0001` (Star Dice RULES.md, interpretation 29)."""
    assert "max_speed" in refused(tmp_path, "state", "new", "stardice", "--param", "max_speed=0.0001")
    assert "max_speed" in refused(tmp_path, "sim", "stardice", "--param", "max_speed=0.0001", "-n", "1")


def test_hand_edited_torpedoes_are_refused_not_looped_on(tmp_path: Path) -> None:
    path = new_position(tmp_path, "stardice", "--variant", "torpedoes_iter9")
    data = json.loads(path.read_text())
    data["torpedoes_left"] = [-1, 0]
    path.write_text(json.dumps(data))
    assert "torpedoes_left" in refused(tmp_path, "state", "apply", "stardice", str(path), "call even")


def test_the_throw_sampler_is_bounded_when_no_throw_is_legal() -> None:
    game = get_game("stardice")
    state = game.new_state(game.default_params(), 1)
    state.apply_text("call even")
    # every throw's start refused (the sampler checks where a throw starts, its speed and spin
    # itself since the engine was made faster)
    state._throw_place_legal = lambda action: "nothing is legal here"  # type: ignore[method-assign]
    assert state.fresh_throws(Chance(3), 8) == []


@pytest.mark.parametrize("params", [
    ["level=easy", "placement=territory", "allow_trivial=true"],  # every board is trivial
    ["level=hard", "turn_limit=3"],  # no board needs 10 turns within 3
    ["placement=territory"],  # trivial boards would be redrawn for ever
])
def test_rotator_boards_that_cannot_be_found_end_with_one_line(tmp_path: Path, params: list[str]) -> None:
    """Seed 004 "Getting Started" and RULES.md I1: a level or a placement that no board meets."""
    refused(tmp_path, "state", "new", "rotator", *[a for p in params for a in ("--param", p)])


def test_parameters_that_are_not_numbers_are_refused() -> None:
    game = get_game("stardice")
    for value in ("inf", "nan", "-inf", "1e999"):
        with pytest.raises(BadParameter):
            resolve_params(game.params_type, {}, None, [f"max_speed={value}"])
    with pytest.raises(BadParameter):
        resolve_params(get_game("troll").params_type, {}, None, [f"turn_limit={2**64}"])


# -- item 3: tracebacks -----------------------------------------------------------------------------
@pytest.mark.parametrize("content", [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a": ' * 70 + b"1" + b"}" * 70,
    b"\xff\xfe{}",
    b'{"format": "playtable-position", "version": 1, "game": "troll", "turn": 1' + b"0" * 5000 + b"}",
    b'{"format": "playtable-position", "version": 1, "game": "troll", "turn": NaN}',
    b'{"format": "playtable-position", "version": 1, "game": "troll", "turn": Infinity}',
    b'{"format": "playtable-position", "version": 1, "game": "troll", "turn": 1e999}',
], ids=["deep-array", "deep-object", "not-utf8", "huge-int", "nan", "infinity", "overflow"])
def test_bad_json_is_one_line(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    refused(tmp_path, "state", "legal", "troll", str(path))


def test_an_unknown_decision_kind_is_refused(tmp_path: Path) -> None:
    path = new_position(tmp_path, "wizard")
    for decision in ({"kind": "dance", "seat": 0}, {"kind": "commit", "seat": 1, "tokens": ["m3"]}):
        data = json.loads(path.read_text())
        data["decision"] = decision
        path.write_text(json.dumps(data))
        assert "decision" in refused(tmp_path, "state", "legal", "wizard", str(path))


def test_a_port_out_of_range_is_refused(tmp_path: Path) -> None:
    assert "70000" in refused(tmp_path, "stardice", "tuio", "--port", "70000", "--dice", "0=F.d20a")


@pytest.mark.parametrize("argv", [
    ["stardice", "battle", "--seed", "3"],
    ["sim", "troll", "-n", "2"],
    ["state", "new", "troll"],
    ["report", "x.parquet"],
])
def test_out_in_a_missing_directory_is_refused_before_any_work(tmp_path: Path, argv: list[str]) -> None:
    err = refused(tmp_path, *argv, "--out", str(tmp_path / "missing" / "out.file"))
    assert "does not exist" in err


def test_a_newline_inside_an_action_text_is_one_line(tmp_path: Path) -> None:
    for game, text in (("troll", "move left\nstomp"), ("stardice", "call\neven"),
                       ("wizard", "tower\nc3"), ("rotator", "start\nA1")):
        path = new_position(tmp_path, game)
        err = refused(tmp_path, "state", "apply", game, str(path), text)
        assert "\\n" in err


def test_query_and_report_on_a_file_that_is_not_parquet(tmp_path: Path) -> None:
    not_parquet = tmp_path / "runs.parquet"
    not_parquet.write_text("these are not the rows you are looking for\n")
    refused(tmp_path, "query", "SELECT count(*) FROM games", str(not_parquet))
    refused(tmp_path, "report", str(not_parquet), "--out", str(tmp_path / "r.html"))


def test_seeds_past_64_bits_are_refused(tmp_path: Path) -> None:
    refused(tmp_path, "sim", "troll", "-n", "2", "--seed", "9223372036854775807")
    refused(tmp_path, "state", "new", "troll", "--seed", "9223372036854775808")
    refused(tmp_path, "state", "new", "troll", "--seed", "-1")


def test_a_board_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_bytes(b"\xef\xbb\xbf" + (SAMPLES_DIR / "easy.txt").read_bytes())
    result = run("state", "new", "rotator", "--param", f"board={board}")
    assert result.code == 0, result.err
    plain = run("state", "new", "rotator", "--param", "board=easy")
    assert json.loads(result.out)["board"] == json.loads(plain.out)["board"]


@pytest.mark.parametrize("argv", [
    ["compare", "troll", "--variant", "final:", "--variant", "plus-one:", "--until-ci", "nan"],
    ["compare", "troll", "--variant", "final:", "--variant", "plus-one:", "--round", "0"],
    ["compare", "troll", "--variant", "final:", "--variant", "plus-one:", "--alpha", "inf"],
    ["stardice", "tuio", "--dice", "0=F.d20a", "--duration", "nan"],
    ["stardice", "tuio", "--dice", "0=F.d20a", "--max-frames", "-1"],
    ["stardice", "tuio", "--dice", "0=F.d20a", "--grace", "inf"],
    ["stardice", "tuio", "--dice", "0=F.d20a", "--picture-every", "0"],
])
def test_options_that_are_no_finite_amount_are_refused(tmp_path: Path, argv: list[str]) -> None:
    refused(tmp_path, *argv)


def test_a_war_that_would_last_for_ever_stops_at_max_steps() -> None:
    """FR War: the first player past war_target wins; with a target of a million the battle
    command's loop still ends, at --max-steps."""
    result = run("stardice", "battle", "--war", "--quiet", "--max-steps", "3", "--federation",
                 "random-thrower", "--param", "war_target=1000000", "--param", "max_battles=1000000")
    assert result.code == 0, result.err
    assert "stopped after 3 actions" in result.err
