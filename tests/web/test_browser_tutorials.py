"""Each tutorial played through in a real browser as a person would ("Tutorials"): from
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

from playtable.web.server.tables.tutorials import shipped

BUBBLE = ".tutorial-bubble"


def _shots(tmp_path: Path) -> Path:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def _wait_for_step(page: Any, index: int) -> str:
    """Wait until the bubble shows script step `index` (or the tutorial is done); its kind. A
    step may wait for a bot's move and a throw's animation: on a machine busy with other
    work that took over the usual 15 s once (CI, 27 Nov), so the bound is longer here."""
    page.wait_for_function(
        f"(() => {{ const b = document.querySelector('{BUBBLE}'); return b && "
        f"((b.dataset.index === '{index}' && ['next', 'action', 'free'].includes(b.dataset.kind))"
        " || b.dataset.kind === 'done'); })()", timeout=45_000)
    return str(page.locator(BUBBLE).get_attribute("data-kind"))


READABLE = """(b) => {
  const box = b.getBoundingClientRect();
  const size = parseFloat(getComputedStyle(b.querySelector('.tutorial-text')).fontSize);
  return { left: box.left, right: box.right, width: box.width, size };
}"""


def _readable(page: Any, width: int) -> None:
    """The bubble lies inside the window, wide enough to read, its text at a readable size."""
    box = page.locator(BUBBLE).evaluate(READABLE)
    assert box["left"] >= 0 and box["right"] <= width + 0.5, box
    assert box["width"] >= min(300, width - 20) and box["size"] >= 15, box


def play_tutorial(page: Any, name: str, shots: Path, tag: str, width: int, tap: bool = False,
                  try_wrong: bool = False) -> None:
    steps = shipped()[name].steps
    for index, step in enumerate(steps):
        kind = _wait_for_step(page, index)
        wanted = "free" if step.get("free") else "action" if "expect" in step or "match" in step else "next"
        assert kind == wanted, (index, kind)
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
        elif "match" in step:
            _throw(page, step["example"].split(" at ")[0][:-1])  # "roll d20a ..." -> "roll d20"
        elif step.get("free"):
            shots_left = 0
            while not page.evaluate("window.playtable.state.terminal"):
                if page.evaluate("window.playtable.state.your_turn && !window.playtable.pending"):
                    _throw(page, None, shots_left % 3)
                    shots_left += 1
                else:
                    page.wait_for_timeout(100)  # the Klingon's throw rolling
        else:
            button = page.locator(f"{BUBBLE} .tutorial-next")
            if tap:
                button.tap()
            else:
                button.click()
    page.wait_for_function(f"document.querySelector('{BUBBLE}').dataset.kind === 'done'")


def _throw(page: Any, choice: str | None, nudge: int = 0) -> None:
    """A Star Dice throw the keyboard's way: a digit picks the ship (`choice`, e.g. "roll d20";
    None: the first), the arrows move the aim, Enter throws; returns once the server answered."""
    pieces = page.locator(".stardice-piece:not([disabled])")
    choices = pieces.evaluate_all("(bs) => bs.map((b) => b.dataset.choice)")
    digit = 1 + (choices.index(choice) if choice else 0)
    before = step_of(page)
    page.locator(".stardice-canvas").focus()
    page.keyboard.press(str(digit))
    for _ in range(nudge):
        page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.playtable.state.step > {before}")


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
    page.emulate_media(reduced_motion="reduce")  # a player who asked for less motion: no spin to wait for
    page.goto(web_server.url + "/")
    page.locator('.game-card[data-game="rotator"] button.learn').tap()
    page.wait_for_url("**/t/*tutorial=rotator-sequence*")
    wait_connected(page)
    play_tutorial(page, "rotator-sequence", shots, "-phone", 390, tap=True)
    assert page.evaluate("window.playtable.state.terminal")
    assert not page.script_errors and not page.foreign_requests


def test_the_wizard_first_round_from_both_sides(web_server: ServerProcess, chromium: Any,
                                                tmp_path: Path) -> None:
    """Seed 003's first round as a hero (desktop) and as the wizard (a phone), bots in the other
    seats; each opened from the rules panel's buttons on a table of the game, as a player who
    opened the rules would."""
    shots = _shots(tmp_path)
    for name, width, height, tap in (("wizard-hero", 1280, 800, False), ("wizard-wizard", 390, 844, True)):
        page = new_page(chromium, width, height, touch=tap)
        page.goto(web_server.url + "/")
        page.locator(f'.game-card[data-game="wizard"] button.learn[data-tutorial="{name}"]').click()
        page.wait_for_url(f"**/t/*tutorial={name}*")
        wait_connected(page)
        play_tutorial(page, name, shots, "-phone" if tap else "", width, tap=tap)
        page.screenshot(path=str(shots / f"tutorial-{name}-end.png"))
        page.locator(".rules-learn button.learn").first.wait_for(state="attached")
        assert not page.script_errors and not page.foreign_requests
        page.context.close()


def test_the_stardice_first_battle_from_the_keyboard(web_server: ServerProcess, chromium: Any,
                                                     tmp_path: Path) -> None:
    """Seed 002's first battle against the search bot, every throw the keyboard's way (digits,
    arrows, Enter); after the two guided throws the player throws freely to the scoring."""
    shots = _shots(tmp_path)
    page = new_page(chromium, 1280, 800)
    page.goto(web_server.url + "/")
    page.locator('.game-card[data-game="stardice"] button.learn').click()
    page.wait_for_url("**/t/*tutorial=stardice-first-battle*")
    wait_connected(page)
    play_tutorial(page, "stardice-first-battle", shots, "", 1280)
    assert page.evaluate("window.playtable.state.terminal")
    page.screenshot(path=str(shots / "tutorial-stardice-first-battle-end.png"))
    assert not page.script_errors and not page.foreign_requests


def test_a_tutorial_under_the_real_content_security_policy(web_server: ServerProcess, chromium: Any) -> None:
    """The guide's stylesheet, its bubble placed through the CSSOM and the lobby's and rules
    panel's buttons break nothing the server's CSP forbids (no inline style or script); a reload
    comes back to the step reached."""
    page = new_page(chromium, 1280, 800, strict_csp=True)
    page.goto(web_server.url + "/")
    page.locator('.game-card[data-game="troll"] button.learn').click()
    page.wait_for_selector(f"{BUBBLE}[data-index='0'][data-kind='next']")
    page.locator(f"{BUBBLE} .tutorial-next").click()
    page.wait_for_selector(f"{BUBBLE}[data-index='1'][data-kind='next']")
    page.reload()
    page.wait_for_selector(f"{BUBBLE}[data-index='1'][data-kind='next']")
    page.locator(".rules-learn button.learn").wait_for(state="attached")
    assert page.locator(".tutorial-ring").is_visible()
    assert not page.script_errors and not page.foreign_requests
