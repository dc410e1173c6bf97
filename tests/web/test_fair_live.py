"""Live Star Dice tables are the operator's (docs/web.md, "Live tables are the operator's"): a web
client without the operator token starts none, controls none (match, record, values) and closes
none; the operator closes them, an idle one closes by itself, and a table's recordings are
bounded (and a full disk stops a recording, never the table). Junk datagrams are counted and
noted in the log once every few seconds, never logged whole (python-osc logs each element of a
bundle that is no message, on the root logger)."""

from __future__ import annotations

import asyncio
import logging
import socket
import struct
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.cli.cli_runner import run_captured
from tests.tableinput.tuio_script import DICE_MAP, bundle, obj_set
from tests.web.conftest import in_process_app
from tests.web.live_support import OPERATOR, OPERATOR_HEADERS, create_live, take_control
from tests.web.test_people import receive_until

from playtable.tableinput.dicemap import parse_dice_map
from playtable.tableinput.tuio import MALFORMED_LOG_SECONDS, TuioReceiver
from playtable.web.server.live.live import (
    RECORDINGS_PER_TABLE,
    LiveConnection,
    LiveSpec,
    LiveTable,
    LiveTables,
)


def operator_app(tmp_path: Path, **options: Any) -> Any:
    return in_process_app(tmp_path / "t.sqlite3", rate=10_000, operator_token=OPERATOR,
                          record_dir=tmp_path / "rec", **options)


def test_a_stranger_starts_no_live_table(tmp_path: Path) -> None:
    body = {"tuio_port": 0, "dice": DICE_MAP}
    with TestClient(operator_app(tmp_path)) as client:
        for headers in ({}, {"Authorization": "Bearer not-the-token-at-all-0000"},
                        {"Authorization": f"Basic {OPERATOR}"},
                        {"Authorization": f"Bearer {OPERATOR[:-1]}"}):
            answer = client.post("/api/live", json=body, headers=headers)
            assert answer.status_code == 403 and "operator" in answer.json()["error"], headers
        assert client.get("/api/live").json()["tables"] == []
        created = create_live(client, body)
        assert created["control"] and created["tuio_port"]
    # a server given no operator token starts none from the web, whatever is presented
    with TestClient(in_process_app(tmp_path / "u.sqlite3")) as client:
        answer = client.post("/api/live", json=body, headers=OPERATOR_HEADERS)
        assert answer.status_code == 403 and "playtable stardice table" in answer.json()["error"]


def test_a_stranger_controls_no_live_table_and_never_sees_its_token(tmp_path: Path) -> None:
    with TestClient(operator_app(tmp_path)) as client:
        created = create_live(client, {"tuio_port": 0, "dice": DICE_MAP})
        token = created["control"]
        listing = client.get("/api/live")
        one = client.get(f"/api/live/{created['id']}")
        for answer in (listing, one):
            assert token not in answer.text and OPERATOR not in answer.text
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            welcome = receive_until(ws, "welcome")
            assert token not in str(welcome) and OPERATOR not in str(welcome)
            ws.send_json({"type": "control", "token": "a-guess-at-the-token-000"})
            assert receive_until(ws, "error")["code"] == "forbidden"
            for message in ({"type": "match", "do": "start"}, {"type": "record", "on": True},
                            {"type": "set_value", "die": "F.d20a", "value": 3}):
                ws.send_json(message)
                answer = receive_until(ws, "error")
                assert answer["code"] == "forbidden", (message, answer)
            ws.send_json({"type": "sync"})
            again = receive_until(ws, "welcome")
            assert again["match"]["phase"] == "idle" and not again["recording"]["on"]
        assert not (tmp_path / "rec").exists() or not list((tmp_path / "rec").iterdir())
        # the table's own token, and the operator's, control it; the operator's listing has it
        for presented in (token, OPERATOR):
            with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
                receive_until(ws, "welcome")
                take_control(ws, presented)
                ws.send_json({"type": "sync"})
                assert receive_until(ws, "welcome")["type"] == "welcome"
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            receive_until(ws, "welcome")
            take_control(ws, token)
            ws.send_json({"type": "match", "do": "start"})
            assert receive_until(ws, "match")["phase"] != "idle"
        shown = client.get("/api/live", headers=OPERATOR_HEADERS).json()["tables"]
        assert [t["control"] for t in shown] == [token]


def test_the_operator_closes_a_table_and_frees_its_port(tmp_path: Path) -> None:
    with TestClient(operator_app(tmp_path)) as client:
        created = create_live(client, {"tuio_port": 0, "dice": DICE_MAP})
        other = create_live(client, {"tuio_port": 0, "dice": DICE_MAP})
        address = f"/api/live/{created['id']}"
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            receive_until(ws, "welcome")
            for headers in ({}, {"Authorization": f"Bearer {other['control']}"}):
                assert client.delete(address, headers=headers).status_code == 403
            assert client.get(address).status_code == 200
            assert client.delete(address, headers={"Authorization": f"Bearer {created['control']}"}
                                 ).status_code == 204
            assert "closed" in receive_until(ws, "closed")["message"]
        assert client.get(address).status_code == 404
        assert client.delete(address, headers=OPERATOR_HEADERS).status_code == 404
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.bind(("127.0.0.1", created["tuio_port"]))  # the table's UDP port is free again
        assert client.delete(f"/api/live/{other['id']}", headers=OPERATOR_HEADERS).status_code == 204
        assert client.get("/api/live").json()["tables"] == []


def test_an_idle_table_closes_and_a_command_line_table_stays(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        tables = LiveTables(None, idle_seconds=0.2)
        dice = parse_dice_map(DICE_MAP)
        try:
            await tables.create(LiveSpec(dice, tuio_port=0), "web")
            await tables.create(LiveSpec(dice, tuio_port=0, expires=False), "main")
            watched = await tables.create(LiveSpec(dice, tuio_port=0), "watched")
            page = watched.connect()  # a page open keeps a table
            before = sorted(tables.tables)
            for _ in range(200):  # bounded: the reaper looks every 0.05 s here
                if "web" not in tables.tables:
                    break
                await asyncio.sleep(0.05)
            after = sorted(tables.tables)
            watched.leave(page)
            return before, after
        finally:
            await tables.close()

    before, after = asyncio.run(scenario())
    assert before == ["main", "watched", "web"] and after == ["main", "watched"]


def test_a_tables_recordings_are_bounded(tmp_path: Path) -> None:
    with TestClient(operator_app(tmp_path)) as client:
        created = create_live(client, {"tuio_port": 0, "dice": DICE_MAP})
        with client.websocket_connect(f"/ws/live/{created['id']}") as ws:
            receive_until(ws, "welcome")
            take_control(ws, created["control"])
            refused = None
            for _ in range(RECORDINGS_PER_TABLE + 5):
                ws.send_json({"type": "record", "on": True})
                answer = ws.receive_json()
                if answer["type"] == "error":
                    refused = answer
                    break
                ws.send_json({"type": "record", "on": False})
                receive_until(ws, "recording")
        assert refused is not None and str(RECORDINGS_PER_TABLE) in refused["message"]
        assert len(list((tmp_path / "rec").iterdir())) == RECORDINGS_PER_TABLE


def junk_bundle(n: int) -> bytes:
    """A bundle whose one element is no OSC message (python-osc logs such a datagram whole)."""
    element = b"junk" + struct.pack(">I", n) + b"\xff" * 1000
    return b"#bundle\x00" + b"\x00" * 7 + b"\x01" + struct.pack(">i", len(element)) + element


def unknown_tags(n: int) -> bytes:
    """A message with 200 type tags python-osc does not know (it logs a line for each)."""
    return b"/tuio/2Dobj\x00" + b"," + b"Z" * 200 + b"\x00" * 3 + struct.pack(">I", n)


def test_junk_datagrams_are_counted_and_noted_once_every_few_seconds(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = [100.0]
    receiver = TuioReceiver(clock=lambda: clock[0])
    good = bundle("2Dobj", [1], [obj_set(1, 0, 0.3, 0.4)], 1)
    with caplog.at_level(logging.DEBUG):
        for n in range(1000):
            receiver.feed(junk_bundle(n) if n % 2 else unknown_tags(n), "127.0.0.1:9", 0.01 * n)
            clock[0] += 0.001  # 1,000 datagrams within one second
        receiver.feed(good, "127.0.0.1:9", 10.0)
        clock[0] += MALFORMED_LOG_SECONDS
        receiver.feed(junk_bundle(0), "127.0.0.1:9", 10.1)
    assert receiver.stats.malformed == 1001
    assert receiver.sources[("127.0.0.1:9", "2Dobj")].objects  # good datagrams still count
    assert all(len(r.getMessage()) < 400 and "\\xff" not in r.getMessage() for r in caplog.records)
    notes = [r.getMessage() for r in caplog.records]
    assert len(notes) == 2, notes[:3]
    assert notes[0].startswith("TUIO: 1 malformed") and notes[1].startswith("TUIO: 1000 malformed")


def test_a_full_disk_stops_the_recording_and_the_table_goes_on(tmp_path: Path) -> None:
    """The page's recording and the command line's --record file fail as on a full disk
    (/dev/full: ENOSPC): each stops (the page is told), every datagram is still tracked."""
    from tests.tableinput.tuio_script import session

    async def scenario() -> tuple[LiveTable, LiveConnection, list[dict[str, Any]]]:
        table = LiveTable("disk", LiveSpec(parse_dice_map(DICE_MAP), tuio_port=None),
                          tmp_path / "rec")
        page = table.connect()
        table.start_recording()
        assert table.recording is not None
        table.recording.close()
        table.recording = open("/dev/full", "w", encoding="utf-8")  # noqa: SIM115 - the table closes it
        table.whole = open("/dev/full", "w", encoding="utf-8", buffering=1)  # noqa: SIM115
        sent = session()
        for _, data in sent:
            table.datagram(data, "127.0.0.1:3333")
        table._flush()  # as the table's tick does every 0.05 s
        messages = list(page.outbox)
        await table.close()
        return table, page, messages

    table, page, messages = asyncio.run(scenario())
    scratch = TuioReceiver()
    for t, data in session():
        scratch.feed(data, "127.0.0.1:1", t)
    assert table.tuio.stats.frames == scratch.stats.frames
    assert table.recording is None and table.whole is None
    stopped = [m for m in messages if m["type"] == "recording" and not m["on"]]
    assert stopped and "No space left" in stopped[-1]["note"]


def test_a_chosen_operator_token_must_be_long_and_url_safe(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    for bad in ("short", "with spaces in it, long enough", "x" * 129):
        for command in (("serve",), ("stardice", "table")):
            code, _, err = run_captured(capsys, *command, "--operator-token", bad,
                                        "--db", str(tmp_path / "t.db"))
            assert code == 2 and "operator token" in err, (command, bad, err)
