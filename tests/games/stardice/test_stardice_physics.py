"""The table simulation (pymunk): die types, knocking, falling off, determinism (seed 002,
iteration 3: "The d4 is hard to knock because it won't roll, but the d20 is easy to knock")."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from playtable.cli import cli
from playtable.core.records import Record, replay
from playtable.games.stardice.physics import (
    Launch,
    Piece,
    TableGeometry,
    simulate,
    speed_for_distance,
    stopping_distance,
)


def test_same_inputs_same_table() -> None:
    table = [Piece(f"F.d6{c}", "d6", 0.3 + 0.1 * i, 0.4) for i, c in enumerate("abc")]
    launch = Launch(Piece("K.d20a", "d20", 0.45, -0.03), 0.1, 1.6, 3.0)
    a, b = simulate(table, launch), simulate(table, launch)
    assert a.pieces == b.pieces and a.steps == b.steps and a.moved == b.moved


def test_iteration3_the_d4_barely_rolls_the_d20_rolls_far() -> None:
    """Thrown alike, a d20 travels several times as far as a d4."""
    far = simulate([], Launch(Piece("x", "d20", 0.1, -0.03), 0.0, 1.0, 0.0)).pieces["x"]
    near = simulate([], Launch(Piece("x", "d4", 0.1, -0.03), 0.0, 1.0, 0.0)).pieces["x"]
    assert far.y - (-0.03) > 5 * (near.y - (-0.03))
    assert abs(stopping_distance("d20", 1.0) - (far.y + 0.03)) < 0.02
    assert abs(stopping_distance("d20", speed_for_distance("d20", 0.4)) - 0.4) < 1e-9


def test_iteration3_the_d20_is_easy_to_knock_the_d4_hard() -> None:
    """The same hit sends a resting d20 much farther than a resting d4."""
    moved = {}
    for kind in ("d4", "d20"):
        r = simulate([Piece("t", kind, 0.5, 0.3)],
                     Launch(Piece("x", "d12", 0.5, -0.03), 0.0, 1.6, 0.0))
        assert "t" in r.moved
        moved[kind] = r.pieces["t"].y - 0.3 if "t" in r.pieces else 1.0
    assert moved["d20"] > 2 * moved["d4"]


def test_off_the_table_and_detection() -> None:
    """No borders (iteration 7): a die that runs past the frame falls off; a die thrown away
    from the surface is never detected."""
    r = simulate([], Launch(Piece("x", "d20", 0.5, -0.03), 0.0, 3.0, 0.0))
    assert r.off_table == ["x"] and r.detected
    r = simulate([], Launch(Piece("x", "d20", 0.5, -0.03), 0.0, -1.0, 0.0))
    assert r.off_table == ["x"] and not r.detected and not r.moved
    geo = TableGeometry()
    assert geo.on_frame(0.5, -0.03) and not geo.on_surface(0.5, -0.03)


def test_cli_battle_draws_the_table_and_records_a_replay(tmp_path: Path) -> None:
    """`playtable stardice battle --seed N --out table.png` prints the score and draws the
    table; its record replays to the same final table."""
    png, rec = tmp_path / "table.png", tmp_path / "battle.json"
    result = CliRunner().invoke(cli, ["stardice", "battle", "--seed", "4", "--out", str(png),
                                      "--record", str(rec), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "Battle score: Federation" in result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record = Record.from_json(json.loads(rec.read_text()))
    final, _ = replay(record)
    assert final.is_terminal
    again = CliRunner().invoke(cli, ["stardice", "battle", "--seed", "4", "--json", "--quiet"])
    summary = json.loads(again.output)
    assert summary["points"] == final.battle_points[-1]
    bad = CliRunner().invoke(cli, ["stardice", "battle", "--federation", "nobody"])
    assert bad.exit_code != 0
