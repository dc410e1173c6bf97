"""Shared pieces of the live-table tests and benchmark: a real
`playtable stardice table` server in a subprocess, a python-osc sender on loopback UDP, and the
engine's own reports for a stream (a `TuioTable` fed the same datagrams offline).

Every wait is bounded; the server is always stopped on exit.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pythonosc.osc_bundle import OscBundle
from pythonosc.udp_client import UDPClient
from tests.web.server_process import OPERATOR_TOKEN, free_port

from playtable.games.stardice.params import StarDiceParams
from playtable.tableinput.dicemap import parse_dice_map
from playtable.tableinput.listener import replay_recording
from playtable.tableinput.tracking import TuioTable
from playtable.tableinput.tuio import TuioReceiver

STARTUP_TIMEOUT = 20.0
OPERATOR = OPERATOR_TOKEN
"""The operator token the tests' servers are given (PLAYTABLE_OPERATOR_TOKEN / operator_token)."""
OPERATOR_HEADERS = {"Authorization": f"Bearer {OPERATOR}"}
# the shipped sample's dice and values (tableinput/samples.py), F.d12a's value left for a tap
DICE = "14=borg:16,0=F.d20a:17,7=K.d20a:12,3=F.d12a,10=K.d8a:5,11=K.d6a:4,4=F.d6a:6"


@dataclass
class LiveServer:
    url: str
    tuio_port: int
    record_dir: Path
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-2000:]


@contextmanager
def live_server(tmp: Path, dice: str = DICE) -> Iterator[LiveServer]:
    """`playtable stardice table` on free loopback ports; stopped (SIGTERM, then SIGKILL) on exit."""
    port, tuio_port = free_port(), free_port()
    record_dir = tmp / "recordings"
    log_path = tmp / f"live-{port}.log"
    command = [sys.executable, "-m", "playtable", "stardice", "table", "--port", str(port),
               "--tuio-port", str(tuio_port), "--dice", dice, "--db", str(tmp / "tables.sqlite3"),
               "--record-dir", str(record_dir)]
    with log_path.open("ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1",
                                        "PLAYTABLE_OPERATOR_TOKEN": OPERATOR})
    server = LiveServer(f"http://127.0.0.1:{port}", tuio_port, record_dir, process, log_path)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with {process.returncode}: {server.log()}")
            try:
                with urllib.request.urlopen(server.url + "/api/live/main", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no answer within {STARTUP_TIMEOUT} s: {server.log()}") from None
                time.sleep(0.1)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def create_live(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    """A live table started by the operator (`client`: a TestClient of an app given OPERATOR)."""
    answer = client.post("/api/live", json=body, headers=OPERATOR_HEADERS)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def take_control(ws: Any, token: str) -> list[dict[str, Any]]:
    """Present `token` on a live page's socket; the messages until the server grants control."""
    ws.send_json({"type": "control", "token": token})
    seen = []
    for _ in range(10_000):
        message: dict[str, Any] = ws.receive_json()
        seen.append(message)
        if message["type"] == "control" and message["granted"]:
            return seen
        if message["type"] == "error":
            raise AssertionError(message["message"])
    raise AssertionError("control was never granted")


def send(port: int, stream: list[tuple[float, bytes]], sent: list[float] | None = None) -> None:
    """Send each datagram at its time (seconds from now) with python-osc's UDP client (a
    datagram that is no OSC bundle, garbage on purpose, goes out as it is); `sent` gets each
    one's wall-clock send time."""
    client = UDPClient("127.0.0.1", port)
    start = time.monotonic()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as raw:
        for t, data in stream:
            delay = t - (time.monotonic() - start)
            if delay > 0:
                time.sleep(delay)
            if sent is not None:
                sent.append(time.time())
            if OscBundle.dgram_is_bundle(data):
                client.send(OscBundle(data))
            else:
                raw.sendto(data, ("127.0.0.1", port))


def write_recording(path: Path, stream: list[tuple[float, bytes]]) -> Path:
    path.write_text("".join(json.dumps({"t": t, "from": "127.0.0.1:3333",
                                        "data": base64.b64encode(d).decode("ascii")}) + "\n"
                            for t, d in stream), encoding="utf-8")
    return path


def as_received(stream: list[tuple[float, bytes]], drawn: list[dict[str, Any]],
                first_frame: int = 1) -> list[tuple[float, bytes]]:
    """`stream` re-timed to when the server received each datagram: a datagram that commits a
    frame (from `first_frame` on) takes the `t` of that frame's report, as the page logged it;
    one that commits none (garbage, a late frame) the time before it. An engine fed offline so
    sees what the server's engine saw, however the machine's load delayed the datagrams
    (settling is timed)."""
    at = {d["frame"]: d["t"] for d in drawn if not d["tick"] and d["source"] != "value"}
    scratch = TuioReceiver()
    out: list[tuple[float, bytes]] = []
    frame, t = first_frame, 0.0
    for _, data in stream:
        before = scratch.stats.frames
        scratch.feed(data, "127.0.0.1:1", t)
        if scratch.stats.frames > before:
            t = at[frame]
            frame += 1
        out.append((t, data))
    return out


def engine_reports(recording: Path, dice: str = DICE) -> list[dict[str, Any]]:
    """The engine's JSON for every committed frame of a recording (ticks left out)."""
    params = StarDiceParams()
    reports: list[dict[str, Any]] = []
    table = TuioTable(parse_dice_map(dice), params.formation_params(), params.scoring_rules(),
                      borg_faces=params.borg_faces, borg_pips=params.borg_pips,
                      on_frame=reports.append)
    replay_recording(table, recording)
    return [r for r in reports if not r.get("tick")]


def label(shape: dict[str, Any]) -> str:
    """A formation's number as the page writes it (stardice_live.js formationLabel)."""
    if shape.get("waiting"):
        return f"{shape['points']} ?"
    if shape["owner"] is None:
        return str(shape["points"])
    return f"{shape['points'] + shape['bonus']} {'FK'[shape['owner']]}"


def expected_drawing(report: dict[str, Any]) -> dict[str, Any]:
    """What the page must draw for a report: formations filled, strings, labels, points."""
    moving = {d["id"] for d in report["dice"] if not d["settled"]}
    return {
        "formations": sorted(sorted(f) for f in report["formations"] if not moving & set(f)),
        "strings": sorted(sorted(s) for s in report["strings"]),
        "labels": sorted(label(s) for s in report["shapes"]
                         if s["kind"] == "formation" and not moving & set(s["objects"])),
        "points": report["points"],
    }
