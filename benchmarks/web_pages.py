"""What the web pages cost a player, measured in headless chromium on loopback.

    nice -n 10 .venv/bin/python benchmarks/web_pages.py [--actions 40]

For each page: how many requests and bytes it loads (no build step: the files as they are in
the package) and how long until it is usable (the lobby shows its games; a table page has its
first state over the WebSocket; the replay viewer has drawn step 0). Then the round trip of an
action in the browser: from the click on the board to the redrawn board with the server's next
state, over a troll game played by clicking (a new plus-one deal whenever one ends). Prints two
tables. Both are wall-clock times on a shared machine: read them as an order of magnitude.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.browser_support import browser, click_action, create_table, new_page, table_state  # noqa: E402
from tests.web.server_process import start_server  # noqa: E402

TROLL = {"game": "troll", "variant": "plus-one", "seats": [{"kind": "human"}]}
READY = "window.playtable && window.playtable.state && window.playtable.connection.isOpen"
# Measured inside the page, so the test driver's own messages do not count: from the click (or
# the confirming click of a warning) to the frame after the board is redrawn with the new state.
STOPWATCH = """() => {
  const frame = window.playtable;
  const draw = frame.draw.bind(frame);
  window.roundTrips = [];
  document.addEventListener("click", () => { window.clickedAt = performance.now(); }, true);
  frame.draw = (animate) => {
    draw(animate);
    const at = window.clickedAt;
    if (at === undefined || !animate) return;
    window.clickedAt = undefined;
    requestAnimationFrame(() => window.roundTrips.push(performance.now() - at));
  };
}"""


def load(page: Any, url: str, ready: str) -> tuple[int, int, float]:
    """(requests, bytes, milliseconds until `ready` holds) for one fresh page load."""
    sizes: list[int] = []

    def finished(request: Any) -> None:
        response = request.response()
        if response is not None:
            sizes.append(len(response.body()))

    page.on("requestfinished", finished)
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(ready)
    elapsed = (time.perf_counter() - start) * 1000
    page.wait_for_load_state("networkidle")
    page.remove_listener("requestfinished", finished)
    return len(sizes), sum(sizes), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=40, help="troll actions clicked for the round trip")
    args = parser.parse_args()
    rows = []
    round_trips: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, start_server(Path(tmp) / "pages.sqlite3") as server, \
            browser() as chromium:
        troll = create_table(server.url, **TROLL, seed=13)
        rotator = create_table(server.url, game="rotator", variant="easy", seed=2, seats=[{"kind": "human"}])
        pages = [
            ("lobby", "/", "document.querySelectorAll('.game-card').length === 4"),
            ("troll table", troll["seats"][0]["join_url"], "window.playtable && window.playtable.state"),
            ("rotator table", rotator["seats"][0]["join_url"], "window.playtable && window.playtable.state"),
            ("replay (troll)", f"/t/{troll['table_id']}/replay", "window.playtableReplay !== undefined"),
        ]
        for name, path, ready in pages:
            page = new_page(chromium)
            count, size, ms = load(page, server.url + path, ready)
            rows.append((name, count, size, ms))
            page.context.close()

        page = new_page(chromium)
        clicked = 0
        while clicked < args.actions:
            created = create_table(server.url, **TROLL)
            page.goto(server.url + created["seats"][0]["join_url"])
            page.wait_for_function(READY)
            page.evaluate(STOPWATCH)
            while not table_state(page)["terminal"] and clicked < args.actions:
                click_action(page, table_state(page)["legal"][0]["action"])
                clicked += 1
            page.wait_for_function(f"window.roundTrips.length === {clicked - len(round_trips)}")
            round_trips.extend(page.evaluate("window.roundTrips"))
    print("| page | requests | KB loaded | ms until usable |")
    print("|---|---:|---:|---:|")
    for name, count, size, ms in rows:
        print(f"| {name} | {count} | {size / 1024:.1f} | {ms:.0f} |")
    print()
    ordered = sorted(round_trips)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    print("| troll actions clicked | median ms, click to redrawn board | 90th percentile ms |")
    print("|---:|---:|---:|")
    print(f"| {len(round_trips)} | {statistics.median(round_trips):.0f} | {p90:.0f} |")


if __name__ == "__main__":
    main()
