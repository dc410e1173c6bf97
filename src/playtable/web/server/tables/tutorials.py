"""Tutorials: a guided first game of each game, played on the real table page with
the real engine. A tutorial is a shipped script (`static/tutorials/<name>.json`, read by the page
too) naming a fixed table: the game, its variant and parameters, a fixed seed (the deal, the
dice, the bots' choices) and who sits where (bots in the other seats), plus the steps the page
shows in bubbles. The server only makes that table; a client names a shipped tutorial and
nothing else (no parameter, seed or seat comes from the request).

Script format (docs/web-pages.md, "Tutorials"): `{"name", "game", "title", "button", "summary", "seat",
"table": {"variant", "params", "seed", "players", "seats"}, "steps": [...]}`; a step is
`{"say", "at"?, "use"?, "expect"?, "match"?, "example"?, "free"?, "hint"?}`: `use` lists (as CSS
selectors) what the person must reach to play the step besides `at`, which the bubble never
covers; `expect` is the action text the
person plays next (the page refuses any other with the step's `hint`); `match` a pattern for
actions whose text cannot be fixed in advance (a Star Dice throw aimed by hand), with `example`
an action text of that kind the tests play; `"free": true` lets the person play as they like
until the game ends (the rest of a Star Dice battle); a step with none of these waits for "Next".
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from playtable.core.jsonio import parse_json
from playtable.web.server.tables.table_request import BadRequest

NAME = re.compile(r"^[a-z0-9-]{1,40}$")
TUTORIAL_FIELDS = frozenset({"name", "key"})
LEAVE_FIELDS = frozenset({"key", "token"})
SCRIPTS = Path(str(resources.files("playtable.web") / "static" / "tutorials"))


@dataclass(frozen=True)
class Tutorial:
    name: str
    game: str
    title: str
    button: str
    summary: str
    seat: int
    table: dict[str, Any]
    steps: list[dict[str, Any]]

    def listing(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "title": self.title, "button": self.button,
                "summary": self.summary}

    def request(self, key: Any) -> dict[str, Any]:
        """The body of the table's creation (`Hub.create`): the shipped setup, the person's seat
        kept for them (never offered under Open), and the player's key when the page has one."""
        seats = [dict(seat) for seat in self.table["seats"]]
        seats[self.seat] = {"kind": "human", "reserved": True}
        body: dict[str, Any] = {"game": self.game, "variant": self.table.get("variant"),
                                "params": dict(self.table.get("params", {})), "seed": self.table["seed"],
                                "seats": seats, "rated": False}  # a guided game counts for no rating
        if "players" in self.table:
            body["players"] = self.table["players"]
        if key is not None:
            body["key"] = key
        return body


@functools.cache
def shipped() -> dict[str, Tutorial]:
    """Every shipped tutorial by name, read once from the package's static files."""
    found: dict[str, Tutorial] = {}
    for path in sorted(SCRIPTS.glob("*.json")):
        data = parse_json(path.read_text(encoding="utf-8"), str(path.name))
        name = data["name"]
        assert NAME.match(name) and path.stem == name, f"tutorial file {path.name} names {name!r}"
        found[name] = Tutorial(name, data["game"], data["title"], data["button"], data["summary"],
                               int(data["seat"]), data["table"], data["steps"])
    return found


def tutorial_request(body: Any) -> tuple[Tutorial, dict[str, Any]]:
    """The tutorial a request names and the body of its new table; BadRequest for anything
    but `{"name": a shipped tutorial, "key": player key (optional)}`."""
    if not isinstance(body, dict):
        raise BadRequest('the request body must be a JSON object {"name": TUTORIAL}')
    unknown = sorted(set(body) - TUTORIAL_FIELDS)
    if unknown:
        raise BadRequest(f"unknown field '{unknown[0][:40]}' (known: key, name)")
    name = body.get("name")
    tutorials = shipped()
    if not isinstance(name, str) or name not in tutorials:
        raise BadRequest(f"unknown tutorial {str(name)[:40]!r} (known: {', '.join(sorted(tutorials))})")
    tutorial = tutorials[name]
    return tutorial, tutorial.request(body.get("key"))


def leave_request(body: Any) -> dict[str, str]:
    """The proof in a request to leave a tutorial's table (`POST /api/tables/{id}/leave`): the
    seat's `token` or the player's `key`, each a string of at most 100 characters; BadRequest
    for anything else."""
    if not isinstance(body, dict) or not body:
        raise BadRequest('the request body must be a JSON object {"key": KEY} or {"token": TOKEN}')
    unknown = sorted(set(body) - LEAVE_FIELDS)
    if unknown:
        raise BadRequest(f"unknown field '{unknown[0][:40]}' (known: key, token)")
    for field, value in body.items():
        if not isinstance(value, str) or len(value) > 100:
            raise BadRequest(f"'{field}' must be a string of at most 100 characters")
    return body
