"""Bots' turns at the tables: a bot seat's move, or a stand-in's for a person whose clock ran
out, asked of the bots' workers (`bots.Workers`). A bot that fails is tried again, then replaced
for that move by the game's stand-in and then by a random legal move, and the table is told:
no table waits for ever on a bot."""

from __future__ import annotations

import logging

from playtable.agents import make_agent
from playtable.core.chance import Chance
from playtable.core.errors import PlaytableError
from playtable.web.server.bots.bot_queue import person_waiting
from playtable.web.server.bots.bots import JobFailed, JobTimedOut, bot_seed
from playtable.web.server.tables.room import Room
from playtable.web.server.tables.seating import stand_in_agent
from playtable.web.server.tables.tables import Table

log = logging.getLogger("playtable.web")


class BotTurns:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.last_failure: dict[str, Exception] = {}

    def schedule(self, table: Table) -> None:
        seat = table.bot_to_move()
        if seat is None or table.bot_busy:
            return
        table.bot_busy = True
        self.room.spawn(self.turn(table, seat))

    async def turn(self, table: Table, seat: int, stand_in: str | None = None) -> None:
        """A bot seat's move, or (`stand_in`: the agent) a move of a person whose clock ran out.

        A bot that fails (raises, runs past its time, its worker dies, or it chooses an illegal
        action) is tried once more, then the game's stand-in bot plays that move, then a random
        legal move chosen here; the table is told each time, so it never waits silently."""
        step = table.step
        spec = stand_in or table.row.seats[seat].agent or "random"
        seed = bot_seed(table.row.seed, step)
        fallback = stand_in_agent(table.game)
        tries = [spec, spec] + ([fallback] if fallback != spec else [])
        played = False
        try:
            for attempt, agent in enumerate(tries):
                if table.step != step or table.is_over:
                    break
                if attempt == 1 and isinstance(self.last_failure.get(table.id), JobTimedOut):
                    continue  # a bot out of time would only run out of time again
                text = await self.ask(table, agent, seed + attempt)
                if text is None or table.step != step or table.is_over:
                    continue
                if table.state.current_player != seat:
                    break
                table.bot_busy = False  # so the move's own after_change may start the next bot
                if self.room.act(table, seat, text, bot=agent):
                    played = True
                    if agent != spec:
                        self.room.notice(table, f"The {spec} bot of {table.label(seat)} failed; "
                                                f"the {agent} bot played this move instead.")
                    break
                table.bot_busy = True
                log.error("bot %s on table %s chose an illegal action %r", agent, table.id, text)
            if not played and table.step == step and not table.is_over \
                    and table.state.current_player == seat:
                played = self.random_move(table, seat, spec, seed)
        finally:
            self.last_failure.pop(table.id, None)
            if not played:
                table.bot_busy = False
        if not played:  # the move's own after_change (or its stream's end) starts the next bot
            self.schedule(table)

    async def ask(self, table: Table, agent: str, seed: int) -> str | None:
        try:
            return await self.room.workers.bot_move(table.row.game, agent, table.state.to_json(), seed,
                                                    table.network, table.id, lambda: person_waiting(table))
        except JobFailed as err:
            self.last_failure[table.id] = err
            log.error("bot %s on table %s failed: %s", agent, table.id, err)
        except PlaytableError as err:  # the position could not be sent (a game's bug)
            log.error("bot %s on table %s: the position cannot be saved: %s", agent, table.id, err)
        return None

    def random_move(self, table: Table, seat: int, spec: str, seed: int) -> bool:
        """The last resort: a random legal move, chosen here (cheap: no search); whether it
        was played."""
        room = self.room
        try:
            text = str(make_agent(table.game, "random").choose(table.state.clone(), Chance(seed)))
        except PlaytableError as err:
            log.error("table %s: not even a random move could be chosen: %s", table.id, err)
            room.notice(table, f"The {spec} bot of {table.label(seat)} cannot move; the "
                               "table has been ended.")
            table.abandoned = True
            table.broadcast_state([])
            room.mark_ended(table)
            return False
        table.bot_busy = False
        if room.act(table, seat, text, bot="random"):
            room.notice(table, f"The {spec} bot of {table.label(seat)} failed; a random "
                               "legal move was played instead.")
            return True
        table.bot_busy = True
        return False
