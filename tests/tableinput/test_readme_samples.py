"""The README's Star Dice table-input examples run as written, on the shipped dice map
and recording (`playtable.tableinput.samples`): the replay prints the formation the recording
closes, and the live listener scores the same session sent over loopback UDP."""

from __future__ import annotations

import json
import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

from playtable.tableinput.samples import build_session, dice_map, sample_file

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-c", "from playtable.cli import main; main()"]  # the `playtable` command


def readme_commands() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line.split("#")[0].strip() for line in text.splitlines()
             if line.startswith("playtable stardice tuio")]
    return [shlex.split(line) for line in lines]


def run_cli(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args[1:]], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


def test_the_shipped_samples_are_the_ones_samples_py_writes() -> None:
    assert json.loads(sample_file("dice").read_text(encoding="utf-8")) == dice_map()
    lines = sample_file("session").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(build_session())


def test_readme_replay_example_runs_as_written() -> None:
    replays = [c for c in readme_commands() if "--replay" in c]
    assert replays, "the README shows a replay example"
    for command in replays:
        done = run_cli(command)
        assert done.returncode == 0, done.stderr
        assert "Federation 6 - Klingon 0" in done.stdout  # the square formation, F 17+9 > K 12+5
        assert "['K.d6a', 'borg']" in done.stdout  # a string with the Borg die, nobody scores
        assert "0 malformed" in done.stderr


def test_readme_live_example_scores_the_session_sent_over_loopback() -> None:
    live = [c for c in readme_commands() if "--replay" not in c]
    assert live, "the README shows a live example"
    session = build_session()
    # bounded: the listener stops by itself after 4 s (the dice settle in its quiet-time ticks)
    args = [*CLI, *live[0][1:], "--port", "0", "--duration", "4"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        port = int(re.findall(r":(\d+)", first)[-1])
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            start = time.monotonic()
            for t, data in session:
                time.sleep(max(0.0, t / 10 - (time.monotonic() - start)))  # ten times faster
                sock.sendto(data, ("127.0.0.1", port))
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert proc.returncode == 0
    assert "formations [['F.d12a', 'K.d20a', 'F.d20a', 'K.d8a']]" in out
