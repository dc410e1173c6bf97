"""Fuzzing the command line's entry points (item 3 and Tests): position files for
`playtable state ...`, Rotator board files, and options; and the careless inputs: FIFOs and
device nodes where files are read or written, a closed stdout, names too long, junk databases
and absurd worker counts. Whatever comes in, the command exits 0 or 2 and never hangs; on 2 it
prints one line and touches no file; an invalid position is never accepted."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import socket
import sqlite3
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.cli.cli_runner import Outcome, run, snapshot
from tests.games.position_mutations import fresh, mutations, valid_positions

from playtable.cli import main
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


# -- FIFOs and device nodes, closed stdout, long names, junk databases, absurd workers --------
SPECIAL_INPUTS = ["fifo", "dev_null", "dev_zero", "directory", "socket", "link_to_fifo", "long_name",
                  "junk", "other_sqlite", "empty", "missing"]
SPECIAL_OUTPUTS = ["fifo", "directory", "socket", "link_to_device", "long_name", "missing", "regular"]
WORKER_COUNTS = ["0", "-1", "1", "2", "100000", str(10**30), "x", "1.5", ""]


def _special(folder: Path, kind: str, stack: contextlib.ExitStack) -> str:
    """A path of `kind` in `folder` (or a device node of the system, only ever read)."""
    path = folder / f"special-{kind}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind in ("dev_null", "dev_zero"):
        return f"/dev/{kind[4:]}"
    elif kind == "directory":
        path.mkdir()
    elif kind == "socket":
        server = stack.enter_context(socket.socket(socket.AF_UNIX))
        server.bind(str(path))
    elif kind == "link_to_fifo":
        os.mkfifo(folder / "target-fifo")
        path.symlink_to(folder / "target-fifo")
    elif kind == "link_to_device":
        path.symlink_to("/dev/null")
    elif kind == "long_name":
        return str(folder / ("n" * 300))
    elif kind == "junk":
        path.write_bytes(b"\x00\xffnot a thing playtable wrote\n" * 20)
    elif kind == "other_sqlite":
        with contextlib.closing(sqlite3.connect(path)) as con:
            con.execute("CREATE TABLE tables (id TEXT)")
            con.commit()
    elif kind in ("empty", "regular"):
        path.write_bytes(b"")
    return str(path)


def _specials_intact(folder: Path) -> None:
    for path in folder.iterdir():
        if path.name.startswith("special-fifo") or path.name == "target-fifo":
            assert stat.S_ISFIFO(path.lstat().st_mode), f"{path} was replaced"
        if path.name == "special-link_to_device":
            assert path.is_symlink(), "a symlink to a device was followed or replaced"


def run_stdout_closed(*argv: str) -> Outcome:
    """`playtable ARGV >&-` in-process: sys.stdout is None, as Python leaves it for a closed fd 1."""
    err = io.StringIO()
    saved = sys.stdout
    code = 0
    try:
        sys.stdout = None
        with contextlib.redirect_stderr(err):
            try:
                main(list(argv))
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.stdout = saved
    return Outcome(code, "", err.getvalue())


@contextlib.contextmanager
def no_hang(seconds: int = 60) -> Iterator[None]:
    """Fail (instead of waiting for ever) if the block blocks, as `open` on a FIFO did."""
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"the command hung for {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _input_command(draw: st.DataObject, path: str, folder: Path) -> list[str]:
    which = draw.draw(st.sampled_from(["legal", "apply", "replay", "solve", "dice", "recording",
                                       "query", "report", "tune", "board"]), label="reads")
    return {
        "legal": ["state", "legal", "troll", path],
        "apply": ["state", "apply", "troll", path, "move left"],
        "replay": ["replay", path, "--print"],
        "solve": ["solve", "rotator", path],
        "dice": ["stardice", "tuio", "--dice", path, "--replay", "sample", "--max-frames", "2"],
        "recording": ["stardice", "tuio", "--dice", "sample", "--replay", path, "--max-frames", "2"],
        "query": ["query", "SELECT count(*) FROM games", path],
        "report": ["report", path, "--out", str(folder / "report.html")],
        "tune": ["tune", "troll", "--objective", "win=0.3", "--budget", "1", "--games", "1",
                 "--rounds", "1", "--finalists", "1", "--remeasure", "1", "--storage", path],
        "board": ["state", "new", "rotator", "--param", f"board={path}"],
    }[which]


def _output_command(draw: st.DataObject, path: str) -> list[str]:
    which = draw.draw(st.sampled_from(["new", "sim", "tournament"]), label="writes")
    force = ["--force"] if draw.draw(st.booleans(), label="force") else []
    return {
        "new": ["state", "new", "troll", "--out", path, *force],
        "sim": ["sim", "troll", "-n", "2", "-q", "--out", path, *force],
        "tournament": ["tournament", "troll", "--agent", "random", "--agent", "random", "-n", "1",
                       "--bootstrap", "2", "--json", "--plot", path, *force],
    }[which]


def _workers_command(draw: st.DataObject, count: str, folder: Path) -> list[str]:
    which = draw.draw(st.sampled_from(["sim", "compare", "tune", "tournament", "playtest"]), label="runs")
    return {
        "sim": ["sim", "troll", "-n", "2", "-q", "--workers", count],
        "compare": ["compare", "troll", "--variant", "a:", "--variant", "b:", "-n", "2", "-q",
                    "--workers", count],
        "tune": ["tune", "troll", "--objective", "win=0.3", "--budget", "1", "--games", "1",
                 "--rounds", "1", "--finalists", "1", "--remeasure", "1", "--workers", count,
                 "--storage", str(folder / "study.db")],
        "tournament": ["tournament", "troll", "--agent", "random", "--agent", "random", "-n", "1",
                       "--bootstrap", "2", "--json", "--workers", count],
        "playtest": ["playtest", "rotator", "-n", "1", "--json", "--workers", count],
    }[which]


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(draw=st.data())
def test_hostile_files_closed_stdout_and_worker_counts_fuzz(draw: st.DataObject) -> None:
    """Careless inputs: a FIFO, a device, a socket, a directory, a name too long, junk or
    another program's database where a file is read or written; absurd worker counts; and the
    same with stdout closed. Whatever comes in: no hang, exit 0 or 2 (one line on 2, nothing
    touched), and no FIFO, device link or other special file replaced."""
    what = draw.draw(st.sampled_from(["input", "output", "workers"]), label="what")
    closed = draw.draw(st.booleans(), label="stdout closed")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        folder = Path(tmp)
        if what == "input":
            path = _special(folder, draw.draw(st.sampled_from(SPECIAL_INPUTS), label="input"), stack)
            argv = _input_command(draw, path, folder)
        elif what == "output":
            path = _special(folder, draw.draw(st.sampled_from(SPECIAL_OUTPUTS), label="output"), stack)
            argv = _output_command(draw, path)
        else:
            argv = _workers_command(draw, draw.draw(st.sampled_from(WORKER_COUNTS), label="workers"), folder)
        before = snapshot(folder)
        with no_hang():
            result = run_stdout_closed(*argv) if closed else run(*argv)
        assert "Traceback" not in result.err, result.err[-2000:]
        if closed and "standard output is closed" in result.err:
            # the work is done and kept (a result file written); only printing failed, in one line
            assert result.one_error_line(), result.err
        else:
            check_contract(result, before, folder)
        _specials_intact(folder)
        if what == "workers" and argv[argv.index("--workers") + 1] not in ("1", "2"):
            assert result.code == 2, (argv, result.err)
