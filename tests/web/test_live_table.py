"""Live Star Dice tables on the server, without a browser: a TUIO stream sent
over loopback UDP by python-osc reaches a page's WebSocket as one frame per report of the
engine; every bad page message or lobby request gets one clear error and changes nothing; the
page's recordings go under the server's directory only; the command refuses a busy port or a
bad replay file in one line (exit status 2)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.cli.cli_runner import run_captured
from tests.tableinput.tuio_script import DICE_MAP, session
from tests.web.conftest import in_process_app
from tests.web.live_support import (
    OPERATOR,
    OPERATOR_HEADERS,
    as_received,
    create_live,
    engine_reports,
    send,
    take_control,
    write_recording,
)
from tests.web.server_process import free_port


def frames_until(ws: Any, frame: int, limit: int = 500) -> list[dict[str, Any]]:
    """Messages until a frame message whose report is committed frame `frame` (bounded)."""
    out = []
    for _ in range(limit):
        message = ws.receive_json()
        out.append(message)
        if message["type"] == "frame" and message["report"]["frame"] >= frame \
                and not message["report"].get("tick"):
            return out
    raise AssertionError(f"frame {frame} never came")


def test_a_udp_stream_reaches_the_page_frame_by_frame(tmp_path: Path) -> None:
    script = session()
    last_frame = engine_reports(write_recording(tmp_path / "s.jsonl", script), DICE_MAP)[-1]["frame"]
    with TestClient(in_process_app(tmp_path / "t.sqlite3", record_dir=tmp_path / "rec",
                                    operator_token=OPERATOR)) as client:
        created = create_live(client, {"tuio_port": 0, "dice": DICE_MAP})
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome"
            assert {d["id"] for d in welcome["dice"]} == {"F.d20a", "F.d20b", "K.d20a", "borg"}
            send(created["tuio_port"], script)
            got = frames_until(ws, last_frame)
            # the engine's JSON for the stream as the server received it (settling is timed)
            logged = [{**m["report"], "tick": m["report"].get("tick", False)}
                      for m in got if m["type"] == "frame"]
            reports = engine_reports(write_recording(tmp_path / "r.jsonl", as_received(script, logged)),
                                     DICE_MAP)
            seqs = [m["seq"] for m in got if m["type"] == "frame"]
            assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
            by_frame = {m["report"]["frame"]: m["report"] for m in got
                        if m["type"] == "frame" and not m["report"].get("tick")}
            for report in reports:  # every committed frame, one message each, as the engine has it
                sent = by_frame[report["frame"]]
                for key in ("formations", "strings", "connections", "points", "shapes"):
                    assert sent[key] == report[key], (report["frame"], key)
                assert [d["id"] for d in sent["dice"]] == [d["id"] for d in report["dice"]]
            message = next(m for m in reversed(got) if m["type"] == "frame")
            assert message["report"]["formations"] == [["F.d20a", "K.d20a", "borg"]]
            assert message["report"]["points"] == [6, 0]  # FR: 3 points + 3 Borg pips


def test_bad_input_changes_nothing(tmp_path: Path) -> None:
    with TestClient(in_process_app(tmp_path / "t.sqlite3", record_dir=tmp_path / "rec",
                                    operator_token=OPERATOR)) as client:
        created = create_live(client, {"tuio_port": 0, "dice": DICE_MAP})
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            assert ws.receive_json()["type"] == "welcome"
            take_control(ws, created["control"])
            for bad in ({"type": "set_value", "die": "F.d20a", "value": 21},
                        {"type": "set_value", "die": "F.d4a", "value": 1},
                        {"type": "set_value", "die": "borg", "value": 17},
                        {"type": "set_value", "die": "F.d20a", "value": True},
                        {"type": "set_value", "die": "F.d20a"},
                        {"type": "record", "on": "yes"}, {"type": "record", "on": False},
                        {"type": "act", "action": "roll"}, ["not", "an", "object"]):
                ws.send_json(bad)
                answer = ws.receive_json()
                assert answer["type"] == "error" and answer["code"] == "bad_message", (bad, answer)
                assert "\n" not in answer["message"]
        for body in ({"dice": DICE_MAP}, {"tuio_port": 80}, {"replay": "../../etc/passwd"},
                     {"replay": "nothing.jsonl"}, {"replay": "sample", "dice": "/etc/passwd"},
                     {"tuio_port": 0, "x": 1}, {"tuio_port": 0, "variant": "nope"}, [1]):
            answer = client.post("/api/live", json=body, headers=OPERATOR_HEADERS)
            assert answer.status_code == 400 and answer.json()["error"], body
        assert len(client.get("/api/live").json()["tables"]) == 1


def test_recordings_go_under_the_servers_directory(tmp_path: Path) -> None:
    records = tmp_path / "rec"
    with TestClient(in_process_app(tmp_path / "t.sqlite3", record_dir=records,
                                    operator_token=OPERATOR)) as client:
        created = create_live(client, {"tuio_port": 0, "dice": DICE_MAP})
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            ws.receive_json()
            take_control(ws, created["control"])
            ws.send_json({"type": "record", "on": True})
            started = ws.receive_json()
            assert started["type"] == "recording" and started["on"]
            ws.send_json({"type": "record", "on": True})
            assert ws.receive_json()["code"] == "bad_message"  # one recording at a time
            send(created["tuio_port"], session()[:3])
            for _ in range(3):  # the datagrams arrived (frames came back)
                while ws.receive_json()["type"] != "frame":
                    pass
            ws.send_json({"type": "record", "on": False})
            while (stopped := ws.receive_json())["type"] != "recording":
                pass
        path = records / started["file"]
        assert path.parent == records and len(path.read_text().splitlines()) == 3
        assert started["file"] in client.get("/api/live").json()["recordings"]
        again = client.post("/api/live", json={"replay": started["file"], "dice": DICE_MAP},
                            headers=OPERATOR_HEADERS)
        assert again.status_code == 201 and not stopped["on"]
    # no directory: no recording
    with TestClient(in_process_app(tmp_path / "t.sqlite3", operator_token=OPERATOR)) as client:
        created = create_live(client, {"tuio_port": 0, "dice": DICE_MAP})
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            assert ws.receive_json()["recording"]["available"] is False
            take_control(ws, created["control"])
            ws.send_json({"type": "record", "on": True})
            assert "--record-dir" in ws.receive_json()["message"]


@pytest.mark.parametrize("kind", ["web", "tuio"])
def test_the_command_refuses_a_busy_port_in_one_line(kind: str, capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    sock_type = socket.SOCK_STREAM if kind == "web" else socket.SOCK_DGRAM
    with socket.socket(socket.AF_INET, sock_type) as holder:
        holder.bind(("127.0.0.1", 0))
        if kind == "web":
            holder.listen()
        busy = holder.getsockname()[1]
        web, tuio = (busy, free_port()) if kind == "web" else (free_port(), busy)
        code, out, err = run_captured(capsys, "stardice", "table", "--port", str(web),
                                      "--tuio-port", str(tuio), "--db", str(tmp_path / "t.db"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"127.0.0.1:{busy}" in err and "cannot listen" in err


def test_the_command_refuses_a_bad_replay_file(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("this is not a recording\n")
    for bad in (junk, tmp_path / "missing.jsonl"):
        code, out, err = run_captured(capsys, "stardice", "table", "--replay", str(bad),
                                      "--db", str(tmp_path / "t.db"))
        assert code == 2 and out == "" and err.count("\n") == 1 and str(bad.name) in err


def test_a_slow_page_skips_to_the_newest_frames() -> None:
    """Frames wait in a bounded queue per page (the oldest dropped); other messages never are."""
    import asyncio

    from playtable.web.server.live.live import FRAMES_KEPT, LiveConnection

    conn = LiveConnection()
    conn.push({"type": "live_event", "kind": "foul"})
    for seq in range(FRAMES_KEPT + 10):
        conn.push_frame({"type": "frame", "seq": seq})
    got = asyncio.run(conn.next_messages())
    assert got[0]["type"] == "live_event"
    assert [m["seq"] for m in got[1:]] == list(range(10, FRAMES_KEPT + 10))
