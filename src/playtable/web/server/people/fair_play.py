"""Who actually played a game, and from which network (docs/web.md "Ratings that cannot be
farmed", "Playtest slots"): what the ratings and the playtests read before they count a game.

A seat's own move is one its person played (a stored action at that seat with no stand-in bot
named: `TableRow.stand_ins`); the stand-in's moves are the clock's (clocks.py). A network is
what one household or one stranger's machine holds: an IPv4 address, or an IPv6 /64 (one
subscriber's prefix, inside which a stranger may pick any address); it is kept only as a short
hash, so the database never holds an address.
"""

from __future__ import annotations

import functools
import hashlib
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from playtable.web.server.store.store import TableRow
from playtable.web.server.transport.networks import network_of


@functools.lru_cache(maxsize=4096)
def network_hash(address: str) -> str:
    """The network of `address` as stored: 16 hex digits of its SHA-256. Asked at every move a
    person plays (`Ratings.played_from`) with the few networks of the tables in play: kept for
    the 4,096 latest, it is worked out once per network, not per move."""
    return hashlib.sha256(network_of(address).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Moves:
    """A seat's moves in a table's record: its person's own, and the stand-in bot's."""

    own: int = 0
    stand_in: int = 0


def moves_by_seat(row: TableRow) -> dict[int, Moves]:
    """Each seat's own and stand-in moves in the record (seats that never moved are absent)."""
    own: Counter[int] = Counter()
    stood: Counter[int] = Counter()
    for step, (seat, _) in enumerate(row.actions, start=1):
        if seat is None:
            continue
        (stood if step in row.stand_ins else own)[seat] += 1
    return {seat: Moves(own[seat], stood[seat]) for seat in set(own) | set(stood)}


def played_themselves(moves: Moves) -> bool:
    """Whether a person played a game (or their part of it) themselves: at least one move of
    their own, and no more moves by the stand-in than by them. A forfeit before one's first
    move, or a clock left to run out so the stand-in plays the game, is not one's game."""
    return moves.own >= 1 and moves.stand_in <= moves.own


MIN_OWN_MOVES = 3
MIN_SECONDS = 30.0
"""A playtest game whose tester made fewer moves of their own, or that was over sooner, is
marked suspect in the export (docs/web.md "Playtest slots"): not a try a designer should count
unseen (a troll's game played out in 0.4 s with the first legal move every time)."""


def suspect(row: TableRow, people_seats: list[int]) -> str | None:
    """Why a finished playtest game may not be a real try, or None."""
    moves = moves_by_seat(row)
    why = [f"seat {s}: {moves[s].own if s in moves else 0} moves of its own (fewer than {MIN_OWN_MOVES})"
           for s in people_seats if (moves[s].own if s in moves else 0) < MIN_OWN_MOVES]
    if row.ended is not None:
        seconds = (datetime.fromisoformat(row.ended) - datetime.fromisoformat(row.created)).total_seconds()
        if seconds < MIN_SECONDS:
            why.append(f"over in {seconds:.1f} s (less than {MIN_SECONDS:.0f} s)")
    return "; ".join(why) or None
