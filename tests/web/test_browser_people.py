"""People in real browsers: names without accounts, open seats, "Yours" and "Your
turn", a real-time clock that waits for its person, and a phone's lobby and Rotator board.

Each person is a browser context of their own (their own localStorage, hence their own player
key): two people meet through the lobby's Open tab and play a Star Dice battle to its end; one
leaves and comes back later to the "Your turn" tab, told by the tab title and a notification,
and plays on from a link that carries no token; a real-time clock starts only when its player
arrives, counts down on the page and runs out into the stand-in, named as such in the log; a
Rotator rematch shows in "Yours" and "Running" offers Join for it. Screenshots go to
`$PLAYTABLE_SCREENSHOTS` (else the test's temporary folder).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from tests.web.browser_support import click_action, new_page, table_state, wait_connected
from tests.web.server_process import ServerProcess, start_server

# Notifications as the page sees them: the permission starts at "default" (the page must ask,
# from a click) and, once granted, stays so for the browser (as a real one keeps it); every
# notification shown is recorded instead of popping up.
FAKE_NOTIFICATIONS = """
window.__notes = [];
class FakeNotification {
  static get permission() { return localStorage.getItem("test.notifications") || "default"; }
  static async requestPermission() {
    localStorage.setItem("test.notifications", "granted");
    return "granted";
  }
  constructor(title, options) { window.__notes.push({ title, ...(options || {}) }); }
  addEventListener() {}
  close() {}
}
window.Notification = FakeNotification;
"""
SEATED = "window.playtable && window.playtable.role === 'player' && window.playtable.state"
"""A table page (after a navigation: `window.playtable` may not be there yet) playing its seat."""
IN_THE_BACKGROUND = "Document.prototype.hasFocus = function () { return false; };"


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of each test's own (not the module's shared one): each test's people choose
    "Alice" and "Bob" again, and a server gives a name to one player key only (docs/web.md
    "Names")."""
    with start_server(tmp_path / "tables.sqlite3") as running:
        yield running


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PLAYTABLE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def person(chromium: Any, url: str, name: str, width: int = 1280, height: int = 800,
           touch: bool = False, scripts: tuple[str, ...] = ()) -> Any:
    """A new person in a browser of their own, named in the lobby."""
    page = new_page(chromium, width, height, touch=touch)
    for script in scripts:
        page.context.add_init_script(script)
    page.goto(url + "/")
    page.locator("#player-name").fill(name)
    page.locator(".player-form button[type=submit]").click()
    page.locator(".player .note", has_text=f"Others see you as {name}").wait_for()
    return page


def another_tab(context: Any) -> Any:
    """Another page of a person's browser (the same storage, hence the same key)."""
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
    tab.script_errors = errors
    return tab


def join_through_open_tab(page: Any, table_id: str) -> None:
    """Bob's way into Alice's Star Dice table: the lobby's Open tab, her table's row (hers, with
    an open seat), "Join as Klingon", until the table's page is connected."""
    page.locator('.tabs [data-status="open"]').click()
    row = page.locator(f'.table-list tr[data-table="{table_id}"]')
    row.wait_for()
    assert "Alice" in row.inner_text() and "open seat" in row.inner_text()
    row.get_by_role("button", name="Join as Klingon").click()
    wait_connected(page)


def create_in_lobby(page: Any, game: str, seats: list[str], variant: str | None = None,
                    seed: int | None = None, minutes: str | None = None, days: str | None = None) -> None:
    """The lobby's create form: `seats` are the seat menus' values (me, open, invite, bot:NAME);
    `minutes`: a real-time clock of that many minutes each, whose timeout brings the stand-in;
    `days`: a come-back-later clock of that many days a move."""
    page.locator(f'[data-game="{game}"] button', has_text="New table").click()
    if variant is not None:
        page.locator("#variant").select_option(variant)
    for i, value in enumerate(seats):
        page.locator(f'select[name="seat-{i}"]').select_option(value)
    if seed is not None:
        page.locator("#seed").fill(str(seed))
    if minutes is not None:
        page.locator("#clock-pace").select_option("real-time")
        page.locator("#clock-minutes").fill(minutes)
        page.locator("#clock-timeout").select_option("stand-in")
    if days is not None:
        page.locator("#clock-pace").select_option("come-back-later")
        page.locator("#clock-days").select_option(days)
    page.get_by_role("button", name="Create the table").click()
    if "me" in seats and all(s == "me" or s.startswith("bot:") for s in seats):
        page.wait_for_url("**/t/*")  # a table of its creator alone starts at their seat at once
    else:
        page.locator(".created-links").wait_for()


def play(page: Any, action: str) -> None:
    """Play `action`: from the list when it offers it, else through the frame (a board gesture)."""
    if page.locator(f'.action-list button[data-action="{action}"]').count():
        click_action(page, action, prefer_board=False)
        return
    before = table_state(page)["step"]
    page.evaluate("(a) => window.playtable.act(a)", action)
    page.wait_for_function(f"window.playtable.state.step > {before}")


def log_heads(page: Any) -> list[str]:
    heads: list[str] = page.locator(".log-list .log-head").all_inner_texts()
    return heads


def meet_at_a_battle(chromium: Any, url: str, scripts: tuple[str, ...] = (),
                     days: str | None = None) -> tuple[Any, Any, str]:
    """Alice makes a Star Dice battle with an open seat (a come-back-later clock of `days` a move,
    if given) and sits down; Bob finds it under Open, joins, and both pages name both players.
    Returns Alice's and Bob's table pages and the id."""
    alice = person(chromium, url, "Alice", scripts=scripts)
    create_in_lobby(alice, "stardice", ["me", "open"], variant="battle", seed=21, days=days)
    assert "(you, Alice)" in alice.locator(".created-links").inner_text()
    alice.get_by_role("link", name="Join as Federation").click()
    wait_connected(alice)
    table_id = alice.evaluate("window.playtable.tableId")
    assert alice.locator(".seat-badge").inner_text() == "Alice · you play Federation"

    bob = person(chromium, url, "Bob", scripts=scripts)
    join_through_open_tab(bob, table_id)
    assert "token=" in bob.url  # the seat's new link, made for Bob
    assert bob.locator(".seat-badge").inner_text() == "Bob · you play Klingon"
    alice.wait_for_function("window.playtable.players[1] === 'Bob'")
    assert bob.evaluate("window.playtable.players") == ["Alice", "Bob"]
    summary = httpx2.get(f"{url}/api/tables/{table_id}").json()
    assert [s["player"] for s in summary["seats"]] == ["Alice", "Bob"] and summary["status"] == "running"
    return alice, bob, table_id


def mover_of(pages: list[Any]) -> int | None:
    for i, page in enumerate(pages):
        state = table_state(page)
        if state["your_turn"] and not state["terminal"] and not page.evaluate("window.playtable.pending"):
            return i
    return None


def test_two_people_meet_through_the_open_tab_and_play_a_battle(web_server: ServerProcess,
                                                               chromium: Any, shots: Path) -> None:
    alice, bob, table_id = meet_at_a_battle(chromium, web_server.url)
    pages = [alice, bob]
    shot = False
    for _ in range(200):  # a battle is about 17 actions
        if all(table_state(p)["terminal"] for p in pages):
            break
        mover = mover_of(pages)
        if mover is None:
            pages[0].wait_for_timeout(50)
            continue
        other = pages[1 - mover]
        names = ["Alice", "Bob"]
        other.locator(".turn-indicator", has_text=names[mover]).wait_for()  # "Waiting for Alice"
        play(pages[mover], table_state(pages[mover])["legal"][0]["action"])
        if not shot and table_state(alice)["step"] >= 6:
            shot = True
            for page, who in ((alice, "alice"), (bob, "bob")):
                page.wait_for_timeout(400)
                page.screenshot(path=str(shots / f"people-battle-{who}-desktop.png"))
    for page in pages:
        page.wait_for_function("window.playtable.state.terminal")
        heads = log_heads(page)
        assert any(h.startswith(("1. Alice:", "2. Alice:")) for h in heads), heads
        assert any(re.match(r"\d+\. Bob: ", h) for h in heads), heads
        assert not any(re.match(r"\d+\. (You|Federation|Klingon):", h) for h in heads), heads
        assert not page.script_errors
    finished = httpx2.get(f"{web_server.url}/api/tables/{table_id}").json()
    assert finished["status"] == "finished" and [s["player"] for s in finished["seats"]] == ["Alice", "Bob"]


def test_a_player_comes_back_later_to_the_your_turn_tab(web_server: ServerProcess, chromium: Any) -> None:
    alice, bob, table_id = meet_at_a_battle(chromium, web_server.url,
                                            scripts=(FAKE_NOTIFICATIONS, IN_THE_BACKGROUND), days="2")
    pages = [alice, bob]
    # Alice asks to be told (a click: nothing is asked before it), and her tab is not in front.
    alice.get_by_role("button", name="Notify me").click()
    assert alice.evaluate("Notification.permission") == "granted"
    # Play until it is Alice's move, then Bob leaves.
    for _ in range(50):
        mover = mover_of(pages)
        if mover == 0:
            break
        if mover == 1:
            play(bob, table_state(bob)["legal"][0]["action"])
        else:
            alice.wait_for_timeout(50)
    assert mover_of(pages) == 0
    assert alice.title().startswith("▶ Your turn · Star Dice")
    bob_context = bob.context
    bob.close()
    # Alice plays until it is Bob's move, while he is away.
    for _ in range(20):
        state = table_state(alice)
        if not state["your_turn"]:
            break
        play(alice, state["legal"][0]["action"])
    alice.locator(".turn-indicator", has_text="Bob").wait_for()
    assert not alice.title().startswith("▶")

    # Bob comes back: the lobby opens on "Your turn", says so in the tab title, and (once he
    # allowed it) tells him with a notification.
    lobby = another_tab(bob_context)
    lobby.goto(web_server.url + "/")
    # A come-back-later table of two days a move: the tab and the row say how long Bob has left.
    tab = lobby.locator('.tabs [data-status="turn"][aria-selected="true"]', has_text="Your turn (1 · ")
    tab.wait_for()
    assert re.fullmatch(r"Your turn \(1 · (1 d 23 h|2 d) left\)", tab.inner_text()), tab.inner_text()
    assert lobby.title() == "(1) Your turn · playtable"
    row = lobby.locator(f'.table-list tr[data-table="{table_id}"]')
    assert "your turn" in row.inner_text()
    assert re.search(r"You: (1 d 23 h|2 d) left to move", row.inner_text()), row.inner_text()
    assert lobby.evaluate("window.__notes") == []  # not allowed yet
    lobby.get_by_role("button", name="Tell me when it is my turn (browser notifications)").click()
    lobby.reload()
    lobby.locator('.tabs [data-status="turn"]', has_text="Your turn (1 · ").wait_for()
    lobby.wait_for_function("window.__notes.length === 1")
    note = lobby.evaluate("window.__notes[0]")
    assert note["title"] == "Your turn: Star Dice" and note["tag"] == table_id and "Bob" in note["body"]

    row = lobby.locator(f'.table-list tr[data-table="{table_id}"]')
    row.get_by_role("link", name="Play", exact=True).click()  # a join link kept in this browser
    wait_connected(lobby)
    lobby.wait_for_function(SEATED + " && window.playtable.state.your_turn")
    assert lobby.title().startswith("▶ Your turn")
    # ...and the same seat from a link with no token: the page asks for it with Bob's key.
    lobby.goto(f"{web_server.url}/t/{table_id}?seat=1")
    lobby.wait_for_function(SEATED + " && window.playtable.state.your_turn")
    assert "token" not in lobby.url
    before = len(alice.evaluate("window.__notes"))
    play(lobby, table_state(lobby)["legal"][0]["action"])
    alice.wait_for_function(f"window.playtable.state.step === {table_state(lobby)['step']}")
    # Alice's page was in the background: when her move came, she was told.
    if table_state(alice)["your_turn"]:
        alice.wait_for_function(f"window.__notes.length > {before}")
        assert alice.evaluate("window.__notes.at(-1).title") == "Your turn: Star Dice"
    # Someone else's key does not open Bob's seat.
    stranger = person(chromium, web_server.url, "Mallory")
    stranger.goto(f"{web_server.url}/t/{table_id}?seat=1")
    stranger.locator(".banner", has_text="not yours").wait_for()
    assert stranger.evaluate("window.playtable.role") == "watcher"
    for page in (alice, lobby, stranger):
        assert not page.script_errors


def test_a_real_time_clock_made_in_the_lobby_runs_out_into_the_stand_in(
        web_server: ServerProcess, chromium: Any, shots: Path) -> None:
    alice = person(chromium, web_server.url, "Alice")
    # A table of Alice alone: she is at her seat at once, so her clock runs from now.
    create_in_lobby(alice, "troll", ["me"], variant="plus-one", seed=13, minutes="0.1")  # 6 s
    wait_connected(alice)
    table_id = alice.evaluate("window.playtable.tableId")
    mine = alice.locator('.seat-clock[data-mine="true"][data-running="true"]')
    words = mine.inner_text()
    assert re.fullmatch(r"Alice \(you\) 0:0[1-6]", words), words
    alice.screenshot(path=str(shots / "clocks-real-time-desktop.png"))
    watcher = new_page(chromium, 390, 844)  # a watcher on a phone: her clock running, or run out
    watcher.goto(f"{web_server.url}/t/{table_id}")
    wait_connected(watcher)
    watcher.locator(".clock-pace", has_text="0:06 each").wait_for()
    watcher.locator(".seat-clock", has_text=re.compile(r"^Alice 0:0[0-5]")).wait_for()
    watcher.screenshot(path=str(shots / "clocks-real-time-phone.png"))
    alice.locator(".log-head", has_text="clock ran out").first.wait_for(timeout=20_000)
    head = log_heads(alice)[1]
    assert re.fullmatch(r"1\. Alice's clock ran out: heuristic played .+", head), head
    assert not any(h.startswith(("1. You", "1. Alice:")) for h in log_heads(alice))
    assert alice.locator(".chat-notice").first.inner_text().endswith(
        "Alice's clock ran out: the heuristic bot plays every later move for them.")
    # Out of time for the game: the stand-in plays on, Alice's clock says so, she has no actions.
    alice.locator('.seat-clock[data-out="true"]', has_text="out of time: a bot plays").wait_for()
    alice.wait_for_function("window.playtable.state.step >= 3")
    assert alice.locator(".action-list button").count() == 0
    watcher.wait_for_function("window.playtable.state.step >= 1")
    assert log_heads(watcher)[1] == head
    alice.goto(f"{web_server.url}/t/{table_id}/replay")
    alice.locator(".log-head", has_text="clock ran out: heuristic played").first.wait_for()
    for page in (alice, watcher):
        assert not page.script_errors


def test_a_rotator_rematch_is_in_yours_and_running_offers_join(web_server: ServerProcess,
                                                              chromium: Any) -> None:
    alice = person(chromium, web_server.url, "Alice")
    create_in_lobby(alice, "rotator", ["me"], variant="easy", seed=2)
    wait_connected(alice)
    first = alice.evaluate("window.playtable.tableId")
    for _ in range(20):  # the easy board of seed 2 is won in 6 hinted actions
        if table_state(alice)["terminal"]:
            break
        step = table_state(alice)["step"]
        alice.keyboard.press("h")
        alice.wait_for_function(f"window.playtable.hinted !== null && window.playtable.state.step === {step}")
        click_action(alice, alice.evaluate("window.playtable.hinted"))
    alice.get_by_role("button", name="Rematch (n)").click()
    alice.wait_for_function(f"{SEATED} && window.playtable.tableId !== '{first}'")
    second = alice.evaluate("window.playtable.tableId")

    # Another tab of the same browser: "Yours" lists the rematch the lobby never saw made.
    lobby = another_tab(alice.context)
    lobby.goto(web_server.url + "/")
    # It opens on "Your turn" (the rematch waits for Alice's move); "Yours" has both tables.
    lobby.locator('.tabs [data-status="turn"][aria-selected="true"]', has_text="Your turn (1)").wait_for()
    lobby.locator(f'.table-list tr[data-table="{second}"]').wait_for()
    lobby.locator('.tabs [data-status="mine"]').click()
    lobby.locator(f'.table-list tr[data-table="{second}"] a', has_text="Replay").wait_for()
    lobby.locator(f'.table-list tr[data-table="{first}"]').wait_for()  # the list may still be drawing
    assert lobby.locator(f'.table-list tr[data-table="{first}"]').count() == 1
    lobby.locator('.tabs [data-status="running"]').click()
    row = lobby.locator(f'.table-list tr[data-table="{second}"]')
    join = row.get_by_role("link", name=re.compile("^(Join|Play)$"), exact=True)
    href = join.get_attribute("href")
    assert href == f"/t/{second}?seat=0"  # no token: the page asks with the player key
    join.click()
    lobby.wait_for_function(SEATED)
    assert lobby.locator(".seat-badge").inner_text() == "Alice · you play the driller"
    assert not lobby.script_errors and not alice.script_errors


def test_a_phone_lobby_never_scrolls_sideways_and_rotator_cells_can_be_tapped(
        web_server: ServerProcess, chromium: Any, shots: Path) -> None:
    desk = person(chromium, web_server.url, "Dana")
    create_in_lobby(desk, "wizard", ["me", "open", "invite"], seed=4)
    join = desk.get_by_role("link", name="Join as the wizard").get_attribute("href")
    table_id = join.split("/t/")[1].split("?")[0]
    desk.locator('.tabs [data-status="mine"]').click()
    desk.locator(f'.table-list tr[data-table="{table_id}"]').wait_for()
    desk.screenshot(path=str(shots / "people-lobby-desktop.png"), full_page=True)

    phone = person(chromium, web_server.url, "Phil", 390, 844, touch=True)
    phone.locator('.tabs [data-status="open"]').tap()
    row = phone.locator(f'.table-list tr[data-table="{table_id}"]')
    row.wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    for name in ("Join as Hero 1", "Watch", "Replay"):
        box = row.locator("button, a", has_text=name).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (name, box)
    assert "invited" in row.inner_text() and "Dana" in row.inner_text()
    phone.locator(".tables").screenshot(path=str(shots / "people-lobby-phone.png"))

    phone.goto(web_server.url + "/")
    create_in_lobby(phone, "rotator", ["me"], variant="easy", seed=2)
    wait_connected(phone)
    phone.wait_for_timeout(300)
    cells = phone.locator(".rotator-board .offered .cell-hit")
    boxes = [cells.nth(i).bounding_box() for i in range(cells.count())]
    assert boxes and all(b["width"] >= 24 and b["height"] >= 24 for b in boxes), boxes
    phone.screenshot(path=str(shots / "people-rotator-upright-phone.png"))
    click_action(phone, table_state(phone)["legal"][0]["action"], tap=True)  # start
    for _ in range(4):  # drill until the board lies on its side
        if table_state(phone)["observation"]["turn"] % 2 == 0 or table_state(phone)["terminal"]:
            break
        click_action(phone, table_state(phone)["legal"][0]["action"], tap=True)
    phone.wait_for_timeout(900)
    if not table_state(phone)["terminal"]:
        assert phone.locator(".rotator-board").get_attribute("data-orient") == "sideways"
        boxes = [cells.nth(i).bounding_box() for i in range(cells.count())]
        assert boxes and all(b["width"] >= 24 and b["height"] >= 24 for b in boxes), boxes
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # the board scrolls in its box
        phone.screenshot(path=str(shots / "people-rotator-sideways-phone.png"))
    assert not phone.script_errors and not desk.script_errors
