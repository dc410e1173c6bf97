"""The tutorial bubble never covers where the person must act ("Tutorials", docs/web-pages.md):
the Star Dice first battle played in chromium under the server's real Content-Security-Policy,
on a desktop window (1280x800) and a phone (390x844). At every step the bubble leaves alone
what the step asks the person to use (its ring and its `use` elements); on the desktop it also
leaves the header, the Actions panel and Send alone. The two guided throws are made by a real
drag from the table's grey frame: the drag throws the die (the next step comes) and selects no
text. On the last step the bubble and the end screen do not overlap, and the end screen's text
stays inside its border. Screenshots go to `$PLAYTABLE_SCREENSHOTS`, else the test's temporary
directory.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx2
import pytest
from tests.web.browser_support import WAIT_MS, new_page
from tests.web.server_process import ServerProcess

from playtable.web.server.tables.tutorials import shipped

NAME = "stardice-first-battle"
BUBBLE = ".tutorial-bubble"
KEEP_CLEAR = (".topbar", ".actions-panel", ".chat-form button")

COVERED = """([bubble, selectors]) => {
  const b = document.querySelector(bubble).getBoundingClientRect();
  const out = {};
  for (const sel of selectors) {
    out[sel] = [...document.querySelectorAll(sel)].reduce((acc, el) => {
      const r = el.getBoundingClientRect();
      const w = Math.min(b.right, r.right) - Math.max(b.left, r.left);
      const h = Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top);
      return acc + (w > 1 && h > 1 ? w * h : 0);
    }, 0);
  }
  return out;
}"""

RING = """() => { const r = document.querySelector('.tutorial-ring');
  return r.hidden ? null : r.getBoundingClientRect().toJSON(); }"""

BOX = "(el) => el.getBoundingClientRect().toJSON()"

OVERFLOW = """(el) => [...el.querySelectorAll('*')].filter((c) => c.scrollWidth > c.clientWidth + 1
  && getComputedStyle(c).overflowX === 'visible').map((c) => c.className || c.tagName)"""


def _shots(tmp_path: Path) -> Path:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def _open_tutorial(url: str, page: Any) -> None:
    answer = httpx2.post(url + "/api/tutorials", json={"name": NAME}, timeout=WAIT_MS / 1000)
    assert answer.status_code == 201, answer.text
    page.goto(url + answer.json()["join_url"])


def _wait_step(page: Any, index: int) -> None:
    """The bubble shows script step `index` (after any bot's move and throw animation)."""
    page.wait_for_selector(f"{BUBBLE}[data-index='{index}']:is([data-kind='next'], "
                           "[data-kind='action'], [data-kind='free'])", timeout=45_000)
    page.wait_for_timeout(450)  # the bubble's follow-up placing (every 400 ms) has run


def _overlaps(a: dict[str, float], b: dict[str, float]) -> float:
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return w * h if w > 1 and h > 1 else 0.0


def _check_clear(page: Any, step: dict[str, Any], desktop: bool) -> None:
    """Nothing the step asks the person to use is under the bubble (nor, on a desktop, the
    header, the Actions panel or Send)."""
    bubble = page.locator(BUBBLE).evaluate(BOX)
    ring = page.evaluate(RING)
    if ring is not None:
        assert _overlaps(bubble, ring) == 0, ("the bubble covers its own target", step["say"][:40])
    used = list(step.get("use", []))
    covered = page.evaluate(COVERED, [BUBBLE, used + (list(KEEP_CLEAR) if desktop else [])])
    for selector in used if not desktop else covered:
        assert covered[selector] == 0, (selector, "covered on step", step["say"][:40])


def _drag_throw(page: Any, index: int) -> None:
    """A throw as a person makes it: press on the grey frame below the table and drag up; the
    throw is played (the guide moves on) and no text was selected on the way."""
    canvas = page.locator(".stardice-canvas").evaluate(BOX)
    x = canvas["left"] + canvas["width"] / 2
    y = canvas["bottom"] - 0.03 * canvas["height"]
    bubble = page.locator(BUBBLE).evaluate(BOX)
    assert not (bubble["left"] <= x <= bubble["right"] and bubble["top"] <= y <= bubble["bottom"]), \
        "the bubble lies where the throw starts"
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 0.25 * canvas["height"], steps=8)
    page.mouse.up()
    assert page.evaluate("String(window.getSelection())") == ""
    page.wait_for_selector(f"{BUBBLE}:not([data-index='{index}'])", timeout=45_000)


def _throw_by_keys(page: Any) -> None:
    page.locator(".stardice-canvas").focus()
    page.keyboard.press("1")
    page.keyboard.press("Enter")


def _play_free_step(page: Any) -> None:
    """The rest of the battle, each of the person's throws from the keyboard, to the end screen
    (bounded: at most one throw a poll, a few hundred polls)."""
    for _ in range(600):
        if page.locator(".end-screen").count():
            return
        if page.evaluate("Boolean(window.playtable.state && window.playtable.state.your_turn"
                         " && !window.playtable.pending)"):
            step = page.evaluate("window.playtable.state.step")
            _throw_by_keys(page)
            for _ in range(100):
                if page.evaluate(f"window.playtable.state.step > {step}"):
                    break
                page.wait_for_timeout(100)
        else:
            page.wait_for_timeout(150)
    raise AssertionError("the battle did not end")


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_star_dice_tutorial_bubble_leaves_the_play_free(web_server: ServerProcess, chromium: Any,
                                                            tmp_path: Path, width: int, height: int) -> None:
    shots = _shots(tmp_path)
    desktop = width >= 700
    page = new_page(chromium, width, height, touch=not desktop, strict_csp=True)
    _open_tutorial(web_server.url, page)
    steps = shipped()[NAME].steps
    for index, step in enumerate(steps):
        _wait_step(page, index)
        page.screenshot(path=str(shots / f"bubble-{width}-{index}.png"))
        _check_clear(page, step, desktop)
        if "match" in step:
            choice = step["example"].split(" at ")[0][:-1]  # "slide d6a ..." -> "slide d6"
            page.locator(f'.stardice-piece[data-choice="{choice}"]').click()
            page.wait_for_timeout(450)
            _check_clear(page, step, desktop)
            stage = page.locator(".stardice-stage").evaluate(BOX)
            assert not desktop or (stage["top"] >= 0 and stage["bottom"] <= height), "the table is in view"
            _drag_throw(page, index)
        elif "expect" in step:
            page.locator(f'.board-host [data-actions="{step["expect"]}"]').click()
        elif step.get("free"):
            _play_free_step(page)
        elif index == len(steps) - 1:
            end = page.locator(".end-screen")
            assert _overlaps(page.locator(BUBBLE).evaluate(BOX), end.evaluate(BOX)) == 0
            assert end.evaluate(OVERFLOW) == [], "the end screen's text runs past its border"
            page.screenshot(path=str(shots / f"bubble-{width}-end.png"))
        else:
            page.locator(f"{BUBBLE} .tutorial-next").click()
    assert not page.script_errors and not page.foreign_requests
    page.context.close()
