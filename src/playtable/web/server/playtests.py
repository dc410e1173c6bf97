"""Playtests with people (issue 31): where they are kept and what a tester may ask of one.

A playtest (`playtest_spec.py`) lives in the tables' SQLite file, in two tables of its own: the
settings, and one row per slot of its schedule (variant, seed, and once a tester took it: the
table, the player, their answers). `PlaytestStore` opens its own connection to that file (WAL:
the table store's connection and this one do not block each other for longer than a commit).

What a tester's page may do, each checked completely before anything changes:

* `GET /api/playtests/{id}`: the playtest's public face (title, game, questionnaire, how many
  games are played); never the schedule, nor which variant a slot plays.
* `POST /api/playtests/{id}/me` `{key}`: this player's games of the playtest, the last one's
  table and whether it is over and answered.
* `POST /api/playtests/{id}/play` `{key}`: seat this player at the next slot's table (a new
  table made by the hub, as any table is: its rate limits, its worker, its checks), or back at
  their unfinished one; refused while their last game's questions are unanswered (409) or when
  no slot is left for them (409).
* `POST /api/playtests/{id}/answers` `{key, table_id, answers}`: the answers to a game that is
  over, once, by the player who played it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playtable.core.registry import get_game
from playtable.web.server.hub import Hub
from playtable.web.server.playtest_spec import (
    PLAYTEST_ID,
    BadAnswers,
    PlaytestSpec,
    check_answers,
    schedule,
)
from playtable.web.server.table_request import BadRequest, now

log = logging.getLogger("playtable.web")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS playtests (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS playtest_slots (
    playtest_id TEXT NOT NULL REFERENCES playtests(id),
    slot INTEGER NOT NULL,
    variant TEXT NOT NULL,
    seed INTEGER NOT NULL,
    table_id TEXT,
    player_id TEXT,
    assigned TEXT,
    answers TEXT,
    answered TEXT,
    PRIMARY KEY (playtest_id, slot)
);
CREATE INDEX IF NOT EXISTS playtest_slots_by_player ON playtest_slots(playtest_id, player_id);
"""


@dataclass
class Slot:
    playtest_id: str
    slot: int
    variant: str
    seed: int
    table_id: str | None = None
    player_id: str | None = None
    assigned: str | None = None
    answers: dict[str, Any] | None = None
    answered: str | None = None


class PlaytestStore:
    """The playtests of one tables' database (see the module's docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(_SCHEMA)

    def create(self, spec: PlaytestSpec, rng: random.Random | None = None) -> str:
        """Store a new playtest and its schedule; its id (the link's last part)."""
        playtest_id = secrets.token_urlsafe(9)
        slots = schedule(spec, rng or random.Random(secrets.randbits(64)))
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO playtests VALUES (?, ?, ?)",
                            (playtest_id, json.dumps(spec.to_json()), now()))
            self.db.executemany(
                "INSERT INTO playtest_slots (playtest_id, slot, variant, seed) VALUES (?, ?, ?, ?)",
                [(playtest_id, k, variant, seed) for k, (variant, seed) in enumerate(slots)])
        return playtest_id

    def spec(self, playtest_id: str) -> PlaytestSpec | None:
        found = self.db.execute("SELECT spec FROM playtests WHERE id = ?", (playtest_id,)).fetchone()
        return None if found is None else PlaytestSpec.from_json(json.loads(found[0]))

    def ids(self) -> list[tuple[str, str]]:
        """(id, created) of every playtest, oldest first."""
        return list(self.db.execute("SELECT id, created FROM playtests ORDER BY created, id"))

    def slots(self, playtest_id: str, player_id: str | None = None) -> list[Slot]:
        where, args = "playtest_id = ?", [playtest_id]
        if player_id is not None:
            where, args = where + " AND player_id = ?", args + [player_id]
        out = []
        for values in self.db.execute(f"SELECT playtest_id, slot, variant, seed, table_id, player_id, "
                                      f"assigned, answers, answered FROM playtest_slots WHERE {where} "
                                      "ORDER BY slot", args):
            slot = Slot(*values)
            slot.answers = None if slot.answers is None else json.loads(str(slot.answers))
            out.append(slot)
        return out

    def counts(self, playtest_id: str) -> tuple[int, int, int]:
        """(slots, taken, answered)."""
        found = self.db.execute("SELECT count(*), count(table_id), count(answered) FROM playtest_slots "
                                "WHERE playtest_id = ?", (playtest_id,)).fetchone()
        return int(found[0]), int(found[1]), int(found[2])

    def next_free(self, playtest_id: str, not_seeds: set[int]) -> Slot | None:
        """The first slot nobody took whose deal is not among `not_seeds`."""
        for values in self.db.execute("SELECT playtest_id, slot, variant, seed FROM playtest_slots "
                                      "WHERE playtest_id = ? AND table_id IS NULL ORDER BY slot",
                                      (playtest_id,)):
            if values[3] not in not_seeds:
                return Slot(*values)
        return None

    def take(self, slot: Slot, table_id: str, player_id: str) -> None:
        self.db.execute("UPDATE playtest_slots SET table_id = ?, player_id = ?, assigned = ? "
                        "WHERE playtest_id = ? AND slot = ?",
                        (table_id, player_id, now(), slot.playtest_id, slot.slot))

    def release(self, slot: Slot) -> None:
        """Give a slot back to the schedule (its table ended unfinished)."""
        self.db.execute("UPDATE playtest_slots SET table_id = NULL, player_id = NULL, assigned = NULL "
                        "WHERE playtest_id = ? AND slot = ?", (slot.playtest_id, slot.slot))

    def answer(self, slot: Slot, answers: dict[str, Any]) -> None:
        self.db.execute("UPDATE playtest_slots SET answers = ?, answered = ? WHERE playtest_id = ? "
                        "AND slot = ?", (json.dumps(answers), now(), slot.playtest_id, slot.slot))

    def close(self) -> None:
        self.db.close()


def _fields(body: Any, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(body, dict) or set(body) - allowed:
        raise BadRequest(f"the request body must be a JSON object with {', '.join(sorted(allowed))}")
    return body


class Playtests:
    """What testers' pages ask of playtests, in front of the hub (which makes their tables)."""

    def __init__(self, hub: Hub, store: PlaytestStore) -> None:
        self.hub = hub
        self.store = store
        self._locks: dict[str, asyncio.Lock] = {}

    def _spec(self, playtest_id: str) -> PlaytestSpec:
        spec = self.store.spec(playtest_id) if PLAYTEST_ID.fullmatch(playtest_id) else None
        if spec is None:
            raise BadRequest(f"there is no playtest '{playtest_id[:20]}'", 404)
        return spec

    def info(self, playtest_id: str) -> dict[str, Any]:
        spec = self._spec(playtest_id)
        total, taken, answered = self.store.counts(playtest_id)
        game = get_game(spec.game).name
        return {"id": playtest_id, "title": spec.title or f"A playtest of {game}", "game": spec.game,
                "game_name": game, "bots": len(spec.bots),
                "questions": [q.__dict__ for q in spec.questions],
                "games": total, "taken": taken, "answered": answered}

    async def _over(self, table_id: str) -> bool:
        table = await self.hub.fetch(table_id)
        return bool(table.state.is_terminal)

    async def _slots(self, playtest_id: str, player_id: str) -> list[Slot]:
        """The player's slots; a last one whose table ended unfinished (the server ended it as
        abandoned, or the tester left it for a rematch from the table menu) is given back to
        the schedule first, so the deal is played by someone and this tester moves on."""
        slots = self.store.slots(playtest_id, player_id)
        if slots and slots[-1].table_id is not None:
            table = await self.hub.fetch(slots[-1].table_id)
            if table.is_over and not table.state.is_terminal:
                self.store.release(slots[-1])
                slots.pop()
        return slots

    async def mine(self, playtest_id: str, body: Any) -> dict[str, Any]:
        self._spec(playtest_id)
        player = self.hub.people.known(_fields(body, {"key"}).get("key"))
        slots = await self._slots(playtest_id, player.id)
        last = None
        if slots:
            slot = slots[-1]
            assert slot.table_id is not None
            last = {"table_id": slot.table_id, "seat": 0, "over": await self._over(slot.table_id),
                    "answered": slot.answered is not None}
        seen = {s.seed for s in slots}
        return {"player": player.name, "played": len(slots), "last": last,
                "more": self.store.next_free(playtest_id, seen) is not None}

    async def play(self, playtest_id: str, body: Any, client: str) -> dict[str, Any]:
        """Seat the body key's player at their next game (see the module's docstring)."""
        spec = self._spec(playtest_id)
        key = _fields(body, {"key"}).get("key")
        player = self.hub.people.known(key)
        lock = self._locks.setdefault(playtest_id, asyncio.Lock())
        async with lock:  # two testers never get the same slot
            slots = await self._slots(playtest_id, player.id)
            if slots:
                last = slots[-1]
                assert last.table_id is not None
                if not await self._over(last.table_id):
                    return {"table_id": last.table_id, "seat": 0, "resumed": True,
                            "path": f"/t/{last.table_id}?seat=0&playtest={playtest_id}"}
                if last.answered is None:
                    raise BadRequest("answer the questions about your last game first", 409)
            slot = self.store.next_free(playtest_id, {s.seed for s in slots})
            if slot is None:
                raise BadRequest("this playtest has no game left for you: thank you for playing", 409)
            request = {**spec.table_request(slot.variant, slot.seed), "key": key}
            table, tokens = await self.hub.create(request, client)
            try:
                self.store.take(slot, table.id, player.id)
            except sqlite3.Error as err:
                log.error("playtest %s: slot %d not saved: %s", playtest_id, slot.slot, err)
                raise BadRequest("the server could not save your place in the playtest", 503) from None
        return {"table_id": table.id, "seat": 0, "resumed": False,
                "path": f"/t/{table.id}?seat=0&token={tokens[0]}&playtest={playtest_id}"}

    async def answer(self, playtest_id: str, body: Any) -> dict[str, Any]:
        spec = self._spec(playtest_id)
        fields = _fields(body, {"key", "table_id", "answers"})
        player = self.hub.people.known(fields.get("key"))
        table_id = fields.get("table_id")
        mine = [s for s in self.store.slots(playtest_id, player.id) if s.table_id == table_id]
        if not isinstance(table_id, str) or not mine:
            raise BadRequest("you did not play that table in this playtest", 403)
        slot = mine[0]
        if not await self._over(table_id):
            raise BadRequest("the questions come once the game is over", 409)
        if slot.answered is not None:
            raise BadRequest("this game's questions are already answered", 409)
        try:
            answers = check_answers(spec.questions, fields.get("answers"))
        except BadAnswers as err:
            raise BadRequest(str(err)) from None
        try:
            self.store.answer(slot, answers)
        except sqlite3.Error as err:
            log.error("playtest %s: answers not saved: %s", playtest_id, err)
            raise BadRequest("the server could not save your answers; try again", 503) from None
        return {"answered": True}
