"""Screenshots of every web page at a desktop and a phone size, to look at.

    .venv/bin/python benchmarks/web_screenshots.py [--out docs/screenshots] [--only troll_mid]

Starts a real server on a temporary database, plays short games in headless chromium (Debian's,
through Playwright) and writes one PNG per page and size: the lobby (and its create form), a
troll game in the middle, at a warning and at its end screen, the rules panel, Rotator after a few hinted
moves, the replay viewer, and Star Dice's table: empty (its logo), a battle paused
mid-throw (range ring, formations, their points) and the end (scoring shape by shape); and
people: a named player's lobby on "Your turn" with open and invited seats
(`lobby_tables`, a come-back-later move's days left among them), and a wizard table with every
person's seat's real-time clock, the wizard's counting down (`table_clocks`). Prints a table of
what it wrote.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx2  # noqa: E402
from benchmarks.stardice_scatter import drive, plan  # noqa: E402
from tests.web.browser_support import (  # noqa: E402
    browser,
    click_action,
    create_table,
    new_page,
    table_state,
    wait_connected,
)
from tests.web.server_process import start_server  # noqa: E402
from tests.web.wire_client import Client, join_query  # noqa: E402

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
TROLL = {"game": "troll", "variant": "plus-one", "seed": 13, "seats": [{"kind": "human"}]}


def play_first(page: Any, steps: int) -> None:
    for _ in range(steps):
        if table_state(page)["terminal"]:
            return
        click_action(page, table_state(page)["legal"][0]["action"])


def follow_hints(page: Any, steps: int) -> None:
    for _ in range(steps):
        if table_state(page)["terminal"]:
            return
        step = table_state(page)["step"]
        page.keyboard.press("h")
        page.wait_for_function(f"window.playtable.hinted !== null && window.playtable.state.step === {step}")
        click_action(page, page.evaluate("window.playtable.hinted"))


def settle(page: Any) -> None:
    """Let transitions and event animations finish (a step with many events runs ~2 s)."""
    page.wait_for_timeout(2500)


def lobby(page: Any, url: str) -> None:
    page.goto(url + "/")
    page.locator(".game-card").first.wait_for()


def lobby_form(page: Any, url: str) -> None:
    lobby(page, url)
    page.locator('[data-game="troll"] button', has_text="New table").click()
    page.locator("#variant").wait_for()
    page.wait_for_timeout(600)  # the smooth scroll to the form


PLAYER_KEYS: dict[str, str] = {}
"""One key a name: a server gives a name to one player key only (docs/web.md "Names"), so the
Alice of every screenshot is the same player."""


def as_player(page: Any, url: str, name: str) -> str:
    """Name a player on the server and give `page`'s browser its key (as the lobby would)."""
    key = PLAYER_KEYS.setdefault(name, secrets.token_urlsafe(32))
    httpx2.post(url + "/api/players", json={"name": name, "key": key}, timeout=10).raise_for_status()
    page.context.add_init_script(f"localStorage.setItem('playtable.playerKey', '{key}');"
                                 f"localStorage.setItem('playtable.playerName', '{name}');")
    return key


def lobby_tables(page: Any, url: str) -> None:
    alice = as_player(page, url, "Alice")
    bob = secrets.token_urlsafe(32)
    httpx2.post(url + "/api/players", json={"name": "Bob", "key": bob}, timeout=10).raise_for_status()
    mine = {"kind": "human", "mine": True}
    create_table(url, game="wizard", players=4, seed=4, key=alice,
                 seats=[mine, {"kind": "human"}, {"kind": "human", "reserved": True},
                        {"kind": "bot", "agent": "heuristic"}])
    create_table(url, **{**TROLL, "seats": [mine]}, key=alice,
                 clock={"pace": "come-back-later", "days": 2})
    create_table(url, game="stardice", variant="battle", key=bob, seats=[mine, {"kind": "human"}])
    page.goto(url + "/")
    page.locator('.tabs [data-status="turn"][aria-selected="true"]').wait_for()
    page.locator('.tabs [data-status="mine"]').click()
    page.locator(".table-list tbody tr").nth(1).wait_for()
    page.evaluate("document.querySelector('.tables').scrollIntoView()")


def table_clocks(page: Any, url: str) -> None:
    key = as_player(page, url, "Alice")
    invited = {"kind": "human", "reserved": True}
    created = create_table(url, game="wizard", players=3, seed=3, key=key,
                           seats=[{"kind": "human", "mine": True}, invited, invited],
                           clock={"pace": "real-time", "seconds": 600, "increment": 5})
    page.goto(url + created["seats"][0]["join_url"])
    wait_connected(page)
    page.locator('.seat-clock[data-running="true"]').wait_for()
    page.wait_for_timeout(1300)


def troll(page: Any, url: str, steps: int) -> None:
    created = create_table(url, **TROLL)
    page.goto(url + created["seats"][0]["join_url"])
    wait_connected(page)
    play_first(page, steps)
    settle(page)


def troll_warning(page: Any, url: str) -> None:
    """Play on until an action carries a warning, and click it: the confirmation dialog."""
    troll(page, url, 0)
    for _ in range(200):
        state = table_state(page)
        if state["terminal"]:
            return
        warned = [entry for entry in state["legal"] if entry["warning"]]
        if warned:
            page.locator(f'.action-list button[data-action="{warned[0]["action"]}"]').click()
            page.locator("dialog.confirm[open]").wait_for()
            return
        click_action(page, state["legal"][0]["action"])


def troll_rules(page: Any, url: str) -> None:
    troll(page, url, 0)
    page.keyboard.press("?")
    page.locator("#rules h3").first.wait_for()


def rotator(page: Any, url: str) -> None:
    created = create_table(url, game="rotator", variant="easy", seed=2, seats=[{"kind": "human"}])
    page.goto(url + created["seats"][0]["join_url"])
    wait_connected(page)
    follow_hints(page, 3)
    page.keyboard.press("h")
    page.wait_for_function("window.playtable.hinted !== null")
    settle(page)


def replay(page: Any, url: str) -> None:
    troll(page, url, 200)
    page.goto(page.url.replace("?", "/replay?", 1))
    page.wait_for_function("window.playtableReplay !== undefined")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    settle(page)


# Presses the page's Pause a quarter second after a die starts to move: the table stays as it was
# mid-throw (the moving die's range ring) however slowly the screenshot is taken.
PAUSE_MID_THROW = """() => { window.__paused = new Promise((resolve) => {
  const canvas = document.querySelector('.stardice-canvas');
  const raf = window.requestAnimationFrame.bind(window);
  let seen = 0;
  window.requestAnimationFrame = (draw) => raf((t) => {
    draw(t);
    if (Number(canvas.dataset.moving) > 0 && ++seen === 15) {
      window.requestAnimationFrame = raf;
      [...document.querySelectorAll('.stardice-bar button')].find((b) => b.textContent === 'Pause').click();
      resolve();
    }
  });
}); }"""


def stardice(page: Any, url: str, throws: int | None) -> None:
    """Star Dice, a battle the engine plans (`stardice_scatter.plan`: dice aimed round
    the centre, seed 40, three formations from the 12th throw to the end): no throws, the
    empty table and its logo; `throws`, paused a quarter second into the next throw (its range
    ring, the formations on the table and their points); None, the end, the end screen's box
    closed so that the frozen table and its scoring shape by shape show."""
    actions, _ = plan(40, spread=0.09, scatter=False)
    created = create_table(url, game="stardice", variant="battle", seed=40,
                           seats=[{"kind": "human"}, {"kind": "human"}])
    page.goto(url + created["seats"][0]["join_url"])
    wait_connected(page)
    if throws == 0:
        page.wait_for_timeout(500)
        return
    with Client(url.replace("http", "ws", 1), created["table_id"], join_query(created, 1)) as other:
        other.greet()
        if throws is None:
            drive(page, other, actions)
            page.wait_for_function(f"window.playtable.state.step === {len(actions)} && "
                                   "document.querySelector('.stardice-canvas').dataset.animating === 'no'")
            settle(page)
            page.get_by_role("button", name="Look at the board").click()
            return
        drive(page, other, actions[:throws])
        page.wait_for_function(f"window.playtable.state.step === {throws}")
        settle(page)  # the formations' numbers faded in
        page.evaluate(PAUSE_MID_THROW)
        drive(page, other, actions[throws:throws + 1], start=throws)
        page.evaluate("window.__paused")
        page.wait_for_timeout(300)


PAGES: dict[str, Callable[[Any, str], None]] = {
    "lobby": lobby,
    "lobby_form": lobby_form,
    "troll_mid": lambda page, url: troll(page, url, 3),
    "troll_end": lambda page, url: troll(page, url, 200),
    "troll_warning": troll_warning,
    "rules": troll_rules,
    "rotator": rotator,
    "replay": replay,
    "stardice_empty": lambda page, url: stardice(page, url, 0),
    "stardice_battle": lambda page, url: stardice(page, url, 13),
    "stardice_end": lambda page, url: stardice(page, url, None),
    "lobby_tables": lobby_tables,
    "table_clocks": table_clocks,
}
FULL_PAGE = {"stardice_end"}
"""Pages shot whole (scrolled): the Star Dice end screen's scoring is under its table."""
KEEP_COLOURS = {"stardice_empty", "stardice_battle", "stardice_end"}
"""Not shrunk to 128 colours: the table's small stars and gradients lose their colours."""


def shrink(path: Path) -> None:
    """128 colours with no dithering: a third of the size, and the flat colours of these pages
    come through unchanged. Skipped when Pillow (the lab extra, via matplotlib) is missing."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT,
                                              dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--only", nargs="*", choices=sorted(PAGES), help="only these pages")
    parser.add_argument("--full-page", action="store_true", help="the whole scrolled page, not the window")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, start_server(Path(tmp) / "shots.sqlite3") as server, \
            browser() as chromium:
        for name in args.only or PAGES:
            for size, (width, height) in SIZES.items():
                page = new_page(chromium, width, height)
                PAGES[name](page, server.url)
                path = args.out / f"{name}-{size}.png"
                page.screenshot(path=str(path), full_page=args.full_page or name in FULL_PAGE)
                if name not in KEEP_COLOURS:
                    shrink(path)
                problems = "; ".join(page.script_errors) or "none"
                rows.append((path.name, f"{width}x{height}", f"{path.stat().st_size // 1024} KB", problems))
                page.context.close()
    print(f"| {'file':<26} | {'window':<9} | {'size':>7} | script errors |")
    print(f"|{'-' * 28}|{'-' * 11}|{'-' * 9}|---------------|")
    for row in rows:
        print(f"| {row[0]:<26} | {row[1]:<9} | {row[2]:>7} | {row[3]} |")


if __name__ == "__main__":
    main()
