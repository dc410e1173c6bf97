"""A playtest with three people in real browsers, end to end.

The designer makes a Rotator playtest (`playtable playtest-online create`: the `easy` and default
boards, 4 games, so 2 deals each played under both) on the running server's database. Three
testers, each a browser context of their own, open the one link, choose a name, are seated at a
table of the variant and deal the schedule gives them, play it to its end from the action list,
follow the bar back to the playtest and answer its questions. The designer then exports the games
(`playtest-online export`), plays bots on the same deals (the `compare` command `create` prints)
and writes the report, whose "People and bots" numbers must match the games the pages showed.
Screenshots of the tester's page and questionnaire go to `$PLAYTABLE_SCREENSHOTS` (else the
test's temporary folder).
"""

from __future__ import annotations

import os
import random
import re
import shlex
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from click.testing import CliRunner
from tests.web.browser_support import click_action, legal_actions, new_page, table_state, wait_connected
from tests.web.lockstep import play_in_step
from tests.web.server_process import ServerProcess
from tests.web.wire_client import Client

from playtable.cli import cli
from playtable.lab.report import write_report
from playtable.lab.stats import wilson

TESTERS = ("Ana", "Ben", "Caro")
HEROES = ("Dora", "Eli", "Gus")
"""The wizard playtest's testers: other people than the first playtest's, on the module's one
server, where a name is one player's (docs/web.md "Names")."""


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def share_link(output: str, url: str) -> str:
    """The link `playtest-online create` prints (the log's lines may come with it, after it, when
    an earlier test of the same process left logging set up)."""
    return next(line for line in output.splitlines() if line.startswith(url + "/p/"))


def play_one(page: Any, url: str, name: str, rng: random.Random, shots: Path | None,
             size: str) -> dict[str, Any]:
    """One tester's visit: name, game, questions; what the table page showed at the end."""
    page.goto(url)
    page.locator("#player-name").fill(name)
    if shots:
        page.screenshot(path=str(shots / f"playtest-name-{size}.png"))
    page.get_by_role("button", name="Save").click()
    page.locator("#play").click()
    page.wait_for_url(re.compile(r"/t/"))
    wait_connected(page)
    assert page.locator(".playtest-bar").is_visible()
    if shots:
        page.screenshot(path=str(shots / f"playtest-table-{size}.png"))
    for _ in range(60):
        state = table_state(page)
        if state["terminal"]:
            break
        if state["your_turn"] and not state["bot_thinking"]:
            click_action(page, rng.choice(legal_actions(page))["action"], prefer_board=False)
    end = table_state(page)
    assert end["terminal"]
    page.locator("#playtest-back").click()
    page.wait_for_selector("form.questionnaire")
    assert page.evaluate("document.body.dataset.state") == "questions"
    fun = 2 + TESTERS.index(name)
    page.locator(f'fieldset[data-question="fun"] input[value="{fun}"]').check()
    page.locator('fieldset[data-question="hard"] input[value="4"]').check()
    page.locator("#q-confused").fill(f"{name}: the drill")
    if shots:
        page.screenshot(path=str(shots / f"playtest-questions-{size}.png"), full_page=True)
    page.get_by_role("button", name="Send the answers").click()
    page.wait_for_selector(".thanks")
    assert not page.script_errors and not page.foreign_requests
    return {"won": end["result"]["returns"] == [1.0], "fun": fun, "step": end["step"]}


def test_three_testers_play_a_playtest_and_its_report_reads_them(
        web_server: ServerProcess, chromium: Any, tmp_path: Path) -> None:
    db = str(web_server.db_path)
    link = run("playtest-online", "create", "rotator", "--variant", "easy", "--variant", "default",
               "--games", "4", "--seed", "20", "--url", web_server.url, "--db", db,
               "--title", "Rotator: easy boards or the usual ones?")
    link = share_link(link, web_server.url)
    assert link.startswith(web_server.url + "/p/")
    playtest_id = link.rsplit("/", 1)[1]
    shots = Path(os.environ["PLAYTABLE_SCREENSHOTS"]) if os.environ.get("PLAYTABLE_SCREENSHOTS") else None
    rng = random.Random(3)
    played = []
    for k, name in enumerate(TESTERS):  # the last tester is on a phone
        phone = k == len(TESTERS) - 1
        page = new_page(chromium, 390, 844, touch=True) if phone else new_page(chromium, 1280, 800)
        played.append(play_one(page, link, name, rng, shots if k != 1 else None,
                               "phone" if phone else "desktop"))
        page.context.close()

    people = tmp_path / "people.parquet"
    exported = run("playtest-online", "export", playtest_id, "--db", db, "--out", str(people))
    assert "3 games written" in exported
    rows = pq.read_table(people).to_pylist()
    assert sorted(r["testers"][0] for r in rows) == sorted(TESTERS)
    assert [r["win"] for r in rows] == [p["won"] for p in played]
    assert [r["length"] for r in rows] == [p["step"] for p in played]
    assert [r["q_fun"] for r in rows] == [[p["fun"]] for p in played]
    # two variants among the three games, and every deal's two slots under different variants
    assert {r["variant"] for r in rows} == {"easy", "default"}
    assert [r["seed"] for r in rows] == [20, 20, 21]
    # bots on the same deals, with the command `status` prints (random on the person's seat)
    status = run("playtest-online", "status", playtest_id, "--db", db, "--agent", "random")
    assert f"{playtest_id}  rotator  easy, default  games 3/4 taken, 3 answered" in status
    bots_cmd = shlex.split(status.split("bots on the same deals: ", 1)[1].splitlines()[0])
    bots = tmp_path / "bots.parquet"
    assert bots_cmd[:2] == ["playtable", "compare"]
    args = bots_cmd[1:]
    args[args.index("--out") + 1] = str(bots)
    run(*args, "-q")
    page_text = write_report([people, bots], tmp_path / "report.html").read_text(encoding="utf-8")
    section = page_text.split("<h2>People and bots</h2>", 1)[1].split("<h2>", 1)[0]
    for variant in ("easy", "default"):
        mine = [r for r in rows if r["variant"] == variant]
        cells = re.findall(r"<td>(.*?)</td>", re.search(
            rf"<tr><td>{variant}</td><td>people</td>(.*?)</tr>", section).group(1))  # type: ignore[union-attr]
        won = sum(r["win"] for r in mine)
        low, high = wilson(won, len(mine))
        assert cells[:4] == [str(len(mine)), str(len(mine)), f"{100 * won / len(mine):.1f}%",
                             f"[{100 * low:.1f}%, {100 * high:.1f}%]"]
        bot = re.findall(r"<td>(.*?)</td>", re.search(
            rf"<tr><td>{variant}</td><td>random</td>(.*?)</tr>", section).group(1))  # type: ignore[union-attr]
        assert bot[0] == "2" and bot[5] == str(len(mine))  # 2 deals; common with the people's
    assert "Ana: the drill" in section


def answer_on_the_page(page: Any, fun: int, remark: str) -> None:
    """Back from a finished table to the playtest's page, the questions answered and sent."""
    page.locator("#playtest-back").click()
    page.wait_for_selector("form.questionnaire")
    page.locator(f'fieldset[data-question="fun"] input[value="{fun}"]').check()
    page.locator("#q-confused").fill(remark)
    page.get_by_role("button", name="Send the answers").click()
    page.wait_for_selector(".thanks")


def finish_over_the_sockets(server: ServerProcess, table_url: dict[int, str]) -> None:
    """The people's moves of a shared table, each sent on its own seat's connection (opened with
    the seat's token from its page's address) until the game ends; the bots move by themselves."""
    clients = []
    try:
        for url in table_url.values():
            table_id, query = url.split("/t/", 1)[1].split("?", 1)
            clients.append(Client(server.ws_url, table_id, "&".join(
                part for part in query.split("&") if part.split("=")[0] in ("seat", "token"))))
        rng = random.Random(8)
        end = play_in_step([(client.recv, client.send) for client in clients],
                           lambda _, state: rng.choice(state["legal"])["action"])
        assert end["terminal"]
    finally:
        for client in clients:
            client.close()


def test_three_testers_share_a_wizard_table_with_a_bot_as_the_wizard(
        web_server: ServerProcess, chromium: Any, tmp_path: Path) -> None:
    """Bots in some seats: the designer seats a bot as the wizard and three people as the heroes.
    The first tester opens the table; the next two, opening the same link, sit down at it (each
    page shows the others' names); the game is played to its end, each answers on the page, and
    the export and the report count one game with three testers."""
    db = str(web_server.db_path)
    link = share_link(run("playtest-online", "create", "wizard", "--variant", "default", "--games", "2",
                          "--seed", "40", "--seat", "heuristic", "--seat", "person", "--seat", "person",
                          "--seat", "person", "--url", web_server.url, "--db", db), web_server.url)
    playtest_id = link.rsplit("/", 1)[1]
    pages, table_url = [], {}
    for k, name in enumerate(HEROES):
        page = new_page(chromium, 390, 844, touch=True) if k == 2 else new_page(chromium, 1280, 800)
        page.goto(link)
        if k == 0:
            assert "with 2 other testers and 1 bot" in page.locator("#playtest-title + p").inner_text()
        page.locator("#player-name").fill(name)
        page.get_by_role("button", name="Save").click()
        page.locator("#play").click()
        page.wait_for_url(re.compile(r"/t/"))
        wait_connected(page)
        table_url[k + 1] = page.url
        pages.append(page)
        if k == 0:  # back on the playtest's page in another tab, Dora learns whom her table waits for
            tab = page.context.new_page()
            tab.goto(link)
            assert "waits for 2 more testers" in tab.locator("#waiting-for").inner_text()
            tab.screenshot(path=str(tmp_path / "playtest-waiting-1280.png"))
            tab.close()
    assert len({url.split("?")[0] for url in table_url.values()}) == 1  # one table
    assert [url.split("seat=")[1].split("&")[0] for url in table_url.values()] == ["1", "2", "3"]
    for name in HEROES:  # everyone's page shows everyone at the table
        pages[0].get_by_text(name).first.wait_for()
    pages[0].screenshot(path=str(tmp_path / "playtest-shared-table-1280.png"))
    finish_over_the_sockets(web_server, table_url)
    for k, page in enumerate(pages):
        answer_on_the_page(page, 2 + k, f"{HEROES[k]} at seat {k + 1}")
    # Dora answered first, when the game was not yet answered by all: her counter moves once the
    # last answer is in, without a reload
    pages[0].locator("#playtest-counter", has_text="1 of 2 games played and answered").wait_for()
    for page in pages:
        assert not page.script_errors and not page.foreign_requests
        page.context.close()
    people = tmp_path / "people.parquet"
    exported = run("playtest-online", "export", playtest_id, "--db", db, "--out", str(people))
    assert "1 game written" in exported
    (row,) = pq.read_table(people).to_pylist()
    assert row["agents"] == ["heuristic", "person", "person", "person"]
    assert row["testers"] == [None, *HEROES] and row["q_fun"] == [None, 2, 3, 4]
    section = write_report([people], tmp_path / "report.html").read_text(encoding="utf-8")
    cells = re.findall(r"<td>(.*?)</td>", re.search(  # type: ignore[union-attr]
        r"<tr><td>default</td><td>people</td>(.*?)</tr>", section).group(1))
    assert cells[:2] == ["1", "3"]  # one game, three testers
    assert "3.00 [" in section and "Gus at seat 3" in section


def test_the_tester_page_runs_under_the_policy(web_server: ServerProcess, chromium: Any) -> None:
    """The page loads and works under the server's real Content-Security-Policy (the other test
    bypasses it to use Playwright's `wait_for_function`): waits here are locators only."""
    link = run("playtest-online", "create", "troll", "--variant", "default", "--games", "2",
               "--url", web_server.url, "--db", str(web_server.db_path))
    link = share_link(link, web_server.url)
    page = new_page(chromium, 390, 844, touch=True, strict_csp=True)
    answer = page.goto(link)
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    page.locator("#player-name").fill("Flo")
    page.get_by_role("button", name="Save").click()
    page.locator("#play").click()
    page.wait_for_url(re.compile(r"/t/.*playtest="))
    page.locator("#playtest-back").click()
    page.get_by_role("link", name="Continue your game").wait_for()
    assert not page.script_errors and not page.foreign_requests
