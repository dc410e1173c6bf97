"""Playtests with people: where they are kept and what a tester may ask of one.

A playtest (`playtest_spec.py`) lives in the tables' database, in three tables of its own:
the settings, one row per slot of its schedule (variant, seed, and once its first tester took
it, the table), and one row per tester seated in a slot (the seat, the player, their answers).
`PlaytestStore` opens its own connection to that database (an SQLite file in WAL mode: the table
store's connection and this one do not block each other for longer than a commit).

What a tester's page may do, each checked completely before anything changes:

* `GET /api/playtests/{id}`: the playtest's public face (title, game, questionnaire, how many
  games are played); never the schedule, nor which variant a slot plays.
* `POST /api/playtests/{id}/me` `{key}`: this player's games of the playtest, the last one's
  table and seat, whether it is over and answered, and how many testers it still waits for.
* `POST /api/playtests/{id}/play` `{key}`: seat this player at a table of the playtest that
  waits for its people (its next person seat, with a fresh token), else at the next slot's
  table (a new table made by the hub, as any table is: its rate limits, its worker, its checks),
  or back at their unfinished one; refused while their last game's questions are unanswered
  (409) or when no game is left for them (409).
* `POST /api/playtests/{id}/answers` `{key, table_id, answers}`: the answers to a game that is
  over, once, by the player who played it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from playtable.core.registry import get_game
from playtable.web.server.hub import Hub
from playtable.web.server.people.fair_play import moves_by_seat, network_hash
from playtable.web.server.playtests.playtest_spec import (
    PLAYTEST_ID,
    BadAnswers,
    PlaytestSpec,
    check_answers,
    new_playtest_id,
    schedule,
)
from playtable.web.server.store.schema import opened
from playtable.web.server.store.store import PlayerRow, StoreError
from playtable.web.server.tables.room import PlayedElsewhere
from playtable.web.server.tables.table_request import BadRequest, now

log = logging.getLogger("playtable.web")

BEGIN_WITHIN = 600
"""Seconds a slot's testers have to play their first move before the slot goes back."""
NETWORK_SHARE = 0.25
MIN_NETWORK_SLOTS = 2
"""One network holds at most this share of a playtest's slots at once (slots where its testers
have a place not yet answered), and never fewer than `MIN_NETWORK_SLOTS` (two testers of one
household may play side by side)."""
@dataclass
class Slot:
    playtest_id: str
    slot: int
    variant: str
    seed: int
    table_id: str | None = None


@dataclass
class Tester:
    """One person's place in a slot: the seat they play and, after the game, their answers."""
    playtest_id: str
    slot: int
    seat: int
    player_id: str
    table_id: str
    seed: int
    assigned: str = ""
    answers: dict[str, Any] | None = None
    answered: str | None = None


class PlaytestStore:
    """The playtests of one tables' database (see the module's docstring)."""

    def __init__(self, where: str | Path) -> None:
        self.db = opened(where)

    def create(self, spec: PlaytestSpec, rng: random.Random | None = None) -> str:
        """Store a new playtest and its schedule; its id (the link's last part)."""
        playtest_id = new_playtest_id()
        slots = schedule(spec, rng or random.Random(secrets.randbits(64)))
        with self.db.transaction():
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

    def slots(self, playtest_id: str) -> list[Slot]:
        return [Slot(*values) for values in self.db.execute(
            "SELECT playtest_id, slot, variant, seed, table_id FROM playtest_slots WHERE playtest_id = ? "
            "ORDER BY slot", (playtest_id,))]

    def testers(self, playtest_id: str, player_id: str | None = None,
                slot: int | None = None) -> list[Tester]:
        """The playtest's testers (one player's, or one slot's), in the order they were seated."""
        where, args = "t.playtest_id = ?", list[str | int]([playtest_id])
        if player_id is not None:
            where, args = where + " AND t.player_id = ?", args + [player_id]
        if slot is not None:
            where, args = where + " AND t.slot = ?", args + [slot]
        out = []
        for values in self.db.execute(
                "SELECT t.playtest_id, t.slot, t.seat, t.player_id, s.table_id, s.seed, t.assigned, "
                "t.answers, t.answered FROM playtest_testers t JOIN playtest_slots s "
                f"USING (playtest_id, slot) WHERE {where} ORDER BY t.rowid", args):
            tester = Tester(*values)
            tester.answers = None if tester.answers is None else json.loads(str(tester.answers))
            out.append(tester)
        return out

    def counts(self, playtest_id: str) -> tuple[int, int, int]:
        """(slots, taken, answered): a slot is answered once each of its testers answered."""
        found = self.db.execute(
            "SELECT count(*), count(s.table_id), count(CASE WHEN s.table_id IS NOT NULL AND NOT EXISTS ("
            "SELECT 1 FROM playtest_testers t WHERE t.playtest_id = s.playtest_id AND t.slot = s.slot "
            "AND t.answered IS NULL) THEN 1 END) FROM playtest_slots s WHERE s.playtest_id = ?",
            (playtest_id,)).fetchone()
        return int(found[0]), int(found[1]), int(found[2])

    def results(self, playtest_id: str) -> list[tuple[str, int, list[float]]]:
        """(variant, seed, each seat's return) of the playtest's finished games, as the server
        stored their end (no replay): `status` reads how far apart the variants are from them."""
        found = self.db.execute(
            "SELECT s.variant, s.seed, t.result FROM playtest_slots s JOIN tables t ON t.id = s.table_id "
            "WHERE s.playtest_id = ? AND t.ended IS NOT NULL ORDER BY s.slot", (playtest_id,))
        out = []
        for variant, seed, result in found.fetchall():
            returns = json.loads(result).get("returns") if result else None
            if returns:
                out.append((str(variant), int(seed), [float(r) for r in returns]))
        return out

    def next_free(self, playtest_id: str, not_seeds: set[int]) -> Slot | None:
        """The first slot nobody took whose deal is not among `not_seeds`."""
        for values in self.db.execute("SELECT playtest_id, slot, variant, seed FROM playtest_slots "
                                      "WHERE playtest_id = ? AND table_id IS NULL ORDER BY slot",
                                      (playtest_id,)):
            if values[3] not in not_seeds:
                return Slot(*values)
        return None

    def waiting(self, playtest_id: str, people: int) -> list[tuple[Slot, set[int]]]:
        """The taken slots with fewer than `people` testers, oldest first, each with its
        testers' seats."""
        out = []
        for *values, seats in self.db.execute(
                "SELECT s.playtest_id, s.slot, s.variant, s.seed, s.table_id, "
                f"{self.db.group_concat('t.seat')} "
                "FROM playtest_slots s JOIN playtest_testers t USING (playtest_id, slot) "
                "WHERE s.playtest_id = ? AND s.table_id IS NOT NULL GROUP BY s.playtest_id, s.slot "
                "HAVING count(*) < ? ORDER BY s.slot", (playtest_id, people)):
            out.append((Slot(*values), {int(seat) for seat in str(seats).split(",")}))
        return out

    def take(self, slot: Slot, table_id: str, player_id: str, seat: int,
             network: str | None = None) -> None:
        """The slot's table is made, with its first tester at `seat` (from `network`)."""
        with self.db.transaction():
            self.db.execute("UPDATE playtest_slots SET table_id = ?, begun = 0 WHERE playtest_id = ? "
                            "AND slot = ?", (table_id, slot.playtest_id, slot.slot))
            self.join(slot, player_id, seat, network)

    def join(self, slot: Slot, player_id: str, seat: int, network: str | None = None) -> None:
        self.db.execute("INSERT INTO playtest_testers (playtest_id, slot, seat, player_id, assigned, "
                        "network) VALUES (?, ?, ?, ?, ?, ?)",
                        (slot.playtest_id, slot.slot, seat, player_id, now(), network))

    def held(self, playtest_id: str, network: str) -> int:
        """The slots testers from `network` hold in the playtest now (a place taken there and
        not yet answered; several testers at one table hold one slot)."""
        (count,) = self.db.execute(
            "SELECT count(DISTINCT slot) FROM playtest_testers WHERE playtest_id = ? AND network = ? "
            "AND answered IS NULL", (playtest_id, network)).fetchone()
        return int(count)

    def unbegun(self, playtest_id: str, before: str) -> list[Slot]:
        """The taken slots not yet seen begun whose last tester was seated before `before`."""
        return [Slot(*values) for values in self.db.execute(
            "SELECT s.playtest_id, s.slot, s.variant, s.seed, s.table_id FROM playtest_slots s "
            "JOIN playtest_testers t USING (playtest_id, slot) WHERE s.playtest_id = ? AND "
            "s.table_id IS NOT NULL AND s.begun = 0 GROUP BY s.playtest_id, s.slot "
            "HAVING max(t.assigned) < ? ORDER BY s.slot", (playtest_id, before))]

    def mark_begun(self, slot: Slot) -> None:
        self.db.execute("UPDATE playtest_slots SET begun = 1 WHERE playtest_id = ? AND slot = ?",
                        (slot.playtest_id, slot.slot))

    def release(self, playtest_id: str, slot: int) -> None:
        """Give a slot back to the schedule (its table ended unfinished): its testers move on."""
        with self.db.transaction():
            self.db.execute("DELETE FROM playtest_testers WHERE playtest_id = ? AND slot = ?",
                            (playtest_id, slot))
            self.db.execute("UPDATE playtest_slots SET table_id = NULL, begun = 0 WHERE playtest_id = ? "
                            "AND slot = ?", (playtest_id, slot))

    def answer(self, tester: Tester, answers: dict[str, Any]) -> None:
        self.db.execute("UPDATE playtest_testers SET answers = ?, answered = ? WHERE playtest_id = ? "
                        "AND slot = ? AND seat = ?",
                        (json.dumps(answers), now(), tester.playtest_id, tester.slot, tester.seat))

    def close(self) -> None:
        self.db.close()


def network_slots(total: int) -> int:
    """How many of a playtest's `total` slots one network may hold at once."""
    return max(MIN_NETWORK_SLOTS, math.ceil(total * NETWORK_SHARE))


def _fields(body: Any, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(body, dict) or set(body) - allowed:
        raise BadRequest(f"the request body must be a JSON object with {', '.join(sorted(allowed))}")
    return body


AskOwner = Callable[[str, dict[str, Any]], Awaitable[Any]]
"""Ask the process holding a table (its id) a question, on this node or another
(`peers.Peers.ask_owner`); None: no answer."""


class Playtests:
    """What testers' pages ask of playtests, in front of the hub (which makes their tables).

    A playtest's requests all reach the process that owns its id, and so do the tables it makes;
    but a server started again with another `--processes N` has moved the playtest's running
    tables to other processes (docs/web.md, "Beyond one process"). Such a table is then asked
    about, and a tester seated at it, through its owner (`ask_owner`), never copied here."""

    def __init__(self, hub: Hub, store: PlaytestStore, ask_owner: AskOwner | None = None) -> None:
        self.hub = hub
        self.store = store
        self.ask_owner = ask_owner
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
                "game_name": game, "bots": len(spec.bots), "people": len(spec.people_seats),
                "questions": [q.__dict__ for q in spec.questions],
                "games": total, "taken": taken, "answered": answered}

    async def _ask(self, table_id: str, question: dict[str, Any]) -> dict[str, Any] | None:
        reply = None if self.ask_owner is None else await self.ask_owner(table_id, question)
        return reply if isinstance(reply, dict) else None

    async def _status(self, table_id: str) -> tuple[bool, bool]:
        """Whether the table is over, and whether its game was played to its end; a table whose
        owner cannot say now counts as in play."""
        try:
            table = await self.hub.fetch(table_id)
        except PlayedElsewhere:
            reply = await self._ask(table_id, {"ask": "table_status", "table": table_id}) or {}
            return reply.get("over") is True, reply.get("terminal") is True
        return table.is_over, bool(table.state.is_terminal)

    async def _over(self, table_id: str) -> bool:
        return (await self._status(table_id))[1]

    async def _ended_unfinished(self, table_id: str) -> bool:
        """The server ended the table as abandoned, or its people left it for a rematch from the
        table menu: its slot goes back to the schedule."""
        over, played_out = await self._status(table_id)
        return over and not played_out

    async def _seat_invited(self, table_id: str, seat: int, player: PlayerRow) -> str | None:
        """`Hub.seat_invited` wherever the table is played: the seat's token, or None when its
        owner cannot answer now (the tester goes to another table)."""
        try:
            table = await self.hub.fetch(table_id)
        except PlayedElsewhere:
            reply = await self._ask(table_id, {"ask": "seat_invited", "table": table_id, "seat": seat,
                                                 "player": player.id, "name": player.name}) or {}
            if isinstance(reply.get("refused"), str):
                raise BadRequest(reply["refused"], 409) from None
            token = reply.get("token")
            return token if isinstance(token, str) else None
        return self.hub.sitting.seat_invited(table, seat, player)

    async def _places(self, playtest_id: str, player_id: str) -> list[Tester]:
        """The player's places, oldest first; a last one whose table ended unfinished is given
        back to the schedule first (with its other testers), so the deal is played by someone
        and these testers move on."""
        places = self.store.testers(playtest_id, player_id)
        if places and await self._ended_unfinished(places[-1].table_id):
            self.store.release(playtest_id, places[-1].slot)
            places.pop()
        return places

    async def mine(self, playtest_id: str, body: Any) -> dict[str, Any]:
        spec = self._spec(playtest_id)
        player = self.hub.people.known(_fields(body, {"key"}).get("key"))
        places = await self._places(playtest_id, player.id)
        last = None
        if places:
            place = places[-1]
            others = [t for t in self.store.testers(playtest_id, slot=place.slot) if t.seat != place.seat]
            last = {"table_id": place.table_id, "seat": place.seat, "over": await self._over(place.table_id),
                    "answered": place.answered is not None,
                    "waiting_for": len(spec.people_seats) - 1 - len(others)}
        seen = {p.seed for p in places}
        more = self.store.next_free(playtest_id, seen) is not None or any(
            slot.seed not in seen for slot, _ in self.store.waiting(playtest_id, len(spec.people_seats)))
        return {"player": player.name, "played": len(places), "last": last, "more": more}

    async def _join_waiting(self, playtest_id: str, spec: PlaytestSpec, player: PlayerRow,
                            seen: set[int], network: str | None = None) -> dict[str, Any] | None:
        """Seat the player at the oldest table of the playtest that waits for its people (a deal
        they have not played), or None when there is none."""
        for slot, taken in self.store.waiting(playtest_id, len(spec.people_seats)):
            assert slot.table_id is not None
            if slot.seed in seen:
                continue
            if await self._ended_unfinished(slot.table_id):
                self.store.release(playtest_id, slot.slot)
                continue
            seat = min(set(spec.people_seats) - taken)
            token = await self._seat_invited(slot.table_id, seat, player)
            if token is None:
                continue
            self.store.join(slot, player.id, seat, network)
            return {"table_id": slot.table_id, "seat": seat, "resumed": False,
                    "path": f"/t/{slot.table_id}?seat={seat}&token={token}&playtest={playtest_id}"}
        return None

    async def _reclaim(self, playtest_id: str, spec: PlaytestSpec) -> None:
        """Give back every slot whose testers were seated `BEGIN_WITHIN` seconds ago and none
        has played a move of their own: its table ends as abandoned, the slot goes to the next
        tester. A slot seen begun (or its table over: the tester's own flow gives an abandoned
        one back) is not looked at again; a table another process plays is left to its idle
        limit."""
        before = (datetime.now(UTC) - timedelta(seconds=BEGIN_WITHIN)).isoformat(timespec="milliseconds")
        for slot in self.store.unbegun(playtest_id, before):
            assert slot.table_id is not None
            try:
                table = await self.hub.fetch(slot.table_id)
            except (PlayedElsewhere, BadRequest):
                continue
            moves = moves_by_seat(table.row)
            if table.is_over or any(moves[s].own for s in spec.people_seats if s in moves):
                self.store.mark_begun(slot)  # begun, or over: never looked at again
                continue
            self.hub.ends.abandon(table, "Nobody began this playtest game in time: it went back "
                                         "to the playtest for another tester.")
            self.store.release(playtest_id, slot.slot)

    async def play(self, playtest_id: str, body: Any, client: str) -> dict[str, Any]:
        """Seat the body key's player at their next game (see the module's docstring)."""
        spec = self._spec(playtest_id)
        key = _fields(body, {"key"}).get("key")
        player = self.hub.people.known(key)
        lock = self._locks.setdefault(playtest_id, asyncio.Lock())
        network = network_hash(client)
        async with lock:  # two testers never get the same seat
            await self._reclaim(playtest_id, spec)
            places = await self._places(playtest_id, player.id)
            if places:
                last = places[-1]
                if not await self._over(last.table_id):
                    return {"table_id": last.table_id, "seat": last.seat, "resumed": True,
                            "path": f"/t/{last.table_id}?seat={last.seat}&playtest={playtest_id}"}
                if last.answered is None:
                    raise BadRequest("answer the questions about your last game first", 409)
            if self.store.held(playtest_id, network) >= network_slots(self.store.counts(playtest_id)[0]):
                raise BadRequest("testers from your network already hold their share of this playtest's "
                                 "games; try again once they have played and answered", 429)
            seen = {p.seed for p in places}
            try:
                joined = await self._join_waiting(playtest_id, spec, player, seen, network)
                if joined is not None:
                    return joined
                slot = self.store.next_free(playtest_id, seen)
                if slot is None:
                    raise BadRequest("this playtest has no game left for you: thank you for playing", 409)
                request = {**spec.table_request(slot.variant, slot.seed), "key": key}
                table, tokens = await self.hub.create(request, client)
                seat = spec.people_seats[0]
                self.store.take(slot, table.id, player.id, seat, network)
            except StoreError as err:
                log.error("playtest %s: a place not saved: %s", playtest_id, err)
                raise BadRequest("the server could not save your place in the playtest", 503) from None
        return {"table_id": table.id, "seat": seat, "resumed": False,
                "path": f"/t/{table.id}?seat={seat}&token={tokens[seat]}&playtest={playtest_id}"}

    async def answer(self, playtest_id: str, body: Any) -> dict[str, Any]:
        spec = self._spec(playtest_id)
        fields = _fields(body, {"key", "table_id", "answers"})
        player = self.hub.people.known(fields.get("key"))
        table_id = fields.get("table_id")
        mine = [t for t in self.store.testers(playtest_id, player.id) if t.table_id == table_id]
        if not isinstance(table_id, str) or not mine:
            raise BadRequest("you did not play that table in this playtest", 403)
        place = mine[0]
        if not await self._over(table_id):
            raise BadRequest("the questions come once the game is over", 409)
        if place.answered is not None:
            raise BadRequest("this game's questions are already answered", 409)
        try:
            answers = check_answers(spec.questions, fields.get("answers"))
        except BadAnswers as err:
            raise BadRequest(str(err)) from None
        try:
            self.store.answer(place, answers)
        except StoreError as err:
            log.error("playtest %s: answers not saved: %s", playtest_id, err)
            raise BadRequest("the server could not save your answers; try again", 503) from None
        return {"answered": True}
