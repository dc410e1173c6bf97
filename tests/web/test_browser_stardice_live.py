"""Star Dice's live table in a real browser: `playtable stardice table` with a
TUIO port, a python-osc sender on loopback UDP playing a recorded real-table session (the
shipped sample's first five dice: the Borg die, then four dice closing a square formation), and
the page drawing it.

* For EVERY committed TUIO frame, what the page drew (formations filled, strings, the numbers
  written on formations, the points) equals the engine's JSON for the same stream: a
  `TuioTable` fed the same datagrams offline at the times the server received them (the report's
  `t`: settling is timed, and a loaded machine delays datagrams), from
  `window.playtableLive.drawn`, keyed by frame.
* F.d12a's value is not in the dice map: the page shows "?" and the square is undecided until a
  tap on the die opens its picker and 9 is chosen (Federation 17 + 9 against Klingon 12 + 5: the
  Federation owns the square, 6 points; FR "Calculate your score"); entering 1 for F.d20a gives
  it to the Klingons. The Borg die's picker offers its own faces.
* A finger (a 2Dcur cursor) on the table while a die moves is flagged as a foul, dismissable;
  the Borg die leaving the table is announced.
* The page's Record button records the stream under the server's directory; the recording,
  replayed from the lobby's API, drives a page the same way (every committed frame again).

Screenshots (live table with its formation; the picker open) go to `$PLAYTABLE_SCREENSHOTS`,
else the test's temporary directory.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx2
from tests.tableinput.tuio_script import bundle, cur_set, obj_set
from tests.web.browser_support import new_page
from tests.web.live_support import (
    DICE,
    OPERATOR,
    OPERATOR_HEADERS,
    LiveServer,
    as_received,
    engine_reports,
    expected_drawing,
    live_server,
    send,
    write_recording,
)
from tests.web.test_browser_stardice import _to_page as to_page

from playtable.tableinput.listener import read_recording
from playtable.tableinput.samples import build_session

SESSION = build_session()[:40]  # the Borg die, then F.d20a, K.d20a, F.d12a, K.d8a (a square)
SQUARE = ["F.d12a", "F.d20a", "K.d20a", "K.d8a"]
ALL_SIDS = [100, 101, 102, 103, 104]  # the sample's session ids: borg, F.d20a, K.d20a, F.d12a, K.d8a


def extras() -> list[tuple[float, bytes]]:
    """A finger on the table while F.d20a is nudged (a foul to flag), the finger lifted, then
    the Borg die gone from the alive list (it left the table)."""
    src = "sample-table"
    return [
        (0.0, bundle("2Dcur", [900], [cur_set(900, 0.25, 0.3)], 1, source="finger")),
        (0.05, bundle("2Dobj", ALL_SIDS, [obj_set(101, 0, 0.28, 0.25)], 41, source=src)),
        (0.10, bundle("2Dobj", ALL_SIDS, [obj_set(101, 0, 0.27, 0.25)], 42, source=src)),
        (0.6, bundle("2Dcur", [], [], 2, source="finger")),
        (1.2, bundle("2Dobj", ALL_SIDS[1:], [], 43, source=src)),
        (1.8, bundle("2Dobj", ALL_SIDS[1:], [], 44, source=src)),
    ]


def drawn(page: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate("window.playtableLive.drawn")
    return out


def wait_frame(page: Any, frame: int) -> None:
    page.wait_for_function(
        f"window.playtableLive.drawn.some((d) => d.frame >= {frame} && d.source !== 'value')")


def check_every_frame(page: Any, reports: list[dict[str, Any]]) -> None:
    """Every committed frame of the engine's JSON was drawn, and drawn as the JSON says."""
    by_frame = {d["frame"]: d for d in drawn(page) if not d["tick"] and d["source"] != "value"}
    assert reports
    for report in reports:
        got = by_frame.get(report["frame"])
        assert got is not None, f"frame {report['frame']} was never drawn"
        want = expected_drawing(report)
        assert {k: got[k] for k in want} == want, f"frame {report['frame']}"


def tap_die(page: Any, report: dict[str, Any], die: str) -> None:
    x, y = next((d["x"], d["y"]) for d in report["dice"] if d["id"] == die)
    box = page.locator(".live-canvas").bounding_box()
    page.mouse.click(*to_page(box, x, y))
    page.wait_for_selector(f'.live-picker[data-die="{die}"]')


def choose(page: Any, die: str, value: int, points: list[int]) -> None:
    page.locator(f'.live-picker[data-die="{die}"] button[data-value="{value}"]').click()
    page.wait_for_function(
        "window.playtableLive.drawn.some((d) => d.source === 'value' && "
        f"d.values['{die}'] === {value} && d.points.join() === '{points[0]},{points[1]}')")


def test_a_tuio_stream_drives_the_live_page(chromium: Any, tmp_path: Path) -> None:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    with live_server(tmp_path) as server:
        page = new_page(chromium, 1280, 860)
        page.goto(server.url + f"/live/main#control={OPERATOR}")
        page.wait_for_function("window.playtableLive.controls && window.playtableLive.welcome")
        page.locator(".live-record").click()
        page.wait_for_function("document.querySelector('.live-record').textContent === 'Stop recording'")

        send(server.tuio_port, SESSION)
        wait_frame(page, len(SESSION))
        page.wait_for_function("window.playtableLive.drawn.at(-1).formations.length === 1")
        last = page.evaluate("window.playtableLive.drawn.at(-1)")
        assert last["values"]["F.d12a"] is None and last["labels"] == ["6 ?"]
        assert last["points"] == [0, 0]  # the square waits for F.d12a's value
        assert "F.d12a" in page.locator(".live-unknown").inner_text()
        report = httpx2.get(server.url + "/api/live/main", timeout=10).json()
        assert report["id"] == "main"

        # values by taps (the seed's "hotkey the rolled dice values")
        positions = {"dice": [{"id": d, "x": x, "y": y} for d, (x, y) in
                              {"F.d12a": (0.5, 0.45), "F.d20a": (0.3, 0.25), "borg": (0.78, 0.40)}.items()]}
        tap_die(page, positions, "borg")
        faces = page.locator('.live-picker[data-die="borg"] button[data-value]').all_inner_texts()
        assert faces == ["8·3", "16·4", "24·5", "32·6"]
        page.locator(".live-picker .close").click()
        tap_die(page, positions, "F.d12a")
        page.screenshot(path=str(shots / "stardice-live-picker.png"))
        choose(page, "F.d12a", 9, [6, 0])  # Federation 17 + 9 > Klingon 12 + 5
        assert drawn(page)[-1]["labels"] == ["6 F"]
        page.screenshot(path=str(shots / "stardice-live-table.png"))
        tap_die(page, positions, "F.d20a")
        choose(page, "F.d20a", 1, [0, 6])  # Federation 1 + 9 < Klingon 12 + 5

        # a foul (a finger while a die moves) and the Borg die leaving
        more = extras()
        send(server.tuio_port, more)
        page.wait_for_selector(".live-alert.foul")
        page.wait_for_selector(".live-alert.borg_left")
        assert "F.d20a moved" in page.locator(".live-alert.foul").inner_text()
        page.locator(".live-alert.foul button").click()
        assert page.locator(".live-alert.foul").count() == 0
        wait_frame(page, len(SESSION) + len(more))

        # the engine's JSON for the same stream, received when the server received it, values
        # entered at the same point
        log = drawn(page)
        values = [(d["t"], die, d["values"][die]) for d, die in
                  zip([d for d in log if d["source"] == "value"], ["F.d12a", "F.d20a"], strict=True)]
        reports = _engine_with_values(as_received(SESSION, log), values,
                                      as_received(more, log, len(SESSION) + 1))
        check_every_frame(page, reports)

        page.locator(".live-record").click()
        page.wait_for_function("document.querySelector('.live-record').textContent === 'Record'")
        name = page.locator(".live-status").inner_text().split()[-1]
        recorded = server.record_dir / name
        assert recorded.exists() and len(recorded.read_text().splitlines()) == len(SESSION) + len(more)
        assert not page.script_errors, page.script_errors
        page.context.close()
        _replayed_the_same_way(chromium, server, name, recorded)


def _engine_with_values(session: list[tuple[float, bytes]], values: list[tuple[float, str, int]],
                        more: list[tuple[float, bytes]]) -> list[dict[str, Any]]:
    """The engine's JSON for one timeline, as the server lived it: the session's datagrams, the
    values entered when the page entered them, then the extras, with the quiet-time ticks
    between (settling is timed)."""
    from playtable.games.stardice.params import StarDiceParams
    from playtable.tableinput.dicemap import parse_dice_map
    from playtable.tableinput.listener import QuietTicks
    from playtable.tableinput.tracking import TuioTable

    params = StarDiceParams()
    reports: list[dict[str, Any]] = []
    table = TuioTable(parse_dice_map(DICE), params.formation_params(), params.scoring_rules(),
                      borg_faces=params.borg_faces, borg_pips=params.borg_pips,
                      on_frame=reports.append)
    ticks = QuietTicks(table)
    for t, data in session:
        ticks.run(t)
        table.feed(data, "127.0.0.1:3333", t)
        ticks.heard(t)
    for t, die, value in values:
        ticks.run(t)
        table.enter_value(die, value, t)
    for t, data in more:
        ticks.run(t)
        table.feed(data, "127.0.0.1:3333", t)
        ticks.heard(t)
    return [r for r in reports if not r.get("tick") and r["source"] != "value"]


def _replayed_the_same_way(chromium: Any, server: LiveServer, name: str, recorded: Path) -> None:
    """The page's recording, replayed (real time) from the lobby's API, drives a new page the same
    way: every committed frame drawn as the engine's JSON for that recording says."""
    listing = httpx2.get(server.url + "/api/live", timeout=10).json()
    assert name in listing["recordings"]
    page = new_page(chromium, 1024, 700)
    # the replay starts when its first page connects: that page sees every frame
    answer = httpx2.post(server.url + "/api/live", json={"replay": name, "dice": DICE},
                        headers=OPERATOR_HEADERS, timeout=10)
    assert answer.status_code == 201, answer.text
    page.goto(server.url + answer.json()["url"])
    datagrams = [(t, data) for t, _, data in read_recording(recorded) if data is not None]
    wait_frame(page, len(datagrams))
    page.wait_for_function("document.querySelector('.live-status').textContent === 'Replay finished'")
    check_every_frame(page, engine_reports(write_recording(
        recorded.with_suffix(".as-received.jsonl"), as_received(datagrams, drawn(page)))))
    assert not page.script_errors, page.script_errors
    page.context.close()


def test_a_live_table_started_from_the_operator_page(chromium: Any, web_server: Any, tmp_path: Path) -> None:
    """The operator page's form starts a live table on a TUIO port; its control link opens its
    page, which, on a touch screen, draws the
    stream (the tableinput test script: a triangle of F.d20a, K.d20a and the Borg die, 3 points
    + 3 pips) and takes a value by a finger's tap."""
    from tests.tableinput.tuio_script import DICE_MAP, session
    from tests.web.server_process import free_port

    port = free_port()
    page = new_page(chromium, 900, 700, touch=True)  # a touch screen: the value is tapped in
    page.goto(web_server.url + f"/operator#token={OPERATOR}")
    page.locator("#live-port").fill(str(port))
    page.locator("#live-dice").fill(DICE_MAP)
    page.locator(".live-form button[type=submit]").click()
    page.locator(".live-message a").click()
    page.wait_for_function("window.playtableLive && window.playtableLive.connected")
    script = session()
    send(port, script)
    reports = engine_reports(write_recording(tmp_path / "s.jsonl", script), DICE_MAP)
    wait_frame(page, reports[-1]["frame"])
    page.wait_for_function("window.playtableLive.drawn.at(-1).points.join() === '6,0'")
    assert drawn(page)[-1]["formations"] == [["F.d20a", "K.d20a", "borg"]]
    box = page.locator(".live-canvas").bounding_box()
    page.touchscreen.tap(*to_page(box, 0.95, 0.05))  # F.d20b, alone in a corner
    page.locator('.live-picker[data-die="F.d20b"] button[data-value="5"]').tap()
    page.wait_for_function("window.playtableLive.drawn.some((d) => d.values['F.d20b'] === 5)")
    assert drawn(page)[-1]["points"] == [6, 0]  # a lone die scores nothing
    # Pause holds the newest frame (a finger's, changing nothing) until Resume draws it
    page.locator(".live-bar button", has_text="Pause").tap()
    before = len(drawn(page))
    send(port, [(0.0, bundle("2Dcur", [900], [cur_set(900, 0.6, 0.6)], 1))])
    page.wait_for_function(f"window.playtableLive.heldSeq > {drawn(page)[-1]['seq']}")
    assert len(drawn(page)) == before
    page.locator(".live-bar button", has_text="Resume").tap()
    page.wait_for_function("window.playtableLive.drawn.at(-1).seq === window.playtableLive.heldSeq")
    assert not page.script_errors, page.script_errors
    # the operator closes it from the operator page: the table's page is told, the port freed
    operator = new_page(chromium, 900, 700)
    operator.goto(web_server.url + f"/operator#token={OPERATOR}")
    operator.locator(".live-row .live-close").first.click()
    operator.locator(".live-message", has_text="Closed live table").wait_for()
    page.locator(".live-status", has_text="the operator closed this table").wait_for()
    assert httpx2.get(web_server.url + "/api/live", timeout=10).json()["tables"] == []
    assert not operator.script_errors, operator.script_errors
    operator.context.close()
    page.context.close()
