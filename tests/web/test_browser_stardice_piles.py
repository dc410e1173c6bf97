"""Piled Star Dice dice read at a glance, in chromium under the server's real
Content-Security-Policy, at the table's size on a desktop (1280x800) and on a phone (390x844):
dice touching and overlapping in piles of three and four, of both fleets and the Borg die, drawn
by the page's own module (`stardice_draw.drawPieces`). Every die's number is written once,
where no other label is; a piled die's number is a chip in its fleet's colours, tied to that die
by a line in the fleet's colour from the die's centre, whose dot is drawn over the pile.
Screenshots go to $PLAYTABLE_SCREENSHOTS, else the test's temporary directory.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import new_page
from tests.web.server_process import ServerProcess

SCREENS = {"desktop": ((1280, 800), (760, 570)), "phone": ((390, 844), (374, 290))}
"""The window, and the table's canvas in it (the phone's as the page draws it)."""
FLEET = {"F": "#f4f1e8", "K": "#d3222a", "borg": "#3ddc66"}
"""A piled die's line and dot: its fleet's body colour (stardice_dice.FLEET_STYLE), the Borg
die's green grid."""
CHIP = {"F": "#f4f1e8", "K": "#d3222a", "borg": "#07110b"}
PILES = [
    [("F.d20a", 0.40, 0.35), ("K.d12a", 0.42, 0.358), ("F.d6a", 0.394, 0.37), ("borg", 0.416, 0.334)],
    [("K.d8a", 0.62, 0.47), ("K.d6b", 0.64, 0.476), ("F.d4a", 0.624, 0.49)],
]
"""Dice touching and overlapping (their centres 0.02 to 0.03 of the table apart: drawn overlapping
at both sizes), of both fleets and the Borg die."""
ALONE = [("F.d12a", 0.2, 0.2), ("K.d20a", 0.8, 0.6), ("F.d8a", 0.5, 0.62)]
DRAW = """async ([pieces, size]) => {
  const m = await import("/static/js/games/stardice_draw.js");
  const canvas = document.createElement("canvas");
  [canvas.width, canvas.height] = size;
  document.body.replaceChildren(canvas);
  const ctx = canvas.getContext("2d");
  const view = { width: canvas.width, height: canvas.height, fit: m.fit(canvas.width, canvas.height) };
  m.drawBackground(ctx, view, 1, true);
  const drawn = m.drawPieces(ctx, view, pieces.map(([id, x, y, value]) => ({ id, x, y, value })), []);
  const pixel = (x, y) => [...ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data].slice(0, 3);
  return { drawn, centres: drawn.bodies.map((b) => pixel(b.px, b.py)) };
}"""


def _rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _fleet(piece: str) -> str:
    return "borg" if piece == "borg" else piece[0]


def _over(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
            and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5)


@pytest.mark.parametrize("screen", SCREENS)
def test_every_piled_die_has_its_own_number_tied_to_it_in_its_fleets_colour(
        web_server: ServerProcess, chromium: Any, tmp_path: Path, screen: str) -> None:
    (width, height), canvas = SCREENS[screen]
    page = new_page(chromium, width, height, touch=screen == "phone", strict_csp=True)
    page.goto(web_server.url + "/")
    pieces = [(piece, x, y, 11 + k) for k, (piece, x, y) in enumerate([*PILES[0], *PILES[1], *ALONE])]
    got = page.evaluate(DRAW, [pieces, list(canvas)])
    drawn, value = got["drawn"], {piece: v for piece, _, _, v in pieces}
    bodies = {b["id"]: b for b in drawn["bodies"]}
    faces = [label for label in drawn["labels"] if label["kind"] == "face"]
    assert sorted(f["id"] for f in faces) == sorted(value), "one number for each die"
    for a, b in ((a, b) for i, a in enumerate(faces) for b in faces[i + 1:]):
        assert not _over(a, b), (a["text"], b["text"])
    for face in faces:
        assert face["text"] == str(value[face["id"]])
        assert face["x"] >= 0 and face["x"] + face["w"] <= canvas[0]
        assert face["y"] >= 0 and face["y"] + face["h"] <= canvas[1]
    for piece in (p for pile in PILES for p, _, _ in pile):
        face = next(f for f in faces if f["id"] == piece)
        body, lead = bodies[piece], face.get("lead")
        assert lead is not None, f"{piece}'s number in a pile is tied to it by a line"
        assert abs(lead["x1"] - body["px"]) < 0.5 and abs(lead["y1"] - body["py"]) < 0.5
        on_edge = (min(abs(lead["x2"] - face["x"]), abs(lead["x2"] - face["x"] - face["w"])) < 0.5
                   or min(abs(lead["y2"] - face["y"]), abs(lead["y2"] - face["y"] - face["h"])) < 0.5)
        inside = (face["x"] - 0.5 <= lead["x2"] <= face["x"] + face["w"] + 0.5
                  and face["y"] - 0.5 <= lead["y2"] <= face["y"] + face["h"] + 0.5)
        assert on_edge and inside, (piece, lead, face)
        assert face["colour"] == CHIP[_fleet(piece)], (piece, face["colour"])
        assert face["owner"] == {"F": 0, "K": 1, "borg": None}[_fleet(piece)]
        # the dot on the die's centre is drawn over the pile, in the fleet's colour
        centre = got["centres"][[b["id"] for b in drawn["bodies"]].index(piece)]
        assert all(abs(c - e) <= 24 for c, e in zip(centre, _rgb(FLEET[_fleet(piece)]), strict=True)), \
            (piece, centre)
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"stardice-piles-{screen}.png"),
                    clip={"x": 0, "y": 0, "width": canvas[0], "height": canvas[1]})
    assert not page.script_errors and not page.foreign_requests
