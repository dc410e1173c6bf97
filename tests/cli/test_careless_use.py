"""The command line under hostile and careless use, a test per way it was found to break, and
the conventions its users expect (completion, JSON,
-v/--quiet, environment variables, p-values, `query` output, `report --out` help)."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from tests.cli.cli_runner import run, run_captured, snapshot

from playtable.core.errors import BadParameter
from playtable.core.files import exclusive, lock_path, output_problem, replace_with
from playtable.core.position import position_from_json, position_to_json, read_position
from playtable.core.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
TOY = "tests.lab.lab_toygame:GAME"
LONG = "x" * 300


def playtable(*argv: str, **kwargs: object) -> subprocess.Popen[bytes]:
    """`playtable ARGV` in a process of its own, as a shell would start it."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'src'}"}
    return subprocess.Popen([sys.executable, "-m", "playtable", *argv], cwd=kwargs.pop("cwd", ROOT),
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            **kwargs)  # type: ignore[call-overload]


def refused(folder: Path, *argv: str) -> str:
    before = snapshot(folder)
    result = run(*argv)
    assert result.one_error_line(), (result.code, result.err)
    assert snapshot(folder) == before
    return result.err


def new_position(folder: Path, game: str = "troll", seed: int = 3) -> Path:
    path = folder / f"{game}.json"
    assert run("state", "new", game, "--seed", str(seed), "--out", str(path)).code == 0
    return path


# -- item 2: a FIFO or a device as an input file -------------------------------------------------------
def test_a_fifo_or_device_as_input_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for argv in (["state", "legal", "troll", str(fifo)], ["replay", str(fifo)],
                 ["solve", "rotator", str(fifo)], ["state", "legal", "troll", "/dev/null"]):
        proc = playtable(*argv)
        _, err = proc.communicate(timeout=60)  # blocked in open() before the fix: never returned
        lines = err.decode().strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1, err
        assert "FIFO" in lines[0] or "device" in lines[0]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


# -- item 3: absurd worker counts ----------------------------------------------------------------------
def test_an_absurd_worker_count_is_refused_before_any_process_starts(tmp_path: Path) -> None:
    from playtable.lab.workers import max_workers

    err = refused(tmp_path, "sim", "troll", "-n", "4", "--workers", "100000")
    assert "at most" in err and str(max_workers()) in err
    assert "at most" in refused(tmp_path, "compare", "troll", "--variant", "a:", "--variant", "b:",
                                "-n", "2", "--workers", "100000")
    assert "at least 1" in refused(tmp_path, "sim", "troll", "--workers", "0")


# -- item 4: tune --storage on a file that is not a study store ----------------------------------------
def test_tune_refuses_a_storage_that_is_not_sqlite_or_is_another_programs(tmp_path: Path) -> None:
    args = ["tune", "troll", "--objective", "win=0.3", "--budget", "1", "--games", "2"]
    junk = tmp_path / "notdb.db"
    junk.write_bytes(b"this is not SQLite\n" * 10)
    assert "not an SQLite database" in refused(tmp_path, *args, "--storage", str(junk))
    other = tmp_path / "tables.sqlite3"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE tables (id TEXT)")
    con.close()
    assert "another program's" in refused(tmp_path, *args, "--storage", str(other))
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    assert "FIFO" in refused(tmp_path, *args, "--storage", str(fifo))


# -- item 6: file names too long ---------------------------------------------------------------------
def test_file_names_too_long_are_one_line(tmp_path: Path) -> None:
    long_file = str(tmp_path / f"{LONG}.parquet")
    assert "file name" in refused(tmp_path, "query", "SELECT 1", long_file)
    assert "file name" in refused(tmp_path, "report", long_file)
    assert "file name" in refused(tmp_path, "report", long_file, "--out", str(tmp_path / f"{LONG}.html"))
    assert "file name" in refused(tmp_path, "state", "new", "troll", "--out", str(tmp_path / LONG))
    assert "file name" in refused(tmp_path, "state", "legal", "troll", str(tmp_path / LONG))
    # a name that fits, but not with the journal a run keeps beside it
    assert "too long" in refused(tmp_path, "sim", "troll", "-n", "1", "--out",
                                 str(tmp_path / ("y" * 245 + ".parquet")))


# -- item 7: a closed standard output ------------------------------------------------------------------
def test_a_closed_stdout_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'src'}"}
    python = sys.executable
    done = subprocess.run(["sh", "-c", f"'{python}' -m playtable state new troll --seed 1 >&-"],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "standard output is closed" in done.stderr and "Traceback" not in done.stderr
    # a command whose result is a file needs no stdout; the file never lands on descriptor 1
    done = subprocess.run(["sh", "-c", f"'{python}' -m playtable state new troll --seed 1 --out p.json >&-"],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    read_position(get_game("troll"), tmp_path / "p.json")
    # a reader that goes away: a quiet end
    done = subprocess.run(["sh", "-c", f"'{python}' -m playtable games --json | head -c 1"],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "Traceback" not in done.stderr and "Error" not in done.stderr


# -- item 8: --force never replaces a device -----------------------------------------------------------
def test_force_replaces_regular_files_only(tmp_path: Path) -> None:
    assert output_problem("/dev/full") and output_problem("/dev/null")  # checked, never written
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "to-device"
    link.symlink_to("/dev/null")
    sock = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(sock))
        for target in (fifo, link, sock, tmp_path):
            err = refused(tmp_path, "state", "new", "troll", "--out", str(target), "--force")
            assert "regular file" in err or "directory" in err
    assert stat.S_ISFIFO(fifo.stat().st_mode) and link.is_symlink()
    # the last check before the rename, for a device that took the name during the work
    tmp = tmp_path / "done.tmp"
    tmp.write_text("x")
    with pytest.raises(BadParameter, match="regular files only"):
        replace_with(tmp, fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and not tmp.exists()
    # a regular file and a symlink to one are still replaced with --force (the link, not followed)
    kept = tmp_path / "kept.json"
    kept.write_text("mine")
    mine = tmp_path / "link.json"
    mine.symlink_to(kept)
    assert run("state", "new", "troll", "--out", str(mine), "--force").code == 0
    assert kept.read_text() == "mine" and not mine.is_symlink()


# -- item 9: Ctrl-C, kill -9 and two runs on one file --------------------------------------------------
def _wait_for(path: Path, size: int, proc: subprocess.Popen[bytes], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.stat().st_size >= size:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never reached {size} bytes")


def test_ctrl_c_at_once_is_one_line_and_nothing_claimed(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    # from 0.3 s on: before that the interpreter itself is starting, before any playtable code
    for delay in (0.3, 0.8, 2.0):
        proc = playtable("sim", TOY, "-n", "100000000", "-q", "--out", str(out), "--force")
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        text = err.decode()
        assert proc.returncode == 130 and len(text.strip().splitlines()) == 1, text
        assert "Traceback" not in text and text.startswith("interrupted")
        if "rows written" in text:  # the line claims a file only when there is one
            assert text.rstrip().endswith("the same command continues the run"), text
            rows = int(text.split(", ")[-1].split(";")[0].split()[0])
            from playtable.lab.storage import row_count

            assert row_count(out) == rows
        else:  # stopped before any game, or before the run even began: no file, and none claimed
            assert not out.exists()
            assert "not written" in text or text.strip() == "interrupted", text
        out.unlink(missing_ok=True)


def test_a_second_run_on_the_same_out_is_told_it_is_in_use_and_a_killed_one_leaves_no_traceback(
    tmp_path: Path,
) -> None:
    from playtable.lab.storage import journal_path

    out = tmp_path / "r.parquet"
    first = playtable("sim", TOY, "-n", "100000000", "--workers", "2", "-q", "--out", str(out))
    _wait_for(journal_path(out), 2000, first)
    second = run("sim", TOY, "-n", "100000000", "-q", "--out", str(out))
    assert second.one_error_line() and "in use" in second.err and "killed" not in second.err
    first.send_signal(signal.SIGKILL)
    _, err = first.communicate(timeout=120)  # the workers hold stderr: this waits for them too
    assert "Traceback" not in err.decode() and "BrokenPipeError" not in err.decode()
    # the journal is now a killed run's (the kernel dropped the lock): no longer "in use"
    assert journal_path(out).exists()
    again = run("sim", TOY, "-n", "5", "-q", "--out", str(out))
    assert "in use" not in again.err


# -- item 10: positions known to be invalid, unknown fields, near-miss actions -------------------------
def _troll() -> dict[str, object]:
    game = get_game("troll")
    return position_to_json(game.new_state(game.default_params(), 3))


def _wizard_with_a_commit() -> dict[str, object]:
    from playtable.core.chance import Chance

    game = get_game("wizard")
    state = game.new_state(game.default_params(), 1)
    rng = Chance(5)
    for _ in range(1000):
        if state.to_json()["commits"]:
            break
        state.apply(rng.choice(state.legal_actions()))
    return position_to_json(state)


def _refused_position(game_id: str, data: dict[str, object], words: str) -> None:
    from playtable.core.errors import BadPosition

    with pytest.raises(BadPosition, match=words):
        position_from_json(get_game(game_id), data)


def test_the_known_invalid_positions_are_refused() -> None:
    data = _troll()
    data["troll"] = {"row": "lower", "position": True}
    _refused_position("troll", data, "troll.position")
    data = _troll()
    deck = data["deck"]
    assert isinstance(deck, list)
    data["seen"] = [*data["seen"], deck[0]]  # type: ignore[misc]
    _refused_position("troll", data, "still in the deck")
    wizard = _wizard_with_a_commit()
    commits = wizard["commits"]
    assert isinstance(commits, dict)
    seat = next(iter(commits))
    for garbage in ("garbage!!", "move Q", "tower c3", "fight"):
        data = json.loads(json.dumps(wizard))
        data["commits"][seat] = garbage
        _refused_position("wizard", data, "committed move")
    data = json.loads(json.dumps(wizard))
    content = get_game("wizard").state_from_json(
        {k: v for k, v in wizard.items() if k not in ("format", "version", "game")}).content
    cell = next(c for c in data["cells"] if not content.tile(c["tile"]).key)
    cell["key"] = True
    _refused_position("wizard", data, "not a key tile")


@pytest.mark.parametrize("game_id", ["troll", "rotator", "stardice", "wizard"])
def test_an_unknown_top_level_field_is_refused(game_id: str, tmp_path: Path) -> None:
    path = new_position(tmp_path, game_id)
    data = json.loads(path.read_text())
    data["trol"] = {"row": "lower", "position": 2}
    path.write_text(json.dumps(data))
    assert "unknown field 'trol'" in refused(tmp_path, "state", "legal", game_id, str(path))


@pytest.mark.parametrize("game_id", ["troll", "rotator", "stardice", "wizard"])
def test_action_texts_are_read_regardless_of_case_and_spacing_and_nothing_else(game_id: str) -> None:
    """The documented forgiving parser (docs/positions.md): letter case and runs of spaces are
    free; the canonical text is what is printed and saved; a typo is still refused."""
    from playtable.core.chance import Chance
    from playtable.core.errors import IllegalAction

    game = get_game(game_id)
    state = game.new_state(game.default_params(), 2)
    rng = Chance(2)
    for _ in range(30):
        if state.is_terminal:
            break
        actions = state.sample_actions(rng, 8) if game_id == "stardice" else state.legal_actions()
        for action in actions[:8]:
            text = str(action)
            for variant in (text.upper(), text.swapcase(), f"  {text.replace(' ', '   ')} "):
                assert str(state.parse_action(variant)) == text, variant
        if game_id != "stardice":
            with pytest.raises(IllegalAction):
                state.apply(state.parse_action(str(actions[0]) + "x"))
        state.apply(rng.choice(actions))


# -- item 11: two `state apply` on one file ------------------------------------------------------------
def test_two_applies_on_one_file_take_turns_and_lose_nothing(tmp_path: Path) -> None:
    path = new_position(tmp_path)
    game = get_game("troll")
    start = read_position(game, path)
    legal = [str(a) for a in start.legal_actions()]
    first = start.clone()
    first.apply(first.parse_action(legal[0]))
    second = str(first.legal_actions()[0])
    # another command holds the file: it writes its result while this apply waits for it
    with exclusive(path, "applying actions to it"):
        proc = playtable("state", "apply", "troll", str(path), second)
        time.sleep(1.0)
        assert proc.poll() is None, "the second apply did not wait for the first"
        from playtable.core.position import write_position

        write_position(first, path)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    expected = first.clone()
    expected.apply(expected.parse_action(second))
    assert position_to_json(read_position(game, path)) == position_to_json(expected)


def test_an_apply_that_cannot_get_the_file_says_so_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state_cli = sys.modules["playtable.cli.state"]  # the package's `state` is the command group
    monkeypatch.setattr(state_cli, "LOCK_WAIT", 0.2)
    path = new_position(tmp_path)
    legal = [str(a) for a in read_position(get_game("troll"), path).legal_actions()]
    with exclusive(path, "applying actions to it"):
        err = refused(tmp_path, "state", "apply", "troll", str(path), legal[0])
    assert "in use" in err and "applying actions" in err


def test_a_lock_of_a_killed_holder_is_taken_over(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    lock_path(target).write_text("999999\n")  # left by a process killed outright
    with exclusive(target, "testing"):
        assert lock_path(target).read_text().split()[0] == str(os.getpid())
    assert not lock_path(target).exists()
    held = threading.Event()
    release = threading.Event()

    def holder() -> None:
        with exclusive(target, "holding it"):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(10)
    with pytest.raises(BadParameter, match="holding it"), exclusive(target, "testing"):
        pass
    release.set()
    thread.join()


# -- item 12: one die mapped twice -----------------------------------------------------------------------
def test_a_die_or_fiducial_mapped_twice_is_refused(tmp_path: Path) -> None:
    tuio = ["stardice", "tuio", "--replay", "sample", "--dice"]
    assert "mapped twice" in refused(tmp_path, *tuio, "0=F.d20a,1=F.d20a")
    assert "mapped twice" in refused(tmp_path, *tuio, "0=F.d20a,0=K.d6a")
    assert "mapped twice" in refused(tmp_path, *tuio, '{"0": "borg", "7": {"die": "borg"}}')
    assert "out of range" in refused(tmp_path, *tuio, "-1=F.d20a")
    assert run(*tuio, "sample", "--max-frames", "2").code == 0


# -- conventions ---------------------------------------------------------------------------------------
def test_completion_knows_games_agents_and_variants() -> None:
    from click.shell_completion import ShellComplete

    from playtable.cli import cli

    def complete(args: list[str], incomplete: str) -> list[str]:
        return [c.value for c in ShellComplete(cli, {}, "playtable", "_PLAYTABLE_COMPLETE")
                .get_completions(args, incomplete)]

    assert complete(["sim"], "t") == ["troll"]
    assert "heuristic" in complete(["sim", "troll", "--agent"], "h")
    assert "1=heuristic" in complete(["compare", "troll", "--agent"], "1=h")
    assert "plus-one" in complete(["sim", "troll", "--variant"], "p")
    assert "balanced" in complete(["tune", "wizard", "--variant"], "b")
    assert "plus-one" in complete(["play", "troll", "--variant"], "p")
    assert "wizard" in complete(["games"], "w")
    result = run("completion", "bash")
    assert result.code == 0 and "_PLAYTABLE_COMPLETE" in result.out
    assert "completion bash >" in run("completion", "--help").out


def test_games_json_and_json_of_the_commands_scripts_read(tmp_path: Path) -> None:
    listed = json.loads(run("games", "--json").out)
    assert [g["id"] for g in listed] == ["troll", "rotator", "stardice", "wizard"]
    troll = json.loads(run("games", "troll", "--json").out)
    assert {"parameters", "variants", "agents"} <= set(troll) and "plus-one" in troll["variants"]
    rules = next(p for p in troll["parameters"] if p["name"] == "rules")
    assert rules["choices"] == ["final", "draft"]
    out = tmp_path / "r.parquet"
    assert run("sim", "troll", "-n", "3", "-q", "--keep-records", "--out", str(out)).code == 0
    steps = json.loads(run("replay", str(out), "--seed", "1", "--json").out)
    assert steps[0]["index"] == 0 and steps[-1]["terminal"]
    assert json.loads(run("sim", "troll", "-n", "2", "-q", "--json").out)["games"] == 2


def test_verbose_and_quiet_mean_the_same_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    from playtable.cli import _commands, cli

    for command in _commands(cli):
        names = {o for p in command.params for o in getattr(p, "opts", [])}
        assert {"-v", "--verbose", "-q", "--quiet"} <= names, command.name
    code, _, err = run_captured(capsys, "sim", "troll", "-n", "2")
    assert code == 0 and "games in" in err
    for quiet in (["sim", "troll", "-n", "2", "-q"], ["-q", "sim", "troll", "-n", "2"],
                  ["sim", "troll", "-n", "2", "-v", "--quiet"]):
        code, out, err = run_captured(capsys, *quiet)
        assert code == 0 and err == "" and "win rate" in out
    code, _, err = run_captured(capsys, "sim", "troll", "-n", "2", "-v")
    assert code == 0 and "sim: troll with random" in err


def test_options_come_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PLAYTABLE_SIM_GAMES", "3")
    code, out, _ = run_captured(capsys, "sim", "troll", "-q", "--json")
    assert code == 0 and json.loads(out)["games"] == 3
    monkeypatch.setenv("PLAYTABLE_WORKERS", "100000")
    code, _, err = run_captured(capsys, "sim", "troll", "-q")
    assert code == 2 and "at most" in err
    assert "PLAYTABLE_WORKERS" in run("sim", "--help").out


def test_p_values_never_print_as_zero() -> None:
    from playtable.cli.lab_progress import format_p

    assert format_p(0.0) == "< 1e-300" and format_p(1e-310) == "< 1e-300"
    assert format_p(0.5) == "0.5" and format_p(2.5e-12) == "2.5e-12" and format_p(float("nan")) == "-"


def test_query_output_is_readable_piped_and_narrow(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from playtable.cli import tables

    columns = ["seed", "params", "note"]
    rows = [(1, '{"rules": "final", "heights": [3, 2, 1, 1, 2, 3]}' * 3, "a\nb"), (22, "x", None)]
    piped = tables.plain(columns, rows)
    lines = piped.splitlines()
    assert len(lines) == 4 and rows[0][1] in lines[2] and "a\\nb" in lines[2] and "NULL" in lines[3]
    assert lines[2].index("1") == lines[3].index("22") + 1  # numbers to the right

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(tables.shutil, "get_terminal_size", lambda: os.terminal_size((60, 24)))
    tables.print_table(columns, rows)
    shown = screen.getvalue()
    assert "-[ row 1 ]" in shown and rows[0][1] in shown  # narrower than the table: records
    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    tables.print_table(["seed", "win"], [(1, True), (2, False)])
    assert "┃" in screen.getvalue() or "|" in screen.getvalue()


def test_report_out_has_help() -> None:
    text = run("report", "--help").out
    assert "--out" in text and "self-contained" in text
