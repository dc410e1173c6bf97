"""TUIO 1.1 input (issue: real table input), from packets to live formations and scores, and
end to end over loopback UDP with a python-osc sender."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from pythonosc.udp_client import SimpleUDPClient

from playtable.core.errors import BadParameter
from playtable.tableinput.dicemap import parse_dice_map
from playtable.tableinput.listener import TuioListener, replay_recording
from playtable.tableinput.tracking import TuioTable

sys.path.insert(0, str(Path(__file__).parent))
from tuio_script import (  # noqa: E402
    DICE_MAP,
    bundle,
    cur_set,
    msg,
    obj_set,
    session,
)


def table(**kw: Any) -> TuioTable:
    return TuioTable(parse_dice_map(DICE_MAP), **kw)


def run(t: TuioTable, script: list[tuple[float, bytes]], tail: float = 1.0) -> None:
    last = 0.0
    for when, data in script:
        tick = last + 0.05
        while tick < when:
            t.tick(tick)
            tick += 0.05
        t.feed(data, "127.0.0.1:9", when)
        last = when
    t.tick(last + tail)


def test_scripted_session_scores_the_borg_formation() -> None:
    """Final rules scoring live: F.d20a 17, K.d20a 12 and the Borg 8 (3 pips) close a
    triangle: Federation owns it, 3 points + 3 Borg pips; F.d20b lies alone."""
    t = table()
    run(t, session())
    rep = t.last_report
    assert rep is not None
    assert rep["formations"] == [["F.d20a", "K.d20a", "borg"]]
    assert rep["points"] == [6, 0]
    assert t.stats.malformed == 1 and t.stats.late_frames == 1
    ids = {d["id"]: d for d in rep["dice"]}
    assert set(ids) == {"F.d20a", "F.d20b", "K.d20a", "borg"}  # split frame: all arrived
    assert ids["F.d20a"]["x"] == pytest.approx(0.3, abs=1e-6)  # the late frame was ignored


def test_late_repeated_and_restarted_frame_numbers() -> None:
    """Reference client: 0 < f < current within 100 is late (dropped); f == current is applied
    (split frames); a jump back by more than 100 is a restarted tracker (applied); -1 always."""
    t = table()
    t.feed(bundle("2Dobj", [1], [obj_set(1, 0, 0.2, 0.2)], 500), "a", 0.0)
    t.feed(bundle("2Dobj", [1], [obj_set(1, 0, 0.3, 0.2)], 450), "a", 0.1)
    assert t.tracks["F.d20a"].x == pytest.approx(0.2)
    t.feed(bundle("2Dobj", [1], [obj_set(1, 0, 0.35, 0.2)], 500), "a", 0.2)
    assert t.tracks["F.d20a"].x == pytest.approx(0.35)
    t.feed(bundle("2Dobj", [1], [obj_set(1, 0, 0.4, 0.2)], 3), "a", 0.3)
    assert t.tracks["F.d20a"].x == pytest.approx(0.4)
    t.feed(bundle("2Dobj", [1], [obj_set(1, 0, 0.45, 0.2)], -1), "a", 0.4)
    assert t.tracks["F.d20a"].x == pytest.approx(0.45)
    assert t.stats.late_frames == 1


def test_quiet_dice_are_never_timed_out_and_settle_without_packets() -> None:
    """SurfaceToTUIO sends nothing while dice lie still: the dice stay and still connect."""
    t = table()
    t.feed(bundle("2Dobj", [1, 2], [obj_set(1, 0, 0.2, 0.2), obj_set(2, 7, 0.4, 0.2)], 1), "a",
           0.0)
    assert t.last_report is not None and t.last_report["connections"] == []
    t.tick(0.5)
    assert t.engine.layout().edges == (("F.d20a", "K.d20a"),)
    t.tick(3600.0)
    assert set(t.tracks) == {"F.d20a", "K.d20a"}


def test_a_die_back_under_a_new_session_id_keeps_its_formation() -> None:
    """Objects that vanish (a hand passes over) and return with a new session id: a tagged die
    is its fiducial; within the grace time its formation never breaks."""
    t = table()
    tri = [obj_set(1, 0, 0.3, 0.4), obj_set(2, 7, 0.5, 0.4), obj_set(3, 14, 0.4, 0.55)]
    t.feed(bundle("2Dobj", [1, 2, 3], tri, 1), "a", 0.0)
    t.tick(0.5)
    assert len(t.engine.layout().formations) == 1
    t.feed(bundle("2Dobj", [1, 2], [], 2), "a", 0.6)  # the Borg vanishes
    assert len(t.engine.layout().formations) == 1
    t.feed(bundle("2Dobj", [1, 2, 9], [obj_set(9, 14, 0.401, 0.55)], 3), "a", 0.7)
    assert len(t.engine.layout().formations) == 1
    # gone for longer than the grace: it leaves
    t.feed(bundle("2Dobj", [1, 2], [], 4), "a", 0.8)
    t.feed(bundle("2Dobj", [1, 2], [], 5), "a", 1.2)
    assert "borg" not in t.tracks and t.engine.layout().formations == ()


def test_untagged_dice_as_blobs_or_cursors_configurable() -> None:
    """Dice may arrive as /tuio/2Dblb or /tuio/2Dcur: with 2Dcur configured as dice, cursors
    become (anonymous) dice; otherwise they are counted as touches."""
    t = table(dice_profiles=("2Dobj", "2Dcur"))
    t.feed(bundle("2Dcur", [5, 6], [cur_set(5, 0.2, 0.2), cur_set(6, 0.4, 0.2)], 1), "a", 0.0)
    t.tick(0.5)
    assert len(t.engine.layout().edges) == 1
    rep = t.last_report
    assert rep is not None and all(d["owner"] is None and not d["known"] for d in rep["dice"])
    # an anonymous die that vanishes and comes back nearby under a new id is the same die
    t.feed(bundle("2Dcur", [5], [], 2), "a", 0.6)
    t.feed(bundle("2Dcur", [5, 8], [cur_set(8, 0.401, 0.2)], 3), "a", 0.7)
    assert len(t.engine.layout().edges) == 1
    u = table()
    u.feed(bundle("2Dcur", [5], [cur_set(5, 0.2, 0.2)], 1), "a", 0.0)
    assert u.tracks == {} and u.last_report is not None and u.last_report["touches"] == 1
    blb = msg("2Dblb", "set", 4, 0.2, 0.3, 0.0, 0.02, 0.02, 0.0004, 0.0, 0.0, 0.0, 0.0, 0.0)
    u.feed(bundle("2Dblb", [4], [blb], 1), "a", 0.1)
    assert len(u.tracks) == 1


def test_velocities_are_computed_when_the_tracker_sends_none() -> None:
    t = table()
    t.feed(bundle("2Dobj", [1], [obj_set(1, 0, 0.2, 0.2)], 1), "a", 0.0)
    t.feed(bundle("2Dobj", [1], [obj_set(1, 0, 0.25, 0.2)], 2), "a", 0.1)
    assert t.tracks["F.d20a"].vx == pytest.approx(0.5)
    assert "F.d20a" not in t.engine.layout().settled
    t.feed(bundle("2Dobj", [1], [obj_set(1, 0, 0.3, 0.2, vx=0.0, vy=0.25)], 3), "a", 0.2)
    assert t.tracks["F.d20a"].vy == pytest.approx(0.25 * 0.75)  # the tracker's, in table units


def test_several_sources_at_once() -> None:
    """Two trackers with overlapping session ids (TUIO 1.1 source messages)."""
    t = table()
    t.feed(bundle("2Dobj", [1], [obj_set(1, 0, 0.2, 0.2)], 1, source="left@10.0.0.1"), "x",
           0.0)
    t.feed(bundle("2Dobj", [1], [obj_set(1, 7, 0.4, 0.2)], 1, source="right@10.0.0.2"), "x",
           0.0)
    assert set(t.tracks) == {"F.d20a", "K.d20a"}
    t.feed(bundle("2Dobj", [], [], 2, source="left@10.0.0.1"), "x", 1.0)
    t.tick(1.5)
    assert set(t.tracks) == {"K.d20a"}


def test_malformed_packets_are_counted_and_skipped() -> None:
    t = table()
    bad: list[bytes] = [
        b"", b"#bundle\x00", b"/tuio/2Dobj\x00",
        bundle("2Dobj", [1], [msg("2Dobj", "set", 1, 0, 0.2)], 1),  # too short
        bundle("2Dobj", [1], [msg("2Dobj", "set", "x", 0, 0.2, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0,
                                  0.0)], 2),
        bundle("2Dobj", [], [msg("2Dobj", "bogus")], 3),
        bytes(msg("2Dobj").dgram),  # a message with no command
    ]
    for data in bad:
        t.feed(data, "a", 0.0)
    assert t.stats.malformed >= 6
    # ints where floats belong (python-osc's typing gotcha) are read as numbers
    t.feed(bundle("2Dobj", [1], [msg("2Dobj", "set", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)], 4), "a",
           0.1)
    assert "F.d20a" in t.tracks


def test_dice_map_forms() -> None:
    m = parse_dice_map('{"0": "F.d20a", "12": {"die": "borg", "value": 16}}')
    assert m[12].die == "borg" and m[12].value == 16 and m[0].owner == 0
    assert parse_dice_map("3=K.d6b:4")[3].owner == 1
    for bad in ("x=F.d20a", "1=Q.d6", '{"a": 1}', "1=F.d6:x", "{nope"):
        with pytest.raises(BadParameter):
            parse_dice_map(bad)


def _send(port: int, script: list[tuple[float, bytes]]) -> None:
    client = SimpleUDPClient("127.0.0.1", port)
    start = time.monotonic()
    for when, data in script:
        delay = when - (time.monotonic() - start)
        if delay > 0:
            time.sleep(delay)
        client._sock.sendto(data, ("127.0.0.1", port))


def test_end_to_end_loopback_with_recording_and_replay(tmp_path: Path) -> None:
    """A python-osc sender plays the scripted session to a listener on 127.0.0.1 (a free
    port); the session is recorded, and the replay gives the same formations and points."""
    live = table()
    rec = tmp_path / "session.jsonl"
    listener = TuioListener(live, "127.0.0.1", 0, rec)
    port = listener.address[1]
    thread = threading.Thread(target=listener.serve, kwargs={"duration": 20.0})
    thread.start()
    try:
        _send(port, session())
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            rep = live.last_report
            if rep and rep["formations"] and live.stats.packets >= len(session()):
                break
            time.sleep(0.05)
    finally:
        listener.stop()
        thread.join(5)
    assert not thread.is_alive()
    assert live.last_report is not None
    assert live.last_report["formations"] == [["F.d20a", "K.d20a", "borg"]]
    assert live.last_report["points"] == [6, 0]
    lines = rec.read_text().splitlines()
    assert len(lines) == len(session())
    again = table()
    replay_recording(again, rec)
    assert again.last_report is not None
    assert again.last_report["formations"] == live.last_report["formations"]
    assert again.last_report["points"] == live.last_report["points"]


def test_cli_tuio_json_end_to_end() -> None:
    """`playtable stardice tuio --port 0 --json`: a subprocess listens on loopback, the sender
    plays the session, one JSON line comes out per committed frame."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "from playtable.cli import main; main()", "stardice", "tuio",
         "--port", "0", "--json", "--dice", DICE_MAP, "--duration", "6"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert first.startswith("listening on 127.0.0.1:"), first
        port = int(first.strip().rsplit(":", 1)[1])
        _send(port, session())
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    reports = [json.loads(line) for line in out.splitlines() if line.strip()]
    frames = [r for r in reports if not r.get("tick")]
    assert len(frames) == 9  # every committed frame (late and garbage ones are not)
    assert reports[-1]["formations"] == [["F.d20a", "K.d20a", "borg"]]
    assert reports[-1]["points"] == [6, 0]
    assert "1 malformed, 1 late" in err


def test_values_entered_by_the_players_and_a_map_file(tmp_path: Path) -> None:
    """Rolled values may come from the map or be entered by the players (set_value)."""
    path = tmp_path / "dice.json"
    path.write_text(json.dumps({"dice": {"0": "F.d20a", "7": "K.d20a", "14": "borg"}}))
    from playtable.tableinput.dicemap import load_dice_map

    t = TuioTable(load_dice_map(str(path)))
    tri = [obj_set(1, 0, 0.3, 0.4), obj_set(2, 7, 0.5, 0.4), obj_set(3, 14, 0.4, 0.55)]
    t.feed(bundle("2Dobj", [1, 2, 3], tri, 1), "a", 0.0)
    t.tick(0.5)
    assert t.last_report is not None and t.last_report["points"] == [0, 0]  # all zero: a tie
    t.set_value("F.d20a", 9)
    t.set_value("K.d20a", 20)
    t.set_value("borg", 16)
    t.feed(bundle("2Dobj", [1, 2, 3], [], -1), "a", 0.6)
    assert t.last_report["points"] == [0, 3 + 4]  # 20 beats the Borg's 16: +4 pips
    with pytest.raises(BadParameter):
        t.set_value("Z.d6", 3)
    with pytest.raises(BadParameter):
        load_dice_map(str(tmp_path / "missing.json"))


def test_cli_replays_a_recorded_session(tmp_path: Path) -> None:
    """`playtable stardice tuio --replay FILE --json` gives the same result without a socket;
    broken lines in the file are counted, not fatal."""
    import base64

    from click.testing import CliRunner

    from playtable.cli import cli

    rec = tmp_path / "s.jsonl"
    lines = [json.dumps({"t": t, "from": "127.0.0.1:9", "data": base64.b64encode(d).decode()})
             for t, d in session()]
    rec.write_text("\n".join(lines + ["not json"]) + "\n")
    png = tmp_path / "live.png"
    result = CliRunner().invoke(cli, ["stardice", "tuio", "--dice", DICE_MAP, "--replay",
                                      str(rec), "--json", "--picture", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:4] == b"\x89PNG"
    reports = [json.loads(x) for x in result.output.splitlines() if x.startswith("{")]
    assert reports[-1]["points"] == [6, 0]
    bad = CliRunner().invoke(cli, ["stardice", "tuio", "--dice", "7=Q.d6", "--replay", str(rec)])
    assert bad.exit_code != 0


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_args = st.one_of(st.integers(-5, 5), st.floats(width=32),
                  st.sampled_from(["set", "alive", "fseq", "source", "x"]), st.booleans())


@settings(deadline=None, max_examples=150)
@given(st.lists(st.one_of(
    st.binary(max_size=64),
    st.tuples(st.sampled_from(["2Dobj", "2Dcur", "2Dblb", "3Dobj"]),
              st.lists(_args, max_size=12)),
), max_size=12))
def test_property_garbage_never_crashes(packets: list[Any]) -> None:
    """Random bytes and random TUIO-looking messages: counted as malformed or applied, never a
    crash, and the layout keeps its invariants."""
    t = table(dice_profiles=("2Dobj", "2Dcur", "2Dblb"))
    for i, p in enumerate(packets):
        if isinstance(p, bytes):
            data = p
        else:
            profile, args = p
            data = bytes(msg(profile, *args).dgram)
        t.feed(data, "fuzz", 0.01 * i)
        t.tick(0.01 * i + 0.005)
    lay = t.engine.layout()
    assert all(lay.degree(k) <= 2 for k in lay.positions)
    assert t.stats.packets == len(packets)


_frame = st.tuples(
    st.lists(st.integers(0, 6), max_size=6, unique=True),  # alive
    st.lists(st.tuples(st.integers(0, 6), st.sampled_from([0, 1, 7, 14, 99]),
                       st.floats(-0.2, 1.2), st.floats(-0.2, 1.2)), max_size=6),  # sets
    st.integers(-1, 300),  # fseq
    st.sampled_from(["a", "b"]),  # source
)


@settings(deadline=None, max_examples=100)
@given(st.lists(_frame, min_size=1, max_size=25))
def test_property_random_tracker_streams_keep_invariants(frames: list[Any]) -> None:
    """Random (well-formed) streams from two sources with random frame numbers, appearing and
    vanishing objects: no crash, degree <= 2, no crossing, every die reported once."""
    from playtable.games.stardice.formation import segments_cross

    t = table()
    for i, (alive, sets, fseq, source) in enumerate(frames):
        data = bundle("2Dobj", alive, [obj_set(s, f, x, y * 0.75) for s, f, x, y in sets], fseq,
                      source=source)
        t.feed(data, "x", 0.1 * i)
        rep = t.last_report
        if rep is None:
            continue
        ids = [d["id"] for d in rep["dice"]]
        assert len(ids) == len(set(ids))
        lay = t.engine.layout()
        pos = lay.positions
        assert all(lay.degree(k) <= 2 for k in pos)
        for j, (a, b) in enumerate(lay.edges):
            for c, d in lay.edges[j + 1:]:
                assert not segments_cross(pos[a], pos[b], pos[c], pos[d])
    assert t.stats.malformed == 0
