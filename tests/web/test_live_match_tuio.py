"""The whole chain without hardware (the real table): `TuioSim`, the virtual table's
throws as TUIO 1.1 `/tuio/2Dobj` bundles over loopback UDP, drives a live table of the server;
the players' part (the call, the faces, scoring the battle) goes over the page's WebSocket as a
page sends it; the live match advances through a whole battle as the seed's Final Rules say
(FR Battle 1-4, War) and scores the table the server sees."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from tests.cli.cli_runner import run_captured
from tests.web.conftest import in_process_app
from tests.web.live_support import OPERATOR, create_live, send, take_control

from playtable.tableinput.sim import TuioSim
from playtable.tableinput.tuio import TuioReceiver

WAIT = 20.0
"""Seconds a step may take to show on the server (bounded; a loaded machine is slow)."""


class Page:
    """A live page's socket: it sends what the players confirm and asks for the table."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.reports: list[dict[str, Any]] = []
        self.texts: list[str] = []

    def read_until_welcome(self) -> dict[str, Any]:
        for _ in range(10_000):
            message: dict[str, Any] = self.ws.receive_json()
            if message["type"] == "frame":
                self.reports.append(message["report"])
            elif message["type"] == "match":
                self.texts.extend(line["text"] for line in message["log"])
            elif message["type"] == "error":
                raise AssertionError(message["message"])
            elif message["type"] == "welcome":
                return message
        raise AssertionError("no welcome")

    def match(self) -> dict[str, Any]:
        self.ws.send_json({"type": "sync"})
        view: dict[str, Any] = self.read_until_welcome()["match"]
        return view

    def until(self, what: str, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            view = self.match()
            if ok(view):
                return view
            time.sleep(0.02)
        raise AssertionError(f"never {what}: {self.match()}")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def table(self) -> dict[str, Any]:
        """The newest frame of the table (after a sync)."""
        self.match()
        self.ws.send_json({"type": "sync"})
        self.read_until_welcome()
        for _ in range(100):  # the newest frame follows the welcome (a match view may come first)
            message: dict[str, Any] = self.ws.receive_json()
            if message["type"] == "frame":
                report: dict[str, Any] = message["report"]
                return report
        raise AssertionError("no frame after the welcome")


def throw(port: int, frames: list[tuple[float, bytes]], speed: float = 25.0) -> None:
    """A throw's datagrams over loopback UDP, `speed` times faster than the table moved."""
    send(port, [(t / speed, data) for t, data in frames])


def test_a_simulated_battle_over_udp_is_kept_by_the_live_match(tmp_path: Path) -> None:
    sim = TuioSim(seed=2, battles=1)
    with TestClient(in_process_app(tmp_path / "t.sqlite3", workers=1, rate=10_000,
                                    operator_token=OPERATOR)) as client:
        created = create_live(client, {"tuio_port": 0, "dice": "sample"})
        port = created["tuio_port"]
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            page = Page(ws)
            assert page.read_until_welcome()["match"]["phase"] == "idle"
            take_control(ws, created["control"])
            page.send({"type": "match", "do": "start"})
            view = page.until("a war", lambda v: v["phase"] == "call")
            assert view["battle"] == 1 and view["roller"] == 1  # the Klingon rolls (interp. 9)
            turns = []
            for step in sim.steps():
                if step.kind == "call":
                    page.send({"type": "match", "do": "call", "seat": step.seat,
                               "parity": step.parity})
                    page.until("the call", lambda v: v["phase"] != "call")
                    continue
                if step.kind == "clear":
                    throw(port, step.frames)
                    page.until("a clear table", lambda v: not v["ships_on_table"]
                               and v["phase"] == "call")
                    continue
                throw(port, step.frames)
                if step.die == "borg":
                    if "borg_reroll" in step.text or "rolled again" in step.text:
                        page.send({"type": "match", "do": "borg_off"})
                        page.until("the re-roll", lambda v: v["phase"] == "call")
                        continue
                    page.until("the Borg die at rest", lambda v: v["prompt"].startswith("Enter"))
                elif step.unseen:
                    page.send({"type": "match", "do": "unseen", "die": step.unseen})
                elif "may be thrown again" not in step.text:
                    seat, die = step.seat or 0, step.die
                    page.until(f"{die} thrown", lambda v, s=seat, d=die: d not in v["hands"][s])
                for die, value in step.faces.items():
                    page.send({"type": "set_value", "die": die, "value": value})
                view = page.until("the faces", lambda v: not v["missing"] or v["phase"] == "count")
                if view["phase"] == "throw":
                    turns.append(view["to_move"])
                if step.battle_over:
                    view = page.until("the battle's end", lambda v: v["phase"] == "count"
                                      and not v["missing"] and not v["moving"])
                    assert view["hands"] == [[], []]
                    seen = page.table()
                    page.send({"type": "match", "do": "score"})
                    view = page.until("the scoring", lambda v: v["phase"] == "call")
                    # the war holds what the table scored (FR Calculate your score, War)
                    assert view["battle_points"] == [seen["points"]] == [view["war"]]
                    assert view["battle"] == 2 and view["roller"] == 0
            assert len(turns) >= 10 and any(t == 0 for t in turns) and any(t == 1 for t in turns)
            texts = " ".join(page.texts)
            assert "goes first" in texts and "warps in" in texts and "Battle 1:" in texts


def test_the_command_sends_tuio_bundles_to_loopback_only(capsys: pytest.CaptureFixture[str]) -> None:
    """`playtable stardice tuio-sim`: one battle's stream arrives as TUIO 1.1 bundles a
    `TuioReceiver` commits, with the players' part printed; another host is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sink:
        sink.bind(("127.0.0.1", 0))
        sink.settimeout(0.01)
        port = sink.getsockname()[1]
        code, out, err = run_captured(capsys, "stardice", "tuio-sim", "--port", str(port),
                                      "--pause", "0", "--speed", "20", "--seed", "2")
        assert code == 0, err
        receiver = TuioReceiver()
        with contextlib.suppress(TimeoutError):
            while True:
                receiver.feed(sink.recv(65536), "sim", 0.0)
    assert receiver.stats.frames > 100 and receiver.stats.malformed == 0
    assert "Press 'Federation calls" in out or "Press 'Klingon calls" in out
    assert "Enter: borg shows" in out and out.rstrip().endswith("stops after 1 battle(s).")
    code, out, err = run_captured(capsys, "stardice", "tuio-sim", "--host", "192.0.2.1")
    assert code == 2 and "--any-host" in err


def test_bad_match_messages_change_nothing(tmp_path: Path) -> None:
    """Every malformed confirmation, and one the match cannot take now (no war, the roller's
    call, a score in the middle of the opening), gets one error; the match stays as it was."""
    with TestClient(in_process_app(tmp_path / "t.sqlite3", workers=1, rate=10_000,
                                    operator_token=OPERATOR)) as client:
        created = create_live(client, {"tuio_port": 0, "dice": "sample"})
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            page = Page(ws)
            page.read_until_welcome()
            take_control(ws, created["control"])
            bad: list[Any] = [
                {"type": "match"}, {"type": "match", "do": "win"},
                {"type": "match", "do": "call", "seat": 2, "parity": "odd"},
                {"type": "match", "do": "call", "seat": True, "parity": "odd"},
                {"type": "match", "do": "call", "seat": 0, "parity": "three"},
                {"type": "match", "do": "forfeit", "seat": 0, "why": "bored"},
                {"type": "match", "do": "unseen", "die": "x" * 200},
                {"type": "match", "do": "score"},  # no war yet
            ]
            started = [{"type": "match", "do": "call", "seat": 1, "parity": "odd"},  # the roller
                       {"type": "match", "do": "score"}, {"type": "match", "do": "borg_off"},
                       {"type": "match", "do": "unseen", "die": "F.d6a"},
                       {"type": "match", "do": "forfeit", "seat": 0, "why": "touch"}]
            for i, message in enumerate(bad + [{"type": "match", "do": "start"}] + started):
                before = page.match()
                ws.send_json(message)
                if message.get("do") == "start":
                    continue
                answer = ws.receive_json()
                while answer["type"] != "error":  # a frame or a view may come first
                    answer = ws.receive_json()
                assert answer["code"] == "bad_message" and "\n" not in answer["message"], i
                assert page.match() == before, message
