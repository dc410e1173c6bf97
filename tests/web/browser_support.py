"""Shared pieces of the real-browser tests: Debian's chromium driven by Playwright for Python,
a server per test module, and the moves a player makes on a table page (pick an action, click
it on the board or in the list, confirm a warning, wait for the server's answer).

Playwright never downloads a browser here: it launches `/usr/bin/chromium` (installed with
apt; the Makefile's test target and `.ci/run` install it when it is missing). Every wait is a
condition with a bounded timeout, never a sleep.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest

CHROMIUM = os.environ.get("PLAYTABLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]
LOCAL_URLS = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")
WAIT_MS = 15_000
"""Longest wait for any one condition (a page load, the server's answer to a click)."""

playwright_api = pytest.importorskip("playwright.sync_api")


def chromium_path() -> str:
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not found:
        pytest.skip("chromium is not installed (apt-get install chromium; `make test` does it)")
    return found


@contextmanager
def browser() -> Iterator[Any]:
    """A headless chromium for one test module."""
    with playwright_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


def new_page(instance: Any, width: int = 1280, height: int = 860, touch: bool = False,
             strict_csp: bool = False) -> Any:
    """A page in a fresh context (its own storage); `page.script_errors` collects script errors
    (and anything the Content-Security-Policy refused),
    `page.foreign_requests` any request that would leave this machine.
    `touch=True` makes it a phone's: a touch screen, taps instead of clicks.
    Playwright's `wait_for_function` compiles its condition inside the page, which the server's
    strict CSP forbids (no eval), so pages are opened with the CSP bypassed unless `strict_csp`;
    `tests/web/test_browser_csp.py` opens every page under the real policy."""
    context = instance.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                                   is_mobile=touch, bypass_csp=not strict_csp)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    # The server's Content-Security-Policy (web/server/transport/guard.py) blocks anything a page loads or
    # runs from elsewhere or inline; a page that trips it counts as a script error.
    page.on("console", lambda msg: errors.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    page.script_errors = errors
    # The pages fetch nothing from outside (no CDN, no web fonts): every request stays local.
    foreign: list[str] = []

    def check(request: Any) -> None:
        if not request.url.startswith(LOCAL_URLS):
            foreign.append(request.url)

    page.on("request", check)
    page.foreign_requests = foreign
    return page


def poll(page: Any, expression: str, seconds: float = WAIT_MS / 1000) -> Any:
    """Wait until `expression` (evaluated in the page) is truthy, and return it: a bounded poll
    of `page.evaluate`, which the server's strict CSP allows (`wait_for_function` compiles its
    condition in the page, an eval the policy refuses)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = page.evaluate(expression)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{expression} stayed false for {seconds} s")


def wait_connected(page: Any) -> None:
    page.wait_for_function("window.playtable && window.playtable.state && "
                           "window.playtable.connection.isOpen")


def table_state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("window.playtable.state")
    return state


def step_of(page: Any) -> int:
    return int(page.evaluate("window.playtable.state.step"))


def click_action(page: Any, action: str, prefer_board: bool = True, tap: bool = False) -> None:
    """Play `action` as a person would: on the board if it is offered there, else in the list;
    through the chooser when one spot offers several actions; confirming a warning. `tap=True`
    taps the board as a finger would. Returns once the server has answered with the next step."""
    before = step_of(page)
    target = None
    if prefer_board:
        for spot in page.locator(".board-host [data-actions]").all():
            if action in (spot.get_attribute("data-actions") or "").split("|"):
                target = spot
                break
    if target is None:
        page.locator(f'.action-list button[data-action="{action}"]').click()
    else:
        if tap:
            target.tap()
        else:
            target.click()
        chooser = page.locator(f'.chooser button[data-action="{action}"]')
        if chooser.count():
            chooser.click()
    dialog = page.locator("dialog.confirm[open]")
    if dialog.count():
        dialog.locator('button[value="confirm"]').click()
    page.wait_for_function(f"window.playtable.state.step > {before}")


def legal_actions(page: Any) -> list[dict[str, Any]]:
    legal: list[dict[str, Any]] = page.evaluate("window.playtable.state.legal")
    return legal


def create_table(url: str, **body: Any) -> dict[str, Any]:
    """POST /api/tables; the created table's answer (join links, watch link)."""
    answer = httpx2.post(url + "/api/tables", json=body, timeout=WAIT_MS / 1000)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def play_script(page: Any, actions: list[str]) -> None:
    """Send `actions` (a tutorial's scripted moves) from a seated page, one at a time as the page
    sends any move, each once the table waits for it; bounded polls, which the strict CSP allows."""
    for action in actions:
        at = poll(page, "window.playtable && window.playtable.state && window.playtable.state.your_turn "
                         "&& !window.playtable.pending && window.playtable.state.step + 1")
        page.evaluate("([a, s]) => window.playtable.connection.send({type: 'act', action: a, step: s})",
                      [action, at - 1])
        poll(page, f"window.playtable.state.step > {at - 1}")


def open_connected(chromium: Any, url: str, size: tuple[int, int]) -> Any:
    """A page under the strict CSP (a phone's when 390 wide) at `url`, once its table's socket is open."""
    page = new_page(chromium, *size, touch=size[0] < 700, strict_csp=True)
    page.goto(url)
    wait_open(page)
    return page


def wait_open(page: Any) -> None:
    poll(page, "window.playtable && window.playtable.state && window.playtable.connection.isOpen")
