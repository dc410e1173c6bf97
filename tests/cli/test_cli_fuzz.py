"""Fuzzing the command line's entry points (issue 12, item 3 and Tests): position files for
`playtable state ...`, Rotator board files, and options. Whatever comes in, the command exits 0
or 2; on 2 it prints one line and touches no file; an invalid position is never accepted."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.cli.cli_runner import Outcome, run, snapshot
from tests.games.position_mutations import fresh, mutations, valid_positions

from playtable.core.position import read_position
from playtable.core.registry import get_game
from playtable.games.rotator.board import SAMPLES_DIR

GAMES = ["troll", "rotator", "stardice", "wizard"]
FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_contract(result: Outcome, before: dict[str, bytes], folder: Path) -> None:
    assert result.code in (0, 2), (result.code, result.err[-2000:])
    if result.code == 2:
        assert result.one_error_line(), result.err
        assert snapshot(folder) == before, "a refused command touched a file"


def garbage(draw: st.DataObject, game_id: str) -> tuple[bytes, bool]:
    """File contents and whether they are a valid position (True) or must be refused (False)."""
    positions = valid_positions(game_id)
    text = positions[draw.draw(st.integers(0, len(positions) - 1), label="position")]
    kind = draw.draw(st.sampled_from(["valid", "bom", "mutated", "bytes", "deep", "digits",
                                      "nan", "truncated", "latin1"]), label="file kind")
    if kind == "valid":
        return text.encode(), True
    if kind == "bom":
        return b"\xef\xbb\xbf" + text.encode(), True
    if kind == "mutated":
        mutation = draw.draw(st.sampled_from(mutations(game_id)), label="mutation")
        broken = mutation(fresh(text), random.Random(draw.draw(st.integers(0, 2**32))))
        return (json.dumps(broken).encode(), False) if broken is not None else (text.encode(), True)
    if kind == "bytes":
        return draw.draw(st.binary(max_size=300), label="bytes"), False
    if kind == "deep":
        depth = draw.draw(st.integers(65, 200_000), label="depth")
        return b"[" * depth + b"]" * depth, False
    if kind == "digits":
        return text.replace('"turn": ', '"turn": ' + "9" * 5000, 1).encode().replace(
            b'"counter": ', b'"counter": 1' + b"0" * 4400, 1), False
    if kind == "nan":
        return text.replace('"counter": ', '"counter": NaN, "x": ', 1).encode(), False
    if kind == "truncated":
        return text[: draw.draw(st.integers(0, len(text) - 1))].encode(), False
    return text.encode("utf-8") + "é".encode("latin-1"), False


@FUZZ
@given(draw=st.data())
def test_state_tools_fuzz(draw: st.DataObject) -> None:
    game_id = draw.draw(st.sampled_from(GAMES), label="game")
    content, valid = garbage(draw, game_id)
    command = draw.draw(st.sampled_from(["legal", "view", "apply", "apply-out"]), label="command")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pos = folder / "pos.json"
        pos.write_bytes(content)
        before = snapshot(folder)
        if command == "legal":
            result = run("state", "legal", game_id, str(pos))
        elif command == "view":
            seat = draw.draw(st.integers(-2, 6), label="seat")
            result = run("state", "view", game_id, str(pos), "--seat", str(seat))
        else:
            action = draw.draw(st.one_of(st.sampled_from(["move left", "drill 1", "call even",
                                                          "touch", "entrance S", "start A1"]),
                                         st.text(max_size=30)), label="action")
            extra = ["--out", str(folder / "out.json")] if command == "apply-out" else []
            result = run("state", "apply", game_id, str(pos), action, *extra)
        check_contract(result, before, folder)
        if not valid:
            assert result.code == 2, f"an invalid position was accepted: {result.out[:300]}"
        elif command in ("legal",):
            assert result.code == 0, result.err
        if result.code == 0 and command.startswith("apply"):
            written = folder / "out.json" if command == "apply-out" else pos
            read_position(get_game(game_id), written)


def board_garbage(draw: st.DataObject) -> tuple[bytes, bool | None]:
    """A board file's bytes and whether it must load (True), be refused (False) or either."""
    text = (SAMPLES_DIR / draw.draw(st.sampled_from(["easy.txt", "medium.txt", "hard.txt"]))).read_text()
    kind = draw.draw(st.sampled_from(["same", "bom", "crlf", "char", "line", "bytes", "latin1"]))
    if kind == "same":
        return text.encode(), True
    if kind == "bom":
        return b"\xef\xbb\xbf" + text.encode(), True
    if kind == "crlf":
        return text.replace("\n", "\r\n").encode(), True
    if kind == "char":
        i = draw.draw(st.integers(0, len(text) - 1))
        c = draw.draw(st.characters(codec="utf-8"))
        return (text[:i] + c + text[i + 1:]).encode("utf-8", "surrogatepass"), None
    if kind == "line":
        lines = text.splitlines()
        del lines[draw.draw(st.integers(0, len(lines) - 1))]
        return "\n".join(lines).encode(), None
    if kind == "bytes":
        return draw.draw(st.binary(max_size=400)), False
    return text.encode() + b"\xe9\n", False


@FUZZ
@given(draw=st.data())
def test_board_files_fuzz(draw: st.DataObject) -> None:
    content, loads = board_garbage(draw)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        board = folder / "board.txt"
        board.write_bytes(content)
        before = snapshot(folder)
        result = run("state", "new", "rotator", "--param", f"board={board}")
        check_contract(result, before, folder)
        if loads is not None:
            assert (result.code == 0) == loads, result.err


VALUES = st.one_of(st.integers(-(2**70), 2**70).map(str), st.sampled_from(
    ["inf", "-inf", "nan", "1e999", "0", "-1", "", "true", "x", "1.5", "0.0001", "3,2,1", "\n"]),
    st.text(max_size=12))


@FUZZ
@given(draw=st.data())
def test_options_fuzz(draw: st.DataObject) -> None:
    """`state new` with arbitrary seeds, parameters, variants and rigged queues, and an --out
    that may be in a directory that does not exist."""
    game_id = draw.draw(st.sampled_from(GAMES), label="game")
    game = get_game(game_id)
    names = [f for f in game.default_params().__dataclass_fields__ if f != "content"]
    argv = ["state", "new", game_id]
    if draw.draw(st.booleans()):
        argv += ["--seed", draw.draw(VALUES, label="seed")]
    for _ in range(draw.draw(st.integers(0, 2))):
        argv += ["--param", f"{draw.draw(st.sampled_from(names))}={draw.draw(VALUES)}"]
    if draw.draw(st.booleans()):
        argv += ["--variant", draw.draw(st.sampled_from([*game.variants, "nope", ""]))]
    if draw.draw(st.booleans()):
        argv += ["--rig", f"{draw.draw(st.sampled_from(['d6', 'deck', 'x', '']))}={draw.draw(VALUES)}"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        out = draw.draw(st.sampled_from(["pos.json", "missing/pos.json", ""]), label="out")
        if out:
            argv += ["--out", str(folder / out)]
        result = run(*argv)
        check_contract(result, {}, folder)
        if result.code == 0 and out == "pos.json":
            read_position(game, folder / out)
