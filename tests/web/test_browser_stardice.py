"""Star Dice's virtual table in a real browser: a whole battle against a bot
played with mouse drags on the canvas, and another with touch flicks on a phone, each to the
frozen end screen with its scoring.

Each throw is a drag from the grey glass frame onto the table: the page turns it into the
engine's throw text, the server simulates it and streams the motion as `frame` messages, the
page animates them, then the new state arrives. The bot is the random thrower, so the battle
takes seconds. The battles are shown as thrown (the default); the short war's player chooses
"At once" under "Throws" (only where the dice come to rest), which still freezes each battle
with its scoring where its dice lie. Screenshots of the empty table (logo), a battle in
progress and the end screen go to `$PLAYTABLE_SCREENSHOTS` (else the test's temporary directory).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import click_action, create_table, new_page, table_state, wait_connected
from tests.web.server_process import ServerProcess

FRAME = 0.06
WIDTH, DEPTH = 1.0, 0.75


def _to_page(box: dict[str, float], x: float, y: float) -> tuple[float, float]:
    """Table units -> page pixels, as stardice_draw.js `fit` places the table in its canvas."""
    w, d = WIDTH + 2 * FRAME, DEPTH + 2 * FRAME
    scale = min(box["width"] / w, box["height"] / d)
    ox = (box["width"] - w * scale) / 2 + FRAME * scale
    oy = (box["height"] - d * scale) / 2 + FRAME * scale
    return box["x"] + ox + x * scale, box["y"] + oy + y * scale


def _drag_throw(page: Any, rng: random.Random) -> None:
    """Press on the frame below the table, drag up onto it, release (a mouse drag)."""
    box = page.locator(".stardice-canvas").bounding_box()
    x0, y0 = rng.uniform(0.25, 0.75), DEPTH + FRAME / 2
    x1, y1 = x0 + rng.uniform(-0.08, 0.08), y0 - rng.uniform(0.12, 0.25)
    page.mouse.move(*_to_page(box, x0, y0))
    page.mouse.down()
    for k in range(1, 6):
        page.mouse.move(*_to_page(box, x0 + (x1 - x0) * k / 5, y0 + (y1 - y0) * k / 5))
    page.mouse.up()


def _flick(page: Any, rng: random.Random) -> None:
    """The same throw as a finger's flick on a touch screen (touch events through the DevTools
    protocol: Playwright's touchscreen only taps)."""
    box = page.locator(".stardice-canvas").bounding_box()
    x0, y0 = rng.uniform(0.25, 0.75), DEPTH + FRAME / 2
    x1, y1 = x0 + rng.uniform(-0.08, 0.08), y0 - rng.uniform(0.12, 0.25)
    cdp = page.context.new_cdp_session(page)
    for k, kind in enumerate(["touchStart", "touchMove", "touchMove", "touchMove", "touchEnd"]):
        px, py = _to_page(box, x0 + (x1 - x0) * k / 4, y0 + (y1 - y0) * k / 4)
        points = [] if kind == "touchEnd" else [{"x": px, "y": py, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    cdp.detach()


DRAWN_NEXT_FRAME = """async () => {
  for (let i = 0; i < 2; i += 1) await new Promise((done) => requestAnimationFrame(done));
  return window.stardiceLabels.bodies.map((b) => b.id);
}"""
"""The pieces on the table as the page draws it after what it has just shown."""


def choose_pace(page: Any, words: str) -> None:
    """Choose how throws are shown, as a person does under the table ("Fast", "At once")."""
    page.get_by_role("combobox", name="Throws").select_option(label=words)


def _battle(page: Any, throw: Callable[[Any, random.Random], None], shots: Path | None,
            tag: str, frozen: list[str] | None = None, pace: str = "normal") -> dict[str, Any]:
    """Plays the person's seat to the end of the game with `throw`; the final state. `frozen`
    collects the points shown on each battle of a war frozen before the next one; `pace`: the
    pace the table streams throws at (as thrown unless the page chose another)."""
    frozen = [] if frozen is None else frozen
    rng = random.Random(7)
    throws = 0
    animated = 0
    for _ in range(600):  # bounded: a battle is 14 dice, a Borg roll, a call and re-throws
        state = table_state(page)
        if state["terminal"]:
            break
        if page.locator(".stardice-next").is_visible():  # a battle of a war, frozen with its scoring
            assert page.locator(".stardice-score h3").inner_text().endswith("scoring")
            # read again: the scoring state may have come between the read above and the button
            state = table_state(page)
            # where the battle's dice came to rest (the stream's last frame), every scored one
            scored = {piece for shape in state["observation"]["last_score"]["shapes"]
                      for stack in shape["objects"] for piece in stack.split("+")}  # "F.d6a+K.d4a": stacked
            drawn = page.evaluate(DRAWN_NEXT_FRAME)
            assert scored and scored <= set(drawn), (scored, drawn)
            frozen.append(page.locator(".stardice-points").inner_text())
            if shots is not None and len(frozen) == 1:
                page.screenshot(path=str(shots / f"stardice-battle-over{tag}.png"))
            page.locator(".stardice-next").click()
            continue
        if not state["your_turn"] or page.evaluate("window.playtable.pending"):
            page.wait_for_timeout(50)  # the bot's turn, or a throw still streaming
            continue
        step = state["step"]
        calls = [e["action"] for e in state["legal"] if e["action"].startswith("call ")]
        if calls:
            click_action(page, calls[0])
            continue
        before = page.evaluate("document.querySelector('.stardice-canvas').dataset.firstFrameAt || ''")
        throw(page, rng)
        page.wait_for_function(f"window.playtable.state.step > {step} || "
                               "document.querySelector('.stardice-note').textContent !== ''")
        assert page.locator(".stardice-note").inner_text() == ""
        throws += 1
        if page.evaluate("document.querySelector('.stardice-canvas').dataset.firstFrameAt || ''") != before:
            animated += 1
        if throws == 5 and shots is not None:
            page.screenshot(path=str(shots / f"stardice-battle{tag}.png"))
    state = table_state(page)
    assert state["terminal"], "the battle ended"
    assert throws >= 7 and animated == throws, "every throw was streamed and animated"
    assert page.locator(".stardice-canvas").get_attribute("data-pace") == pace
    return state


def _check_end_screen(page: Any, state: dict[str, Any]) -> None:
    obs = state["observation"]
    assert obs["phase"] == "over"
    # the frozen end screen: the canvas no longer takes throws, the scoring lists every shape
    assert "frozen" in (page.locator(".stardice-board").get_attribute("class") or "")
    scoring = page.locator(".stardice-score")
    assert scoring.locator("h3").inner_text() == "Final scoring"
    points = obs["score"]["points"]
    assert f"Federation {points[0]} · Klingon {points[1]}" in scoring.locator(".stardice-points").inner_text()
    # every shape that scores has its row (lone dice, worth nothing, are named in one line)
    shapes = obs["score"]["shapes"]
    assert scoring.locator("li.stardice-shape").count() == sum(1 for s in shapes if s["kind"] != "single")
    lone = any(s["kind"] == "single" for s in shapes)
    assert scoring.locator(".stardice-singles").count() == (1 if lone else 0)
    page.wait_for_function("document.querySelector('.stardice-canvas').dataset.animating === 'no'")
    assert page.locator(".end-screen").count() == 1
    assert not page.script_errors and not page.foreign_requests


def _new_battle(web_server: ServerProcess, seed: int) -> dict[str, Any]:
    return create_table(web_server.url, game="stardice", variant="battle", seed=seed,
                        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random-thrower"}])


def test_a_battle_against_a_bot_is_played_with_mouse_drags(web_server: ServerProcess, chromium: Any,
                                                           tmp_path: Path) -> None:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    created = _new_battle(web_server, 5)
    page = new_page(chromium, 1280, 900)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    page.screenshot(path=str(shots / "stardice-empty.png"))
    state = _battle(page, _drag_throw, shots, "")
    _check_end_screen(page, state)
    page.screenshot(path=str(shots / "stardice-end.png"))


def test_a_battle_against_a_bot_is_played_with_touch_flicks(web_server: ServerProcess, chromium: Any,
                                                            tmp_path: Path) -> None:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    created = _new_battle(web_server, 9)
    page = new_page(chromium, 390, 844, touch=True)  # a phone
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    state = _battle(page, _flick, shots, "-phone")
    _check_end_screen(page, state)
    page.screenshot(path=str(shots / "stardice-end-phone.png"))


@pytest.mark.long
def test_a_short_war_is_played_battle_by_battle(web_server: ServerProcess, chromium: Any,
                                                tmp_path: Path) -> None:
    """A war to 12 points (the Final Rules' 50, shortened): each battle's end is frozen with its
    scoring until "Next battle"; the war's running totals are shown; the last battle ends it."""
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    created = create_table(web_server.url, game="stardice", seed=3, params={"war_target": 12},
                           seats=[{"kind": "human"}, {"kind": "bot", "agent": "random-thrower"}])
    page = new_page(chromium, 1280, 900)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    choose_pace(page, "At once")
    frozen: list[str] = []
    state = _battle(page, _drag_throw, shots, "-war", frozen, pace="instant")
    obs = state["observation"]
    assert len(frozen) == obs["battle"] - 1 >= 1, "every battle but the last was frozen"
    for shown, points in zip(frozen, obs["battle_points"], strict=False):
        assert shown.startswith(f"Federation {points[0]} · Klingon {points[1]}")
    assert f"War: Federation {obs['war'][0]} · Klingon {obs['war'][1]} (to 12)" in \
        page.locator(".stardice-score").inner_text()
    page.wait_for_function("document.querySelector('.stardice-canvas').dataset.animating === 'no'")
    page.screenshot(path=str(shots / "stardice-war-end.png"))
    assert not page.script_errors and not page.foreign_requests


# A cluster of touching dice (each about two radii from the next), drawn on a canvas whose
# fillText is recorded: every face written, where, and its box.
_CLUSTER_JS = """async ([ids, spacing]) => {
  const m = await import("/static/js/games/stardice_draw.js");
  const canvas = document.createElement("canvas");
  canvas.width = 900; canvas.height = 700;
  document.body.replaceChildren(canvas);
  const ctx = canvas.getContext("2d");
  const view = { width: canvas.width, height: canvas.height, fit: m.fit(canvas.width, canvas.height) };
  m.drawBackground(ctx, view);
  const written = [];
  const fill = ctx.fillText.bind(ctx);
  ctx.fillText = (text, x, y) => {
    const h = Number(ctx.font.match(/(\\d+)px/)[1]);
    const w = ctx.measureText(text).width;
    const left = ctx.textAlign === "center" ? x - w / 2 : ctx.textAlign === "right" ? x - w : x;
    const top = ctx.textBaseline === "top" ? y : ctx.textBaseline === "middle" ? y - h / 2 : y - h;
    written.push({ text, x: left, y: top, w, h });
    fill(text, x, y);
  };
  const pieces = ids.map((id, i) => ({
    id, x: 0.45 + spacing * (i % 3), y: 0.35 + spacing * Math.floor(i / 3), value: 11 + i }));
  m.drawPieces(ctx, view, pieces);
  const centres = pieces.map((p) => view.fit.toPx(p.x, p.y));
  return { written, centres, scale: view.fit.scale };
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and \
        a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def test_faces_in_a_cluster_of_dice_do_not_cover_each_other(web_server: ServerProcess, chromium: Any,
                                                            tmp_path: Path) -> None:
    ids = ["F.d4a", "F.d6a", "F.d8a", "K.d10a", "K.d12a", "K.d20a", "F.d20a", "borg"]
    page = new_page(chromium, 900, 700)
    page.goto(web_server.url + "/")
    drawn = page.evaluate(_CLUSTER_JS, [ids, 0.035])
    faces = drawn["written"]
    assert sorted(f["text"] for f in faces) == [str(11 + i) for i in range(len(ids))]
    for i, a in enumerate(faces):
        for b in faces[i + 1:]:
            assert not _overlap(a, b), (a, b)
    # nor does a face sit on another die (a body's square of half-side r, r >= 1.25 x 0.014 x scale)
    r = 1.25 * 0.014 * drawn["scale"]
    for face in faces:
        owner = int(face["text"]) - 11
        for k, (cx, cy) in enumerate(drawn["centres"]):
            if k != owner:
                assert not _overlap(face, {"x": cx - r, "y": cy - r, "w": 2 * r, "h": 2 * r}), (face, ids[k])
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    page.screenshot(path=str(shots / "stardice-cluster-faces.png"),
                    clip={"x": 300, "y": 250, "width": 300, "height": 200})
    assert not page.script_errors
