"""Star Dice for a newcomer ("The virtual table, for a newcomer"; seed 002 Final Rules,
"War"): a script that plays as a person new to the game would, using only what the page shows
(the line over the table, the visible buttons by their names, the grey frame of the table to
drag from), plays a whole war against the random thrower to its end screen; no
`window.playtable` action and no action text is ever sent by the script.

All along it checks what a newcomer needs of the page: the table never moves (the canvas keeps its
place and size whatever appears round it), no coordinate, speed or piece id such as `K.d20b` is
ever on the page (the log speaks in words), the line over the table always fits its box, no
label on the table covers another or another die, a throw being dragged shows its aim and
strength, each battle's end is frozen with every scoring shape tagged by a letter on the table
and a row in the scoring (and nothing else to press but "Next battle"), and the war's total is
always written. Once the first battle is over, the newcomer, who has seen how throws roll,
chooses "At once" under "Throws" (only where the dice come to rest) for the rest of the war.
The same on a phone (390x844) with touch flicks, a short war whose throws roll "Fast" (three
times as fast, chosen before the first throw), and a battle thrown from the keyboard alone, as thrown.
Screenshots go to `$PLAYTABLE_SCREENSHOTS` (else the test's temporary directory).
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser_support import create_table, new_page, table_state, wait_connected
from tests.web.server_process import ServerProcess
from tests.web.test_browser_stardice import DEPTH, FRAME, _to_page

# Anything of the engine's own notation: a coordinate or a speed with its thousandths, the words
# of a throw's text, a piece id ("K.d20b", "F.t1", "F.d6a+K.d20b").
RAW = re.compile(r"\d\.\d{3}|\bheading\b|\bspeed \d|\bspin \d|\b[FK]\.(?:d\d+[a-z]|t\d)|\bborg at\b")
AIM_WORDS = {"Gentle throw", "Medium throw", "Firm throw", "Hard throw", "Stops on the frame (unseen)",
             "Too hard: off the table!"}
"""What the strength meter of a throw being aimed says."""
SHAPE_ROW = (r"(Triangle|Square|Pentagon|Hexagon|Heptagon|Octagon|\d+-sided formation|String of \d+): "
             r"\d+ points? (\+ \d+ Borg bonus )?to (you|Klingon|nobody)")
"""A row of the scoring: the shape, its points and who scores them."""
STEP = "Number(document.querySelector('.stardice-canvas').dataset.step)"
OVERSTRUCK = """() => {
  const drawn = window.stardiceLabels;
  if (!drawn) return [];
  const over = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5
    && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
  const bad = [];
  drawn.labels.forEach((a, i) => drawn.labels.slice(i + 1).forEach((b) => {
    if (over(a, b)) bad.push([a.text, b.text]);
  }));
  for (const l of drawn.labels.filter((x) => x.kind === "face")) {
    for (const b of drawn.bodies) {
      if (b.id === l.id) continue;
      const half = b.kind === "borg" ? b.r * 0.85 : b.r;
      // only dice far enough apart to be drawn apart: touching dice are drawn overlapping
      const own = drawn.bodies.find((o) => o.id === l.id);
      if (own && Math.hypot(own.px - b.px, own.py - b.py) < own.r + half) continue;
      if (over(l, { x: b.px - half, y: b.py - half, w: 2 * half, h: 2 * half })) bad.push([l.text, b.id]);
    }
  }
  return bad;
}"""


def _shots(tmp_path: Path) -> Path:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


# What _check_page reads, in one round trip to the page (they were five): where the table is,
# the page's text, whether the line over the table fits its box, that line, the labels drawn
# over one another, the scoring's text, and whether the war has ended (then the page brings its
# end screen into view, frame_parts.bringIntoView, and the table moves on purpose).
LOOK = """() => {
  const box = document.querySelector('.stardice-canvas').getBoundingClientRect();
  const prompt = document.querySelector('.stardice-prompt');
  return { box: [box.x, box.y, box.width, box.height], text: document.body.innerText,
    promptFits: prompt.scrollHeight <= prompt.clientHeight + 1, prompt: prompt.innerText,
    overstruck: (""" + OVERSTRUCK + """)(), score: document.querySelector('.stardice-score').innerText,
    ended: document.querySelector('.end-screen') !== null };
}"""


def _canvas_box(page: Any) -> tuple[float, ...]:
    box = page.locator(".stardice-canvas").bounding_box()
    return tuple(round(box[k], 1) for k in ("x", "y", "width", "height"))


def _step(page: Any) -> int:
    return int(page.locator(".stardice-canvas").get_attribute("data-step") or -1)


def _check_page(page: Any, box: tuple[float, ...], seen: dict[str, int]) -> str:
    """What must hold at any moment: the table in its place (until the war's end screen, which the
    page brings into view), no raw notation anywhere on the page, the line over the table within
    its box, no label on the table over another; the line over the table, as it read then."""
    look = page.evaluate(LOOK)
    if not look["ended"]:
        assert tuple(round(v, 1) for v in look["box"]) == box, "the table moved"
    text = look["text"]
    raw = RAW.search(text)
    assert raw is None, f"raw notation on the page: {text[max(0, raw.start() - 80):raw.end() + 40]!r}"
    assert look["promptFits"], look["prompt"]
    assert look["overstruck"] == []
    assert "War:" in look["score"] or seen.get("battle_only")
    seen["checks"] = seen.get("checks", 0) + 1
    return str(look["prompt"])


def _drag(page: Any, rng: random.Random, touch: bool = False) -> str:
    """A newcomer's throw: from the grey frame below the table towards a point round the middle
    of the table (the dashed line ends where the die would stop: twice the drag). The aim's word
    shown while dragging ("Medium throw"...)."""
    box = page.locator(".stardice-canvas").bounding_box()
    x0, y0 = rng.uniform(0.3, 0.7), DEPTH + FRAME / 2
    tx, ty = rng.uniform(0.3, 0.7), rng.uniform(0.2, 0.55)
    x1, y1 = x0 + (tx - x0) / 2, y0 + (ty - y0) / 2
    if touch:
        cdp = page.context.new_cdp_session(page)
        for k, kind in enumerate(["touchStart", "touchMove", "touchMove", "touchMove"]):
            px, py = _to_page(box, x0 + (x1 - x0) * k / 3, y0 + (y1 - y0) * k / 3)
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": px, "y": py, "id": 1}]})
        page.wait_for_function("document.querySelector('.stardice-canvas').dataset.aim !== ''")
        word = page.locator(".stardice-canvas").get_attribute("data-aim") or ""
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
        return word
    page.mouse.move(*_to_page(box, x0, y0))
    page.mouse.down()
    for k in range(1, 6):
        page.mouse.move(*_to_page(box, x0 + (x1 - x0) * k / 5, y0 + (y1 - y0) * k / 5))
    page.wait_for_function("document.querySelector('.stardice-canvas').dataset.aim !== ''")
    word = page.locator(".stardice-canvas").get_attribute("data-aim") or ""
    page.mouse.up()
    return word


def _frozen_battle(page: Any, frozen: list[str]) -> None:
    """A battle of the war is over: the table frozen with its scoring, shape by shape, each tag
    on the table a row of the scoring; nothing to press but "Next battle"."""
    prompt = page.locator(".stardice-prompt").inner_text()
    assert re.match(r"Battle \d+ is over: Federation \d+, Klingon \d+ \(war \d+–\d+, to \d+\)\. "
                    r"Press “Next battle”\.$", prompt), prompt
    scoring = page.locator(".stardice-score")
    assert re.match(r"Battle \d+ scoring$", scoring.locator("h3").inner_text())
    rows = scoring.locator("li.stardice-shape")
    letters = [rows.nth(i).locator(".stardice-letter").inner_text() for i in range(rows.count())]
    page.wait_for_timeout(100)  # a frame drawn with the frozen table
    tags = page.evaluate("window.stardiceLabels.labels.filter((l) => l.kind === 'tag').map((l) => l.text)")
    assert sorted(t.split(":")[0] for t in tags) == sorted(letters), (tags, letters)
    for i in range(rows.count()):
        row = rows.nth(i).inner_text()
        assert re.search(SHAPE_ROW, row), row
    assert page.locator(".stardice-call").count() == 0
    assert page.locator(".stardice-piece:not([disabled])").count() == 0
    frozen.append(scoring.locator(".stardice-points").inner_text())


def _play(page: Any, rng: random.Random, shots: Path, tag: str, touch: bool = False,
          limit: int = 900, pace_after_first_battle: str | None = None) -> dict[str, Any]:
    """Plays this page's seat to the end screen with what the page shows; returns counts.
    `pace_after_first_battle`: what the newcomer then chooses under "Throws" ("Fast"...)."""
    box = _canvas_box(page)
    seen: dict[str, Any] = {"throws": 0, "calls": 0, "aims": set(), "frozen": [], "prompts": set()}
    for _ in range(limit):
        prompt = _check_page(page, box, seen)
        seen["prompts"].add(re.sub(r"\d+", "N", prompt))
        if page.locator(".end-screen").is_visible():
            break
        next_battle = page.get_by_role("button", name="Next battle")
        if next_battle.is_visible():
            _frozen_battle(page, seen["frozen"])
            if len(seen["frozen"]) == 1:
                page.screenshot(path=str(shots / f"stardice-newcomer-battle-over{tag}.png"), full_page=True)
                if pace_after_first_battle:
                    page.get_by_role("combobox", name="Throws").select_option(label=pace_after_first_battle)
            next_battle.click()
            continue
        calls = page.get_by_role("button", name=re.compile(r"^Call (odd|even)$"))
        if calls.count():
            before = _step(page)
            calls.nth(seen["calls"] % 2).click()
            seen["calls"] += 1
            page.wait_for_function(f"{STEP} > {before}")
            continue
        ships = page.locator(".stardice-piece:not([disabled])")
        if ships.count() and ("drag from the grey frame" in prompt):
            ships.nth(rng.randrange(ships.count())).click()
            before = _step(page)
            seen["aims"].add(_drag(page, rng, touch))
            page.wait_for_function(f"{STEP} > {before} || "
                                   "document.querySelector('.stardice-note').textContent !== ''")
            assert page.locator(".stardice-note").inner_text() == ""
            seen["throws"] += 1
            if seen["throws"] == 6:
                page.screenshot(path=str(shots / f"stardice-newcomer-mid{tag}.png"))
            continue
        page.wait_for_timeout(80)  # the other fleet's turn, or a throw still rolling
    return seen


def _kept_pace(page: Any, pace: str) -> None:
    """The page streamed the last throws at `pace` and the browser keeps that choice."""
    page.wait_for_function("document.querySelector('.stardice-canvas').dataset.animating === 'no'")
    assert page.locator(".stardice-canvas").get_attribute("data-pace") == pace
    assert page.evaluate("localStorage.getItem('playtable.throwPace')") == pace


@pytest.mark.long
def test_a_newcomer_plays_a_whole_war_from_what_the_page_shows(web_server: ServerProcess, chromium: Any,
                                                               tmp_path: Path) -> None:
    shots = _shots(tmp_path)
    created = create_table(web_server.url, game="stardice", seed=3,
                           seats=[{"kind": "human"}, {"kind": "bot", "agent": "random-thrower"}])
    page = new_page(chromium, 1280, 800)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    page.screenshot(path=str(shots / "stardice-newcomer-start.png"))
    pace = page.get_by_role("combobox", name="Throws")
    assert pace.input_value() == "normal", "a newcomer sees throws as thrown"
    seen = _play(page, random.Random(5), shots, "", pace_after_first_battle="At once")
    state = table_state(page)  # read only to check the outcome
    obs = state["observation"]
    assert state["terminal"] and obs["war_target"] == 50 and max(obs["war"]) > 50
    assert len(seen["frozen"]) == obs["battle"] - 1 >= 1, "every battle but the last was frozen"
    for shown, points in zip(seen["frozen"], obs["battle_points"], strict=False):
        assert shown == f"Federation {points[0]} · Klingon {points[1]}"
    assert seen["throws"] >= 7 * obs["battle"] - 2, "the newcomer threw every ship of every battle"
    assert seen["aims"] and seen["aims"] <= AIM_WORDS
    winner = ["you", "Klingon"][obs["winner"]]
    assert page.locator(".stardice-prompt").inner_text().startswith(f"The war is over: {winner} win")
    war = f"War: Federation {obs['war'][0]} · Klingon {obs['war'][1]} (to 50)"
    assert war in page.locator(".stardice-score").inner_text()
    # the log speaks in words: every throw of the war has its line ("Klingon rolls a d12: ...")
    log = page.locator(".log-list").inner_text()
    throws = re.findall(r"^(You roll your|Klingon rolls a|You slide your|Klingon slides a) ", log, re.M)
    assert len(throws) >= seen["throws"]
    # the last throws were shown at the chosen pace, which the browser keeps
    _kept_pace(page, "instant")
    page.screenshot(path=str(shots / "stardice-newcomer-end.png"))
    page.get_by_role("button", name="Look at the board").click()
    page.screenshot(path=str(shots / "stardice-newcomer-end-board.png"), full_page=True)
    assert not page.script_errors and not page.foreign_requests


def test_a_newcomer_on_a_phone_flicks_a_short_war(web_server: ServerProcess, chromium: Any,
                                                  tmp_path: Path) -> None:
    shots = _shots(tmp_path)
    created = create_table(web_server.url, game="stardice", seed=9, params={"war_target": 12},
                           seats=[{"kind": "human"}, {"kind": "bot", "agent": "random-thrower"}])
    page = new_page(chromium, 390, 844, touch=True)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    page.get_by_role("combobox", name="Throws").select_option(label="Fast")
    seen = _play(page, random.Random(2), shots, "-phone", touch=True)
    state = table_state(page)
    assert state["terminal"] and len(seen["frozen"]) == state["observation"]["battle"] - 1
    _kept_pace(page, "fast")
    # the end screen was brought into view (which is why the table may move at the war's end)
    # with its title and what to do next: its buttons above the fold too
    page.wait_for_function("(() => { const t = document.querySelector('.end-screen')"
                           ".getBoundingClientRect().top; const b = document.querySelector("
                           "'.end-screen .buttons').getBoundingClientRect().bottom;"
                           " return t >= 0 && b <= innerHeight; })()")
    page.screenshot(path=str(shots / "stardice-newcomer-end-screen-phone.png"))
    page.evaluate("window.scrollTo(0, 0)")
    # the table and the controls under it fit the phone's screen
    canvas = page.locator(".stardice-canvas").bounding_box()
    assert canvas["x"] >= 0 and canvas["x"] + canvas["width"] <= 390 and canvas["y"] + canvas["height"] < 844
    page.screenshot(path=str(shots / "stardice-newcomer-end-phone.png"))
    assert not page.script_errors and not page.foreign_requests


def test_a_battle_is_thrown_from_the_keyboard(web_server: ServerProcess, chromium: Any,
                                              tmp_path: Path) -> None:
    """The keyboard's way: Tab to the call's buttons and press Enter; Tab to the table, pick a
    ship with a digit, aim with the arrow keys (the aim is drawn as a drag's is), move the start
    along the frame with [ and ], throw with Enter."""
    shots = _shots(tmp_path)
    created = create_table(web_server.url, game="stardice", variant="battle", seed=14,
                           seats=[{"kind": "human"}, {"kind": "bot", "agent": "random-thrower"}])
    page = new_page(chromium, 1280, 800)
    page.goto(web_server.url + created["seats"][0]["join_url"])
    wait_connected(page)
    box = _canvas_box(page)
    rng = random.Random(11)
    throws = 0
    seen: dict[str, Any] = {"battle_only": True}
    for _ in range(600):
        prompt = _check_page(page, box, seen)
        if page.locator(".end-screen").is_visible():
            break
        if page.get_by_role("button", name=re.compile(r"^Call (odd|even)$")).count():
            before = _step(page)
            for _ in range(60):  # Tab until a call's button has the focus, as a keyboard user does
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.classList.contains('stardice-call')"):
                    break
            page.keyboard.press("Enter")
            page.wait_for_function(f"{STEP} > {before}")
            continue
        ships = page.locator(".stardice-piece:not([disabled])").count()
        if "drag from the grey frame" not in prompt or not ships:
            page.wait_for_timeout(80)
            continue
        if not page.evaluate("document.activeElement === document.querySelector('.stardice-canvas')"):
            for _ in range(60):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement === document.querySelector('.stardice-canvas')"):
                    break
        page.keyboard.press(str(rng.randrange(ships) + 1))
        for _ in range(rng.randrange(4)):
            page.keyboard.press(rng.choice(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "[", "]"]))
        aim = page.locator(".stardice-canvas").get_attribute("data-aim") or ""
        assert aim.endswith("throw") or "frame" in aim or "off the table" in aim, aim
        if throws == 2:
            page.screenshot(path=str(shots / "stardice-keyboard-aim.png"))
        before = _step(page)
        page.keyboard.press("Enter")
        page.wait_for_function(f"{STEP} > {before}")
        throws += 1
    state = table_state(page)
    assert state["terminal"] and throws >= 7
    assert not page.script_errors and not page.foreign_requests


_PHONE_CLUSTER_JS = """async ([ids, spacing, tags]) => {
  const m = await import("/static/js/games/stardice_draw.js");
  const canvas = document.createElement("canvas");
  canvas.width = 374; canvas.height = 290;
  document.body.replaceChildren(canvas);
  const ctx = canvas.getContext("2d");
  const view = { width: canvas.width, height: canvas.height, fit: m.fit(canvas.width, canvas.height) };
  m.drawBackground(ctx, view, 1, true);
  const pieces = ids.map((id, i) => ({
    id, x: 0.42 + spacing * (i % 4), y: 0.3 + spacing * Math.floor(i / 4), value: 10 + i }));
  return m.drawPieces(ctx, view, pieces, tags);
}"""


def test_labels_never_overlap_at_phone_size(web_server: ServerProcess, chromium: Any, tmp_path: Path) -> None:
    """Fifteen pieces in a tight cluster and three shapes' tags on a phone's canvas (374x290):
    every face and every tag is written where no other label is and on no other die."""
    ids = ["F.d20a", "F.d20b", "F.d12a", "F.d8a", "F.d6a", "F.d6b", "F.d6c", "borg",
           "K.d20a", "K.d20b", "K.d12a", "K.d8a", "K.d6a", "K.d6b", "K.d6c"]
    tags = [{"x": 0.47, "y": 0.33, "text": "A: 6 pts", "owner": 0},
            {"x": 0.5, "y": 0.36, "text": "B: 10 pts", "owner": 1},
            {"x": 0.45, "y": 0.4, "text": "C: 1 pt", "owner": None}]
    page = new_page(chromium, 390, 844)
    page.goto(web_server.url + "/")
    for spacing in (0.04, 0.06, 0.09):
        drawn = page.evaluate(_PHONE_CLUSTER_JS, [ids, spacing, tags])
        page.evaluate("(drawn) => { window.stardiceLabels = drawn; }", drawn)
        assert sorted(label["text"] for label in drawn["labels"] if label["kind"] == "face") == \
            sorted(str(10 + i) for i in range(len(ids)))
        assert page.evaluate(OVERSTRUCK) == [], spacing
        for label in drawn["labels"]:
            assert label["x"] >= 0 and label["x"] + label["w"] <= 374
            assert label["y"] >= 0 and label["y"] + label["h"] <= 290
    page.screenshot(path=str(_shots(tmp_path) / "stardice-phone-cluster.png"),
                    clip={"x": 0, "y": 0, "width": 374, "height": 290})
    assert not page.script_errors
