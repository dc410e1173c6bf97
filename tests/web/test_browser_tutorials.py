"""Each tutorial played through in a real browser as a person would (issue 29, "Tutorials"): from
the lobby's "Learn to play", reading each bubble and pressing Next, playing the move a bubble
asks for on the board (or in the list) as any player does, trying a wrong move once (it is not
played, and the bubble says what to do instead), on a desktop window and on a phone by taps.
Screenshots (1280x800 and 390x844) go to `$PLAYTABLE_SCREENSHOTS`, else the test's temporary
directory.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.web.browser_support import click_action, new_page, step_of, wait_connected
from tests.web.server_process import ServerProcess

from playtable.web.server.tutorials import shipped

BUBBLE = ".tutorial-bubble"


def _shots(tmp_path: Path) -> Path:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def _wait_for_step(page: Any, index: int) -> str:
    """Wait until the bubble shows script step `index` (or the tutorial is done); its kind."""
    page.wait_for_function(
        f"(() => {{ const b = document.querySelector('{BUBBLE}'); return b && "
        f"((b.dataset.index === '{index}' && ['next', 'action'].includes(b.dataset.kind))"
        " || b.dataset.kind === 'done'); })()")
    return str(page.locator(BUBBLE).get_attribute("data-kind"))


def _readable(page: Any, width: int) -> None:
    """The bubble lies inside the window, wide enough to read, its text at a readable size."""
    box = page.locator(BUBBLE).bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    assert box["width"] >= min(300, width - 20)
    text = page.locator(f"{BUBBLE} .tutorial-text")
    size = float(text.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)"))
    assert size >= 15


def play_tutorial(page: Any, name: str, shots: Path, tag: str, width: int, tap: bool = False,
                  try_wrong: bool = False) -> None:
    steps = shipped()[name].steps
    for index, step in enumerate(steps):
        kind = _wait_for_step(page, index)
        assert kind == ("action" if "expect" in step or "match" in step else "next"), (index, kind)
        _readable(page, width)
        if index in (0, 1):
            page.screenshot(path=str(shots / f"tutorial-{name}{tag}-{index}.png"))
        if "expect" in step:
            action = step["expect"]
            assert page.locator(f"{BUBBLE} .tutorial-task").inner_text().startswith("Your move: ")
            if try_wrong:
                try_wrong = False
                other = next(e["action"] for e in page.evaluate("window.playtable.state.legal")
                             if e["action"] != action)
                before = step_of(page)
                page.locator(f'.action-list button[data-action="{other}"]').click()
                hint = f"document.querySelector('{BUBBLE} .tutorial-hint').textContent !== ''"
                page.wait_for_function(hint)
                assert step_of(page) == before, "a move the script did not ask for is not played"
            click_action(page, action, tap=tap)
        else:
            button = page.locator(f"{BUBBLE} .tutorial-next")
            if tap:
                button.tap()
            else:
                button.click()
    page.wait_for_function(f"document.querySelector('{BUBBLE}').dataset.kind === 'done'")


def test_the_troll_walkthrough_from_the_lobby(web_server: ServerProcess, chromium: Any,
                                              tmp_path: Path) -> None:
    shots = _shots(tmp_path)
    page = new_page(chromium, 1280, 800)
    page.goto(web_server.url + "/")
    learn = page.locator('.game-card[data-game="troll"] button.learn')
    learn.click()
    page.wait_for_url("**/t/*tutorial=troll-walkthrough*")
    wait_connected(page)
    play_tutorial(page, "troll-walkthrough", shots, "", 1280, try_wrong=True)
    assert page.evaluate("window.playtable.state.terminal")
    page.screenshot(path=str(shots / "tutorial-troll-walkthrough-end.png"))
    assert not page.script_errors and not page.foreign_requests


def test_the_rotator_sequence_on_a_phone(web_server: ServerProcess, chromium: Any, tmp_path: Path) -> None:
    shots = _shots(tmp_path)
    page = new_page(chromium, 390, 844, touch=True)
    page.goto(web_server.url + "/")
    page.locator('.game-card[data-game="rotator"] button.learn').tap()
    page.wait_for_url("**/t/*tutorial=rotator-sequence*")
    wait_connected(page)
    play_tutorial(page, "rotator-sequence", shots, "-phone", 390, tap=True)
    assert page.evaluate("window.playtable.state.terminal")
    assert not page.script_errors and not page.foreign_requests
