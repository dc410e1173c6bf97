"""The lobby as a newcomer meets it, in a real browser under the server's real
Content-Security-Policy, on a desktop window (1280x800) and on a phone (390x844): a table whose
only people are its creator starts at once with them at their seat (a link to share is only for
seats others will take); a tutorial's table is marked as one, never counted under "Your turn",
can be left from the list, and its end screen says it was a tutorial. Screenshots go to
`$PLAYTABLE_SCREENSHOTS`, else the test's temporary directory.

Waits are Playwright locators and bounded polls of `page.evaluate`: the strict policy forbids
the eval `wait_for_function` needs (tests/web/test_browser_csp.py).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from tests.web.browser_support import new_page, play_script, poll
from tests.web.server_process import ServerProcess

from playtable.web.server.tables.tutorials import shipped

POLL_SECONDS = 15.0
SCREENS = {"desktop": (1280, 800, False), "phone": (390, 844, True)}


def _shots(tmp_path: Path) -> Path:
    shots = Path(os.environ.get("PLAYTABLE_SCREENSHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def _page(chromium: Any, screen: str) -> Any:
    width, height, touch = SCREENS[screen]
    return new_page(chromium, width, height, touch=touch, strict_csp=True)


def _open_form(page: Any, url: str, game: str) -> Any:
    """The lobby's New-table form of `game`."""
    page.goto(url + "/")
    page.locator(f'.game-card[data-game="{game}"]').get_by_role("button", name="New table").click()
    form = page.locator("form.create-form")
    form.wait_for()
    return form


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize(("game", "others"), [("troll", {}), ("rotator", {}),
                                               ("stardice", {"seat-1": "bot:random-thrower"})],
                         ids=["troll", "rotator", "stardice-vs-bot"])
def test_a_table_of_its_creator_alone_starts_at_their_seat(web_server: ServerProcess, chromium: Any,
                                                            tmp_path: Path, screen: str, game: str,
                                                            others: dict[str, str]) -> None:
    page = _page(chromium, screen)
    form = _open_form(page, web_server.url, game)
    for name, value in others.items():
        form.locator(f'select[name="{name}"]').select_option(value)
    form.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*seat=0&token=*")
    poll(page, "window.playtable && window.playtable.state && window.playtable.role === 'player'")
    if game != "stardice":  # a solitaire is the creator's move at once (Star Dice: the call may be the bot's)
        poll(page, "window.playtable.state.your_turn")
    page.screenshot(path=str(_shots(tmp_path) / f"lobby-solo-{game}-{screen}.png"))
    assert not page.script_errors and not page.foreign_requests


@pytest.mark.parametrize("screen", SCREENS)
def test_a_table_with_a_seat_for_someone_else_gives_its_links(web_server: ServerProcess, chromium: Any,
                                                               screen: str) -> None:
    page = _page(chromium, screen)
    form = _open_form(page, web_server.url, "stardice")
    form.locator('select[name="seat-1"]').select_option("invite")
    form.get_by_role("button", name="Create the table").click()
    links = page.locator(".created-links")
    links.wait_for()
    assert links.get_by_role("link", name="Join as Klingon").is_visible()
    assert "/t/" not in page.url
    assert not page.script_errors and not page.foreign_requests


def _named(page: Any, url: str, name: str) -> None:
    """The lobby with a name chosen (a named player's tables are listed)."""
    page.goto(url + "/")
    page.locator("#player-name").fill(name)
    page.get_by_role("button", name="Save").click()
    page.get_by_role("button", name="Change").wait_for()


def _seated(url: str, key: str, table_id: str) -> None:
    """Wait until the server has the table among the player's (the page's hello sat them)."""
    deadline = time.monotonic() + POLL_SECONDS
    while time.monotonic() < deadline:
        tables = httpx2.post(url + "/api/players/me", json={"key": key}, timeout=5).json()["tables"]
        if any(t["id"] == table_id for t in tables):
            return
        time.sleep(0.1)
    raise AssertionError(f"table {table_id} never listed as the player's")


def _in_tutorial(page: Any, url: str, name: str) -> str:
    """The troll's tutorial started from the lobby by a person named `name`, once the server has
    it among their tables: its table's id."""
    _named(page, url, name)
    page.locator('.game-card[data-game="troll"] button.learn').click()
    page.wait_for_url("**/t/*tutorial=troll-walkthrough*")
    poll(page, "window.playtable && window.playtable.state && window.playtable.state.your_turn")
    table_id: str = page.evaluate("window.playtable.tableId")
    _seated(url, page.evaluate("localStorage.getItem('playtable.playerKey')"), table_id)
    return table_id


@pytest.mark.parametrize("screen", SCREENS)
def test_a_tutorial_is_marked_never_your_turn_and_can_be_left(web_server: ServerProcess, chromium: Any,
                                                              tmp_path: Path, screen: str) -> None:
    page = _page(chromium, screen)
    table_id = _in_tutorial(page, web_server.url, f"Tess {screen}")

    page.goto(web_server.url + "/")
    row = page.locator(f'tr[data-table="{table_id}"]')
    row.wait_for()
    assert page.locator('.tabs [data-status="mine"]').get_attribute("aria-selected") == "true"
    assert page.locator('.tabs [data-status="turn"]').inner_text() == "Your turn"
    assert row.locator(".tutorial-tag").inner_text() == "Tutorial"
    page.screenshot(path=str(_shots(tmp_path) / f"lobby-tutorial-{screen}.png"), full_page=True)
    row.get_by_role("button", name="Leave").click()
    row.wait_for(state="detached")
    assert httpx2.get(f"{web_server.url}/api/tables/{table_id}", timeout=5).json()["status"] == "finished"
    assert not page.script_errors and not page.foreign_requests


@pytest.mark.parametrize("screen", SCREENS)
def test_a_strangers_tutorial_is_not_in_the_public_lists(web_server: ServerProcess, chromium: Any,
                                                          tmp_path: Path, screen: str) -> None:
    """A tutorial is its person's own guided game: a stranger's Running list (and Finished, once
    it is left) shows the bots' table made beside it but never the tutorial; its own person
    still finds it under Yours until they leave it."""
    owner = _page(chromium, screen)
    tutorial_id = _in_tutorial(owner, web_server.url, f"Lena {screen}")
    bots = [{"kind": "bot", "agent": "random-thrower"}] * 2
    public_id = httpx2.post(web_server.url + "/api/tables", json={"game": "stardice", "seats": bots},
                           timeout=5).json()["table_id"]

    stranger = _page(chromium, screen)
    stranger.goto(web_server.url + "/")
    stranger.locator('.tabs [data-status="running"]').click()
    stranger.locator(f'tr[data-table="{public_id}"]').wait_for()
    assert stranger.locator(f'tr[data-table="{tutorial_id}"]').count() == 0
    assert stranger.locator(".tutorial-tag").count() == 0
    shot = _shots(tmp_path) / f"lobby-running-no-tutorial-{screen}.png"
    stranger.screenshot(path=str(shot), full_page=True)

    owner.goto(web_server.url + "/")
    row = owner.locator(f'tr[data-table="{tutorial_id}"]')
    row.wait_for()
    row.get_by_role("button", name="Leave").click()
    row.wait_for(state="detached")
    for status in ("running", "finished", None):
        listed = httpx2.get(web_server.url + "/api/tables", params={"status": status} if status else {},
                           timeout=5).json()["tables"]
        assert tutorial_id not in {t["id"] for t in listed}, status
    assert not owner.script_errors and not stranger.script_errors


def test_a_tutorial_played_to_its_end_says_so_on_the_end_screen(web_server: ServerProcess, chromium: Any,
                                                                 tmp_path: Path) -> None:
    """The script's moves sent as the page sends any move (the bubbles are the tutorial
    tests' concern): its end screen says a tutorial is not rated, never that its creator chose so."""
    page = _page(chromium, "phone")
    page.goto(web_server.url + "/")
    page.locator('.game-card[data-game="troll"] button.learn').click()
    page.wait_for_url("**/t/*tutorial=troll-walkthrough*")
    play_script(page, [step["expect"] for step in shipped()["troll-walkthrough"].steps if "expect" in step])
    poll(page, "window.playtable.state.terminal")
    page.locator(".end-rating", has_text="Not rated: it was a tutorial.").wait_for()
    page.screenshot(path=str(_shots(tmp_path) / "lobby-tutorial-end-phone.png"))
    assert not page.script_errors and not page.foreign_requests


@pytest.mark.parametrize("screen", SCREENS)
def test_star_dice_rules_are_the_standard_first_and_earlier_versions_apart(
        web_server: ServerProcess, chromium: Any, tmp_path: Path, screen: str) -> None:
    """In the New-table form and in the table menu: the standard rules first, once, under a name
    no other entry shares; the designer's earlier versions in a group of their own, with a line
    saying what they are."""
    page = _page(chromium, screen)
    form = _open_form(page, web_server.url, "stardice")
    variant = form.locator("#variant")
    options = variant.locator("option").all_inner_texts()
    assert options[0] == "Standard rules: a war to 50" and variant.input_value() == ""
    assert not any(o.startswith("Final rules") for o in options) and len(options) == len(set(options))
    earlier = variant.locator('optgroup[label="The designer\'s earlier versions"] option')
    assert earlier.count() == 11 and earlier.first.inner_text() == "Version 9: torpedoes after a d6"
    variant.select_option("iteration3_scoring1")
    note = form.locator("#variant-description .variant-group-note").inner_text()
    assert note.startswith("The designer's earlier versions: Rules from the designer's playtests")
    box = form.locator("#variant").bounding_box()
    assert box is not None and box["x"] + box["width"] <= SCREENS[screen][0]
    page.screenshot(path=str(_shots(tmp_path) / f"lobby-stardice-rules-{screen}.png"))

    variant.select_option("battle")
    form.locator('select[name="seat-1"]').select_option("bot:random-thrower")
    form.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/t/*seat=0&token=*")
    menu = page.locator(".stardice-menu-button")
    menu.click()
    groups = page.locator(".stardice-variant-group")
    groups.nth(3).wait_for()
    first = groups.first.locator(".stardice-variant")
    assert first.count() == 1 and first.get_attribute("data-variant") == "final"
    assert first.inner_text().startswith("Standard rules: a war to 50")
    assert groups.locator("h3").all_inner_texts() == ["Other ways to play", "Solitaire",
                                                      "The designer's earlier versions"]
    assert "playtests" in groups.nth(3).locator(".note").inner_text()
    assert groups.nth(3).locator(".stardice-variant").count() == 11
    shot = _shots(tmp_path) / f"stardice-menu-{screen}.png"
    page.locator(".stardice-menu-panel").screenshot(path=str(shot))
    assert not page.script_errors and not page.foreign_requests


INSIDE = """(form) => {
  const card = form.getBoundingClientRect();
  return [...form.querySelectorAll('select, input, fieldset, .seat-row')]
    .filter((el) => el.getClientRects().length)
    .map((el) => [el.name || el.className || el.tagName, el.getBoundingClientRect().right - card.right])
    .filter(([, over]) => over > 0.5);
}"""


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("game", ["stardice", "wizard"])
def test_the_new_table_form_stays_inside_its_card(web_server: ServerProcess, chromium: Any, tmp_path: Path,
                                                  screen: str, game: str) -> None:
    """Seats with the longest choices (a bot's name, "someone you invite") and the deal number
    never run past the card's edge, nor does the page scroll sideways."""
    page = _page(chromium, screen)
    form = _open_form(page, web_server.url, game)
    form.locator('select[name="seat-1"]').select_option("invite")
    assert form.evaluate(INSIDE) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREENS[screen][0]
    form.locator("fieldset.seats").screenshot(path=str(_shots(tmp_path) / f"lobby-form-{game}-{screen}.png"))
    assert not page.script_errors


HEADER_MAX_PX = 80
"""The table page's header at most (it took 165-190 px on a phone: the board started below
the fold's first fifth)."""


@pytest.mark.parametrize("screen", SCREENS)
def test_the_table_header_is_short(web_server: ServerProcess, chromium: Any, tmp_path: Path,
                                   screen: str) -> None:
    for body in ({"game": "troll", "seed": 3}, {"game": "rotator", "variant": "easy", "seed": 2},
                 {"game": "stardice", "variant": "battle", "seed": 4,
                  "seats": [{"kind": "human"}, {"kind": "bot", "agent": "random"}]}):
        answer = httpx2.post(web_server.url + "/api/tables", json=body, timeout=15)
        page = _page(chromium, screen)
        page.goto(web_server.url + answer.json()["seats"][0]["join_url"])
        poll(page, "window.playtable && window.playtable.state")
        header = page.locator("header.topbar").bounding_box()
        assert header is not None and header["height"] <= HEADER_MAX_PX, (body["game"], header)
        for name in ("Rules (?)", "Replay"):  # still there, and still a finger's size
            button = page.locator("header.topbar").get_by_text(name, exact=True).bounding_box()
            assert button is not None and button["height"] >= 24
            assert button["y"] + button["height"] <= header["height"]
        page.screenshot(path=str(_shots(tmp_path) / f"table-header-{body['game']}-{screen}.png"))
        assert not page.script_errors
        page.context.close()


MARKER_IN_VIEW = """(() => {
  const box = document.querySelector('.rotator-board .player').getBoundingClientRect();
  const list = document.querySelector('.action-list').getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight && list.top >= 0 && list.top < window.innerHeight;
})()"""


END_IN_VIEW = """(() => {
  const title = document.querySelector('.end-screen h2')?.getBoundingClientRect();
  const seen = title && document.elementFromPoint(title.left + 4, (title.top + title.bottom) / 2);
  return Boolean(seen && seen.closest('.end-screen'));
})()"""
"""The end screen's title is on the screen, not under the actions pinned over the board."""


@pytest.mark.parametrize("screen", SCREENS)
def test_rotator_moves_chosen_from_the_list_keep_the_board_in_view(web_server: ServerProcess, chromium: Any,
                                                                   tmp_path: Path, screen: str) -> None:
    """Every move played from the action list (as a finger or a mouse does) leaves the driller's
    square on the screen, and the list too; the move that ends the game brings the end screen
    into view instead (on a phone it comes under the board)."""
    body = {"game": "rotator", "variant": "easy", "seed": 2}
    created = httpx2.post(web_server.url + "/api/tables", json=body, timeout=15).json()
    touch = SCREENS[screen][2]
    page = _page(chromium, screen)
    page.emulate_media(reduced_motion="reduce")  # no turn of the board to wait for
    page.goto(web_server.url + created["seats"][0]["join_url"])
    poll(page, "window.playtable && window.playtable.state && window.playtable.state.your_turn")
    for move in range(6):
        if page.evaluate("window.playtable.state.terminal"):
            break
        step = page.evaluate("window.playtable.state.step")
        action = page.evaluate("window.playtable.state.legal[0].action")
        button = page.locator(f'.action-list button[data-action="{action}"]')
        if touch:
            button.tap()
        else:
            button.click()
        confirm = page.locator('dialog.confirm[open] button[value="confirm"]')  # a move with a warning
        if page.locator("dialog.confirm[open]").count():
            confirm.click()
        poll(page, f"window.playtable.state.step > {step} && window.playtable.state.your_turn "
                    "|| window.playtable.state.terminal")
        poll(page, END_IN_VIEW if page.evaluate("window.playtable.state.terminal") else MARKER_IN_VIEW)
        page.screenshot(path=str(_shots(tmp_path) / f"rotator-list-{screen}-{move}.png"))
    assert move >= 3, "the board was played from the list several times"
    assert not page.script_errors


def test_a_tab_picked_while_the_lobby_loads_is_the_one_shown(web_server: ServerProcess,
                                                              chromium: Any) -> None:
    """A person who clicks Running before the lobby has its games (a slow answer: held here)
    sees the running tables, and still does once the games come: the click is neither lost nor
    replaced by the starting tab."""
    bots = [{"kind": "bot", "agent": "random-thrower"}] * 2
    public_id = httpx2.post(web_server.url + "/api/tables", json={"game": "stardice", "seats": bots},
                           timeout=5).json()["table_id"]
    page = _page(chromium, "desktop")
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route))  # held until released below
    page.goto(web_server.url + "/")
    for _ in range(300):  # bounded: the page asks for its games as it starts
        if held:
            break
        page.wait_for_timeout(50)  # lets Playwright take the held request
    assert held, "the lobby never asked for its games"
    page.locator('.tabs [data-status="running"]').click()
    page.locator(f'tr[data-table="{public_id}"]').wait_for()
    held[0].continue_()
    page.locator('.game-card[data-game="stardice"]').wait_for()
    page.locator(f'tr[data-table="{public_id}"]').wait_for()
    assert page.locator('.tabs [data-status="running"]').get_attribute("aria-selected") == "true"
    assert not page.script_errors
